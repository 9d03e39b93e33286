/**
 * Recall's filters as one predicate over a memory's metadata: scope, types, source, time range,
 * tags (any/all, exact/prefix, excluded) and validity. Built once per recall, then called for
 * every candidate, so it precomputes sets and lower-cased tags up front.
 */
import { MemoryError } from '../../core/errors';
import { dateMs } from '../../core/time';
import type { RecallInput } from '../../core/schemas';
import type { DocMeta } from './types';

/** A compiled filter; `valid` is split out because current_only redirects rather than drops. */
export interface CompiledFilter {
	/** Every filter except validity. */
	base: (m: DocMeta) => boolean;
	/** True when the memory is current at `now` (t_invalid unset or in the future). */
	valid: (m: DocMeta) => boolean;
	/** True when `base` can reject anything (otherwise scans skip calling it). */
	active: boolean;
}

/** Epoch ms of an ISO date field, or a MemoryError naming the field. */
function parseTime(field: string, v: string | undefined): number | undefined {
	if (v === undefined) return undefined;
	const t = dateMs(v);
	if (!Number.isFinite(t)) throw new MemoryError('invalid_input', `${field}: must be an ISO 8601 date, got "${v}"`);
	return t;
}

/** Tag matcher for one mode: exact (case-insensitive) or prefix (a tag starting with the given). */
function tagMatcher(wanted: string[], prefix: boolean): (tag: string) => number {
	const w = wanted.map((t) => t.toLowerCase());
	return prefix ? (tag) => w.findIndex((x) => tag.startsWith(x)) : (tag) => w.indexOf(tag);
}

/** Whether `have` holds any (or all) of `want`, compared exactly: delete_memory's tags, unlike recall's filter. */
export function carriesTags(have: readonly string[], want: readonly string[], mode: 'any' | 'all'): boolean {
	return mode === 'all' ? want.every((t) => have.includes(t)) : want.some((t) => have.includes(t));
}

/** The tags part: any/all of `tags`, none of `exclude_tags`. */
function tagFilter(input: RecallInput): ((m: DocMeta) => boolean) | null {
	const want = input.tags ?? [];
	const excl = input.exclude_tags ?? [];
	if (want.length === 0 && excl.length === 0) return null;
	const prefix = input.tag_match === 'prefix';
	const all = input.tag_mode === 'all';
	const match = tagMatcher(want, prefix);
	const exclMatch = tagMatcher(excl, prefix);
	return (m) => {
		const tags = m.tags.map((t) => t.toLowerCase());
		if (excl.length > 0 && tags.some((t) => exclMatch(t) >= 0)) return false;
		if (want.length === 0) return true;
		if (!all) return tags.some((t) => match(t) >= 0);
		const seen = new Set<number>();
		for (const t of tags) {
			const i = match(t);
			if (i >= 0) seen.add(i);
		}
		return seen.size === want.length;
	};
}

/**
 * Compiles the filters of `input`. `window` is the resolved time range (start/end, or what a
 * time_query resolved to), in epoch ms, end exclusive.
 */
export function compileFilter(input: RecallInput, now: number, window: { start?: number; end?: number } = {}): CompiledFilter {
	const start = window.start ?? parseTime('start', input.start);
	const end = window.end ?? parseTime('end', input.end);
	const types = input.types && input.types.length > 0 ? new Set<string>(input.types) : null;
	const tags = tagFilter(input);
	const { scope, source } = input;
	const parts: ((m: DocMeta) => boolean)[] = [];
	if (scope !== undefined) parts.push((m) => m.scope === scope);
	if (source !== undefined) parts.push((m) => m.source === source);
	if (types) parts.push((m) => types.has(m.type));
	if (start !== undefined) parts.push((m) => m.timestamp >= start);
	if (end !== undefined) parts.push((m) => m.timestamp < end);
	if (tags) parts.push(tags);
	const base = parts.length === 0 ? () => true : (m: DocMeta) => parts.every((p) => p(m));
	const valid = (m: DocMeta) => m.t_invalid === undefined || m.t_invalid > now;
	return { base, valid, active: parts.length > 0 };
}

/** Arguments several memory-mcp tools share, and the label edit the three label tools make. */
import { z } from 'zod';
import { isMemoryError, MemoryError } from '../../../core/errors';
import type { EngineApi } from '../../../engine/types';
import { normalizeLabels } from './filters';

/** A memory's integer id (Engram's seq), as memory-mcp names memories. */
/** Typed as a number, not read from a digit string: "7" may be another face's string id (ids-are-ids). */
export const IdSchema = z.number().int().positive().describe('The integer ID of the memory');
/** A fuzzy label filter: comma-separated, `!` excludes. */
export const LabelsArg = z.string().max(2000).describe('Comma-separated labels, fuzzy; prefix ! to exclude, e.g. "beer, !wine"');
/** A fuzzy source filter, `!` excludes. */
export const SourceArg = z.string().max(200).describe('Source filter, fuzzy; prefix ! to exclude, e.g. "!clawdbot"');

/** What the three label tools return. */
export const LabelResultSchema = z.object({
	success: z.boolean(),
	message: z.string(),
	labels: z.array(z.string()),
});
/** Labels to add, remove or put in place: comma-separated or a JSON array. */
export const LabelsInput = z.string().min(1).max(2000).describe('Labels: comma-separated or a JSON array');

/**
 * A label edit as one engine update (tags_add / tags_remove run on the tags the memory has inside
 * the update's transaction, so concurrent edits all land); returns the memory's labels after it
 * and whether it changed them. With `replace`, the edit is a replacement (UpdateExtra.replaceTags).
 */
export async function relabel(
	engine: EngineApi,
	seq: number,
	edit: { tags_add?: string[]; tags_remove?: string[] },
	actor?: string,
	names: Record<string, string> = { tags_add: 'labels', tags_remove: 'labels' },
	replace = false,
): Promise<{ labels: string[]; changed: boolean }> {
	const gone = () => new MemoryError('not_found', `memory_id: ❌ Memory #${seq} not found`);
	const id = await engine.resolveId(seq);
	if (!id) throw gone();
	// The same label twice is one label (removal matches case-insensitively).
	const add = edit.tags_add && [...new Set(edit.tags_add)];
	const remove = edit.tags_remove && [...new Map(edit.tags_remove.map((l) => [l.toLowerCase(), l])).values()];
	try {
		const extra = replace ? { replaceTags: names.tags_remove } : undefined;
		const out = await engine.update({ memory_id: id, tags_add: add, tags_remove: remove }, { actor }, extra);
		return { labels: out.tags ?? [], changed: out.changed.length > 0 };
	} catch (e) {
		// Deleted between the id lookup and the update (a replacement's missing labels name their argument).
		if (isMemoryError(e) && e.code === 'not_found' && !(replace && (e.data as { field?: string } | undefined)?.field)) throw gone();
		throw asLabelError(e, names);
	}
}

/**
 * `e` with the engine's field name (tags, tags_add, tags_remove) replaced by the argument the
 * agent gave (labels, target, new): "tags: must have at most 64 items" named a field memory-mcp
 * has not got. Anything else is returned as is.
 */
export function asLabelError(e: unknown, names: Record<string, string>): unknown {
	if (!isMemoryError(e) || e.code !== 'invalid_input') return e;
	// The limit on an edit's result is reported on `tags`, naming tags_add: both are the agent's labels.
	const over = /^tags: must have at most (\d+) items \(tags_add would give the memory (\d+)\)$/.exec(e.message);
	if (over && names.tags_add)
		return new MemoryError(
			'invalid_input',
			`${names.tags_add}: a memory has at most ${over[1]} labels, and these would give it ${over[2]}; nothing was changed`,
			e.data,
		);
	const m = /^(tags(?:_add|_remove)?)((?:\[\d+\])?: [\s\S]*)$/.exec(e.message);
	const to = m && names[m[1]];
	return to ? new MemoryError('invalid_input', `${to}${m[2]}`, e.data) : e;
}

/** The labels of `v`; an invalid_input error naming `field` when there are none. */
export function requireLabels(v: string, field: string): string[] {
	const labels = normalizeLabels(v);
	if (labels.length === 0) throw new MemoryError('invalid_input', `${field}: ❌ No valid labels provided`);
	return labels;
}

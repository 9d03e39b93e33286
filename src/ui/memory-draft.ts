/**
 * The editable form of a memory and its conversion to engine inputs, validated with the same
 * zod schemas the engine and the MCP tools use; errors are keyed by field and name the rule.
 */
import { StoreInputSchema, UpdateInputSchema, type EntityRef, type Memory, type MemoryType, type StoreInput, type UpdateInput } from '../core/schemas';
import { fromLocalInput, toLocalInput } from './format';
import { issueWords } from './words';

/** A memory as the form holds it: strings for dates and metadata, numbers for sliders. */
export interface MemoryDraft {
	content: string;
	summary: string;
	type: MemoryType;
	tags: string[];
	importance: number;
	confidence: number;
	scope: string;
	source: string;
	timestamp: string;
	tValid: string;
	tInvalid: string;
	metadata: string;
	entities: EntityRef[];
}

/** Field name → message (the message names the rule; the form puts it under the field). */
export type DraftErrors = Partial<Record<keyof MemoryDraft | 'form', string>>;

/** A blank draft with the engine's defaults. */
export function emptyDraft(): MemoryDraft {
	return {
		content: '',
		summary: '',
		type: 'Context',
		tags: [],
		importance: 0.5,
		confidence: 1,
		scope: 'default',
		source: 'app',
		timestamp: '',
		tValid: '',
		tInvalid: '',
		metadata: '{}',
		entities: [],
	};
}

/** The draft of an existing memory. */
export function draftFromMemory(m: Memory): MemoryDraft {
	return {
		content: m.content,
		summary: m.summary ?? '',
		type: m.type,
		tags: [...m.tags],
		importance: m.importance,
		confidence: m.confidence,
		scope: m.scope,
		source: m.source ?? '',
		timestamp: toLocalInput(m.timestamp),
		tValid: toLocalInput(m.t_valid),
		tInvalid: toLocalInput(m.t_invalid),
		metadata: JSON.stringify(m.metadata, null, 2),
		entities: m.entities.map((e) => ({ ...e })),
	};
}

const FIELD_OF: Record<string, keyof MemoryDraft> = {
	t_valid: 'tValid',
	t_invalid: 'tInvalid',
};

function parseMetadata(text: string): { value?: Record<string, unknown>; error?: string } {
	if (!text.trim()) return { value: {} };
	try {
		const v = JSON.parse(text) as unknown;
		if (typeof v !== 'object' || v === null || Array.isArray(v)) return { error: 'metadata: must be a JSON object, e.g. {"project": "x"}' };
		return { value: v as Record<string, unknown> };
	} catch (e) {
		return { error: `metadata: not valid JSON (${(e as Error).message})` };
	}
}

function zodErrors(issues: { path: PropertyKey[]; message: string }[]): DraftErrors {
	const errors: DraftErrors = {};
	for (const issue of issues) {
		const key = String(issue.path[0] ?? 'form');
		const field = (FIELD_OF[key] ?? key) as keyof DraftErrors;
		errors[field] ??= issueWords(issue);
	}
	return errors;
}

function cleanEntities(entities: EntityRef[]): EntityRef[] {
	return entities.map((e) => ({ name: e.name.trim(), type: e.type.trim() || 'concept' })).filter((e) => e.name);
}

/** The store_memory input for a new memory, or the errors that stop it. */
export function draftToStore(d: MemoryDraft, force = false): { input?: StoreInput; errors: DraftErrors } {
	const meta = parseMetadata(d.metadata);
	if (meta.error) return { errors: { metadata: meta.error } };
	const input: Record<string, unknown> = {
		content: d.content,
		type: d.type,
		tags: d.tags,
		importance: d.importance,
		confidence: d.confidence,
		scope: d.scope.trim() || 'default',
		metadata: meta.value,
	};
	if (d.summary.trim()) input.summary = d.summary.trim();
	if (d.source.trim()) input.source = d.source.trim();
	if (d.timestamp) input.timestamp = fromLocalInput(d.timestamp);
	if (d.tValid) input.t_valid = fromLocalInput(d.tValid);
	if (d.tInvalid) input.t_invalid = fromLocalInput(d.tInvalid);
	const entities = cleanEntities(d.entities);
	if (entities.length) input.entities = entities;
	if (force) input.force = true;
	const parsed = StoreInputSchema.safeParse(input);
	return parsed.success ? { input: parsed.data, errors: {} } : { errors: zodErrors(parsed.error.issues) };
}

function sameJson(a: unknown, b: unknown): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Edited content with the line ends of `old` when every one of them was CRLF: a textarea hands
 * back LF only, and fixing one word must not rewrite every other line's ending.
 */
function withLineEnds(text: string, old: string): string {
	if (text === old || !old.includes('\r\n') || /\r(?!\n)|(?<!\r)\n/.test(old) || text.includes('\r')) return text;
	return text.replace(/\n/g, '\r\n');
}

/**
 * The update_memory input holding only what changed, or the errors that stop it. Metadata keys
 * the person removed are sent as null (the engine merges metadata; null deletes a key).
 */
export function draftToUpdate(d: MemoryDraft, m: Memory): { input?: UpdateInput; errors: DraftErrors; changed: number } {
	const meta = parseMetadata(d.metadata);
	if (meta.error) return { errors: { metadata: meta.error }, changed: 0 };
	const input: Record<string, unknown> = { memory_id: m.id };
	const set = (key: string, next: unknown, prev: unknown) => {
		if (!sameJson(next, prev)) input[key] = next;
	};
	// A text field is cleaned (trimmed) only when the person changed it: saving a tag must not
	// trim a summary or entity name an agent stored with spaces, or move the memory to the scope
	// its name has without them.
	const edited = (key: string, next: unknown, prev: unknown, clean: unknown) => {
		if (!sameJson(next, prev)) set(key, clean, prev);
	};
	set('content', withLineEnds(d.content, m.content), m.content);
	edited('summary', d.summary, m.summary ?? '', d.summary.trim());
	set('type', d.type, m.type);
	set('tags', d.tags, m.tags);
	set('importance', d.importance, m.importance);
	set('confidence', d.confidence, m.confidence);
	edited('scope', d.scope, m.scope, d.scope.trim() || 'default');
	edited('source', d.source, m.source ?? '', d.source.trim());
	edited('entities', d.entities, m.entities, cleanEntities(d.entities));
	if (d.timestamp !== toLocalInput(m.timestamp) && d.timestamp) input.timestamp = fromLocalInput(d.timestamp);
	if (d.tValid !== toLocalInput(m.t_valid)) input.t_valid = d.tValid ? fromLocalInput(d.tValid) : null;
	if (d.tInvalid !== toLocalInput(m.t_invalid)) input.t_invalid = d.tInvalid ? fromLocalInput(d.tInvalid) : null;
	const next = meta.value ?? {};
	const patch: Record<string, unknown> = {};
	for (const [k, v] of Object.entries(next)) if (!sameJson(v, m.metadata[k])) patch[k] = v;
	for (const k of Object.keys(m.metadata)) if (!(k in next)) patch[k] = null;
	if (Object.keys(patch).length) input.metadata = patch;
	const changed = Object.keys(input).length - 1;
	const parsed = UpdateInputSchema.safeParse(input);
	return parsed.success ? { input: parsed.data, errors: {}, changed } : { errors: zodErrors(parsed.error.issues), changed };
}

/**
 * The values `m` held for each field an update changes (the whole metadata for a metadata patch):
 * passed with the update, so a field someone else changed since `m` was read is a conflict
 * instead of being overwritten (engine/update-ops.ts UpdateBase).
 */
export function baseOf(input: UpdateInput, m: Memory): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	for (const k of Object.keys(input)) if (k !== 'memory_id' && k in BASE_FIELDS) out[k] = m[k as keyof Memory];
	return out;
}
const BASE_FIELDS = {
	content: 1,
	summary: 1,
	tags: 1,
	type: 1,
	importance: 1,
	confidence: 1,
	metadata: 1,
	entities: 1,
	source: 1,
	scope: 1,
	timestamp: 1,
	t_valid: 1,
	t_invalid: 1,
};

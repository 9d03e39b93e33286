/**
 * Fields derived from a memory's public data for indexing: the session key, the
 * duplicate-detection key, the ids of the entities it mentions and the models it is indexed under. Pure; used by the engine on
 * write, by the store on every memory write and by schema upgrades.
 */
import type { EntityRef } from '../core/schemas';
import { entityId, trimEnd } from '../core/entities';
import type { MemoryRow } from './rows';
import { EMBEDDED_MODEL_ID } from './names';

/** Metadata keys that name a conversation/session, in order of preference. */
export const SESSION_KEYS = ['session_id', 'conversation_id', 'session'] as const;

/** The session a memory belongs to (from its metadata), or undefined. */
export function sessionOf(metadata: Record<string, unknown> | undefined): string | undefined {
	if (!metadata) return undefined;
	for (const key of SESSION_KEYS) {
		const v = metadata[key];
		if ((typeof v === 'string' && v.trim() !== '') || typeof v === 'number') return String(v);
	}
	return undefined;
}

/**
 * Normalises content for exact-duplicate detection: case, Unicode form, whitespace and
 * surrounding punctuation are ignored, so "Use tabs." and "use  tabs" are the same memory.
 */
export function normaliseContent(content: string): string {
	const s = content
		.normalize('NFKC')
		.toLowerCase()
		.replace(/\s+/g, ' ')
		.replace(/^[\s\p{P}]+/u, '');
	// Not `[\s\p{P}]+$`: quadratic on a long run of punctuation before the end (trimEnd).
	return trimEnd(s, /[\s\p{P}]/u);
}

/**
 * A 64-bit FNV-1a hash (hex) of the normalised content. Collisions are harmless: the engine
 * compares the normalised texts before calling two memories duplicates.
 */
export function contentKey(content: string): string {
	return keyOfNormalised(normaliseContent(content));
}

/** contentKey of content already through normaliseContent. */
export function keyOfNormalised(s: string): string {
	// Two 32-bit FNV-1a lanes with different offsets: cheap, stable, and wide enough for an index key.
	let h1 = 0x811c9dc5;
	let h2 = 0x01000193 ^ 0x9e3779b9;
	for (let i = 0; i < s.length; i++) {
		const c = s.charCodeAt(i);
		h1 = Math.imul(h1 ^ c, 0x01000193);
		h2 = Math.imul(h2 ^ c, 0x01000193) ^ (h1 >>> 15);
	}
	return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}

/** The first 32 bits of a content key, as a number (the search index's exact-duplicate key). */
export function contentHash(key: string): number {
	return parseInt(key.slice(0, 8), 16) >>> 0;
}

/** The distinct entity ids a memory mentions (the search index's entity postings; schema v5–v10 indexed them as `entity_ids`). */
export function entityIdsOf(entities: readonly EntityRef[] | undefined): string[] {
	return [...new Set((entities ?? []).map(entityId))];
}

/**
 * The `other_models` key of a row holding no vector of the embedded model. It sorts before any
 * model id (no model id starts with U+0000), and no model is called so.
 */
export const NO_EMBEDDED_VECTOR = '\u0000no embedded vector';

/**
 * A row's `other_models`: the models of `vectors` other than the embedded one, plus
 * NO_EMBEDDED_VECTOR when the embedded one is missing; undefined when that leaves nothing (the
 * row then has no entry in the index).
 */
export function otherModelsOf(vectors: MemoryRow['vectors']): string[] | undefined {
	let out: string[] | undefined;
	let embedded = false;
	for (const model in vectors) {
		if (model === EMBEDDED_MODEL_ID) embedded = true;
		else (out ??= []).push(model);
	}
	if (!embedded) (out ??= []).push(NO_EMBEDDED_VECTOR);
	return out;
}

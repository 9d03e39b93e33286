/**
 * Conversions between stored rows and what the index, the tools and the UI see.
 */
import type { Memory, MemoryBrief } from '../core/schemas';
import { entityId } from '../core/entities';
import { contentHash, SESSION_KEYS } from '../store/derived';
import type { MemoryRow } from '../store/rows';
import type { DocMeta, DocText } from './search/types';

const ms = (iso: string | undefined) => (iso === undefined ? undefined : Date.parse(iso));

/** The public Memory of a row; `tables` are the models holding a vector for it. */
export function toMemory(row: MemoryRow, tables: string[]): Memory {
	const m: Memory = {
		id: row.id,
		seq: row.seq,
		content: row.content,
		type: row.type,
		tags: row.tags,
		scope: row.scope,
		importance: row.importance,
		confidence: row.confidence,
		metadata: row.metadata,
		entities: row.entities,
		timestamp: row.timestamp,
		updated_at: row.updated_at,
		access_count: row.access_count,
		embedding_tables: tables,
	};
	if (row.summary !== undefined) m.summary = row.summary;
	if (row.source !== undefined) m.source = row.source;
	if (row.last_accessed !== undefined) m.last_accessed = row.last_accessed;
	if (row.t_valid !== undefined) m.t_valid = row.t_valid;
	if (row.t_invalid !== undefined) m.t_invalid = row.t_invalid;
	return m;
}

/** What the search index keeps of a row. */
export function toDocMeta(row: MemoryRow): DocMeta {
	return {
		id: row.id,
		seq: row.seq,
		scope: row.scope,
		type: row.type,
		tags: row.tags,
		source: row.source,
		session: row.session,
		// Only caller-dated memories (timestamp ≠ write time) imply a session: a batch of notes
		// stored without dates shares the write time and is not a conversation.
		group: row.session === undefined && row.timestamp !== row.updated_at ? `${row.scope}\u0000${row.timestamp}` : undefined,
		timestamp: Date.parse(row.timestamp),
		updated_at: Date.parse(row.updated_at),
		t_valid: ms(row.t_valid),
		t_invalid: ms(row.t_invalid),
		importance: row.importance,
		confidence: row.confidence,
		access_count: row.access_count,
		last_accessed: ms(row.last_accessed),
		entities: [...new Set(row.entities.map(entityId))],
		content_hash: contentHash(row.content_key),
	};
}

/** The text the lexical index sees of a row. */
export function toDocText(row: MemoryRow): DocText {
	const text: DocText = {
		content: row.content,
		summary: row.summary,
		entityNames: row.entities.map((e) => e.name),
		metadata: metadataText(row.metadata, row.content),
	};
	if (row.context !== undefined) text.context = row.context;
	return text;
}

/** Words of the previous turn kept as a turn's context: its end, where a question usually is. */
export const CONTEXT_WORDS = 25;

/** A speaker label opening a transcript line: one to three capitalised words and a colon. */
const SPEAKER_LABEL = /^\p{Lu}[\p{L}\p{M}'’.-]*(?: \p{Lu}[\p{L}\p{M}'’.-]*){0,2}: /u;

/**
 * The context a memory keeps of the one before it, when the two are turns of one conversation:
 * the same session, or (without a session) caller-dated with the same timestamp, as toDocMeta
 * groups them. The previous turn's last CONTEXT_WORDS words, without its speaker label (a name
 * that says who spoke before would pull every turn towards the other person's name).
 */
export function turnContext(
	row: Pick<MemoryRow, 'session' | 'timestamp' | 'updated_at'>,
	prev: { content: string; timestamp: string; session?: string } | undefined,
): string | undefined {
	if (!prev) return undefined;
	const sameTurns = row.session !== undefined ? prev.session === row.session : row.timestamp !== row.updated_at && prev.timestamp === row.timestamp;
	if (!sameTurns) return undefined;
	const words = prev.content.replace(SPEAKER_LABEL, '').split(/\s+/).filter(Boolean);
	return words.length ? words.slice(-CONTEXT_WORDS).join(' ') : undefined;
}

/** Longest metadata value that is indexed: labels and names, not stored documents. */
const MAX_METADATA_VALUE = 200;

/**
 * The words of a memory's metadata worth finding it by: top-level string values (a speaker, a
 * channel, a source file), except identifiers (keys `id`, `*_id`, `*Id`, and the session keys,
 * whose values are opaque), long values, and values the content already says (counting a
 * speaker twice would outweigh what was said). A harness that keeps the speaker in metadata
 * instead of the content still has the memory found by the person's name.
 */
export function metadataText(metadata: Record<string, unknown> | undefined, content: string): string {
	if (!metadata) return '';
	const said = content.toLowerCase();
	const words: string[] = [];
	for (const [key, value] of Object.entries(metadata)) {
		if (typeof value !== 'string' || value.length > MAX_METADATA_VALUE) continue;
		if (/^id$|_id$|[a-z]Id$/.test(key) || (SESSION_KEYS as readonly string[]).includes(key)) continue;
		if (said.includes(value.toLowerCase())) continue;
		words.push(value);
	}
	return words.join(' ');
}

/** `text` cut to `max` characters (at a word boundary when one is near), and whether it was cut. */
export function truncate(text: string, max: number): { text: string; truncated: boolean } {
	if (text.length <= max) return { text, truncated: false };
	const cut = text.slice(0, max);
	const space = cut.lastIndexOf(' ');
	const end = space > max * 0.8 ? space : max;
	return { text: `${cut.slice(0, end).trimEnd()}…`, truncated: true };
}

/** A compact memory for lists, content truncated to `maxChars`. */
export function toBrief(row: MemoryRow, maxChars: number): MemoryBrief {
	const b: MemoryBrief = {
		id: row.id,
		seq: row.seq,
		content: truncate(row.content, maxChars).text,
		type: row.type,
		tags: row.tags,
		scope: row.scope,
		importance: row.importance,
		timestamp: row.timestamp,
	};
	if (row.summary !== undefined) b.summary = row.summary;
	if (row.source !== undefined) b.source = row.source;
	if (row.t_invalid !== undefined) b.t_invalid = row.t_invalid;
	return b;
}

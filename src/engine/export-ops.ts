/**
 * export_memories: a page of memories (by seq) with their outgoing associations, entities and,
 * optionally, vectors of every model, as one JSON document, JSONL (one record per line with a
 * `kind`), or human-readable Markdown. JSON and JSONL round-trip losslessly through import.
 */
import { AssociationFieldsShape, ExportInputSchema, type ExportInput, type ExportOutput } from '../core/schemas';
import type { EngramDB } from '../store/db';
import type { EntityRow, MemoryRow } from '../store/rows';
import type { EngineContext } from './context';
import { renderMarkdown } from './markdown-format';
import { toEntity } from './reads';
import { parseInput } from './validate';
import { vectorRowsOf } from '../store/vectors';
import type { ExportBundle, ExportedMemory } from './export-bundle';
import { entityIdsOf } from '../store/derived';
import { linksOut, linksTouching } from '../store/associations';

export type { ExportBundle, ExportedMemory, ExportedVector } from './export-bundle';

/** Version of the export format; import accepts this and earlier. */
export const EXPORT_VERSION = 1;

/** Exports a page; see the module comment. */
export async function exportMemories(ctx: EngineContext, input: ExportInput): Promise<ExportOutput> {
	const p = parseInput(ExportInputSchema, input);
	// One read transaction: a consistent page, and one transaction instead of hundreds.
	const { rows, hasMore, bundle } = await ctx.db.read(async () => {
		const page = await selectPage(ctx.db, p);
		return { ...page, bundle: await collect(ctx, page.rows, page.selected, p.include_vectors === true) };
	});
	const format = p.format ?? 'json';
	const exportedAt = new Date(ctx.now()).toISOString();
	const data =
		format === 'markdown' ? renderMarkdown(bundle, exportedAt) : format === 'jsonl' ? renderJsonl(bundle, exportedAt) : renderJson(bundle, exportedAt);
	const offset = p.offset ?? 0;
	return {
		format,
		data,
		memory_count: rows.length,
		association_count: bundle.associations.length,
		entity_count: bundle.entities.length,
		has_more: hasMore,
		...(hasMore && { next_offset: offset + rows.length, next_after_seq: rows[rows.length - 1].seq }),
	};
}

/**
 * The memories `ids` (in seq order; unknown ids left out) as an Engram JSON export with every
 * vector, their entities and every link touching them, in and out: what import needs to put them
 * back exactly after a delete (the app's Undo). The public reads would lose what they do not
 * show: vectors of other models, entities found rather than given, a turn's context.
 */
export async function exportByIds(ctx: EngineContext, ids: string[]): Promise<string> {
	const bundle = await ctx.db.read(async () => {
		const rows = (await ctx.db.memories.bulkGet(ids)).filter((r): r is MemoryRow => r !== undefined).sort((a, b) => a.seq - b.seq);
		const found = rows.map((r) => r.id);
		const b = await collect(ctx, rows, undefined, true);
		b.associations = (await linksTouching(ctx.db, found, ctx.index.linkedFrom(found), rows)).map((a) => inOrder(a, LINK_KEYS));
		return b;
	});
	return renderJson(bundle, new Date(ctx.now()).toISOString());
}

/** The page of memories in seq order, and the ids of the whole selection (for association ends). */
async function selectPage(db: EngramDB, p: ExportInput): Promise<{ rows: MemoryRow[]; hasMore: boolean; selected?: Set<string> }> {
	const filtered = p.scope !== undefined || (p.tags?.length ?? 0) > 0;
	const match = (m: MemoryRow) => (p.scope === undefined || m.scope === p.scope) && (!p.tags?.length || p.tags.some((t) => m.tags.includes(t)));
	// after_seq: a cursor, so a memory deleted (or stored) between two pages does not shift the
	// next page's start past a memory nobody exported (offset did: a backup silently lacked it).
	const base = p.after_seq === undefined ? db.memories.orderBy('seq') : db.memories.where('seq').above(p.after_seq);
	const coll = filtered ? base.filter(match) : base;
	const limit = p.limit ?? 100_000;
	// IDBCursor.advance takes an unsigned long: a larger offset (the schema allows any safe
	// integer) threw a TypeError from the browser; no store holds 2^32 memories, so clamp.
	const page = await coll
		.offset(Math.min(p.offset ?? 0, 2 ** 32 - 1))
		.limit(limit + 1)
		.toArray();
	const selected = filtered ? new Set((await db.memories.orderBy('seq').filter(match).primaryKeys()) as string[]) : undefined;
	return { rows: page.slice(0, limit), hasMore: page.length > limit, selected };
}

/** Associations leaving the page (into the selection), entities and vectors of the page. */
async function collect(ctx: EngineContext, rows: MemoryRow[], selected: Set<string> | undefined, vectors: boolean): Promise<ExportBundle> {
	const db = ctx.db;
	const links = rows.flatMap(linksOut);
	const entityIds = [...new Set(rows.flatMap((r) => entityIdsOf(r.entities)))];
	const entities = (await db.entities.bulkGet(entityIds)).filter((e): e is EntityRow => e !== undefined);
	const bundle: ExportBundle = {
		memories: rows.map(exportedMemory),
		associations: links.filter((a) => !selected || selected.has(a.to)).map((a) => inOrder(a, LINK_KEYS)),
		entities: entities.sort((a, b) => a.id.localeCompare(b.id)).map((e) => toEntity(ctx.index, e)),
	};
	if (vectors) bundle.vectors = rows.flatMap(vectorRowsOf).map((v) => ({ model: v.model, memory_id: v.memory_id, vector: Array.from(v.data) }));
	return bundle;
}

function exportedMemory(row: MemoryRow): ExportedMemory {
	const { content_key: _k, session: _s, entity_ids: _e, links: _l, link_keys: _lk, vectors: _v, vector_models: _vm, other_models: _om, ...rest } = row;
	return inOrder(rest, MEMORY_KEYS);
}

/** The order fields are written in, whichever write made the row (then any other key, sorted). */
const MEMORY_KEYS = [
	'id',
	'seq',
	'content',
	'summary',
	'type',
	'tags',
	'source',
	'scope',
	'importance',
	'confidence',
	'metadata',
	'entities',
	'entities_given',
	'timestamp',
	'updated_at',
	'last_accessed',
	'access_count',
	't_valid',
	't_invalid',
	'context',
];
const LINK_KEYS = ['from', 'to', 'type', 'strength', ...Object.keys(AssociationFieldsShape), 'created_at', 'updated_at'];

/**
 * `o` with its keys in `order`: rows written by store, update and import list the same fields in
 * different orders, and an export → import → export is then byte for byte the same file.
 */
function inOrder<T extends object>(o: T, order: readonly string[]): T {
	const src = o as Record<string, unknown>;
	const out: Record<string, unknown> = {};
	// The known keys in order, then any other (rare) sorted: linear, no sort for the usual row.
	for (const k of order) if (src[k] !== undefined || Object.hasOwn(src, k)) out[k] = src[k];
	const rest = Object.keys(src).filter((k) => !Object.hasOwn(out, k));
	if (rest.length) for (const k of rest.sort()) out[k] = src[k];
	return out as T;
}

function renderJson(b: ExportBundle, exportedAt: string): string {
	return JSON.stringify({ format: 'engram', version: EXPORT_VERSION, exported_at: exportedAt, ...b }, null, 1);
}

function renderJsonl(b: ExportBundle, exportedAt: string): string {
	const lines = [JSON.stringify({ kind: 'header', format: 'engram', version: EXPORT_VERSION, exported_at: exportedAt })];
	for (const m of b.memories) lines.push(JSON.stringify({ kind: 'memory', ...m }));
	for (const e of b.entities) lines.push(JSON.stringify({ kind: 'entity', ...e }));
	for (const a of b.associations) lines.push(JSON.stringify({ kind: 'association', ...a }));
	for (const v of b.vectors ?? []) lines.push(JSON.stringify({ kind: 'vector', ...v }));
	return lines.join('\n') + '\n';
}

/**
 * store_memory: single or batch (≤ 500). Embeds every text in one call, then in one IndexedDB
 * transaction detects duplicates, writes the memories, their entities, vectors, SIMILAR_TO links
 * (both ways, also between items of the batch), PRECEDED_BY links and supersede marks; after the
 * commit the search index is updated before the call returns, so the next recall finds them.
 */
import { MemoryError } from '../core/errors';
import {
	importanceValue,
	StoreInputSchema,
	toIso,
	type AssociationType,
	type StoreInput,
	type StoreItem,
	type StoreOutput,
} from '../core/schemas';
import { normalize } from '../core/vector';
import { appendActivity } from '../store/activity';
import { contentKey, normaliseContent, sessionOf } from '../store/derived';
import { linkEntities, type EntityKey } from '../store/entities';
import { byContentKey, getByRef, previousInScope } from '../store/memories';
import type { AssociationRow, MemoryRow } from '../store/rows';
import { bumpStamp, reserveSeqs } from '../store/settings';
import { getVector, vectorRow } from '../store/vectors';
import { callerModel, embedTexts, nowIso, type EngineContext } from './context';
import { isNearDuplicate } from './duplicates';
import { entityKeys, resolveEntities } from './entity-keys';
import { applyToIndex, type IndexChange } from './index-sync';
import { parseInput } from './validate';
import { cosine } from '../core/vector';

/** Defaults for fields a caller leaves out (documented in docs/DESIGN.md). */
export const STORE_DEFAULTS = {
	type: 'Context',
	scope: 'default',
	importance: 0.5,
	// Unknown confidence sits below an explicit "sure" (1) and above an explicit doubt.
	confidence: 0.8,
} as const;

/** How many SIMILAR_TO links a new memory gets at most. */
export const MAX_SIMILAR = 5;

/** A memory ready to write: everything computed that needs no transaction. */
interface Draft {
	index: number;
	row: Omit<MemoryRow, 'seq'>;
	norm: string;
	vector: Float32Array | null;
	caller: Float32Array | null;
	keys: EntityKey[];
	item: StoreItem;
}

/** A memory written in this call (or found as its duplicate). */
interface Written {
	draft: Draft;
	row: MemoryRow;
}

/** Stores one memory or a batch; see the module comment for what happens. */
export async function storeMemories(ctx: EngineContext, input: StoreInput, actor = 'agent'): Promise<StoreOutput> {
	const parsed = parseInput(StoreInputSchema, input);
	const items: StoreItem[] = parsed.memories ?? [parsed as StoreItem];
	const path = (i: number, f: string) => (parsed.memories ? `memories[${i}].${f}` : f);
	const now = nowIso(ctx);
	const vectors = await embedTexts(ctx, items.map((i) => i.content));
	const drafts = items.map((item, i) => draftOf(item, i, now, vectors[i], path));
	return ctx.lock.run(async () => {
		const change: IndexChange = { upserts: [], edges: [] };
		const results = await ctx.db.write(async () => {
			const out = await writeDrafts(ctx, drafts, change, path, actor, now);
			change.stamp = await bumpStamp(ctx.db);
			return out;
		});
		applyToIndex(ctx, change);
		ctx.hub.emit({ kind: 'memories', ids: change.upserts.map((u) => u.row.id) });
		return output(results, parsed.memories === undefined);
	});
}

/** Fills defaults and derives keys; nothing here touches the database. */
function draftOf(
	item: StoreItem,
	index: number,
	now: string,
	vector: Float32Array | null,
	path: (i: number, f: string) => string,
): Draft {
	const caller = item.embedding ? normalize(item.embedding) : null;
	if (item.embedding && !caller)
		throw new MemoryError('invalid_input', `${path(index, 'embedding')}: must not be all zeros`);
	const { refs, given } = resolveEntities(item.content, item.entities);
	const metadata = item.metadata ?? {};
	const timestamp = item.timestamp ? toIso(item.timestamp) : now;
	const row: Omit<MemoryRow, 'seq'> = {
		id: item.id ?? crypto.randomUUID(),
		content: item.content,
		type: item.type ?? STORE_DEFAULTS.type,
		tags: [...new Set(item.tags ?? [])],
		scope: item.scope ?? STORE_DEFAULTS.scope,
		importance: item.importance === undefined ? STORE_DEFAULTS.importance : importanceValue(item.importance),
		confidence: item.confidence ?? STORE_DEFAULTS.confidence,
		metadata,
		entities: refs,
		timestamp,
		updated_at: item.updated_at ? toIso(item.updated_at) : now,
		access_count: 0,
		content_key: contentKey(item.content),
		entities_given: given,
	};
	if (item.summary !== undefined) row.summary = item.summary;
	if (item.source !== undefined) row.source = item.source;
	if (item.last_accessed) row.last_accessed = toIso(item.last_accessed);
	if (item.t_valid) row.t_valid = toIso(item.t_valid);
	if (item.t_invalid) row.t_invalid = toIso(item.t_invalid);
	const session = sessionOf(metadata);
	if (session !== undefined) row.session = session;
	return { index, row, norm: normaliseContent(item.content), vector, caller, keys: entityKeys(refs), item };
}

type StoreResult = StoreOutput['results'][number];

/** Writes every draft in order inside the caller's transaction. */
async function writeDrafts(
	ctx: EngineContext,
	drafts: Draft[],
	change: IndexChange,
	path: (i: number, f: string) => string,
	actor: string,
	now: string,
): Promise<StoreResult[]> {
	const batch: Written[] = [];
	const results: StoreResult[] = [];
	for (const d of drafts) {
		if (d.item.id !== undefined && (await ctx.db.memories.get(d.item.id)))
			throw new MemoryError('conflict', `${path(d.index, 'id')}: a memory with id "${d.item.id}" already exists`);
		const superseded = await findSuperseded(ctx, d, path);
		const dup = d.item.force ? undefined : await findDuplicate(ctx, d, batch, superseded?.id);
		if (dup) {
			results.push({ index: d.index, memory_id: dup.row.id, seq: dup.row.seq, status: 'duplicate', duplicate_of: dup.row.id, similarity: round(dup.similarity) });
			continue;
		}
		const row: MemoryRow = { ...d.row, seq: await reserveSeqs(ctx.db, 1) };
		await ctx.db.memories.add(row);
		await writeExtras(ctx, d, row, batch, change);
		if (superseded) await markSuperseded(ctx, superseded, row, d.item, change);
		await appendActivity(ctx.db, [{ at: now, actor, action: 'created', memory_id: row.id }]);
		batch.push({ draft: d, row });
		change.upserts.push({ row, vector: d.vector });
		results.push({ index: d.index, memory_id: row.id, seq: row.seq, status: 'stored', entities: row.entities });
	}
	return results;
}

/** Entities, vectors, SIMILAR_TO and PRECEDED_BY of a freshly added row. */
async function writeExtras(ctx: EngineContext, d: Draft, row: MemoryRow, batch: Written[], change: IndexChange): Promise<void> {
	await linkEntities(ctx.db, row.id, d.keys, row.timestamp);
	if (d.vector) await ctx.db.vectors.put(vectorRow(ctx.embedder.modelId, row.id, d.vector));
	if (d.caller) await ctx.db.vectors.put(vectorRow(callerModel(d.caller.length), row.id, d.caller));
	const links: AssociationRow[] = [];
	for (const n of similarNeighbours(ctx, d, batch)) {
		const strength = round(n.cosine);
		links.push(systemLink(row.id, n.id, 'SIMILAR_TO', strength, row.timestamp));
		links.push(systemLink(n.id, row.id, 'SIMILAR_TO', strength, row.timestamp));
	}
	const prev = await previousInScope(ctx.db, row.scope, row.session, row.seq);
	if (prev) links.push(systemLink(row.id, prev.id, 'PRECEDED_BY', 1, row.timestamp));
	await ctx.db.associations.bulkPut(links);
	change.edges.push(...links);
}

/** An association Engram creates itself. */
function systemLink(from: string, to: string, type: AssociationType, strength: number, at: string): AssociationRow {
	return { from, to, type, strength, created_at: at };
}

/** Up to MAX_SIMILAR nearest memories in the same scope (stored ones and earlier batch items). */
function similarNeighbours(ctx: EngineContext, d: Draft, batch: Written[]): { id: string; cosine: number }[] {
	if (!d.vector) return [];
	const min = ctx.thresholds.similar;
	const found = ctx.index
		.nearest(d.vector, MAX_SIMILAR, { scope: d.row.scope, exclude: [d.row.id] })
		.filter((n) => n.cosine >= min);
	for (const w of batch) {
		if (w.row.scope !== d.row.scope || !w.draft.vector) continue;
		const c = cosine(d.vector, w.draft.vector);
		if (c >= min) found.push({ id: w.row.id, cosine: c });
	}
	return found.sort((a, b) => b.cosine - a.cosine).slice(0, MAX_SIMILAR);
}

/** The memory this draft supersedes, when it names one. */
async function findSuperseded(ctx: EngineContext, d: Draft, path: (i: number, f: string) => string): Promise<MemoryRow | undefined> {
	const ref = d.item.supersedes_memory_id;
	if (ref === undefined) return undefined;
	const old = await getByRef(ctx.db, ref);
	if (!old) throw new MemoryError('not_found', `${path(d.index, 'supersedes_memory_id')}: no memory with id ${JSON.stringify(ref)}`);
	return old;
}

/**
 * An existing memory (or earlier batch item) in the same scope that this draft duplicates:
 * same normalised content, or a near-parallel vector with mostly the same words.
 */
async function findDuplicate(
	ctx: EngineContext,
	d: Draft,
	batch: Written[],
	skip: string | undefined,
): Promise<{ row: MemoryRow; similarity: number } | undefined> {
	const scope = d.row.scope;
	const exactInBatch = batch.find((w) => w.row.scope === scope && w.draft.norm === d.norm);
	if (exactInBatch) return { row: exactInBatch.row, similarity: 1 };
	const exact = (await byContentKey(ctx.db, scope, d.row.content_key)).find(
		(r) => r.id !== skip && normaliseContent(r.content) === d.norm,
	);
	if (exact) return { row: exact, similarity: 1 };
	if (!d.vector) return undefined;
	return nearDuplicate(ctx, d, batch, skip);
}

async function nearDuplicate(ctx: EngineContext, d: Draft, batch: Written[], skip: string | undefined): Promise<{ row: MemoryRow; similarity: number } | undefined> {
	const th = ctx.thresholds.duplicate;
	const v = d.vector!;
	for (const w of batch)
		if (w.row.scope === d.row.scope && w.draft.vector) {
			const c = cosine(v, w.draft.vector);
			if (isNearDuplicate(c, th, d.row.content, w.row.content)) return { row: w.row, similarity: c };
		}
	const near = ctx.index.nearest(v, 3, { scope: d.row.scope, exclude: skip ? [skip] : [] }).filter((n) => n.cosine >= th);
	for (const n of near) {
		const row = await ctx.db.memories.get(n.id);
		if (row && isNearDuplicate(n.cosine, th, d.row.content, row.content)) return { row, similarity: n.cosine };
	}
	return undefined;
}

/** Marks `old` invalid from the new memory's time (unless already) and links old → new. */
async function markSuperseded(ctx: EngineContext, old: MemoryRow, row: MemoryRow, item: StoreItem, change: IndexChange): Promise<void> {
	const type = item.supersede_relation ?? 'INVALIDATED_BY';
	if (old.t_invalid === undefined) {
		const updated: MemoryRow = { ...old, t_invalid: row.timestamp, updated_at: row.updated_at };
		await ctx.db.memories.put(updated);
		change.upserts.push({ row: updated, vector: (await getVector(ctx.db, ctx.embedder.modelId, old.id)) ?? null });
	}
	const link: AssociationRow = { ...systemLink(old.id, row.id, type, 0.9, row.timestamp) };
	if (item.supersede_reason !== undefined) link.reason = item.supersede_reason;
	if (type === 'INVALIDATED_BY') link.timestamp = row.timestamp;
	await ctx.db.associations.put(link);
	change.edges.push(link);
}

/** Rounds a similarity for output and storage (6 decimals is far below any threshold's precision). */
function round(x: number): number {
	return Math.round(x * 1e6) / 1e6;
}

function output(results: StoreResult[], single: boolean): StoreOutput {
	const stored = results.filter((r) => r.status === 'stored').length;
	const dups = results.length - stored;
	const out: StoreOutput = {
		success: true,
		message: single
			? dups
				? `Not stored: near-duplicate of memory ${results[0].duplicate_of} (similarity ${results[0].similarity}); pass force: true to store anyway`
				: `Stored memory ${results[0].memory_id} (#${results[0].seq})`
			: `Stored ${stored} of ${results.length} memories${dups ? `; ${dups} near-duplicate(s) skipped` : ''}`,
		results,
		stored_count: stored,
		duplicate_count: dups,
	};
	if (single) {
		out.memory_id = results[0].memory_id;
		out.seq = results[0].seq;
		if (results[0].duplicate_of) out.duplicate_of = results[0].duplicate_of;
	}
	return out;
}

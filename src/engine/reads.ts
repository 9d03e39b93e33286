/**
 * Side-effect-free reads for the graph walks and the UI: memories, links, entities, vectors.
 */
import type { Association, Entity, Memory } from '../core/schemas';
import { normaliseEntityName } from '../core/entities';
import { linksOf } from '../store/associations';
import { entitiesByPrefix } from '../store/entities';
import { entityIdsOf } from '../store/derived';
import type { EntityRow } from '../store/rows';
import { getVector, modelsOf } from '../store/vectors';
import { embedTexts, type EngineContext } from './context';
import { toMemory } from './doc';
import type { SearchIndex } from './search/types';

/**
 * The public Entity of a row: its identity from the row, its mention count and first and last
 * mention from the memories that mention it, as the index holds them (store/entities.ts).
 */
export function toEntity(index: SearchIndex, row: EntityRow): Entity {
	const { norm: _norm, memory_count: _count, first_seen: _first, last_seen: _last, ...identity } = row;
	const span = index.mentionSpan(row.id);
	const iso = (t: number | undefined, legacy: string | undefined) => (t === undefined ? (legacy ?? '') : new Date(t).toISOString());
	return { ...identity, memory_count: span?.count ?? 0, first_seen: iso(span?.first, _first), last_seen: iso(span?.last, _last) };
}

/** Memories by id, in order; undefined for unknown ids. Counts no access. */
export async function getMemories(ctx: EngineContext, ids: string[]): Promise<(Memory | undefined)[]> {
	const rows = await ctx.db.memories.bulkGet(ids);
	return rows.map((r) => (r ? toMemory(r, modelsOf(r)) : undefined));
}

/** Every association out of and into a memory. */
export async function associationsOf(ctx: EngineContext, id: string): Promise<Association[]> {
	const { out, in: inc } = await linksOf(ctx.db, id, ctx.index.linkedFrom([id]));
	return [...out, ...inc];
}

/** The entities a memory is linked to. */
export async function entitiesOf(ctx: EngineContext, id: string): Promise<Entity[]> {
	const row = await ctx.db.memories.get(id);
	return getEntities(ctx, entityIdsOf(row?.entities)).then((l) => l.filter((e) => e !== undefined));
}

/** Entities by id, in order. */
export async function getEntities(ctx: EngineContext, ids: string[]): Promise<(Entity | undefined)[]> {
	return (await ctx.db.entities.bulkGet(ids)).map((r) => (r ? toEntity(ctx.index, r) : undefined));
}

/** Entities whose name starts with, then contains, `text`; most-mentioned first. */
export async function searchEntities(ctx: EngineContext, text: string, limit: number): Promise<Entity[]> {
	const n = normaliseEntityName(text);
	if (n === '') return [];
	const byMentions = (rows: EntityRow[]) => rows.map((r) => toEntity(ctx.index, r)).sort((a, b) => b.memory_count - a.memory_count);
	return ctx.db.read(async () => {
		const out = byMentions(await entitiesByPrefix(ctx.db, n, limit * 5)).slice(0, limit);
		if (out.length < limit) {
			const seen = new Set(out.map((e) => e.id));
			const more = await ctx.db.entities
				.filter((e) => !seen.has(e.id) && e.norm.includes(n))
				.limit(limit - out.length)
				.toArray();
			out.push(...byMentions(more));
		}
		return out;
	});
}

/** A memory's active-model vector. */
export function vectorOf(ctx: EngineContext, id: string): Promise<Float32Array | undefined> {
	return getVector(ctx.db, ctx.embedder.modelId, id);
}

/** One text embedded with the active model. */
export async function embedOne(ctx: EngineContext, text: string): Promise<Float32Array | null> {
	return (await embedTexts(ctx, [text]))[0];
}

/**
 * Cosines to up to `max` memories: all when there are few, else evenly spaced ranks of the full
 * ordering, which keeps every percentile of the distribution.
 */
export function cosineSample(ctx: EngineContext, vector: Float32Array, max: number, filter?: { scope?: string }): { cosines: Float32Array; total: number } {
	const all = ctx.index.nearest(vector, ctx.index.size, filter);
	const total = all.length;
	if (total <= max) return { cosines: Float32Array.from(all, (n) => n.cosine), total };
	const out = new Float32Array(max);
	for (let i = 0; i < max; i++) out[i] = all[Math.floor((i * total) / max)].cosine;
	return { cosines: out, total };
}

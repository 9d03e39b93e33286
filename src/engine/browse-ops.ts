/**
 * Browsing without a query: list_memory_timeline (time order, filtered and windowed, served from
 * the in-memory index) and find_memories_by_entity (the memories linked to one entity).
 */
import { MemoryError } from '../core/errors';
import {
	FindByEntityInputSchema,
	type MemoryBrief,
	TimelineInputSchema,
	type FindByEntityInput,
	type FindByEntityOutput,
	type RecallInput,
	type TimelineInput,
	type TimelineOutput,
} from '../core/schemas';
import { entityId, normaliseEntityName } from '../core/entities';
import { dateMs, inclusiveDateEnd, isoOrder, parseTimeQuery } from '../core/time';
import { entityIdsOf } from '../store/derived';
import type { EntityRow, MemoryRow } from '../store/rows';
import type { EngineContext } from './context';
import { toBrief } from './doc';
import type { ChangeEvent } from './types';
import { searchEntities, toEntity } from './reads';
import { reads } from './read-gate';
import { YIELD_TO_RECALLS_MS } from './stats-ops';
import { parseInput } from './validate';

/** Default cap on list items' content. */
export const BRIEF_CHARS = 500;

/** Briefs kept per engine: the list's pages are about 4,000 rows (MAX_PAGES × 100 in ui/state/timeline.svelte.ts). */
const BRIEFS_KEPT = 4_096;

/**
 * The briefs of rows timeline() read lately, so the open app's refresh after an agent's write
 * reads only the rows that changed, not its whole first page: 100 rows with their vectors were
 * 7–9 ms of the worker at 10k memories (the same thread the agent's next call needs; issue 25).
 * Every committed change names its memories in a ChangeEvent (this engine's writes, and other
 * tabs' through cross-tab.ts), which drops them; an event without ids, a wipe or a model switch
 * drops all. A read that began before a drop is not kept (it may hold the row from before it).
 */
class BriefCache {
	readonly #briefs = new Map<string, { chars: number; brief: MemoryBrief }>();
	#epoch = 0;

	constructor(ctx: EngineContext) {
		ctx.hub.subscribe((e) => this.#forget(e));
	}

	get epoch(): number {
		return this.#epoch;
	}

	/** A copy of the brief cut at `chars` (callers may rewrite what they get), or undefined. */
	get(id: string, chars: number): MemoryBrief | undefined {
		const hit = this.#briefs.get(id);
		if (hit?.chars !== chars) return undefined;
		return { ...hit.brief, tags: [...hit.brief.tags] };
	}

	/** Keeps briefs read since `epoch`, unless a change came in between; the oldest go first. */
	keep(epoch: number, chars: number, briefs: MemoryBrief[]): void {
		if (epoch !== this.#epoch) return;
		for (const brief of briefs) {
			this.#briefs.delete(brief.id);
			this.#briefs.set(brief.id, { chars, brief: { ...brief, tags: [...brief.tags] } });
		}
		for (const id of this.#briefs.keys()) {
			if (this.#briefs.size <= BRIEFS_KEPT) break;
			this.#briefs.delete(id);
		}
	}

	#forget(e: ChangeEvent): void {
		if (e.kind === 'associations' || e.kind === 'settings') return;
		this.#epoch++;
		if (e.ids && (e.kind === 'memories' || e.kind === 'entities')) for (const id of e.ids) this.#briefs.delete(id);
		else this.#briefs.clear();
	}
}

const briefCaches = new WeakMap<EngineContext, BriefCache>();

/** The rows' briefs in the order of `ids` (rows gone since the index named them are left out). */
async function briefsOf(ctx: EngineContext, ids: string[], chars: number): Promise<MemoryBrief[]> {
	let cache = briefCaches.get(ctx);
	if (!cache) briefCaches.set(ctx, (cache = new BriefCache(ctx)));
	const epoch = cache.epoch;
	const found = ids.map((id) => cache.get(id, chars));
	const missing = ids.filter((_, i) => !found[i]);
	if (missing.length) {
		const rows = await ctx.db.memories.bulkGet(missing);
		const read = rows.flatMap((r) => (r ? [toBrief(r, chars)] : []));
		cache.keep(epoch, chars, read);
		const byId = new Map(read.map((b) => [b.id, b]));
		ids.forEach((id, i) => (found[i] ??= byId.get(id)));
	}
	return found.filter((b): b is MemoryBrief => b !== undefined);
}

/**
 * The window a browse asks for: `start`, `end` (a date alone includes that day) and what
 * `time_query` reads as, given ends first. The end is exclusive.
 */
function timeWindow(p: { start?: string; end?: string; time_query?: string }, now: number): { start?: string; end?: string } {
	const start = p.start;
	const end = inclusiveDateEnd(p.end);
	if (!p.time_query) return { start, end };
	const w = parseTimeQuery(p.time_query, now);
	if (!w)
		throw new MemoryError(
			'invalid_input',
			`time_query: ${JSON.stringify(p.time_query)} is not a time range I can read; try "last week", "yesterday" or "in March 2024"`,
		);
	return { start: start ?? w.start, end: end ?? w.end };
}

/** Memories in time order; see the module comment. */
export async function timeline(ctx: EngineContext, input: TimelineInput): Promise<TimelineOutput> {
	const p = parseInput(TimelineInputSchema, input);
	// As stats do: a page of the list waits for the recalls in flight (a cold first page is ~100 ms at 100k).
	await reads.idle(YIELD_TO_RECALLS_MS);
	const now = ctx.now();
	const q: RecallInput = {
		scope: p.scope,
		...timeWindow(p, now),
		types: p.types,
		tags: p.tags,
		tag_mode: p.tag_mode,
		exclude_tags: p.exclude_tags,
		limit: p.limit ?? 20,
		offset: p.offset ?? 0,
		sort: p.order === 'asc' ? 'time_asc' : 'time_desc',
	};
	const page = ctx.index.rank(q, { vectors: [] }, now);
	const memories = await briefsOf(
		ctx,
		page.hits.map((h) => h.id),
		p.max_content_chars ?? BRIEF_CHARS,
	);
	const offset = q.offset ?? 0;
	const hasMore = offset + page.hits.length < page.total;
	return { memories, count: memories.length, total: page.total, has_more: hasMore, ...(hasMore && { next_offset: offset + page.hits.length }) };
}

/** The entity a name (or id) refers to, most-mentioned first when several types share the name. */
async function resolveEntity(ctx: EngineContext, name: string, type?: string): Promise<EntityRow | undefined> {
	const byId = await ctx.db.entities.get(name);
	if (byId) return byId;
	if (type) return ctx.db.entities.get(entityId({ name, type }));
	const same = await ctx.db.entities.where('norm').equals(normaliseEntityName(name)).toArray();
	return same.sort((a, b) => ctx.index.mentions(b.id) - ctx.index.mentions(a.id))[0];
}

/** Memories mentioning an entity, newest first; see the module comment. */
export async function findByEntity(ctx: EngineContext, input: FindByEntityInput): Promise<FindByEntityOutput> {
	const p = parseInput(FindByEntityInputSchema, input);
	const window = timeWindow(p, ctx.now());
	const from = window.start === undefined ? -Infinity : dateMs(window.start);
	const until = window.end === undefined ? Infinity : dateMs(window.end);
	const entity = await resolveEntity(ctx, p.entity, p.entity_type);
	const matches = (await searchEntities(ctx, p.entity, 10)).filter((e) => e.id !== entity?.id);
	if (!entity) return { entity: null, matches, memories: [], count: 0, has_more: false };
	// The index names the memories; their rows confirm the mention (another tab may have changed one since).
	const rows = (await ctx.db.read(async () => ctx.db.memories.bulkGet(ctx.index.mentioning(entity.id))))
		.filter((r): r is MemoryRow => r !== undefined && entityIdsOf(r.entities).includes(entity.id))
		.filter((r) => (p.scope === undefined || r.scope === p.scope) && inWindow(Date.parse(r.timestamp), from, until))
		.sort((a, b) => isoOrder(b.timestamp, a.timestamp));
	const offset = p.offset ?? 0;
	const limit = p.limit ?? 20;
	const memories = rows.slice(offset, offset + limit).map((r) => toBrief(r, p.max_content_chars ?? BRIEF_CHARS));
	const hasMore = offset + memories.length < rows.length;
	return {
		entity: toEntity(ctx.index, entity),
		matches,
		memories,
		count: memories.length,
		has_more: hasMore,
		...(hasMore && { next_offset: offset + memories.length }),
	};
}

const inWindow = (ms: number, from: number, until: number) => ms >= from && ms < until;

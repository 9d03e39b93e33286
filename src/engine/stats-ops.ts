/**
 * memory_stats, trending_labels and check_database_health; dataSize for the Settings screen.
 */
import {
	StatsInputSchema,
	TrendingInputSchema,
	type HealthOutput,
	type StatsInput,
	type StatsOutput,
	type TrendingInput,
	type TrendingOutput,
} from '../core/schemas';
import { bump, countRecord } from '../core/counts';
import { DB_VERSION } from '../store/db';
import type { EngineContext } from './context';
import type { DataSize, SyncState } from './types';
import { getSetting } from '../store/settings';

/** The setting src/sync keeps its state in, for memory_stats. */
export const SYNC_STATE_KEY = 'sync_state';
import { parseInput } from './validate';
import { reads } from './read-gate';
import { linksFrom } from '../store/associations';
import { vectorCount, vectorModels } from '../store/vectors';

const TOP = 10;

/**
 * How long stats wait for recalls in flight before counting anyway: the open app asks for counts
 * as it boots, and at 100k memories the first count is 100–250 ms of this thread; queued behind
 * the engine's start with an agent's or the person's first search, it went first.
 */
export const YIELD_TO_RECALLS_MS = 500;

/**
 * The `k` entries with the highest counts, ties by key, in one pass: at 100k memories there are
 * tens of thousands of entities, and sorting them all took ~200 ms per call.
 */
export function topCounts(entries: Iterable<[string, number]>, k: number): [string, number][] {
	const top: [string, number][] = [];
	const before = (a: [string, number], b: [string, number]) => a[1] > b[1] || (a[1] === b[1] && a[0] < b[0]);
	for (const e of entries) {
		if (top.length === k && !before(e, top[k - 1])) continue;
		let i = top.length < k ? top.length : k - 1;
		while (i > 0 && before(e, top[i - 1])) i--;
		top.splice(i, 0, e);
		if (top.length > k) top.pop();
	}
	return top;
}

/**
 * Counts by type, scope, source and tag, and links by type; filters narrow the memories. Memory
 * counts come from the search index's in-memory metadata (the UI asks after every change, and
 * a scan of IndexedDB took hundreds of ms at 1k memories in Chromium); links, entities and
 * vectors from key-only IndexedDB counts.
 */
export async function stats(ctx: EngineContext, input: StatsInput): Promise<StatsOutput> {
	const p = parseInput(StatsInputSchema, input);
	await reads.idle(YIELD_TO_RECALLS_MS);
	const now = ctx.now();
	const filtered = p.scope !== undefined || p.source !== undefined || (p.tags?.length ?? 0) > 0;
	const wanted = p.tags?.length ? new Set(p.tags.map((t) => t.toLowerCase())) : undefined;
	const s = {
		total: 0,
		current: 0,
		by_type: countRecord(),
		by_scope: countRecord(),
		by_source: countRecord(),
		tags: countRecord(),
		oldest: Infinity,
		newest: -Infinity,
	};
	const ids = new Set<string>();
	if (!filtered) {
		// Every memory: counted from the index's columns (meta-codec.ts tallyMetas), far faster at 100k.
		const t = ctx.index.tally(now);
		Object.assign(s, {
			total: t.total,
			current: t.current,
			by_type: t.byType,
			by_scope: t.byScope,
			by_source: t.bySource,
			tags: t.tags,
			oldest: t.oldest,
			newest: t.newest,
		});
	} else
		ctx.index.eachMeta((m) => {
			if (p.scope !== undefined && m.scope !== p.scope) return;
			if (p.source !== undefined && m.source !== p.source) return;
			if (wanted && !m.tags.some((t) => wanted.has(t.toLowerCase()))) return;
			if (filtered) ids.add(m.id);
			s.total++;
			if (m.t_invalid === undefined || m.t_invalid > now) s.current++;
			bump(s.by_type, m.type);
			bump(s.by_scope, m.scope);
			bump(s.by_source, m.source ?? '(none)');
			m.tags.forEach((t) => bump(s.tags, t));
			s.oldest = Math.min(s.oldest, m.timestamp);
			s.newest = Math.max(s.newest, m.timestamp);
		});
	const counts = ctx.index.counts();
	const perEntity = ctx.index.entityCounts();
	const topIds = topCounts(perEntity.entries, TOP);
	const [byAssoc, topRows, models, sync] = await ctx.db.read(() =>
		Promise.all([
			filtered ? linksLeaving(ctx, ids) : counts.edgesByType,
			ctx.db.entities.bulkGet(topIds.map(([id]) => id)),
			embeddingModels(ctx, counts.vectors),
			getSetting<SyncState>(ctx.db, SYNC_STATE_KEY),
		]),
	);
	const top = topRows.flatMap((e, i) => (e ? [{ ...e, memory_count: topIds[i][1] }] : []));
	const entities = perEntity.size;
	const out: StatsOutput = {
		total_memories: s.total,
		current_memories: s.current,
		by_type: s.by_type,
		by_scope: s.by_scope,
		by_source: s.by_source,
		total_associations: Object.values(byAssoc).reduce((a, b) => a + b, 0),
		by_association_type: byAssoc,
		total_entities: entities,
		top_entities: top.map((e) => ({ id: e.id, name: e.name, type: e.type, count: e.memory_count })),
		top_tags: topCounts(tagsAnyCase(s.tags), TOP).map(([tag, count]) => ({ tag, count })),
		embedding_models: models,
		active_model: ctx.embedder.modelId,
		sync: sync
			? { on: sync.on, status: sync.status, last_synced: sync.last_synced, pending: sync.pending, error: sync.error }
			: { on: false, status: 'off', pending: 0 },
	};
	if (s.total) {
		out.oldest = new Date(s.oldest).toISOString();
		out.newest = new Date(s.newest).toISOString();
	}
	return out;
}

/** Links leaving a filtered set of memories, by type (IndexedDB: the filter case is rare). */
async function linksLeaving(ctx: EngineContext, ids: Set<string>): Promise<Record<string, number>> {
	const out = countRecord();
	for (const a of await linksFrom(ctx.db, [...ids])) bump(out, a.type);
	return out;
}

/** How long other models' vector counts are reused: counting walks every key of that model. */
const OTHER_MODELS_TTL_MS = 30_000;
const otherModels = new WeakMap<EngineContext, { at: number; active: string; counts: { model: string; count: number }[] }>();

/** Vectors per model: the active model's exact (from the index), other models' at most 30 s old. */
async function embeddingModels(ctx: EngineContext, active: number): Promise<{ model: string; count: number }[]> {
	const model = ctx.embedder.modelId;
	let cached = otherModels.get(ctx);
	if (!cached || cached.active !== model || Date.now() - cached.at > OTHER_MODELS_TTL_MS) {
		const names = (await vectorModels(ctx.db)).filter((m) => m !== model);
		const counts = await Promise.all(names.map(async (m) => ({ model: m, count: await vectorCount(ctx.db, m) })));
		otherModels.set(ctx, (cached = { at: Date.now(), active: model, counts }));
	}
	const all = [...(active ? [{ model, count: active }] : []), ...cached.counts.filter((c) => c.count > 0)];
	return all.sort((a, b) => a.model.localeCompare(b.model));
}

const DAY = 86_400_000;

/** Tags (labels) used in the last `days` days, scored count × 0.9^(days since last seen). */
export async function trendingLabels(ctx: EngineContext, input: TrendingInput): Promise<TrendingOutput> {
	const p = parseInput(TrendingInputSchema, input);
	const now = ctx.now();
	const since = now - (p.days ?? 30) * DAY;
	const seen = new Map<string, { count: number; last: number }>();
	ctx.index.eachMeta((m) => {
		if (m.timestamp < since || (p.scope !== undefined && m.scope !== p.scope)) return;
		for (const t of m.tags) {
			const cur = seen.get(t) ?? { count: 0, last: m.timestamp };
			cur.count++;
			cur.last = Math.max(cur.last, m.timestamp);
			seen.set(t, cur);
		}
	});
	const labels = [...seen].map(([label, { count, last }]) => {
		const days = Math.max(0, (now - last) / DAY);
		return { label, count, score: Math.round(count * 0.9 ** days * 1e4) / 1e4, last_seen: new Date(last).toISOString() };
	});
	labels.sort((a, b) => b.score - a.score || b.count - a.count || a.label.localeCompare(b.label));
	return { labels: labels.slice(0, p.limit ?? 10) };
}

/** Database, index, embedder and storage state, with a list of anything wrong. */
export async function health(
	ctx: EngineContext,
	info: { indexOrigin: 'snapshot' | 'rebuilt'; snapshotPlace?: 'file' | 'indexeddb'; reembedding: boolean },
): Promise<HealthOutput> {
	const db = ctx.db;
	const model = ctx.embedder.modelId;
	const [memories, entities, vectors] = await db.read(() => Promise.all([db.memories.count(), db.entities.count(), vectorCount(db, model)]));
	// Links are counted where they are indexed: nothing in IndexedDB indexes them (store/associations.ts).
	const associations = Object.values(ctx.index.counts().edgesByType).reduce((a, b) => a + b, 0);
	const issues: string[] = [];
	if (vectors < memories)
		issues.push(
			`${memories - vectors} memories have no ${model} vector (${info.reembedding ? 're-embedding in progress' : 'texts without known words are found lexically'})`,
		);
	if (ctx.index.size !== memories) issues.push(`search index holds ${ctx.index.size} memories, database ${memories}`);
	const storage = await storageInfo();
	if (storage.quota && storage.usage && storage.usage / storage.quota > 0.9) issues.push('storage is over 90% of the browser quota');
	return {
		status: ctx.index.size === memories && !(storage.quota && storage.usage && storage.usage / storage.quota > 0.9) ? 'healthy' : 'degraded',
		database: { name: db.name, version: DB_VERSION, memories, associations, entities },
		vector_index: { model, vectors, ready: true },
		lexical_index: { documents: ctx.index.size, ready: true },
		search_index: { origin: info.indexOrigin, ...(info.snapshotPlace && { snapshot: info.snapshotPlace }) },
		embedder: { model, dims: ctx.embedder.dims, ready: true },
		storage,
		issues,
	};
}

/** navigator.storage's estimate and persistence, where the platform has them. */
async function storageInfo(): Promise<HealthOutput['storage']> {
	const nav = (globalThis as { navigator?: { storage?: StorageManager } }).navigator;
	const sm = nav?.storage;
	if (!sm?.estimate) return {};
	try {
		const [est, persisted] = await Promise.all([sm.estimate(), sm.persisted?.() ?? Promise.resolve(undefined)]);
		const out: HealthOutput['storage'] = {};
		if (est.usage !== undefined) out.usage = est.usage;
		if (est.quota !== undefined) out.quota = est.quota;
		if (persisted !== undefined) out.persisted = persisted;
		return out;
	} catch {
		return {};
	}
}

/** A rough size of one activity entry as stored (short strings and a timestamp). */
const ACTIVITY_ENTRY_BYTES = 160;

/**
 * Approximate bytes Engram keeps: each memory row's fields as JSON (links included), its vectors'
 * raw bytes, the snapshots' recorded sizes, entities as JSON and the activity log at a flat rate.
 * The browser's own estimate counts the app's caches (the model, the wasm) and is padded, so the
 * Settings screen shows this next to it. One read transaction; a full scan, so only on demand.
 */
export async function dataSize(ctx: EngineContext): Promise<DataSize> {
	const db = ctx.db;
	const out: DataSize = { memories: 0, vectors: 0, snapshots: 0, other: 0, total: 0 };
	await db.read(async () => {
		await db.memories.each((row) => {
			const { vectors, ...rest } = row;
			out.memories += JSON.stringify(rest).length;
			for (const v of Object.values(vectors ?? {})) out.vectors += v.byteLength;
		});
		await db.snapshots.each((r) => (out.snapshots += r.size ?? r.bytes?.byteLength ?? 0));
		await db.entities.each((e) => (out.other += JSON.stringify(e).length));
		out.other += (await db.activity.count()) * ACTIVITY_ENTRY_BYTES;
	});
	out.total = out.memories + out.vectors + out.snapshots + out.other;
	return out;
}

/**
 * Tag counts with spellings that differ only in letter case counted as one tag (the tag filters
 * match any case: "Billing" and "billing" are one tag to them), under its most used spelling.
 */
export function tagsAnyCase(tags: Record<string, number>): [string, number][] {
	const byKey = new Map<string, { tag: string; best: number; count: number }>();
	for (const [tag, n] of Object.entries(tags)) {
		const key = tag.toLowerCase();
		const e = byKey.get(key);
		if (!e) byKey.set(key, { tag, best: n, count: n });
		else {
			e.count += n;
			if (n > e.best) Object.assign(e, { tag, best: n });
		}
	}
	return [...byKey.values()].map((e) => [e.tag, e.count]);
}

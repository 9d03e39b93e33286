/**
 * memory_stats, trending_labels and check_database_health.
 */
import {
	AUTHORABLE_ASSOCIATION_TYPES,
	SYSTEM_ASSOCIATION_TYPES,
	StatsInputSchema,
	TrendingInputSchema,
	type HealthOutput,
	type StatsInput,
	type StatsOutput,
	type TrendingInput,
	type TrendingOutput,
} from '../core/schemas';
import { DB_VERSION } from '../store/db';
import type { MemoryRow } from '../store/rows';
import { modelCounts } from '../store/vectors';
import type { EngineContext } from './context';
import { parseInput } from './validate';
import { rowsWhere } from '../store/lookup';

const TOP = 10;
const ASSOCIATION_TYPES_ALL = [...AUTHORABLE_ASSOCIATION_TYPES, ...SYSTEM_ASSOCIATION_TYPES];

function bump(rec: Record<string, number>, key: string): void {
	rec[key] = (rec[key] ?? 0) + 1;
}

/** Counts by type, scope, source, tags, association type and entity; filters narrow the memories. */
export async function stats(ctx: EngineContext, input: StatsInput): Promise<StatsOutput> {
	const p = parseInput(StatsInputSchema, input);
	const now = new Date(ctx.now()).toISOString();
	const filtered = p.scope !== undefined || p.source !== undefined || (p.tags?.length ?? 0) > 0;
	const s = { total: 0, current: 0, by_type: {} as Record<string, number>, by_scope: {} as Record<string, number>, by_source: {} as Record<string, number>, tags: {} as Record<string, number>, oldest: undefined as string | undefined, newest: undefined as string | undefined };
	const ids = new Set<string>();
	await ctx.db.memories.each((m: MemoryRow) => {
		if (p.scope !== undefined && m.scope !== p.scope) return;
		if (p.source !== undefined && m.source !== p.source) return;
		if (p.tags?.length && !p.tags.some((t) => m.tags.includes(t))) return;
		if (filtered) ids.add(m.id);
		s.total++;
		if (m.t_invalid === undefined || m.t_invalid > now) s.current++;
		bump(s.by_type, m.type);
		bump(s.by_scope, m.scope);
		bump(s.by_source, m.source ?? '(none)');
		m.tags.forEach((t) => bump(s.tags, t));
		if (!s.oldest || m.timestamp < s.oldest) s.oldest = m.timestamp;
		if (!s.newest || m.timestamp > s.newest) s.newest = m.timestamp;
	});
	const byAssoc = await associationCounts(ctx, filtered ? ids : undefined);
	const top = await ctx.db.entities.orderBy('memory_count').reverse().limit(TOP).toArray();
	const out: StatsOutput = {
		total_memories: s.total,
		current_memories: s.current,
		by_type: s.by_type,
		by_scope: s.by_scope,
		by_source: s.by_source,
		total_associations: Object.values(byAssoc).reduce((a, b) => a + b, 0),
		by_association_type: byAssoc,
		total_entities: await ctx.db.entities.count(),
		top_entities: top.map((e) => ({ id: e.id, name: e.name, type: e.type, count: e.memory_count })),
		top_tags: Object.entries(s.tags).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, TOP).map(([tag, count]) => ({ tag, count })),
		embedding_models: await modelCounts(ctx.db),
		active_model: ctx.embedder.modelId,
	};
	if (s.oldest) out.oldest = s.oldest;
	if (s.newest) out.newest = s.newest;
	return out;
}

/** Association counts by type: key-only counts, or for the links leaving a filtered set. */
async function associationCounts(ctx: EngineContext, ids?: Set<string>): Promise<Record<string, number>> {
	const out: Record<string, number> = {};
	if (!ids) {
		for (const t of ASSOCIATION_TYPES_ALL) {
			const n = await ctx.db.associations.where('type').equals(t).count();
			if (n) out[t] = n;
		}
		return out;
	}
	if (ids.size === 0) return out;
	for (const a of await rowsWhere(ctx.db.associations, 'from', [...ids])) bump(out, a.type);
	return out;
}

const DAY = 86_400_000;

/** Tags (labels) used in the last `days` days, scored count × 0.9^(days since last seen). */
export async function trendingLabels(ctx: EngineContext, input: TrendingInput): Promise<TrendingOutput> {
	const p = parseInput(TrendingInputSchema, input);
	const now = ctx.now();
	const since = new Date(now - (p.days ?? 30) * DAY).toISOString();
	const seen = new Map<string, { count: number; last: string }>();
	await ctx.db.memories.where('timestamp').aboveOrEqual(since).each((m: MemoryRow) => {
		if (p.scope !== undefined && m.scope !== p.scope) return;
		for (const t of m.tags) {
			const cur = seen.get(t) ?? { count: 0, last: m.timestamp };
			cur.count++;
			if (m.timestamp > cur.last) cur.last = m.timestamp;
			seen.set(t, cur);
		}
	});
	const labels = [...seen].map(([label, { count, last }]) => {
		const days = Math.max(0, (now - Date.parse(last)) / DAY);
		return { label, count, score: Math.round(count * 0.9 ** days * 1e4) / 1e4, last_seen: last };
	});
	labels.sort((a, b) => b.score - a.score || b.count - a.count || a.label.localeCompare(b.label));
	return { labels: labels.slice(0, p.limit ?? 10) };
}

/** Database, index, embedder and storage state, with a list of anything wrong. */
export async function health(ctx: EngineContext, info: { indexOrigin: string; reembedding: boolean }): Promise<HealthOutput> {
	const db = ctx.db;
	const model = ctx.embedder.modelId;
	const [memories, associations, entities, vectors] = await Promise.all([
		db.memories.count(),
		db.associations.count(),
		db.entities.count(),
		db.vectors.where('model').equals(model).count(),
	]);
	const issues: string[] = [];
	if (vectors < memories)
		issues.push(`${memories - vectors} memories have no ${model} vector (${info.reembedding ? 're-embedding in progress' : 'texts without known words are found lexically'})`);
	if (ctx.index.size !== memories) issues.push(`search index holds ${ctx.index.size} memories, database ${memories}`);
	const storage = await storageInfo();
	if (storage.quota && storage.usage && storage.usage / storage.quota > 0.9) issues.push('storage is over 90% of the browser quota');
	return {
		status: ctx.index.size === memories && !(storage.quota && storage.usage && storage.usage / storage.quota > 0.9) ? 'healthy' : 'degraded',
		database: { name: db.name, version: DB_VERSION, memories, associations, entities },
		vector_index: { model, vectors, ready: true },
		lexical_index: { documents: ctx.index.size, ready: true },
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

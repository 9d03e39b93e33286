/**
 * find_memory_connections (seed 002): walk the entity–memory graph outward from what a sentence
 * finds. Entry = the memories nearest the sentence (vector, with a lexical fallback), or an
 * anchor entity; round 1 goes out through the entry's entities (bridges) to memories the entry
 * did not contain, scored by cosine to the sentence and bridge rarity; round 2 re-expands from the
 * round-1 picks through bridges round 1 did not use. Written only against EngineApi read helpers.
 */
import { MemoryError } from '../core/errors';
import {
	CONNECTION_LIMITS,
	type ConnectionCandidate,
	type ConnectionRelation,
	type ConnectionsInput,
	type ConnectionsOutput,
} from '../core/graph-schemas';
import type { Entity, Memory } from '../core/schemas';
import { cosine } from '../core/vector';
import { resolveThresholds, thresholdsKey, type Thresholds } from './thresholds';
import type { EngineApi } from './types';

/** Cosines sampled for percentiles; exact below this many memories. */
const PERCENTILE_SAMPLE = 5000;
/** Bridges walked per round, rarest first. */
const BRIDGES_PER_ROUND = 40;
/** Memories read per bridge: a hub entity (mentioned by thousands) is sampled, not walked whole. */
const FANOUT = 400;
/** Candidates scored per round, best structural evidence first. */
const POOL = 600;
/** Hops along EVOLVED_INTO / INVALIDATED_BY for relation "evolution". */
const CHAIN_HOPS = 6;

type Bridge = { entity: Entity; rarity: number; source: Source };
type Source = { id: string; path: string[] };
type Pooled = {
	memory: Memory;
	path: string[];
	bridge: Entity | null;
	structural: number;
	cos: number | null;
	score: number;
};

interface Walk {
	engine: EngineApi;
	relation: ConnectionRelation;
	topN: number;
	scope?: string;
	vec: Float32Array | null;
	sample: Float32Array | null;
	total: number;
	t0?: number;
	truncations: string[];
	entryCos: number[];
	thresholds: Thresholds;
}

/** Runs the walk; throws MemoryError('not_found') for an unknown anchor entity or event. */
export async function findConnections(
	engine: EngineApi,
	input: ConnectionsInput,
): Promise<ConnectionsOutput> {
	const w = await prepare(engine, input);
	const anchor = input.anchor_entity_id
		? await resolveEntity(engine, input.anchor_entity_id)
		: undefined;
	const entry = anchor ? [] : await findEntry(w, input);
	const grounding = await ground(w, entry, anchor);
	const base = {
		relation: w.relation,
		entry: entry.map(entryOut),
		searched_scope: searchedScope(w),
	};
	if (grounding.grounding === 'absent')
		return { ...base, ...grounding, candidates: [], bridges: [], truncations: w.truncations };
	const exclude = new Set(entry.map((e) => e.memory.id));
	const r1Bridges = anchor
		? [{ entity: anchor, rarity: rarity(w, anchor), source: { id: anchor.id, path: [] } }]
		: await collectBridges(
				w,
				entry.map((e) => ({ id: e.memory.id, path: [e.memory.id] })),
				new Set(),
			);
	const extra = w.relation === 'evolution' ? await chainCandidates(w, [...exclude]) : [];
	const r1 = await walkRound(w, r1Bridges, exclude, extra);
	const picks1 = select(w, r1);
	const rounds = [picks1.map((p) => ({ ...p, round: 1 }))];
	const used = new Set(r1Bridges.map((b) => b.entity.id));
	if ((input.expansion_rounds ?? 1) === 2 && picks1.length > 0) {
		for (const p of picks1) exclude.add(p.memory.id);
		const r2Bridges = await collectBridges(
			w,
			picks1.map((p) => ({ id: p.memory.id, path: p.path })),
			used,
		);
		rounds.push(
			select(w, await walkRound(w, r2Bridges, exclude, [])).map((p) => ({ ...p, round: 2 })),
		);
		r2Bridges.forEach((b) => used.add(b.entity.id));
	}
	const picked = rounds.flat();
	return {
		...base,
		...grounding,
		candidates: picked.map((p) => candidateOut(w, p)),
		bridges: bridgesOut(w, picked, anchor),
		truncations: w.truncations,
	};
}

// ---------------------------------------------------------------- setup

async function prepare(engine: EngineApi, input: ConnectionsInput): Promise<Walk> {
	const truncations: string[] = [];
	const asked = input.top_n ?? CONNECTION_LIMITS.defaultTopN;
	if (asked > CONNECTION_LIMITS.topN)
		truncations.push(`top_n ${asked} capped at ${CONNECTION_LIMITS.topN}`);
	const vec = input.sentence ? await engine.embed(input.sentence) : null;
	const filter = input.scope ? { scope: input.scope } : undefined;
	const sampled = vec ? await engine.cosineSample(vec, PERCENTILE_SAMPLE, filter) : null;
	const sample = sampled ? Float32Array.from(sampled.cosines).sort() : null;
	if (sampled && sampled.total > sampled.cosines.length)
		truncations.push(
			`cosine_percentile estimated from ${sampled.cosines.length} of ${sampled.total} memories`,
		);
	const total =
		sampled?.total ?? (await engine.timeline({ ...filter, limit: 1, max_content_chars: 0 })).total;
	const thresholds = await modelThresholds(engine);
	const w: Walk = {
		engine,
		relation: input.relation ?? 'similar',
		topN: Math.min(asked, CONNECTION_LIMITS.topN),
		scope: input.scope,
		vec,
		sample,
		total,
		truncations,
		entryCos: [],
		thresholds,
	};
	w.t0 = await timeBasis(engine, input);
	return w;
}

async function timeBasis(engine: EngineApi, input: ConnectionsInput): Promise<number | undefined> {
	if (input.reference_time) return Date.parse(input.reference_time);
	if (input.anchor_event_id === undefined) return undefined;
	const m = await memoryByRef(engine, input.anchor_event_id);
	if (!m)
		throw new MemoryError(
			'not_found',
			`anchor_event_id: no memory with id ${JSON.stringify(input.anchor_event_id)}`,
		);
	return Date.parse(m.timestamp);
}

async function memoryByRef(engine: EngineApi, ref: string | number): Promise<Memory | undefined> {
	const id = await engine.resolveId(ref);
	return id ? (await engine.getMemories([id]))[0] : undefined;
}

/** An entity by id, else by exact (case-insensitive) name; not_found names close matches. */
async function resolveEntity(engine: EngineApi, ref: string): Promise<Entity> {
	const [byId] = await engine.getEntities([ref]);
	if (byId) return byId;
	const similar = await engine.searchEntities(ref, 10);
	const exact = similar.find(
		(e) =>
			e.name.toLowerCase() === ref.toLowerCase() ||
			e.aliases.some((a) => a.toLowerCase() === ref.toLowerCase()),
	);
	if (exact) return exact;
	const hint = similar.length
		? `; similar: ${similar
				.slice(0, 5)
				.map((e) => e.id)
				.join(', ')}`
		: '';
	throw new MemoryError('not_found', `anchor_entity_id: no entity ${JSON.stringify(ref)}${hint}`);
}

// ---------------------------------------------------------------- entry and grounding

type Entry = { memory: Memory; cosine: number | null; via: 'vector' | 'lexical' | 'anchor_event' };

async function findEntry(w: Walk, input: ConnectionsInput): Promise<Entry[]> {
	const out: Entry[] = [];
	if (w.vec) {
		// Entry is the nearest few, but only those above the weak line: a far-off "nearest" memory
		// would open bridges that have nothing to do with the sentence.
		const all = await w.engine.nearest(
			w.vec,
			CONNECTION_LIMITS.entry,
			w.scope ? { scope: w.scope } : undefined,
		);
		const near = all.filter((n, i) => i === 0 || n.cosine >= weakLine(w));
		const mems = await w.engine.getMemories(near.map((n) => n.id));
		near.forEach(
			(n, i) => mems[i] && out.push({ memory: mems[i]!, cosine: n.cosine, via: 'vector' }),
		);
	}
	if (out.length === 0 && input.sentence) {
		const hits = await w.engine.recall({
			query: input.sentence,
			limit: CONNECTION_LIMITS.entry,
			scope: w.scope,
			expand_relations: false,
			expand_entities: false,
		});
		// Only direct keyword hits: recall's graph and neighbour expansion are not evidence here.
		for (const h of hits.results.filter((x) => x.match === 'direct' && x.matched_terms.length > 0))
			out.push({
				memory: h.memory,
				cosine: w.vec ? await cosineOf(w, h.memory.id) : null,
				via: 'lexical',
			});
	}
	if (input.anchor_event_id !== undefined) {
		const m = await memoryByRef(w.engine, input.anchor_event_id);
		if (m && !out.some((e) => e.memory.id === m.id))
			out.push({ memory: m, cosine: await cosineOf(w, m.id), via: 'anchor_event' });
	}
	w.entryCos = out.flatMap((e) => (e.cosine === null ? [] : [e.cosine]));
	return out;
}

async function modelThresholds(engine: EngineApi): Promise<Thresholds> {
	const model = (await engine.models()).active;
	return resolveThresholds(
		model,
		await engine.getSetting<Partial<Thresholds>>(thresholdsKey(model)),
	);
}

/** Share of the related-threshold a cosine must reach to count as weak evidence. */
const WEAK_SHARE = 0.75;

function weakLine(w: Walk): number {
	return WEAK_SHARE * w.thresholds.similar;
}

/**
 * grounded: the best entry reaches the model's SIMILAR_TO threshold (a real neighbour); weak: it
 * reaches 75% of it, or entry was by keywords only; absent: nothing in scope comes that near, so
 * no walk is made. Thresholds are per model (engine/thresholds.ts), percentiles only reported:
 * in a small scope the best memory is always near the top percentile, related or not.
 */
async function ground(
	w: Walk,
	entry: Entry[],
	anchor?: Entity,
): Promise<Pick<ConnectionsOutput, 'grounding' | 'grounding_basis'>> {
	if (w.relation === 'explore')
		return {
			grounding: 'exploration',
			grounding_basis: `walked from entity ${anchor!.id} (${anchor!.memory_count} memories); no sentence, so no cosine axis`,
		};
	if (anchor)
		return {
			grounding: anchor.memory_count > 0 ? 'grounded' : 'absent',
			grounding_basis: `walked from entity ${anchor.id}, mentioned by ${anchor.memory_count} memories; independent of the ranking`,
		};
	if (entry.length === 0)
		return {
			grounding: 'absent',
			grounding_basis:
				w.total === 0
					? 'no memories in scope'
					: 'no memory in scope shares a word or meaning with the sentence',
		};
	if (w.entryCos.length === 0)
		return {
			grounding: 'weak',
			grounding_basis: 'entered by keywords only: the model knows no word of the sentence',
		};
	const best = Math.max(...w.entryCos);
	const basis = `best entry cosine ${best.toFixed(2)} (percentile ${(percentile(w, best) ?? 0).toFixed(1)} of ${w.total}); related at ${w.thresholds.similar}, weak at ${weakLine(w).toFixed(2)}`;
	if (best >= w.thresholds.similar) return { grounding: 'grounded', grounding_basis: basis };
	if (best >= weakLine(w)) return { grounding: 'weak', grounding_basis: basis };
	return {
		grounding: 'absent',
		grounding_basis: `${basis}: nothing in scope is near the sentence`,
	};
}

// ---------------------------------------------------------------- the walk

function rarity(w: Walk, e: Entity): number {
	return Math.log(1 + Math.max(w.total, 1) / Math.max(1, e.memory_count));
}

/** The entities of `sources` not in `used`, rarest first, at most BRIDGES_PER_ROUND. */
async function collectBridges(w: Walk, sources: Source[], used: Set<string>): Promise<Bridge[]> {
	const byId = new Map<string, Bridge>();
	for (const s of sources)
		for (const e of await w.engine.entitiesOf(s.id))
			if (!used.has(e.id) && !byId.has(e.id))
				byId.set(e.id, { entity: e, rarity: rarity(w, e), source: s });
	const all = [...byId.values()].sort((a, b) => b.rarity - a.rarity);
	if (all.length > BRIDGES_PER_ROUND)
		w.truncations.push(`walked the ${BRIDGES_PER_ROUND} rarest of ${all.length} bridge entities`);
	return all.slice(0, BRIDGES_PER_ROUND);
}

/** Pools the memories reachable through `bridges` (plus `extra`), loads and scores them. */
async function walkRound(
	w: Walk,
	bridges: Bridge[],
	exclude: Set<string>,
	extra: Pooled[],
): Promise<Pooled[]> {
	const pool = new Map<string, { structural: number; bridge: Bridge }>();
	// A memory reached by an explicit link (evolution) keeps that path over any entity bridge.
	const linked = new Set(extra.map((e) => e.memory.id));
	for (const b of bridges) {
		let ids = await w.engine.memoryIdsForEntity(b.entity.id);
		if (ids.length > FANOUT) {
			w.truncations.push(
				`bridge ${b.entity.id} is mentioned by ${ids.length} memories; walked ${FANOUT}`,
			);
			ids = ids.slice(0, FANOUT);
		}
		for (const id of ids) {
			if (exclude.has(id) || linked.has(id)) continue;
			const cur = pool.get(id);
			if (!cur) pool.set(id, { structural: b.rarity, bridge: b });
			else cur.structural += b.rarity;
		}
	}
	let ranked = [...pool.entries()].sort((a, b) => b[1].structural - a[1].structural);
	if (ranked.length > POOL) {
		w.truncations.push(`scored the ${POOL} best-connected of ${ranked.length} reachable memories`);
		ranked = ranked.slice(0, POOL);
	}
	const mems = await w.engine.getMemories(ranked.map(([id]) => id));
	const out: Pooled[] = extra.filter(
		(e) => !exclude.has(e.memory.id) && (!w.scope || e.memory.scope === w.scope),
	);
	for (let i = 0; i < ranked.length; i++) {
		const m = mems[i];
		if (!m || (w.scope && m.scope !== w.scope)) continue;
		const { structural, bridge } = ranked[i][1];
		out.push({
			memory: m,
			path: [...bridge.source.path, bridge.entity.id, m.id],
			bridge: bridge.entity,
			structural,
			cos: await cosineOf(w, m.id),
			score: 0,
		});
	}
	return score(w, filterByRelation(w, out));
}

/** Memories along EVOLVED_INTO / INVALIDATED_BY from the entry, either direction. */
async function chainCandidates(w: Walk, start: string[]): Promise<Pooled[]> {
	const seen = new Set(start);
	let frontier = start.map((id) => ({ id, path: [id] }));
	const found: { id: string; path: string[] }[] = [];
	for (let hop = 0; hop < CHAIN_HOPS && frontier.length; hop++) {
		const next: typeof frontier = [];
		for (const f of frontier)
			for (const a of await w.engine.associationsOf(f.id)) {
				if (a.type !== 'EVOLVED_INTO' && a.type !== 'INVALIDATED_BY') continue;
				const other = a.from === f.id ? a.to : a.from;
				if (seen.has(other)) continue;
				seen.add(other);
				next.push({ id: other, path: [...f.path, a.type, other] });
			}
		found.push(...next);
		frontier = next;
	}
	const mems = await w.engine.getMemories(found.map((f) => f.id));
	const out: Pooled[] = [];
	for (let i = 0; i < found.length; i++) {
		const m = mems[i];
		if (m)
			out.push({
				memory: m,
				path: found[i].path,
				bridge: null,
				structural: Math.log(1 + w.total) * 2,
				cos: await cosineOf(w, m.id),
				score: 0,
			});
	}
	return out;
}

async function cosineOf(w: Walk, id: string): Promise<number | null> {
	if (!w.vec) return null;
	const v = await w.engine.vectorOf(id);
	return v ? cosine(v, w.vec) : null;
}

function filterByRelation(w: Walk, pool: Pooled[]): Pooled[] {
	const t = (p: Pooled) => Date.parse(p.memory.timestamp);
	if (w.relation === 'before') return pool.filter((p) => t(p) < w.t0!);
	if (w.relation === 'after') return pool.filter((p) => t(p) > w.t0!);
	if (w.relation === 'contrast') {
		// Lower in cosine than the entry's median: structurally close, semantically further away.
		const ceiling = median(w.entryCos) ?? 1;
		return pool.filter((p) => p.cos === null || p.cos < ceiling);
	}
	return pool;
}

function score(w: Walk, pool: Pooled[]): Pooled[] {
	const maxS = Math.max(...pool.map((p) => p.structural), 1e-9);
	const times = pool.map((p) => Date.parse(p.memory.timestamp));
	const [t0, t1] = [Math.min(...times), Math.max(...times)];
	for (const p of pool) {
		const rar = p.structural / maxS;
		const cos = p.cos ?? 0;
		if (w.relation === 'explore')
			p.score = 0.7 * rar + 0.3 * (t1 > t0 ? (Date.parse(p.memory.timestamp) - t0) / (t1 - t0) : 1);
		else if (w.relation === 'contrast') p.score = 0.6 * rar + 0.4 * (1 - cos);
		else p.score = w.vec ? 0.65 * cos + 0.35 * rar : rar;
	}
	return pool.sort((a, b) => b.score - a.score);
}

// ---------------------------------------------------------------- selection

function select(w: Walk, pool: Pooled[]): Pooled[] {
	if (pool.length <= w.topN && w.relation !== 'evolution') return pool;
	if (w.relation === 'similar') return stratifyByTime(pool, w.topN);
	if (w.relation === 'evolution') return stratifyEvolution(pool, w.topN);
	if (w.relation === 'explore') return withEarliest(pool, w.topN);
	return pool.slice(0, w.topN);
}

/** Best of each time stratum in turn, so picks spread over the pool's span instead of one burst. */
function stratifyByTime(pool: Pooled[], n: number): Pooled[] {
	const strata = Math.min(4, n);
	const byTime = [...pool].sort((a, b) => a.memory.timestamp.localeCompare(b.memory.timestamp));
	const bucket = new Map<Pooled, number>(
		byTime.map((p, i) => [p, Math.floor((i * strata) / byTime.length)]),
	);
	const queues = Array.from({ length: strata }, (_, s) => pool.filter((p) => bucket.get(p) === s));
	const out: Pooled[] = [];
	for (let i = 0; out.length < n; i++) {
		const q = queues[i % strata];
		if (q.length) out.push(q.shift()!);
		if (queues.every((x) => x.length === 0)) break;
	}
	return out.sort((a, b) => b.score - a.score);
}

/** First sighting, the largest shifts between neighbours in time, and the latest; in time order. */
function stratifyEvolution(pool: Pooled[], n: number): Pooled[] {
	const byTime = [...pool].sort((a, b) => a.memory.timestamp.localeCompare(b.memory.timestamp));
	if (byTime.length <= n) return byTime;
	const keep = new Set([byTime[0], byTime[byTime.length - 1]]);
	const shifts = byTime
		.slice(1)
		.map((p, i) => ({
			p,
			shift: Math.abs((p.cos ?? 0) - (byTime[i].cos ?? 0)) + (p.bridge === null ? 1 : 0),
		}));
	for (const s of shifts.sort((a, b) => b.shift - a.shift)) {
		if (keep.size >= n) break;
		keep.add(s.p);
	}
	return byTime.filter((p) => keep.has(p));
}

function withEarliest(pool: Pooled[], n: number): Pooled[] {
	const top = pool.slice(0, n);
	const earliest = pool.reduce((a, b) => (b.memory.timestamp < a.memory.timestamp ? b : a));
	return top.includes(earliest) ? top : [...top.slice(0, n - 1), earliest];
}

// ---------------------------------------------------------------- output

function percentile(w: Walk, c: number | null): number | null {
	if (c === null || !w.sample || w.sample.length === 0) return null;
	let lo = 0;
	let hi = w.sample.length;
	while (lo < hi) {
		const mid = (lo + hi) >> 1;
		if (w.sample[mid] < c) lo = mid + 1;
		else hi = mid;
	}
	return Math.round((1000 * lo) / w.sample.length) / 10;
}

function median(xs: number[]): number | undefined {
	if (xs.length === 0) return undefined;
	const s = [...xs].sort((a, b) => a - b);
	return s[Math.floor(s.length / 2)];
}

function brief(m: Memory): string {
	const s = (m.summary ?? m.content).replace(/\s+/g, ' ').trim();
	return s.length <= 240 ? s : `${s.slice(0, 239)}…`;
}

function round3(x: number | null): number | null {
	return x === null ? null : Math.round(x * 1000) / 1000;
}

function candidateOut(w: Walk, p: Pooled & { round: number }): ConnectionCandidate {
	return {
		event_id: p.memory.id,
		seq: p.memory.seq,
		summary: brief(p.memory),
		path: p.path,
		bridge_entity_id: p.bridge?.id ?? null,
		cosine: round3(p.cos),
		cosine_percentile: percentile(w, p.cos),
		timestamp: p.memory.timestamp,
		round: p.round,
		score: round3(p.score)!,
	};
}

function entryOut(e: Entry): ConnectionsOutput['entry'][number] {
	return { event_id: e.memory.id, summary: brief(e.memory), cosine: round3(e.cosine), via: e.via };
}

function bridgesOut(
	w: Walk,
	picks: (Pooled & { round: number })[],
	anchor?: Entity,
): ConnectionsOutput['bridges'] {
	const out = new Map<string, ConnectionsOutput['bridges'][number]>();
	if (anchor)
		out.set(anchor.id, {
			entity_id: anchor.id,
			name: anchor.name,
			type: anchor.type,
			memory_count: anchor.memory_count,
			rarity: round3(rarity(w, anchor))!,
			round: 1,
			candidates: 0,
		});
	for (const p of picks) {
		if (!p.bridge) continue;
		const b = out.get(p.bridge.id) ?? {
			entity_id: p.bridge.id,
			name: p.bridge.name,
			type: p.bridge.type,
			memory_count: p.bridge.memory_count,
			rarity: round3(rarity(w, p.bridge))!,
			round: p.round,
			candidates: 0,
		};
		b.candidates++;
		out.set(p.bridge.id, b);
	}
	return [...out.values()];
}

function searchedScope(w: Walk): ConnectionsOutput['searched_scope'] {
	const window =
		w.t0 === undefined
			? undefined
			: w.relation === 'before'
				? { before: new Date(w.t0).toISOString() }
				: { after: new Date(w.t0).toISOString() };
	return { scope: w.scope ?? '*', memories: w.total, ...(window ? { time_window: window } : {}) };
}

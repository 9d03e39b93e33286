/**
 * find_memory_connections, selection and output: which of a round's scored candidates are
 * returned (time-stratified for "similar", first/shifts/latest for "evolution", the earliest kept
 * for "explore"), and the output records. Contract: pure; never reads.
 */
import type { ConnectionCandidate, ConnectionsOutput } from '../../core/graph-schemas';
import type { Entity, Memory } from '../../core/schemas';
import { percentile, rarity, type Entry, type Pooled, type Walk } from './connections-state';
import { round3 } from '../../core/numbers';
import { isoOrder } from '../../core/time';

/** The picks of one round: at most topN, chosen as the relation asks. */
export function select(w: Walk, pool: Pooled[]): Pooled[] {
	if (pool.length <= w.topN && w.relation !== 'evolution') return pool;
	if (w.relation === 'similar') return stratifyByTime(pool, w.topN);
	if (w.relation === 'evolution') return stratifyEvolution(pool, w.topN);
	if (w.relation === 'explore') return withEarliest(pool, w.topN);
	return pool.slice(0, w.topN);
}

/** Best of each time stratum in turn, so picks spread over the pool's span instead of one burst. */
function stratifyByTime(pool: Pooled[], n: number): Pooled[] {
	const strata = Math.min(4, n);
	const byTime = [...pool].sort((a, b) => isoOrder(a.memory.timestamp, b.memory.timestamp));
	const bucket = new Map<Pooled, number>(byTime.map((p, i) => [p, Math.floor((i * strata) / byTime.length)]));
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
	const byTime = [...pool].sort((a, b) => isoOrder(a.memory.timestamp, b.memory.timestamp));
	if (byTime.length <= n) return byTime;
	const keep = new Set([byTime[0], byTime[byTime.length - 1]]);
	const shifts = byTime.slice(1).map((p, i) => ({
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
	const earliest = pool.reduce((a, b) => (isoOrder(b.memory.timestamp, a.memory.timestamp) < 0 ? b : a));
	return top.includes(earliest) ? top : [...top.slice(0, n - 1), earliest];
}

function brief(m: Memory): string {
	const s = (m.summary ?? m.content).replace(/\s+/g, ' ').trim();
	return s.length <= 240 ? s : `${s.slice(0, 239)}…`;
}

/** Rounded to three decimals; null stays null. */
function round3OrNull(x: number | null): number | null {
	return x === null ? null : round3(x);
}

/** A pick as the output names it, with its cosine's percentile in scope. */
export function candidateOut(w: Walk, p: Pooled & { round: number }): ConnectionCandidate {
	return {
		event_id: p.memory.id,
		seq: p.memory.seq,
		summary: brief(p.memory),
		path: p.path,
		bridge_entity_id: p.bridge?.id ?? null,
		cosine: round3OrNull(p.cos),
		cosine_percentile: percentile(w, p.cos),
		timestamp: p.memory.timestamp,
		round: p.round,
		score: round3(p.score),
	};
}

/** An entry memory as the output names it. */
export function entryOut(e: Entry): ConnectionsOutput['entry'][number] {
	return { event_id: e.memory.id, summary: brief(e.memory), cosine: round3OrNull(e.cosine), via: e.via };
}

/** The bridges the picks came through (and the anchor entity), each with its pick count. */
export function bridgesOut(w: Walk, picks: (Pooled & { round: number })[], anchor?: Entity): ConnectionsOutput['bridges'] {
	const out = new Map<string, ConnectionsOutput['bridges'][number]>();
	if (anchor)
		out.set(anchor.id, {
			entity_id: anchor.id,
			name: anchor.name,
			type: anchor.type,
			memory_count: anchor.memory_count,
			rarity: round3(rarity(w, anchor)),
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
			rarity: round3(rarity(w, p.bridge)),
			round: p.round,
			candidates: 0,
		};
		b.candidates++;
		out.set(p.bridge.id, b);
	}
	return [...out.values()];
}

/** What was searched: the scope, its memory count, and the time window of before / after. */
export function searchedScope(w: Walk): ConnectionsOutput['searched_scope'] {
	const window =
		w.t0 === undefined ? undefined : w.relation === 'before' ? { before: new Date(w.t0).toISOString() } : { after: new Date(w.t0).toISOString() };
	return { scope: w.scope ?? '*', memories: w.total, ...(window ? { time_window: window } : {}) };
}

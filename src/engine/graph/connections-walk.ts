/**
 * find_memory_connections, the expansion: from sources to their bridge entities, from bridges
 * to the memories that mention them (plus explicit EVOLVED_INTO / INVALIDATED_BY chains), scored
 * by cosine to the sentence and bridge rarity and filtered by the relation asked for.
 * Contract: every cap that cuts the walk adds a line to `w.truncations`; reads are batched
 * (one bulk read per round's pool), cosines come from the rows already read.
 */
import { BRIDGES_PER_ROUND, CHAIN_HOPS, cosineOf, FANOUT, median, POOL, rarity, type Bridge, type Pooled, type Source, type Walk } from './connections-state';

/** The entities of `sources` not in `used`, rarest first, at most BRIDGES_PER_ROUND. */
export async function collectBridges(w: Walk, sources: Source[], used: Set<string>): Promise<Bridge[]> {
	const byId = new Map<string, Bridge>();
	await w.reads.preloadEntitiesOf(sources.map((s) => s.id));
	for (const s of sources)
		for (const e of await w.reads.entitiesOf(s.id)) if (!used.has(e.id) && !byId.has(e.id)) byId.set(e.id, { entity: e, rarity: rarity(w, e), source: s });
	const all = [...byId.values()].sort((a, b) => b.rarity - a.rarity);
	if (all.length > BRIDGES_PER_ROUND) w.truncations.push(`walked the ${BRIDGES_PER_ROUND} rarest of ${all.length} bridge entities`);
	return all.slice(0, BRIDGES_PER_ROUND);
}

/** Pools the memories reachable through `bridges` (plus `extra`), loads and scores them. */
export async function walkRound(w: Walk, bridges: Bridge[], exclude: Set<string>, extra: Pooled[]): Promise<Pooled[]> {
	const pool = new Map<string, { structural: number; bridge: Bridge }>();
	// A memory reached by an explicit link (evolution) keeps that path over any entity bridge.
	const linked = new Set(extra.map((e) => e.memory.id));
	for (const b of bridges) {
		let ids = await w.reads.memoryIdsForEntity(b.entity.id);
		if (ids.length > FANOUT) {
			w.truncations.push(`bridge ${b.entity.id} is mentioned by ${ids.length} memories; walked ${FANOUT}`);
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
	const mems = await w.reads.getMemories(ranked.map(([id]) => id));
	const out: Pooled[] = extra.filter((e) => !exclude.has(e.memory.id) && (!w.scope || e.memory.scope === w.scope));
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
export async function chainCandidates(w: Walk, start: string[]): Promise<Pooled[]> {
	const seen = new Set(start);
	let frontier = start.map((id) => ({ id, path: [id] }));
	const found: { id: string; path: string[] }[] = [];
	for (let hop = 0; hop < CHAIN_HOPS && frontier.length; hop++) {
		const next: typeof frontier = [];
		for (const f of frontier)
			for (const a of await w.reads.associationsOf(f.id)) {
				if (a.type !== 'EVOLVED_INTO' && a.type !== 'INVALIDATED_BY') continue;
				const other = a.from === f.id ? a.to : a.from;
				if (seen.has(other)) continue;
				seen.add(other);
				next.push({ id: other, path: [...f.path, a.type, other] });
			}
		found.push(...next);
		frontier = next;
	}
	const mems = await w.reads.getMemories(found.map((f) => f.id));
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
		if (w.relation === 'explore') p.score = 0.7 * rar + 0.3 * (t1 > t0 ? (Date.parse(p.memory.timestamp) - t0) / (t1 - t0) : 1);
		else if (w.relation === 'contrast') p.score = 0.6 * rar + 0.4 * (1 - cos);
		else p.score = w.vec ? 0.65 * cos + 0.35 * rar : rar;
	}
	return pool.sort((a, b) => b.score - a.score);
}

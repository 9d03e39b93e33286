/**
 * query_memory_graph, expansion: from the node a row binds, the steps one relationship pattern
 * takes, by kind: stored links (any type, {min}, *a..b hops), NEXT (thread order), MENTIONS,
 * TAGGED, SHARES (entities in common, rarity-weighted), SIMILAR (nearest in meaning) and FAR
 * (a cosine test between two bound memories).
 *
 * Contract: each row yields one row per step (checked against the target node's label and
 * properties); past GRAPH_LIMITS.rows the run is cut and marked partial; a relationship joining
 * the wrong kinds of node throws invalid_input naming both.
 */
import { ASSOCIATION_TYPES_ALL, type NodePattern, type RelPattern } from '../../core/graph-query';
import { GRAPH_LIMITS } from '../../core/graph-schemas';
import type { Association } from '../../core/schemas';
import { filterNodes } from './query-evaluate';
import {
	flip,
	invalid,
	key,
	nodeName,
	numProp,
	round3,
	type Dir,
	type GNode,
	type GRel,
	type MemNode,
	type QueryState,
	type Row,
	type Step,
} from './query-state';

/**
 * The rows extended by one relationship, from `fromPat`'s node to `toPat`'s (`reversed` when
 * the path is read right to left); a row whose target is already bound keeps only that target.
 */
export async function expand(ex: QueryState, rows: Row[], fromPat: NodePattern, rel: RelPattern, toPat: NodePattern, reversed: boolean): Promise<Row[]> {
	const dir = reversed ? flip(rel.dir) : rel.dir;
	await preloadFrom(ex, rows, fromPat, rel, toPat);
	const out: Row[] = [];
	for (const r of rows) {
		if (ex.outOfTime()) break;
		const from = r[fromPat.var] as GNode;
		const bound = r[toPat.var] as GNode | undefined;
		const steps = await stepsFrom(ex, from, rel, dir, toPat, bound);
		for (const s of steps) {
			if (bound && key(bound) !== key(s.node)) continue;
			out.push(rel.var ? { ...r, [toPat.var]: s.node, [rel.var]: s.rel } : { ...r, [toPat.var]: s.node });
			if (out.length > GRAPH_LIMITS.rows) return ex.capRows(out);
		}
	}
	return filterNodes(ex, out, toPat);
}

/**
 * Reads, in bulk, the rows of the memories the rows expand from (their links, tags, vectors
 * and entity lists live there), and their entities when the step goes to entities.
 */
async function preloadFrom(ex: QueryState, rows: Row[], fromPat: NodePattern, rel: RelPattern, toPat: NodePattern): Promise<void> {
	const ids = new Set<string>();
	for (const r of rows) {
		const v = r[fromPat.var];
		if (v?.kind === 'memory') ids.add(v.id);
	}
	if (ids.size === 0) return;
	const kind = relKind(rel, toPat, { kind: 'memory', id: '' });
	if (kind === 'MENTIONS' || kind === 'SHARES') await ex.reads.preloadEntitiesOf([...ids]);
	else await ex.reads.preload([...ids]);
}

async function stepsFrom(ex: QueryState, from: GNode, rel: RelPattern, dir: Dir, toPat: NodePattern, bound?: GNode): Promise<Step[]> {
	const type = relKind(rel, toPat, from);
	if (type === 'FAR') return far(ex, from, bound, rel);
	if (type === 'MENTIONS') return mentions(ex, from, dir);
	if (type === 'TAGGED') return tagged(ex, from, dir);
	if (type === 'SIMILAR') return similar(ex, from, rel, bound);
	const once = (id: string) => (type === 'SHARES' ? shares(ex, id, rel) : type === 'NEXT' ? nextSteps(ex, id, dir) : links(ex, id, rel, dir));
	if (from.kind !== 'memory')
		throw invalid(`${type === 'LINK' ? rel.types.join('|') || 'a link' : type} joins two memories, but ${from.kind} ${nodeName(from)} is on one side`);
	return rel.hops ? hops(ex, from.id, rel.hops, once, type) : once(from.id);
}

async function hops(ex: QueryState, start: string, range: { min: number; max: number }, once: (id: string) => Promise<Step[]>, type: string): Promise<Step[]> {
	const seen = new Set([start]);
	const out: Step[] = [];
	let frontier: { id: string; path: string[] }[] = [{ id: start, path: [start] }];
	for (let depth = 1; depth <= range.max && frontier.length; depth++) {
		const next: typeof frontier = [];
		for (const f of frontier) {
			if (ex.outOfTime()) return out;
			for (const s of await once(f.id)) {
				const id = (s.node as MemNode).id;
				if (seen.has(id)) continue;
				seen.add(id);
				const path = [...f.path, id];
				next.push({ id, path });
				if (depth >= range.min) out.push({ node: s.node, rel: { ...s.rel, kind: 'rel', type, hops: depth, path } });
			}
		}
		frontier = next;
	}
	return out;
}

async function links(ex: QueryState, id: string, rel: RelPattern, dir: Dir): Promise<Step[]> {
	const min = numProp(rel, 'min', 0);
	const types = rel.types.length ? rel.types : ASSOCIATION_TYPES_ALL;
	const out: Step[] = [];
	for (const a of await ex.reads.associationsOf(id)) {
		if (!types.includes(a.type) || a.strength < min) continue;
		const other = a.from === id ? a.to : a.from;
		const isOut = a.from === id;
		if ((dir === 'out' && !isOut) || (dir === 'in' && isOut)) continue;
		out.push({ node: { kind: 'memory', id: other }, rel: linkRel(a) });
	}
	return out;
}

async function nextSteps(ex: QueryState, id: string, dir: Dir): Promise<Step[]> {
	// One step per neighbour: a thread linked both ways (the store-order PRECEDED_BY and an
	// authored OCCURRED_BEFORE, as AiAkiv's prev_event_id makes) is one NEXT, via the authored link.
	const out = new Map<string, Step>();
	for (const a of await ex.reads.associationsOf(id)) {
		// b PRECEDED_BY a and a OCCURRED_BEFORE b both say b comes next after a.
		const nextOf = (a.type === 'PRECEDED_BY' && a.to === id) || (a.type === 'OCCURRED_BEFORE' && a.from === id);
		const prevOf = (a.type === 'PRECEDED_BY' && a.from === id) || (a.type === 'OCCURRED_BEFORE' && a.to === id);
		if (!((dir === 'out' && nextOf) || (dir === 'in' && prevOf))) continue;
		const other = a.from === id ? a.to : a.from;
		const seen = out.get(other);
		if (seen && seen.rel.via !== 'PRECEDED_BY') continue;
		out.set(other, { node: { kind: 'memory', id: other }, rel: { kind: 'rel', type: 'NEXT', hops: 1, via: a.type } });
	}
	return [...out.values()];
}

async function mentions(ex: QueryState, from: GNode, dir: Dir): Promise<Step[]> {
	const rel = { kind: 'rel', type: 'MENTIONS' } as GRel;
	if (from.kind === 'memory') {
		if (dir === 'in') throw invalid('MENTIONS points from a Memory to an Entity: write (m)-[:MENTIONS]->(e) or (e)<-[:MENTIONS]-(m)');
		return (await ex.reads.entitiesOf(from.id)).map((e) => ({
			node: { kind: 'entity', id: ex.cacheEntity(e) },
			rel,
		}));
	}
	if (from.kind === 'entity') {
		if (dir === 'out') throw invalid('MENTIONS points from a Memory to an Entity: write (e)<-[:MENTIONS]-(m)');
		const e = await ex.entity(from.id);
		return e ? (await ex.memoryIdsForEntity(e)).map((id) => ({ node: { kind: 'memory', id }, rel })) : [];
	}
	throw invalid('MENTIONS joins a Memory and an Entity, not a Tag');
}

async function tagged(ex: QueryState, from: GNode, dir: Dir): Promise<Step[]> {
	const rel = { kind: 'rel', type: 'TAGGED' } as GRel;
	if (from.kind === 'memory') {
		if (dir === 'in') throw invalid('TAGGED points from a Memory to a Tag: write (m)-[:TAGGED]->(t:Tag)');
		const [m] = await ex.loadMemories([from.id]);
		return (m?.tags ?? []).map((name) => ({ node: { kind: 'tag', name }, rel }));
	}
	if (from.kind === 'tag') {
		if (dir === 'out') throw invalid('TAGGED points from a Memory to a Tag: write (t:Tag)<-[:TAGGED]-(m)');
		return (await ex.scanMemories({ tags: [from.name] })).map((id) => ({
			node: { kind: 'memory', id },
			rel,
		}));
	}
	throw invalid('TAGGED joins a Memory and a Tag, not an Entity');
}

async function shares(ex: QueryState, id: string, rel: RelPattern): Promise<Step[]> {
	const min = numProp(rel, 'min', 1);
	const minW = numProp(rel, 'min_w', 0);
	const total = await ex.total();
	const acc = new Map<string, { count: number; weight: number; via: string[] }>();
	for (const e of await ex.reads.entitiesOf(id)) {
		const w = Math.log(1 + total / Math.max(1, e.memory_count));
		for (const other of await ex.memoryIdsForEntity(e)) {
			if (other === id) continue;
			const a = acc.get(other) ?? { count: 0, weight: 0, via: [] };
			a.count++;
			a.weight += w;
			a.via.push(e.name);
			acc.set(other, a);
		}
	}
	return [...acc.entries()]
		.filter(([, a]) => a.count >= min && a.weight >= minW)
		.sort((x, y) => y[1].weight - x[1].weight)
		.map(([other, a]) => ({
			node: { kind: 'memory', id: other },
			rel: { kind: 'rel', type: 'SHARES', count: a.count, weight: round3(a.weight), via: a.via },
		}));
}

async function similar(ex: QueryState, from: GNode, rel: RelPattern, bound?: GNode): Promise<Step[]> {
	if (from.kind !== 'memory') throw invalid('SIMILAR joins two memories');
	const min = numProp(rel, 'min', 0);
	if (bound?.kind === 'memory') {
		const cos = await ex.cosine(from.id, bound.id);
		return cos !== null && cos >= min ? [{ node: bound, rel: { kind: 'rel', type: 'SIMILAR', cos: round3(cos) } }] : [];
	}
	const k = Math.min(numProp(rel, 'k', 10), GRAPH_LIMITS.fanout);
	const v = await ex.reads.vectorOf(from.id);
	if (!v) return [];
	const near = await ex.reads.nearest(v, k + 1);
	return near
		.filter((n) => n.id !== from.id && n.cosine >= min)
		.slice(0, k)
		.map((n) => ({
			node: { kind: 'memory', id: n.id },
			rel: { kind: 'rel', type: 'SIMILAR', cos: round3(n.cosine) },
		}));
}

async function far(ex: QueryState, from: GNode, bound: GNode | undefined, rel: RelPattern): Promise<Step[]> {
	if (!bound) throw invalid('FAR needs both ends already bound, e.g. (a)-[:SHARES]-(b)-[:FAR {max: 0.5}]-(a)');
	if (from.kind !== 'memory' || bound.kind !== 'memory') throw invalid('FAR joins two memories');
	const cos = await ex.cosine(from.id, bound.id);
	return cos !== null && cos < numProp(rel, 'max', 0.5) ? [{ node: bound, rel: { kind: 'rel', type: 'FAR', cos: round3(cos) } }] : [];
}

/** Which expansion a relationship needs; untyped ones follow the labels at their ends. */
function relKind(rel: RelPattern, to: NodePattern, from: GNode): string {
	const t = rel.types;
	if (t.length === 1 && ['MENTIONS', 'TAGGED', 'SHARES', 'SIMILAR', 'FAR', 'NEXT'].includes(t[0])) return t[0];
	if (t.length === 0 && (to.label === 'Entity' || from.kind === 'entity')) return 'MENTIONS';
	if (t.length === 0 && (to.label === 'Tag' || from.kind === 'tag')) return 'TAGGED';
	return 'LINK';
}

/** A stored link as a relationship value: every field but the ends' kinds. */
function linkRel(a: Association): GRel {
	const { from, to, type, strength, ...rest } = a;
	const extra = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
	return { kind: 'rel', type, from, to, strength, ...extra };
}

/**
 * query_memory_graph, plan and bind: START's events(...) and each MATCH path's first bindings.
 * A path is anchored at a node already bound by an earlier clause, else at its most selective
 * node (ids beat names, names beat tag/type scans, which beat full scans); the rows then expand
 * outward from the anchor along the path, right then left (query-expand.ts).
 *
 * Contract: returns rows binding every variable of the path; a missing id or entity adds a note,
 * a scan cap marks the run partial; a node that cannot start a path throws invalid_input.
 */
import { constValue, type NodePattern, type PathPattern } from '../../core/graph-query';
import { GRAPH_LIMITS } from '../../core/graph-schemas';
import { cosine } from '../../core/vector';
import { filterNodes } from './query-evaluate';
import { expand } from './query-expand';
import { clampK, invalid, optString, type GNode, type QueryState, type Row } from './query-state';
import { isoOrder } from '../../core/time';

/** START's memories: by ids, an entity, a tag, or nearest a text (k of them, with notes when cut). */
export async function start(ex: QueryState): Promise<GNode[]> {
	const args = Object.fromEntries(Object.entries(ex.q.start!.args).map(([k, v]) => [k, constValue(v)]));
	const text = optString(args.text, 'text');
	const k = clampK(args.k, text ? 20 : GRAPH_LIMITS.maxStartK, ex.notes);
	const scope = optString(args.scope, 'scope');
	let ids: string[];
	if (args.ids !== undefined) ids = await resolveIds(ex, args.ids, 'id');
	else if (args.entity !== undefined) ids = await entityMemories(ex, String(args.entity));
	else if (args.tag !== undefined) ids = await ex.scanMemories({ tags: [String(args.tag)], scope });
	else if (text) ids = [];
	else throw invalid('START events(...) needs text, entity, tag or ids');
	if (scope && args.ids === undefined) ids = (await ex.loadMemories(ids)).filter((m) => m.scope === scope).map((m) => m.id);
	if (text) ids = await rankByText(ex, text, ids, args.ids !== undefined || args.entity !== undefined || args.tag !== undefined, k, scope);
	else if (ids.length > k) {
		ex.notes.push(`start: the ${k} newest of ${ids.length} events (raise k up to ${GRAPH_LIMITS.maxStartK} to see more)`);
		ids = ids.slice(0, k);
	}
	return ids.map((id) => ({ kind: 'memory', id }));
}

async function rankByText(ex: QueryState, text: string, pool: string[], restricted: boolean, k: number, scope?: string): Promise<string[]> {
	const vec = await ex.reads.embed(text);
	if (!vec) {
		const hits = await ex.reads.recall({
			query: text,
			limit: Math.min(k, 200),
			scope,
			expand_entities: false,
			expand_relations: false,
		});
		ex.notes.push('start: no vector for the text (unknown words); ranked by keywords');
		return hits.results.map((h) => h.memory.id).filter((id) => !restricted || pool.includes(id));
	}
	if (!restricted) {
		const near = await ex.reads.nearest(vec, k, scope ? { scope } : undefined);
		near.forEach((n) => ex.startScore.set(n.id, n.cosine));
		return near.map((n) => n.id);
	}
	const scored: { id: string; cos: number }[] = [];
	await ex.reads.preload(pool);
	for (const id of pool) {
		const v = await ex.reads.vectorOf(id);
		if (v) scored.push({ id, cos: cosine(v, vec) });
	}
	scored.sort((a, b) => b.cos - a.cos);
	if (scored.length > k) ex.notes.push(`start: the ${k} closest to the text of ${scored.length} candidates`);
	scored.slice(0, k).forEach((s) => ex.startScore.set(s.id, s.cos));
	return scored.slice(0, k).map((s) => s.id);
}

/** Binds one MATCH path onto `rows`: anchor it, then expand right and left of the anchor. */
export async function matchPath(ex: QueryState, rows: Row[], p: PathPattern): Promise<Row[]> {
	const boundIdx = p.nodes.findIndex((n) => rows[0] && n.var in rows[0]);
	const anchor = boundIdx >= 0 ? boundIdx : pickAnchor(p);
	let out = boundIdx >= 0 ? rows : await bindAnchor(ex, rows, p.nodes[anchor]);
	out = await filterNodes(ex, out, p.nodes[anchor]);
	for (let i = anchor; i < p.rels.length; i++) out = await expand(ex, out, p.nodes[i], p.rels[i], p.nodes[i + 1], false);
	for (let i = anchor - 1; i >= 0; i--) out = await expand(ex, out, p.nodes[i + 1], p.rels[i], p.nodes[i], true);
	return out;
}

/** The node to bind first: ids beat names, names beat tag/type scans, which beat full scans. */
function pickAnchor(p: PathPattern): number {
	const rank = (n: NodePattern) => {
		if ('id' in n.props || 'ids' in n.props || 'seq' in n.props) return 0;
		if ((n.label === 'Entity' || n.label === 'Tag') && ('name' in n.props || 'id' in n.props)) return 1;
		if (n.label !== 'Entity' && n.label !== 'Tag' && ('tag' in n.props || 'type' in n.props || 'scope' in n.props)) return 2;
		return n.label === 'Entity' || n.label === 'Tag' ? 4 : 3;
	};
	let best = 0;
	p.nodes.forEach((n, i) => rank(n) < rank(p.nodes[best]) && (best = i));
	return best;
}

async function bindAnchor(ex: QueryState, rows: Row[], n: NodePattern): Promise<Row[]> {
	const nodes = await anchorNodes(ex, n);
	// Stops one row past the cap: the product of two unconnected patterns, (a), (b), once built
	// 1000 × 5000 rows to keep 5000, and each further one again (seconds per pattern, a stalled engine).
	const out: Row[] = [];
	for (const r of rows) {
		if (ex.outOfTime()) break;
		for (const node of nodes) {
			out.push({ ...r, [n.var]: node });
			if (out.length > GRAPH_LIMITS.rows) return ex.capRows(out);
		}
	}
	return out;
}

async function anchorNodes(ex: QueryState, n: NodePattern): Promise<GNode[]> {
	const props = Object.fromEntries(Object.entries(n.props).map(([k, v]) => [k, constValue(v)]));
	if (n.label === 'Entity') return (await findEntities(ex, props)).map((id) => ({ kind: 'entity', id }));
	if (n.label === 'Tag') {
		if (typeof props.name !== 'string')
			throw invalid(`a Tag node needs {name: "…"} to start from, or must be reached from a memory: (m)-[:TAGGED]->(t:Tag)`);
		return [{ kind: 'tag', name: props.name }];
	}
	const ids = props.id ?? props.ids;
	if (ids !== undefined || props.seq !== undefined)
		return (await resolveIds(ex, ids ?? props.seq, ids === undefined ? 'seq' : 'id')).map((id) => ({ kind: 'memory', id }));
	const tags = typeof props.tag === 'string' ? [props.tag] : Array.isArray(props.tags) ? props.tags.map(String) : undefined;
	const types = typeof props.type === 'string' ? [props.type] : undefined;
	return (await ex.scanMemories({ tags, types, scope: optString(props.scope, 'scope') })).map((id) => ({ kind: 'memory', id }));
}

async function findEntities(ex: QueryState, props: Record<string, unknown>): Promise<string[]> {
	if (typeof props.id === 'string') return (await ex.reads.getEntities([props.id])).flatMap((e) => (e ? [ex.cacheEntity(e)] : []));
	if (typeof props.name !== 'string')
		throw invalid('an Entity node needs {name: "…"} or {id: "…"} to start from, or must be reached from a memory: (m)-[:MENTIONS]->(e:Entity)');
	const name = props.name.toLowerCase();
	const found = await ex.reads.searchEntities(props.name, 20);
	return found.filter((e) => e.name.toLowerCase() === name || e.aliases.some((a) => a.toLowerCase() === name)).map((e) => ex.cacheEntity(e));
}

/**
 * Memory ids from `id`/`ids` (strings, matched exactly) or `seq` (integers). A numeric-looking
 * id is still an id: "7" never names the memory with seq 7.
 */
async function resolveIds(ex: QueryState, v: unknown, kind: 'id' | 'seq'): Promise<string[]> {
	const refs = Array.isArray(v) ? v : [v];
	const out: string[] = [];
	for (const ref of refs) {
		if (kind === 'id' && typeof ref !== 'string') throw invalid(`memory ids are strings, got ${JSON.stringify(ref)}; match {seq: …} for an integer seq`);
		if (kind === 'seq' && !Number.isInteger(ref)) throw invalid(`seq must be an integer, got ${JSON.stringify(ref)}`);
		const id = await ex.reads.resolveId(ref as string | number);
		if (id) out.push(id);
		else ex.notes.push(`no memory with ${kind} ${JSON.stringify(ref)}`);
	}
	return out;
}

async function entityMemories(ex: QueryState, name: string): Promise<string[]> {
	const ents = await findEntities(ex, { name });
	if (ents.length === 0) ex.notes.push(`no entity named ${JSON.stringify(name)}`);
	const ids: string[] = [];
	for (const id of ents) ids.push(...(await ex.memoryIdsForEntity(ex.entities.get(id)!)));
	const mems = await ex.loadMemories([...new Set(ids)]);
	return mems.sort((a, b) => isoOrder(b.timestamp, a.timestamp)).map((m) => m.id);
}

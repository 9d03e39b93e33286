/**
 * Executor of query_memory_graph: runs a parsed pattern (core/graph-query.ts) against the
 * EngineApi read helpers only. Binding proceeds row by row: START (or the most selective node of
 * each path) binds first, then each relationship expands the rows outward along the path; WHERE
 * filters, RETURN projects or aggregates, ORDER BY / SKIP / LIMIT page. Every cap that cuts the
 * search sets `partial`, every cut of the output sets `truncated`, and both add a note.
 */
import { MemoryError } from '../core/errors';
import {
	bindParams,
	constValue,
	parseGraphQuery,
	type Expr,
	type GraphQuery,
	type NodePattern,
	type PathPattern,
	type RelPattern,
	ASSOCIATION_TYPES_ALL,
} from '../core/graph-query';
import { GRAPH_LIMITS, type GraphQueryInput, type GraphQueryOutput } from '../core/graph-schemas';
import type { Association, Entity, Memory } from '../core/schemas';
import { cosine } from '../core/vector';
import type { EngineApi } from './types';

/** Most characters of JSON the rows of one result may take. */
const ROWS_BUDGET = 500_000;

type MemNode = { kind: 'memory'; id: string };
type EntNode = { kind: 'entity'; id: string };
type TagNode = { kind: 'tag'; name: string };
type GNode = MemNode | EntNode | TagNode;
type GRel = { kind: 'rel'; type: string } & Record<string, unknown>;
type Val = GNode | GRel;
type Row = Record<string, Val>;
type Step = { node: GNode; rel: GRel };

const MEMORY_PROPS = [
	'id',
	'seq',
	'content',
	'summary',
	'type',
	'tags',
	'scope',
	'source',
	'importance',
	'confidence',
	'timestamp',
	'updated_at',
	't_valid',
	't_invalid',
	'access_count',
	'current',
	'entities',
	'score',
];
const ENTITY_PROPS = ['id', 'name', 'type', 'memory_count', 'aliases', 'first_seen', 'last_seen'];

/** Parses, binds params and runs a query. Bad queries throw MemoryError('invalid_input'). */
export async function runGraphQuery(
	engine: EngineApi,
	input: GraphQueryInput,
): Promise<GraphQueryOutput> {
	const q = bindParams(parseGraphQuery(input.query), input.params);
	return new Execution(engine, q).run();
}

class Execution {
	private memories = new Map<string, Memory | null>();
	private entities = new Map<string, Entity | null>();
	private startScore = new Map<string, number>();
	private totalMemories?: number;
	private notes: string[] = [];
	private partial = false;
	private truncated = false;

	constructor(
		private readonly engine: EngineApi,
		private readonly q: GraphQuery,
	) {}

	async run(): Promise<GraphQueryOutput> {
		let rows: Row[] = [{}];
		if (this.q.start) rows = (await this.start()).map((n) => ({ [this.q.start!.var]: n }));
		for (const p of this.q.match) rows = await this.matchPath(rows, p);
		if (this.q.where) {
			await this.preload(rows, varsOf([this.q.where]));
			rows = await this.filter(rows, this.q.where);
		}
		return this.project(rows);
	}

	// ------------------------------------------------------------ START

	private async start(): Promise<GNode[]> {
		const args = Object.fromEntries(
			Object.entries(this.q.start!.args).map(([k, v]) => [k, constValue(v)]),
		);
		const text = optString(args.text, 'text');
		const k = clampK(args.k, text ? 20 : GRAPH_LIMITS.maxStartK, this.notes);
		const scope = optString(args.scope, 'scope');
		let ids: string[];
		if (args.ids !== undefined) ids = await this.resolveIds(args.ids, 'id');
		else if (args.entity !== undefined) ids = await this.entityMemories(String(args.entity));
		else if (args.tag !== undefined)
			ids = await this.scanMemories({ tags: [String(args.tag)], scope });
		else if (text) ids = [];
		else throw invalid('START events(...) needs text, entity, tag or ids');
		if (scope && args.ids === undefined)
			ids = (await this.loadMemories(ids)).filter((m) => m.scope === scope).map((m) => m.id);
		if (text)
			ids = await this.rankByText(
				text,
				ids,
				args.ids !== undefined || args.entity !== undefined || args.tag !== undefined,
				k,
				scope,
			);
		else if (ids.length > k) {
			this.notes.push(
				`start: the ${k} newest of ${ids.length} events (raise k up to ${GRAPH_LIMITS.maxStartK} to see more)`,
			);
			ids = ids.slice(0, k);
		}
		return ids.map((id) => ({ kind: 'memory', id }));
	}

	private async rankByText(
		text: string,
		pool: string[],
		restricted: boolean,
		k: number,
		scope?: string,
	): Promise<string[]> {
		const vec = await this.engine.embed(text);
		if (!vec) {
			const hits = await this.engine.recall({
				query: text,
				limit: Math.min(k, 200),
				scope,
				expand_entities: false,
				expand_relations: false,
			});
			this.notes.push('start: no vector for the text (unknown words); ranked by keywords');
			return hits.results.map((h) => h.memory.id).filter((id) => !restricted || pool.includes(id));
		}
		if (!restricted) {
			const near = await this.engine.nearest(vec, k, scope ? { scope } : undefined);
			near.forEach((n) => this.startScore.set(n.id, n.cosine));
			return near.map((n) => n.id);
		}
		const scored: { id: string; cos: number }[] = [];
		for (const id of pool) {
			const v = await this.engine.vectorOf(id);
			if (v) scored.push({ id, cos: cosine(v, vec) });
		}
		scored.sort((a, b) => b.cos - a.cos);
		if (scored.length > k)
			this.notes.push(`start: the ${k} closest to the text of ${scored.length} candidates`);
		scored.slice(0, k).forEach((s) => this.startScore.set(s.id, s.cos));
		return scored.slice(0, k).map((s) => s.id);
	}

	// ------------------------------------------------------------ MATCH

	private async matchPath(rows: Row[], p: PathPattern): Promise<Row[]> {
		const boundIdx = p.nodes.findIndex((n) => rows[0] && n.var in rows[0]);
		const anchor = boundIdx >= 0 ? boundIdx : this.pickAnchor(p);
		let out = boundIdx >= 0 ? rows : await this.bindAnchor(rows, p.nodes[anchor]);
		out = await this.filterNodes(out, p.nodes[anchor]);
		for (let i = anchor; i < p.rels.length; i++)
			out = await this.expand(out, p.nodes[i], p.rels[i], p.nodes[i + 1], false);
		for (let i = anchor - 1; i >= 0; i--)
			out = await this.expand(out, p.nodes[i + 1], p.rels[i], p.nodes[i], true);
		return out;
	}

	/** The node to bind first: ids beat names, names beat tag/type scans, which beat full scans. */
	private pickAnchor(p: PathPattern): number {
		const rank = (n: NodePattern) => {
			if ('id' in n.props || 'ids' in n.props || 'seq' in n.props) return 0;
			if ((n.label === 'Entity' || n.label === 'Tag') && ('name' in n.props || 'id' in n.props))
				return 1;
			if (
				n.label !== 'Entity' &&
				n.label !== 'Tag' &&
				('tag' in n.props || 'type' in n.props || 'scope' in n.props)
			)
				return 2;
			return n.label === 'Entity' || n.label === 'Tag' ? 4 : 3;
		};
		let best = 0;
		p.nodes.forEach((n, i) => rank(n) < rank(p.nodes[best]) && (best = i));
		return best;
	}

	private async bindAnchor(rows: Row[], n: NodePattern): Promise<Row[]> {
		const nodes = await this.anchorNodes(n);
		return this.capRows(rows.flatMap((r) => nodes.map((node) => ({ ...r, [n.var]: node }))));
	}

	private async anchorNodes(n: NodePattern): Promise<GNode[]> {
		const props = Object.fromEntries(Object.entries(n.props).map(([k, v]) => [k, constValue(v)]));
		if (n.label === 'Entity')
			return (await this.findEntities(props)).map((id) => ({ kind: 'entity', id }));
		if (n.label === 'Tag') {
			if (typeof props.name !== 'string')
				throw invalid(
					`a Tag node needs {name: "…"} to start from, or must be reached from a memory: (m)-[:TAGGED]->(t:Tag)`,
				);
			return [{ kind: 'tag', name: props.name }];
		}
		const ids = props.id ?? props.ids;
		if (ids !== undefined || props.seq !== undefined)
			return (await this.resolveIds(ids ?? props.seq, ids === undefined ? 'seq' : 'id')).map((id) => ({ kind: 'memory', id }));
		const tags =
			typeof props.tag === 'string'
				? [props.tag]
				: Array.isArray(props.tags)
					? props.tags.map(String)
					: undefined;
		const types = typeof props.type === 'string' ? [props.type] : undefined;
		return (await this.scanMemories({ tags, types, scope: optString(props.scope, 'scope') })).map(
			(id) => ({ kind: 'memory', id }),
		);
	}

	private async findEntities(props: Record<string, unknown>): Promise<string[]> {
		if (typeof props.id === 'string')
			return (await this.engine.getEntities([props.id])).flatMap((e) =>
				e ? [this.cacheEntity(e)] : [],
			);
		if (typeof props.name !== 'string')
			throw invalid(
				'an Entity node needs {name: "…"} or {id: "…"} to start from, or must be reached from a memory: (m)-[:MENTIONS]->(e:Entity)',
			);
		const name = props.name.toLowerCase();
		const found = await this.engine.searchEntities(props.name, 20);
		return found
			.filter(
				(e) => e.name.toLowerCase() === name || e.aliases.some((a) => a.toLowerCase() === name),
			)
			.map((e) => this.cacheEntity(e));
	}

	private cacheEntity(e: Entity): string {
		this.entities.set(e.id, e);
		return e.id;
	}

	/**
	 * Memory ids from `id`/`ids` (strings, matched exactly) or `seq` (integers). A numeric-looking
	 * id is still an id: "7" never names the memory with seq 7.
	 */
	private async resolveIds(v: unknown, kind: 'id' | 'seq'): Promise<string[]> {
		const refs = Array.isArray(v) ? v : [v];
		const out: string[] = [];
		for (const ref of refs) {
			if (kind === 'id' && typeof ref !== 'string')
				throw invalid(`memory ids are strings, got ${JSON.stringify(ref)}; match {seq: …} for an integer seq`);
			if (kind === 'seq' && !Number.isInteger(ref))
				throw invalid(`seq must be an integer, got ${JSON.stringify(ref)}`);
			const id = await this.engine.resolveId(ref as string | number);
			if (id) out.push(id);
			else this.notes.push(`no memory with ${kind} ${JSON.stringify(ref)}`);
		}
		return out;
	}

	private async entityMemories(name: string): Promise<string[]> {
		const ents = await this.findEntities({ name });
		if (ents.length === 0) this.notes.push(`no entity named ${JSON.stringify(name)}`);
		const ids: string[] = [];
		for (const id of ents) ids.push(...(await this.memoryIdsForEntity(this.entities.get(id)!)));
		const mems = await this.loadMemories([...new Set(ids)]);
		return mems.sort((a, b) => b.timestamp.localeCompare(a.timestamp)).map((m) => m.id);
	}

	/** Newest-first memory ids matching the filters, up to GRAPH_LIMITS.scan (then partial). */
	private async scanMemories(f: {
		tags?: string[];
		types?: string[];
		scope?: string;
	}): Promise<string[]> {
		const ids: string[] = [];
		for (let offset = 0; ids.length < GRAPH_LIMITS.scan;) {
			const page = await this.engine.timeline({
				...f,
				types: f.types as never,
				limit: 200,
				offset,
				max_content_chars: 0,
			});
			ids.push(...page.memories.map((m) => m.id));
			if (!page.has_more) return ids;
			offset = page.next_offset ?? offset + page.memories.length;
			if (ids.length >= GRAPH_LIMITS.scan)
				this.cut(
					`scan stopped at ${GRAPH_LIMITS.scan} of ${page.total} memories (newest first); narrow with {tag}, {type} or START`,
				);
		}
		return ids;
	}

	private async expand(
		rows: Row[],
		fromPat: NodePattern,
		rel: RelPattern,
		toPat: NodePattern,
		reversed: boolean,
	): Promise<Row[]> {
		const dir = reversed ? flip(rel.dir) : rel.dir;
		const out: Row[] = [];
		for (const r of rows) {
			const from = r[fromPat.var] as GNode;
			const bound = r[toPat.var] as GNode | undefined;
			const steps = await this.steps(from, rel, dir, toPat, bound);
			for (const s of steps) {
				if (bound && key(bound) !== key(s.node)) continue;
				out.push(
					rel.var ? { ...r, [toPat.var]: s.node, [rel.var]: s.rel } : { ...r, [toPat.var]: s.node },
				);
				if (out.length > GRAPH_LIMITS.rows) return this.capRows(out);
			}
		}
		return this.filterNodes(out, toPat);
	}

	private async steps(
		from: GNode,
		rel: RelPattern,
		dir: Dir,
		toPat: NodePattern,
		bound?: GNode,
	): Promise<Step[]> {
		const type = relKind(rel, toPat, from);
		if (type === 'FAR') return this.far(from, bound, rel);
		if (type === 'MENTIONS') return this.mentions(from, dir);
		if (type === 'TAGGED') return this.tagged(from, dir);
		if (type === 'SIMILAR') return this.similar(from, rel, bound);
		const once = (id: string) =>
			type === 'SHARES'
				? this.shares(id, rel)
				: type === 'NEXT'
					? this.next(id, dir)
					: this.links(id, rel, dir);
		if (from.kind !== 'memory')
			throw invalid(
				`${type === 'LINK' ? rel.types.join('|') || 'a link' : type} joins two memories, but ${from.kind} ${nodeName(from)} is on one side`,
			);
		return rel.hops ? this.hops(from.id, rel.hops, once, type) : once(from.id);
	}

	private async hops(
		start: string,
		range: { min: number; max: number },
		once: (id: string) => Promise<Step[]>,
		type: string,
	): Promise<Step[]> {
		const seen = new Set([start]);
		const out: Step[] = [];
		let frontier: { id: string; path: string[] }[] = [{ id: start, path: [start] }];
		for (let depth = 1; depth <= range.max && frontier.length; depth++) {
			const next: typeof frontier = [];
			for (const f of frontier)
				for (const s of await once(f.id)) {
					const id = (s.node as MemNode).id;
					if (seen.has(id)) continue;
					seen.add(id);
					const path = [...f.path, id];
					next.push({ id, path });
					if (depth >= range.min)
						out.push({ node: s.node, rel: { ...s.rel, kind: 'rel', type, hops: depth, path } });
				}
			frontier = next;
		}
		return out;
	}

	private async links(id: string, rel: RelPattern, dir: Dir): Promise<Step[]> {
		const min = numProp(rel, 'min', 0);
		const types = rel.types.length ? rel.types : ASSOCIATION_TYPES_ALL;
		const out: Step[] = [];
		for (const a of await this.engine.associationsOf(id)) {
			if (!types.includes(a.type) || a.strength < min) continue;
			const other = a.from === id ? a.to : a.from;
			const isOut = a.from === id;
			if ((dir === 'out' && !isOut) || (dir === 'in' && isOut)) continue;
			out.push({ node: { kind: 'memory', id: other }, rel: linkRel(a) });
		}
		return out;
	}

	private async next(id: string, dir: Dir): Promise<Step[]> {
		const out: Step[] = [];
		for (const a of await this.engine.associationsOf(id)) {
			// b PRECEDED_BY a and a OCCURRED_BEFORE b both say b comes next after a.
			const nextOf =
				(a.type === 'PRECEDED_BY' && a.to === id) ||
				(a.type === 'OCCURRED_BEFORE' && a.from === id);
			const prevOf =
				(a.type === 'PRECEDED_BY' && a.from === id) ||
				(a.type === 'OCCURRED_BEFORE' && a.to === id);
			if ((dir === 'out' && nextOf) || (dir === 'in' && prevOf))
				out.push({
					node: { kind: 'memory', id: a.from === id ? a.to : a.from },
					rel: { kind: 'rel', type: 'NEXT', hops: 1, via: a.type },
				});
		}
		return out;
	}

	private async mentions(from: GNode, dir: Dir): Promise<Step[]> {
		const rel = { kind: 'rel', type: 'MENTIONS' } as GRel;
		if (from.kind === 'memory') {
			if (dir === 'in')
				throw invalid(
					'MENTIONS points from a Memory to an Entity: write (m)-[:MENTIONS]->(e) or (e)<-[:MENTIONS]-(m)',
				);
			return (await this.engine.entitiesOf(from.id)).map((e) => ({
				node: { kind: 'entity', id: this.cacheEntity(e) },
				rel,
			}));
		}
		if (from.kind === 'entity') {
			if (dir === 'out')
				throw invalid('MENTIONS points from a Memory to an Entity: write (e)<-[:MENTIONS]-(m)');
			const e = await this.entity(from.id);
			return e
				? (await this.memoryIdsForEntity(e)).map((id) => ({ node: { kind: 'memory', id }, rel }))
				: [];
		}
		throw invalid('MENTIONS joins a Memory and an Entity, not a Tag');
	}

	private async tagged(from: GNode, dir: Dir): Promise<Step[]> {
		const rel = { kind: 'rel', type: 'TAGGED' } as GRel;
		if (from.kind === 'memory') {
			if (dir === 'in')
				throw invalid('TAGGED points from a Memory to a Tag: write (m)-[:TAGGED]->(t:Tag)');
			const [m] = await this.loadMemories([from.id]);
			return (m?.tags ?? []).map((name) => ({ node: { kind: 'tag', name }, rel }));
		}
		if (from.kind === 'tag') {
			if (dir === 'out')
				throw invalid('TAGGED points from a Memory to a Tag: write (t:Tag)<-[:TAGGED]-(m)');
			return (await this.scanMemories({ tags: [from.name] })).map((id) => ({
				node: { kind: 'memory', id },
				rel,
			}));
		}
		throw invalid('TAGGED joins a Memory and a Tag, not an Entity');
	}

	private async shares(id: string, rel: RelPattern): Promise<Step[]> {
		const min = numProp(rel, 'min', 1);
		const minW = numProp(rel, 'min_w', 0);
		const total = await this.total();
		const acc = new Map<string, { count: number; weight: number; via: string[] }>();
		for (const e of await this.engine.entitiesOf(id)) {
			const w = Math.log(1 + total / Math.max(1, e.memory_count));
			for (const other of await this.memoryIdsForEntity(e)) {
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

	private async similar(from: GNode, rel: RelPattern, bound?: GNode): Promise<Step[]> {
		if (from.kind !== 'memory') throw invalid('SIMILAR joins two memories');
		const min = numProp(rel, 'min', 0);
		if (bound?.kind === 'memory') {
			const cos = await this.cosine(from.id, bound.id);
			return cos !== null && cos >= min
				? [{ node: bound, rel: { kind: 'rel', type: 'SIMILAR', cos: round3(cos) } }]
				: [];
		}
		const k = Math.min(numProp(rel, 'k', 10), GRAPH_LIMITS.fanout);
		const v = await this.engine.vectorOf(from.id);
		if (!v) return [];
		const near = await this.engine.nearest(v, k + 1);
		return near
			.filter((n) => n.id !== from.id && n.cosine >= min)
			.slice(0, k)
			.map((n) => ({
				node: { kind: 'memory', id: n.id },
				rel: { kind: 'rel', type: 'SIMILAR', cos: round3(n.cosine) },
			}));
	}

	private async far(from: GNode, bound: GNode | undefined, rel: RelPattern): Promise<Step[]> {
		if (!bound)
			throw invalid(
				'FAR needs both ends already bound, e.g. (a)-[:SHARES]-(b)-[:FAR {max: 0.5}]-(a)',
			);
		if (from.kind !== 'memory' || bound.kind !== 'memory') throw invalid('FAR joins two memories');
		const cos = await this.cosine(from.id, bound.id);
		return cos !== null && cos < numProp(rel, 'max', 0.5)
			? [{ node: bound, rel: { kind: 'rel', type: 'FAR', cos: round3(cos) } }]
			: [];
	}

	private async memoryIdsForEntity(e: Entity): Promise<string[]> {
		const ids = await this.engine.memoryIdsForEntity(e.id);
		if (ids.length <= GRAPH_LIMITS.fanout) return ids;
		this.cut(
			`entity ${e.id} is mentioned by ${ids.length} memories; followed ${GRAPH_LIMITS.fanout}`,
		);
		return ids.slice(0, GRAPH_LIMITS.fanout);
	}

	// ------------------------------------------------------------ node filters and data

	private async filterNodes(rows: Row[], n: NodePattern): Promise<Row[]> {
		const out: Row[] = [];
		// Labels are known from the binding; records are read only when properties must be checked.
		if (Object.keys(n.props).length > 0) await this.preload(rows, new Set([n.var]));
		for (const r of rows) if (this.nodeMatches(r[n.var] as GNode, n)) out.push(r);
		return out;
	}

	private nodeMatches(node: GNode, n: NodePattern): boolean {
		const kind = { Memory: 'memory', Entity: 'entity', Tag: 'tag' }[n.label ?? 'Memory'];
		if (n.label && node.kind !== kind) return false;
		for (const [k, e] of Object.entries(n.props))
			if (!this.propMatches(node, k, constValue(e))) return false;
		return true;
	}

	private propMatches(node: GNode, k: string, want: unknown): boolean {
		if (node.kind === 'memory') {
			const m = this.memories.get(node.id);
			if (!m) return false;
			if (k === 'tag') return m.tags.includes(String(want));
			if (k === 'tags' && Array.isArray(want)) return want.every((t) => m.tags.includes(String(t)));
			if (k === 'ids' || (k === 'id' && Array.isArray(want))) return Array.isArray(want) && want.includes(m.id);
			if (k === 'id') return want === m.id;
			if (k === 'seq') return want === m.seq;
		}
		if (node.kind === 'entity' && k === 'name') {
			const e = this.entities.get(node.id);
			const w = String(want).toLowerCase();
			return !!e && (e.name.toLowerCase() === w || e.aliases.some((a) => a.toLowerCase() === w));
		}
		return equal(this.prop(node, k), want);
	}

	private prop(v: Val, p: string): unknown {
		if (v.kind === 'rel') return v[p] ?? null;
		if (v.kind === 'tag') {
			if (p !== 'name') throw invalid(`a Tag has only the property name, not "${p}"`);
			return v.name;
		}
		if (v.kind === 'entity') {
			if (!ENTITY_PROPS.includes(p))
				throw invalid(`an Entity has no property "${p}" (it has ${ENTITY_PROPS.join(', ')})`);
			return (this.entities.get(v.id) as Record<string, unknown> | null)?.[p] ?? null;
		}
		if (!MEMORY_PROPS.includes(p))
			throw invalid(`a Memory has no property "${p}" (it has ${MEMORY_PROPS.join(', ')})`);
		const m = this.memories.get(v.id);
		if (!m) return null;
		if (p === 'current') return !m.t_invalid || Date.parse(m.t_invalid) > Date.now();
		if (p === 'entities') return m.entities.map((e) => e.name);
		if (p === 'score') return this.startScore.has(m.id) ? round3(this.startScore.get(m.id)!) : null;
		return (m as Record<string, unknown>)[p] ?? null;
	}

	/** Loads the memories and entities bound to `vars` (all variables when omitted), in batches. */
	private async preload(rows: Row[], vars?: Set<string>): Promise<void> {
		const mem = new Set<string>();
		const ent = new Set<string>();
		for (const r of rows)
			for (const [name, v] of Object.entries(r)) {
				if (vars && !vars.has(name)) continue;
				if (v.kind === 'memory' && !this.memories.has(v.id)) mem.add(v.id);
				if (v.kind === 'entity' && !this.entities.has(v.id)) ent.add(v.id);
			}
		await this.loadMemories([...mem]);
		const ids = [...ent];
		const got = ids.length ? await this.engine.getEntities(ids) : [];
		ids.forEach((id, i) => this.entities.set(id, got[i] ?? null));
	}

	private async loadMemories(ids: string[]): Promise<Memory[]> {
		const missing = ids.filter((id) => !this.memories.has(id));
		for (let i = 0; i < missing.length; i += 500) {
			const chunk = missing.slice(i, i + 500);
			const got = await this.engine.getMemories(chunk);
			chunk.forEach((id, j) => this.memories.set(id, got[j] ?? null));
		}
		return ids.flatMap((id) => (this.memories.get(id) ? [this.memories.get(id)!] : []));
	}

	private async entity(id: string): Promise<Entity | null> {
		if (!this.entities.has(id))
			this.entities.set(id, (await this.engine.getEntities([id]))[0] ?? null);
		return this.entities.get(id)!;
	}

	private async total(): Promise<number> {
		// The timeline's total is an index count; stats() would aggregate every memory.
		this.totalMemories ??= (await this.engine.timeline({ limit: 1, max_content_chars: 0 })).total;
		return this.totalMemories;
	}

	private async cosine(a: string, b: string): Promise<number | null> {
		const [va, vb] = [await this.engine.vectorOf(a), await this.engine.vectorOf(b)];
		return va && vb ? cosine(va, vb) : null;
	}

	// ------------------------------------------------------------ WHERE

	private async filter(rows: Row[], where: Expr): Promise<Row[]> {
		const out: Row[] = [];
		for (const r of rows) if ((await this.evaluate(where, r)) === true) out.push(r);
		return out;
	}

	private async evaluate(e: Expr, r: Row): Promise<unknown> {
		switch (e.kind) {
			case 'lit':
				return e.value;
			case 'list':
				return Promise.all(e.items.map((x) => this.evaluate(x, r)));
			case 'var':
				return r[e.name] ? key(r[e.name]) : null;
			case 'prop':
				return r[e.var] ? this.prop(r[e.var], e.prop) : null;
			case 'and':
				for (const x of e.items) if ((await this.evaluate(x, r)) !== true) return false;
				return true;
			case 'or':
				for (const x of e.items) if ((await this.evaluate(x, r)) === true) return true;
				return false;
			case 'not':
				return (await this.evaluate(e.expr, r)) !== true;
			case 'isnull':
				return ((await this.evaluate(e.expr, r)) === null) !== e.negate;
			case 'cmp':
				return compare(e.op, await this.evaluate(e.left, r), await this.evaluate(e.right, r));
			case 'call':
				return this.call(e, r);
			case 'param':
				throw invalid(`$${e.name} was not bound`);
		}
	}

	private async call(e: Extract<Expr, { kind: 'call' }>, r: Row): Promise<unknown> {
		if (e.fn === 'count') throw invalid('count() is only allowed in RETURN');
		if (e.args.length !== 2 || e.args.some((a) => a.kind !== 'var'))
			throw invalid('cos(a, b) takes two memory variables');
		const [a, b] = e.args.map((x) => r[(x as { name: string }).name]);
		if (a?.kind !== 'memory' || b?.kind !== 'memory') return null;
		const c = await this.cosine(a.id, b.id);
		return c === null ? null : round3(c);
	}

	// ------------------------------------------------------------ RETURN

	private async project(rows: Row[]): Promise<GraphQueryOutput> {
		const items = this.q.returns;
		const orderVars = varsOf(this.q.orderBy.map((k) => k.expr));
		if (items.some((i) => isCount(i.expr)) || this.q.distinct) {
			// Groups and DISTINCT need every row's values before the page can be cut.
			await this.preload(rows, new Set([...varsOf(items.map((i) => i.expr)), ...orderVars]));
			let out = items.some((i) => isCount(i.expr))
				? await this.aggregate(rows)
				: await Promise.all(rows.map(async (r) => ({ src: r, vals: await this.values(r) })));
			if (this.q.distinct) out = dedupe(out);
			await this.order(out);
			const { skip, limit } = this.window(out.length);
			return this.page(
				out.slice(skip, skip + limit).map((o) => o.vals),
				skip,
				out.length,
			);
		}
		// Plain rows: sort on the sort keys alone, then read and render only the page.
		await this.preload(rows, orderVars);
		const sorted = rows.map((src) => ({ src, vals: {} as Record<string, unknown> }));
		await this.order(sorted);
		const { skip, limit } = this.window(sorted.length);
		const pageRows = sorted.slice(skip, skip + limit).map((o) => o.src);
		await this.preload(pageRows);
		return this.page(await Promise.all(pageRows.map((r) => this.values(r))), skip, sorted.length);
	}

	private async values(r: Row): Promise<Record<string, unknown>> {
		const vals: Record<string, unknown> = {};
		for (const i of this.q.returns) vals[i.name] = await this.output(i.expr, r);
		return vals;
	}

	private async output(e: Expr, r: Row): Promise<unknown> {
		if (e.kind !== 'var') return this.evaluate(e, r);
		const v = r[e.name];
		if (!v) return null;
		if (v.kind === 'rel')
			return Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'kind'));
		if (v.kind === 'tag') return { name: v.name };
		if (v.kind === 'entity') {
			const en = this.entities.get(v.id);
			return en
				? { id: en.id, name: en.name, type: en.type, memory_count: en.memory_count }
				: { id: v.id };
		}
		return this.memoryOut(v.id);
	}

	private memoryOut(id: string): Record<string, unknown> {
		const m = this.memories.get(id);
		if (!m) return { id, missing: true };
		const snippet = m.content.length > 200 ? `${m.content.slice(0, 199)}…` : m.content;
		return {
			id: m.id,
			seq: m.seq,
			type: m.type,
			...(m.summary ? { summary: m.summary } : {}),
			snippet,
			tags: m.tags,
			scope: m.scope,
			timestamp: m.timestamp,
			importance: m.importance,
			...(m.t_invalid ? { t_invalid: m.t_invalid } : {}),
			...(this.startScore.has(id) ? { score: round3(this.startScore.get(id)!) } : {}),
		};
	}

	private async aggregate(rows: Row[]): Promise<{ src: Row; vals: Record<string, unknown> }[]> {
		const groups = new Map<string, { src: Row; rows: Row[] }>();
		for (const r of rows) {
			const keyVals = await Promise.all(
				this.q.returns.filter((i) => !isCount(i.expr)).map((i) => this.output(i.expr, r)),
			);
			const k = JSON.stringify(keyVals);
			const g = groups.get(k) ?? { src: r, rows: [] };
			g.rows.push(r);
			groups.set(k, g);
		}
		const out: { src: Row; vals: Record<string, unknown> }[] = [];
		for (const g of groups.values()) {
			const vals: Record<string, unknown> = {};
			for (const i of this.q.returns)
				vals[i.name] = isCount(i.expr)
					? await this.count(i.expr as Extract<Expr, { kind: 'call' }>, g.rows)
					: await this.output(i.expr, g.src);
			out.push({ src: g.src, vals });
		}
		return out;
	}

	private async count(e: Extract<Expr, { kind: 'call' }>, rows: Row[]): Promise<number> {
		if (e.star) return rows.length;
		const vals = (await Promise.all(rows.map((r) => this.evaluate(e.args[0], r)))).filter(
			(v) => v !== null && v !== undefined,
		);
		return e.distinct ? new Set(vals.map((v) => JSON.stringify(v))).size : vals.length;
	}

	private async order(out: { src: Row; vals: Record<string, unknown> }[]): Promise<void> {
		if (this.q.orderBy.length === 0) return;
		const keyed = await Promise.all(
			out.map(async (o) => ({
				o,
				keys: await Promise.all(this.q.orderBy.map((k) => this.orderValue(k.expr, o))),
			})),
		);
		keyed.sort((a, b) => {
			for (let i = 0; i < this.q.orderBy.length; i++) {
				const c = cmpValues(a.keys[i], b.keys[i]);
				if (c !== 0) return this.q.orderBy[i].desc ? -c : c;
			}
			return 0;
		});
		keyed.forEach((k, i) => (out[i] = k.o));
	}

	/** A sort key: an alias or return column, a memory variable (by time), or any expression. */
	private async orderValue(
		e: Expr,
		o: { src: Row; vals: Record<string, unknown> },
	): Promise<unknown> {
		const item = this.q.returns.find(
			(i) => i.expr === e || (e.kind === 'var' && i.name === e.name),
		);
		if (item && item.name in o.vals) return o.vals[item.name];
		const expr = item && !isCount(item.expr) ? item.expr : e;
		if (expr.kind === 'var' && o.src[expr.name]?.kind === 'memory')
			return this.prop(o.src[expr.name], 'timestamp');
		return this.evaluate(expr, o.src);
	}

	/** SKIP and LIMIT after defaults and the cap, with notes for both. */
	private window(total: number): { skip: number; limit: number } {
		const skip = pageNumber(this.q.skip, 'SKIP') ?? 0;
		let limit = pageNumber(this.q.limit, 'LIMIT');
		if (limit === undefined) {
			limit = GRAPH_LIMITS.defaultLimit;
			if (total - skip > limit)
				this.notes.push(
					`rows cut to the default LIMIT ${limit}; add LIMIT (up to ${GRAPH_LIMITS.maxLimit}) to return more`,
				);
		} else if (limit > GRAPH_LIMITS.maxLimit) {
			this.notes.push(`LIMIT ${limit} capped at ${GRAPH_LIMITS.maxLimit}`);
			limit = GRAPH_LIMITS.maxLimit;
		}
		return { skip, limit };
	}

	/** The output for one page of projected rows out of `total`. */
	private page(page: Record<string, unknown>[], skip: number, total: number): GraphQueryOutput {
		let rows = page;
		const fit = fitRows(rows);
		if (fit < rows.length) {
			this.truncated = true;
			this.notes.push(`only ${fit} rows fit the ${ROWS_BUDGET / 1000} kB output budget`);
			rows = rows.slice(0, fit);
		}
		const end = skip + rows.length;
		const hasMore = total > end;
		return {
			columns: this.q.returns.map((i) => i.name),
			rows,
			count: rows.length,
			has_more: hasMore,
			...(hasMore ? { next_skip: end } : {}),
			truncated: this.truncated,
			partial: this.partial,
			notes: this.notes,
		};
	}

	private capRows(rows: Row[]): Row[] {
		if (rows.length <= GRAPH_LIMITS.rows) return rows;
		this.cut(`stopped at ${GRAPH_LIMITS.rows} intermediate rows; narrow the pattern`);
		return rows.slice(0, GRAPH_LIMITS.rows);
	}

	private cut(note: string): void {
		this.partial = true;
		if (!this.notes.includes(note)) this.notes.push(note);
	}
}

// ---------------------------------------------------------------- helpers

type Dir = 'out' | 'in' | 'both';

function flip(d: Dir): Dir {
	return d === 'out' ? 'in' : d === 'in' ? 'out' : 'both';
}

/** Which expansion a relationship needs; untyped ones follow the labels at their ends. */
function relKind(rel: RelPattern, to: NodePattern, from: GNode): string {
	const t = rel.types;
	if (t.length === 1 && ['MENTIONS', 'TAGGED', 'SHARES', 'SIMILAR', 'FAR', 'NEXT'].includes(t[0]))
		return t[0];
	if (t.length === 0 && (to.label === 'Entity' || from.kind === 'entity')) return 'MENTIONS';
	if (t.length === 0 && (to.label === 'Tag' || from.kind === 'tag')) return 'TAGGED';
	return 'LINK';
}

function linkRel(a: Association): GRel {
	const { from, to, type, strength, ...rest } = a;
	const extra = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
	return { kind: 'rel', type, from, to, strength, ...extra };
}

function key(v: Val): string {
	if (v.kind === 'tag') return `tag:${v.name}`;
	if (v.kind === 'rel') return JSON.stringify(v);
	return `${v.kind}:${v.id}`;
}

function nodeName(n: GNode): string {
	return n.kind === 'tag' ? n.name : n.id;
}

function invalid(msg: string): MemoryError {
	return new MemoryError('invalid_input', `query: ${msg}`);
}

function optString(v: unknown, name: string): string | undefined {
	if (v === undefined || v === null) return undefined;
	if (typeof v !== 'string') throw invalid(`events(${name}: …) must be a string`);
	return v;
}

function clampK(v: unknown, max: number, notes: string[]): number {
	if (v === undefined) return GRAPH_LIMITS.startK;
	if (typeof v !== 'number' || !Number.isInteger(v) || v < 1)
		throw invalid('events(k: …) must be a positive integer');
	if (v > max) notes.push(`start: k ${v} clamped to ${max}`);
	return Math.min(v, max);
}

function numProp(rel: RelPattern, name: string, dflt: number): number {
	const v = constValue(rel.props[name]);
	if (v === undefined) return dflt;
	if (typeof v !== 'number')
		throw invalid(`${rel.types.join('|') || 'link'} {${name}: …} must be a number`);
	return v;
}

function pageNumber(e: Expr | undefined, what: string): number | undefined {
	const v = constValue(e);
	if (v === undefined) return undefined;
	if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
		throw invalid(`${what} must be a whole number ≥ 0`);
	return v;
}

/** Variables an expression list reads (so only their records are loaded). */
function varsOf(exprs: Expr[]): Set<string> {
	const out = new Set<string>();
	const walk = (e: Expr): void => {
		if (e.kind === 'var') out.add(e.name);
		else if (e.kind === 'prop') out.add(e.var);
		else if (e.kind === 'cmp') {
			walk(e.left);
			walk(e.right);
		}
		else if (e.kind === 'and' || e.kind === 'or' || e.kind === 'list') e.items.forEach(walk);
		else if (e.kind === 'not' || e.kind === 'isnull') walk(e.expr);
		else if (e.kind === 'call') e.args.forEach(walk);
	};
	exprs.forEach(walk);
	return out;
}

function isCount(e: Expr): boolean {
	return e.kind === 'call' && e.fn === 'count';
}

function round3(x: number): number {
	return Math.round(x * 1000) / 1000;
}

function equal(a: unknown, b: unknown): boolean {
	if (Array.isArray(a) && Array.isArray(b)) return JSON.stringify(a) === JSON.stringify(b);
	if (typeof a === 'string' && typeof b === 'string') return a === b;
	return a === b;
}

function lower(x: unknown): string {
	return String(x).toLowerCase();
}

/** Cypher-like comparison; null on either side is false. Text matches ignore case. */
function compare(op: string, a: unknown, b: unknown): boolean {
	if (a === null || a === undefined || b === null || b === undefined) return false;
	switch (op) {
		case '=':
			return equal(a, b);
		case '<>':
			return !equal(a, b);
		case 'IN':
			return Array.isArray(b) && b.some((x) => equal(a, x));
		case 'CONTAINS':
			return Array.isArray(a) ? a.some((x) => lower(x) === lower(b)) : lower(a).includes(lower(b));
		case 'STARTS WITH':
			return lower(a).startsWith(lower(b));
		case 'ENDS WITH':
			return lower(a).endsWith(lower(b));
		default: {
			const c = cmpValues(a, b);
			return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
		}
	}
}

function cmpValues(a: unknown, b: unknown): number {
	if (a === b) return 0;
	if (a === null || a === undefined) return 1;
	if (b === null || b === undefined) return -1;
	if (typeof a === 'number' && typeof b === 'number') return a - b;
	return String(a).localeCompare(String(b));
}

function dedupe<T extends { vals: Record<string, unknown> }>(rows: T[]): T[] {
	const seen = new Set<string>();
	return rows.filter((r) => {
		const k = JSON.stringify(r.vals);
		if (seen.has(k)) return false;
		seen.add(k);
		return true;
	});
}

function fitRows(rows: unknown[]): number {
	let used = 0;
	for (let i = 0; i < rows.length; i++) {
		used += JSON.stringify(rows[i]).length;
		if (used > ROWS_BUDGET && i > 0) return i;
	}
	return rows.length;
}

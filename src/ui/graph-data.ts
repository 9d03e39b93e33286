/**
 * Collects the neighbourhood to draw in the graph view — memories, their entities and the
 * associations between them — around one memory, around a search, or across the most recent
 * memories. Bounded by `maxNodes` so a dense store still draws quickly.
 */
import type { Association, Memory, MemoryBrief, RecallResult } from '../core/schemas';
import type { EngineProxy } from './state/engine-proxy';
import { preview, revealHidden } from './format';
import { titleOf, typeLabel } from './words';

/** A node: a memory (coloured by type) or an entity. */
export interface GraphNode {
	id: string;
	kind: 'memory' | 'entity';
	label: string;
	type: string;
	/** Memory id for memory nodes (opens on click). */
	memoryId?: string;
	focus?: boolean;
	/** What the hover card shows: a longer title and the tags. */
	detail?: string;
}

/** An edge: an association between memories, or a memory's mention of an entity. */
export interface GraphEdge {
	id: string;
	source: string;
	target: string;
	type: string;
	strength: number;
	system: boolean;
}

/** What to draw. */
export interface GraphData {
	nodes: GraphNode[];
	edges: GraphEdge[];
	truncated: boolean;
}

/** Which parts to include. */
export interface GraphOptions {
	maxNodes: number;
	entities: boolean;
	/** Include system links (SIMILAR_TO, PRECEDED_BY, …), which can be many. */
	systemLinks: boolean;
	depth: number;
}

/** Each node's neighbours in `d`, by id (a node without edges has no entry). */
export function linkedNodes(d: GraphData): Map<string, string[]> {
	const linked = new Map<string, string[]>();
	const add = (a: string, b: string) => {
		const list = linked.get(a);
		if (list) list.push(b);
		else linked.set(a, [b]);
	};
	for (const e of d.edges) {
		add(e.source, e.target);
		add(e.target, e.source);
	}
	return linked;
}

const SYSTEM = new Set(['SIMILAR_TO', 'PRECEDED_BY', 'EXPLAINS', 'SHARES_THEME', 'PARALLEL_CONTEXT', 'DISCOVERED']);
const entityKey = (e: { name: string; type: string }) => `entity:${e.type}:${e.name.trim().toLowerCase()}`;

/** Accumulates nodes and edges without duplicates, up to a node budget. */
class Builder {
	nodes = new Map<string, GraphNode>();
	edges = new Map<string, GraphEdge>();
	truncated = false;
	constructor(private opts: GraphOptions) {}

	addMemory(m: Memory | MemoryBrief, focus = false): boolean {
		if (this.nodes.has(m.id)) return true;
		if (this.nodes.size >= this.opts.maxNodes) return !(this.truncated = true);
		const detail = [typeLabel(m.type), preview(m, 160), m.tags.length ? m.tags.map((t) => `#${revealHidden(t)}`).join(' ') : ''].filter(Boolean).join('\n');
		this.nodes.set(m.id, { id: m.id, kind: 'memory', label: titleOf(m, 36), type: m.type, memoryId: m.id, focus, detail });
		return true;
	}

	addEntities(m: Memory): void {
		if (!this.opts.entities) return;
		for (const e of m.entities) {
			const id = entityKey(e);
			if (!this.nodes.has(id)) {
				if (this.nodes.size >= this.opts.maxNodes) {
					this.truncated = true;
					continue;
				}
				this.nodes.set(id, { id, kind: 'entity', label: revealHidden(e.name), type: e.type });
			}
			this.edges.set(`${m.id}>${id}`, { id: `${m.id}>${id}`, source: m.id, target: id, type: 'MENTIONS', strength: 0.3, system: true });
		}
	}

	addAssociation(a: Association): void {
		if (!this.opts.systemLinks && SYSTEM.has(a.type)) return;
		if (!this.nodes.has(a.from) || !this.nodes.has(a.to)) return;
		const id = `${a.from}>${a.to}>${a.type}`;
		// SIMILAR_TO is stored both ways; draw it once.
		if (a.type === 'SIMILAR_TO' && this.edges.has(`${a.to}>${a.from}>${a.type}`)) return;
		this.edges.set(id, { id, source: a.from, target: a.to, type: a.type, strength: a.strength, system: SYSTEM.has(a.type) });
	}

	result(): GraphData {
		return { nodes: [...this.nodes.values()], edges: [...this.edges.values()], truncated: this.truncated };
	}
}

async function addLinksAmong(engine: EngineProxy, b: Builder, memories: Memory[]): Promise<void> {
	const lists = await Promise.all(memories.map((m) => engine.associationsOf(m.id)));
	for (const list of lists) for (const a of list) b.addAssociation(a);
}

/** The memories within `depth` links of one memory. */
export async function aroundMemory(engine: EngineProxy, id: string, opts: GraphOptions): Promise<GraphData> {
	const b = new Builder(opts);
	const [start] = await engine.getMemories([id]);
	if (!start) throw new Error(`memory_id: no memory with id ${id}`);
	b.addMemory(start, true);
	const seen = new Map<string, Memory>([[start.id, start]]);
	let frontier = [start];
	for (let d = 0; d < opts.depth && frontier.length; d++) {
		const lists = await Promise.all(frontier.map((m) => engine.associationsOf(m.id)));
		const next = [
			...new Set(
				lists
					.flat()
					.filter((a) => opts.systemLinks || !SYSTEM.has(a.type))
					.flatMap((a) => [a.from, a.to]),
			),
		].filter((x) => !seen.has(x));
		const loaded = (await engine.getMemories(next)).filter((m): m is Memory => !!m);
		frontier = [];
		for (const m of loaded) {
			if (!b.addMemory(m)) continue;
			seen.set(m.id, m);
			frontier.push(m);
		}
	}
	for (const m of seen.values()) b.addEntities(m);
	await addLinksAmong(engine, b, [...seen.values()]);
	return b.result();
}

/** Share of the best meaning score a result needs, without a word match, to count as a hit. */
export const SEARCH_MEANING_SHARE = 0.75;

/**
 * The results that really match a search: those with a matching word, and those whose meaning
 * score is close to the best one's. Recall ranks every memory it can; the graph draws only these.
 */
export function searchHits(results: RecallResult[]): RecallResult[] {
	const direct = results.filter((r) => r.match === 'direct');
	const best = Math.max(0, ...direct.map((r) => r.components.semantic));
	return direct.filter((r) => r.matched_terms.length > 0 || r.components.lexical > 0 || (best > 0 && r.components.semantic >= best * SEARCH_MEANING_SHARE));
}

/** The memories that match a search (the focus), the memories one link away, and their links. */
export async function aroundSearch(engine: EngineProxy, query: string, opts: GraphOptions): Promise<GraphData> {
	const out = await engine.recall({ query, limit: Math.min(100, opts.maxNodes), max_content_chars: 200 }, { actor: 'app' });
	const b = new Builder(opts);
	const ids = searchHits(out.results).map((r) => r.memory.id);
	const hits = (await engine.getMemories(ids)).filter((m): m is Memory => !!m);
	for (const m of hits) b.addMemory(m, true);
	const lists = await Promise.all(hits.map((m) => engine.associationsOf(m.id)));
	const near = [
		...new Set(
			lists
				.flat()
				.filter((a) => opts.systemLinks || !SYSTEM.has(a.type))
				.flatMap((a) => [a.from, a.to]),
		),
	].filter((x) => !ids.includes(x));
	const neighbours = (await engine.getMemories(near)).filter((m): m is Memory => !!m && b.addMemory(m));
	const all = [...hits, ...neighbours];
	for (const m of all) b.addEntities(m);
	await addLinksAmong(engine, b, all);
	return b.result();
}

/**
 * The most recent memories (up to the budget) and everything linking them. One export call reads
 * the memories with their links in a single transaction: a call per memory through the worker
 * would cost seconds at a few thousand nodes.
 */
export async function overview(engine: EngineProxy, opts: GraphOptions): Promise<GraphData> {
	const b = new Builder(opts);
	const budget = opts.entities ? Math.ceil(opts.maxNodes * 0.7) : opts.maxNodes;
	const { total_memories: total } = await engine.stats({});
	const out = await engine.exportMemories({ format: 'json', offset: Math.max(0, total - budget), limit: budget });
	const doc = JSON.parse(out.data) as { memories: Memory[]; associations: Association[] };
	const memories = doc.memories.reverse();
	for (const m of memories) b.addMemory(m);
	for (const m of memories) b.addEntities(m);
	for (const a of doc.associations) b.addAssociation(a);
	if (total > budget) b.truncated = true;
	return b.result();
}

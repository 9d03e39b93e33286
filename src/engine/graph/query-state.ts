/**
 * query_memory_graph, the state one query run carries from stage to stage: the parsed query, the
 * records read so far (memories, entities, START's text scores), the notes and the partial /
 * truncated flags, and the reads that several stages share (scans, mention lists with their
 * fan-out cap, batched record loads, cosines). Also the row and node shapes every stage passes on.
 *
 * Contract: every cap that cuts the search calls `cut` (sets `partial`, adds the note once);
 * records are read in batches through the run's GraphReads and kept for the whole run.
 */
import { MemoryError } from '../../core/errors';
import { constValue, type Expr, type GraphQuery, type RelPattern } from '../../core/graph-query';
import { GRAPH_LIMITS } from '../../core/graph-schemas';
import type { Entity, Memory } from '../../core/schemas';
import { cosine } from '../../core/vector';
import type { GraphReads } from './reads';

/** A memory bound to a variable. */
export type MemNode = { kind: 'memory'; id: string };
/** An entity bound to a variable. */
export type EntNode = { kind: 'entity'; id: string };
/** A tag bound to a variable. */
export type TagNode = { kind: 'tag'; name: string };
/** Anything a node variable binds. */
export type GNode = MemNode | EntNode | TagNode;
/** What a relationship variable binds: its type and properties (strength, cos, count, hops…). */
export type GRel = { kind: 'rel'; type: string } & Record<string, unknown>;
/** Anything a variable binds. */
export type Val = GNode | GRel;
/** One row of bindings, variable name to value. */
export type Row = Record<string, Val>;
/** One step of an expansion: the node reached and the relationship that reached it. */
export type Step = { node: GNode; rel: GRel };
/** A relationship's direction as written, or after reading a path right to left. */
export type Dir = 'out' | 'in' | 'both';

/** The opposite direction. */
export function flip(d: Dir): Dir {
	return d === 'out' ? 'in' : d === 'in' ? 'out' : 'both';
}

/** The run's state; see the module comment. */
export class QueryState {
	readonly memories = new Map<string, Memory | null>();
	readonly entities = new Map<string, Entity | null>();
	/** Cosine of each START memory to START's text, when ranked by text. */
	readonly startScore = new Map<string, number>();
	totalMemories?: number;
	readonly notes: string[] = [];
	partial = false;
	truncated = false;

	readonly #deadline: number;

	constructor(
		readonly reads: GraphReads,
		readonly q: GraphQuery,
	) {
		this.#deadline = reads.now() + GRAPH_LIMITS.workMs;
	}

	/**
	 * Whether the run has used its GRAPH_LIMITS.workMs (then it is cut: partial, with a note).
	 * The row cap bounds each step's output, not its work: a chain of hop ranges over SHARES
	 * took 15 s, with the engine serving nothing else meanwhile.
	 */
	outOfTime(): boolean {
		if (this.reads.now() <= this.#deadline) return false;
		this.cut(`stopped after ${GRAPH_LIMITS.workMs / 1000} s of work; narrow the pattern`);
		return true;
	}

	/** Keeps an entity read elsewhere; returns its id. */
	cacheEntity(e: Entity): string {
		this.entities.set(e.id, e);
		return e.id;
	}

	/** Newest-first memory ids matching the filters, up to GRAPH_LIMITS.scan (then partial). */
	async scanMemories(f: { tags?: string[]; types?: string[]; scope?: string }): Promise<string[]> {
		// One ranking of the index (the timeline's order), ids only: no row is read to list them.
		const { ids, total } = this.reads.scanIds(f, GRAPH_LIMITS.scan);
		if (total > GRAPH_LIMITS.scan) this.cut(`scan stopped at ${GRAPH_LIMITS.scan} of ${total} memories (newest first); narrow with {tag}, {type} or START`);
		return ids;
	}

	/** The memories mentioning an entity, at most GRAPH_LIMITS.fanout (then partial). */
	async memoryIdsForEntity(e: Entity): Promise<string[]> {
		const ids = await this.reads.memoryIdsForEntity(e.id);
		if (ids.length <= GRAPH_LIMITS.fanout) return ids;
		this.cut(`entity ${e.id} is mentioned by ${ids.length} memories; followed ${GRAPH_LIMITS.fanout}`);
		return ids.slice(0, GRAPH_LIMITS.fanout);
	}

	/** Loads the memories and entities bound to `vars` (all variables when omitted), in batches. */
	async preload(rows: Row[], vars?: Set<string>): Promise<void> {
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
		const got = ids.length ? await this.reads.getEntities(ids) : [];
		ids.forEach((id, i) => this.entities.set(id, got[i] ?? null));
	}

	/** The memories of `ids` that exist, in order, read in bulk and kept. */
	async loadMemories(ids: string[]): Promise<Memory[]> {
		const missing = ids.filter((id) => !this.memories.has(id));
		for (let i = 0; i < missing.length; i += 500) {
			const chunk = missing.slice(i, i + 500);
			const got = await this.reads.getMemories(chunk);
			chunk.forEach((id, j) => this.memories.set(id, got[j] ?? null));
		}
		return ids.flatMap((id) => (this.memories.get(id) ? [this.memories.get(id)!] : []));
	}

	/** One entity, read once. */
	async entity(id: string): Promise<Entity | null> {
		if (!this.entities.has(id)) this.entities.set(id, (await this.reads.getEntities([id]))[0] ?? null);
		return this.entities.get(id)!;
	}

	/** How many memories there are (SHARES' rarity weights), counted once. */
	async total(): Promise<number> {
		// The timeline's total is an index count; stats() would aggregate every memory.
		this.totalMemories ??= this.reads.scanIds({}, 1).total;
		return this.totalMemories;
	}

	/** Cosine of two memories' vectors; null when either has none. */
	async cosine(a: string, b: string): Promise<number | null> {
		const [va, vb] = [await this.reads.vectorOf(a), await this.reads.vectorOf(b)];
		return va && vb ? cosine(va, vb) : null;
	}

	/** `rows`, cut at GRAPH_LIMITS.rows (then partial). */
	capRows(rows: Row[]): Row[] {
		if (rows.length <= GRAPH_LIMITS.rows) return rows;
		this.cut(`stopped at ${GRAPH_LIMITS.rows} intermediate rows; narrow the pattern`);
		return rows.slice(0, GRAPH_LIMITS.rows);
	}

	/** Marks the run partial, with a note (once). */
	cut(note: string): void {
		this.partial = true;
		if (!this.notes.includes(note)) this.notes.push(note);
	}
}

/** A value's identity, for equality and DISTINCT. */
export function key(v: Val): string {
	if (v.kind === 'tag') return `tag:${v.name}`;
	if (v.kind === 'rel') return JSON.stringify(v);
	return `${v.kind}:${v.id}`;
}

/** A node's name in messages. */
export function nodeName(n: GNode): string {
	return n.kind === 'tag' ? n.name : n.id;
}

/** A query error (invalid_input), prefixed "query: ". */
export function invalid(msg: string): MemoryError {
	return new MemoryError('invalid_input', `query: ${msg}`);
}

/** An optional string argument of events(...). */
export function optString(v: unknown, name: string): string | undefined {
	if (v === undefined || v === null) return undefined;
	if (typeof v !== 'string') throw invalid(`events(${name}: …) must be a string`);
	return v;
}

/** events(k: …) checked and clamped to `max` (with a note). */
export function clampK(v: unknown, max: number, notes: string[]): number {
	if (v === undefined) return GRAPH_LIMITS.startK;
	if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw invalid('events(k: …) must be a positive integer');
	if (v > max) notes.push(`start: k ${v} clamped to ${max}`);
	return Math.min(v, max);
}

/** A numeric property of a relationship pattern, or `dflt`. */
export function numProp(rel: RelPattern, name: string, dflt: number): number {
	const v = constValue(rel.props[name]);
	if (v === undefined) return dflt;
	if (typeof v !== 'number') throw invalid(`${rel.types.join('|') || 'link'} {${name}: …} must be a number`);
	return v;
}

/** SKIP / LIMIT as a whole number, or undefined when absent. */
export function pageNumber(e: Expr | undefined, what: string): number | undefined {
	const v = constValue(e);
	if (v === undefined) return undefined;
	if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw invalid(`${what} must be a whole number ≥ 0`);
	return v;
}

export { round3 } from '../../core/numbers';

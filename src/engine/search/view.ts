/**
 * The read-only view of the index that ranking works on: slot-addressed metadata and vectors,
 * the lexical index, adjacency and entity postings. Kept as an interface so the ranking code
 * depends on what it reads, not on how the index maintains it.
 */
import type { Adjacency } from './adjacency';
import type { Ivf } from './ivf';
import type { ContiguousScope } from './scope-codes';
import type { LexicalIndex } from './lexical';
import type { DocMeta } from './types';
import type { VectorStore } from './vector-store';

export interface IndexView {
	readonly dims: number;
	/** Number of live slots: slots 0..count-1 hold documents. */
	readonly count: number;
	readonly metas: readonly DocMeta[];
	readonly slotOf: ReadonlyMap<string, number>;
	readonly seqToId: ReadonlyMap<number, string>;
	readonly vectors: VectorStore;
	/** The coarse quantiser, once the index is large enough (see ivf.ts). */
	readonly ivf: Ivf | null;
	readonly lexical: LexicalIndex;
	readonly adj: Adjacency;
	/** The slots of a scope (empty when unknown); a live view, valid until the next change. */
	slotsInScope(scope: string): Int32Array;
	/** A large scope's codes laid out contiguously (scope-codes.ts), or undefined; valid until the next change. */
	contiguousScope?(scope: string): ContiguousScope | undefined;
	/**
	 * The session of a slot's memory: the one its metadata names, else the one implied by other
	 * memories sharing its scope and timestamp (DocMeta.group), else undefined (a note on its own).
	 */
	sessionOf(slot: number): string | undefined;
	/** Number of memories in a scope (the collection size for scoped BM25 statistics). */
	scopeSize(scope: string): number;
	/** A membership test for a scope's slots: an integer comparison, no string per slot. */
	inScope(scope: string): (slot: number) => boolean;
	/** A small integer naming a scope (−1: no memory in it), for grouping slots by scope (scopeIdOf). */
	scopeId(scope: string): number;
	/** The scopeId of a slot's scope (−1: an empty slot). */
	scopeIdOf(slot: number): number;
	/** Entity id → ids of the memories mentioning it. */
	readonly entityDocs: { get(entity: string): ReadonlySet<string> | undefined; count(entity: string): number };
}

/**
 * Contiguous copies of large scopes' codes, for the exact scoped scans of nearest() (every
 * store's SIMILAR_TO and duplicate look-up in a scope up to a twelfth of the index). A scope's
 * slots lie scattered over the whole code array, so scoring them fetches every vector from
 * memory: 75–85 ns a dot at 100k memories against 8–16 ns in cache (docs/BENCHMARKS.md). The
 * copy keeps a scope's codes in the order of its slot list, so the scan reads them in one sweep.
 *
 * A copy follows its list by position. New memories only append to their scope's list, so a copy
 * catches up by copying the tail; any other change (a memory replaced, re-vectored or removed:
 * the lists swap-remove) moves the index's `epoch`, and copies made before it are rebuilt when
 * next used. Only scopes of at least `MIN_SLOTS` get one: below, the scattered scan is cheap.
 */
import { CodeMemory } from './simd-dots';
import type { VectorStore } from './vector-store';

/** Scopes smaller than this are scanned in place. */
export const MIN_SLOTS = 512;

interface Copy {
	memory: CodeMemory;
	codes: Int8Array;
	/** Positions of the list copied so far. */
	count: number;
	epoch: number;
}

/** A scope's codes in list order, in their own SIMD memory, with the list they follow. */
export interface ContiguousScope {
	memory: CodeMemory;
	/** The scope's slots: position p of the copy holds slot `slots[p]`'s codes. */
	slots: Int32Array;
}

/** The copies of one index, keyed by scope list. */
export class ScopeCodes {
	private readonly copies = new Map<number, Copy>();
	/** Bumped by every change other than a new memory's arrival (see the module comment). */
	epoch = 0;

	constructor(private readonly dims: number) {}

	/** The copy of scope list `list` whose slots are `slots`, brought up to date; undefined when too small or without SIMD. */
	get(list: number, slots: Int32Array, vectors: VectorStore): ContiguousScope | undefined {
		if (slots.length < MIN_SLOTS) return undefined;
		let copy = this.copies.get(list);
		if (!copy) {
			const memory = CodeMemory.create(this.dims);
			if (!memory) return undefined;
			copy = { memory, codes: memory.codes(0), count: 0, epoch: this.epoch };
			this.copies.set(list, copy);
		}
		if (copy.epoch !== this.epoch || copy.count > slots.length) {
			// Rebuilt in place: the memory and its room are kept.
			copy.epoch = this.epoch;
			copy.count = 0;
		}
		const d = this.dims;
		if (copy.count < slots.length) {
			if (copy.codes.length < slots.length * d) copy.codes = copy.memory.codes(Math.max(slots.length, copy.count * 2) * d);
			for (let p = copy.count; p < slots.length; p++) copy.codes.set(vectors.codes.subarray(slots[p] * d, (slots[p] + 1) * d), p * d);
			copy.count = slots.length;
		}
		return { memory: copy.memory, slots };
	}

	/** Drops every copy (the index was cleared). */
	clear(): void {
		this.copies.clear();
		this.epoch++;
	}
}

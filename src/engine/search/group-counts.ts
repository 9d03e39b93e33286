/**
 * Memories per implied-session key (DocMeta.group: a memory's scope and timestamp), which the
 * index needs to tell an implied session (two or more memories share the key) from a note on its
 * own. A restore counts straight from the snapshot's group column (string-table indexes), with
 * no string hashed: at 100k memories whose keys were all distinct, filling the map cost a restore
 * 20–25 ms in Node and about 90 ms in Chromium's engine worker at start-up. The map is made from
 * those counts by the first change, or when the index settles after a page load.
 *
 * @example
 * const groups = GroupCounts.packed(['a', 'b'], Int32Array.of(0, 0, 1, -1));
 * groups.count('a', 1); // 2: slot 1's key is shared
 * groups.add('b'); // the map is made, then 'b' counts 2
 */
/** Until the map is made: the restored strings, the memories per string index, and each slot's count. */
interface PackedCounts {
	strings: readonly string[];
	counts: Int32Array;
	bySlot: Int32Array;
}

export class GroupCounts {
	#map: Map<string, number> | undefined;
	#base: PackedCounts | undefined;

	private constructor(map: Map<string, number> | undefined, base?: PackedCounts) {
		this.#map = map;
		this.#base = base;
	}

	/** No memories yet. */
	static empty(): GroupCounts {
		return new GroupCounts(new Map());
	}

	/** Counts of restored memories: slot i's key is `strings[column[i]]`, none where it is −1. */
	static packed(strings: readonly string[], column: Int32Array): GroupCounts {
		const counts = new Int32Array(strings.length);
		for (let i = 0; i < column.length; i++) if (column[i] >= 0) counts[column[i]]++;
		const bySlot = new Int32Array(column.length);
		for (let i = 0; i < column.length; i++) bySlot[i] = column[i] >= 0 ? counts[column[i]] : 0;
		return new GroupCounts(undefined, { strings, counts, bySlot });
	}

	/**
	 * How many memories have key `group`, that of the memory at `slot`. Before the first change the
	 * slots are the restored ones, so the slot answers without a look-up.
	 */
	count(group: string, slot: number): number {
		const base = this.#base;
		return base ? base.bySlot[slot] : (this.#map!.get(group) ?? 0);
	}

	add(group: string): void {
		const map = this.map();
		map.set(group, (map.get(group) ?? 0) + 1);
	}

	delete(group: string): void {
		const map = this.map();
		const g = (map.get(group) ?? 1) - 1;
		if (g > 0) map.set(group, g);
		else map.delete(group);
	}

	/** Makes the map now (a settling index does, so the first write after a load need not). */
	settle(): void {
		this.map();
	}

	private map(): Map<string, number> {
		const base = this.#base;
		if (base) {
			const map = new Map<string, number>();
			for (let k = 0; k < base.counts.length; k++) if (base.counts[k] > 0) map.set(base.strings[k], base.counts[k]);
			this.#map = map;
			this.#base = undefined;
		}
		return this.#map!;
	}
}

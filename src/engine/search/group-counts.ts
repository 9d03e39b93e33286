/**
 * Memories per implied-session key (DocMeta.group: a memory's scope and timestamp), which the
 * index needs to tell an implied session (two or more memories share the key) from a note on its
 * own. Each slot holds its key's number and the counts are by number, so `count(slot)` is two
 * array reads: recall asks it for every candidate (~2,000 per recall), and a look-up by key in a
 * map of 100k keys took 10–12% of a 100k recall's ranking (Node CPU profile). A restore takes the
 * numbers straight from the snapshot's group column (string-table indexes), with no string
 * hashed: at 100k memories whose keys were all distinct, filling a map cost a restore 20–25 ms in
 * Node and about 90 ms in Chromium's engine worker at start-up. The key → number map is made from
 * them by the first change, or when the index settles after a page load.
 *
 * @example
 * const groups = GroupCounts.packed(['a', 'b'], Int32Array.of(0, 0, 1, -1));
 * groups.count(1); // 2: slot 1's key is shared
 * groups.add('b', 4); // the map is made, then 'b' counts 2
 */
export class GroupCounts {
	/** Each slot's key number (−1: none). */
	#of: Int32Array;
	/** Memories per key number. */
	#counts: Int32Array;
	/** Keys by number: the restored string table until the first change, then this object's own copy. */
	#keys: string[];
	/** Key → number; undefined until the first change after a restore. */
	#ids: Map<string, number> | undefined;
	/** Numbers whose count fell to 0, for reuse. */
	#free: number[] = [];

	private constructor(of: Int32Array, counts: Int32Array, keys: string[], ids: Map<string, number> | undefined) {
		this.#of = of;
		this.#counts = counts;
		this.#keys = keys;
		this.#ids = ids;
	}

	/** No memories yet. */
	static empty(): GroupCounts {
		return new GroupCounts(new Int32Array(1024).fill(-1), new Int32Array(1024), [], new Map());
	}

	/** Counts of restored memories: slot i's key is `strings[column[i]]`, none where it is −1. */
	static packed(strings: readonly string[], column: Int32Array): GroupCounts {
		const counts = new Int32Array(Math.max(1024, strings.length));
		for (let i = 0; i < column.length; i++) if (column[i] >= 0) counts[column[i]]++;
		const of = new Int32Array(Math.max(1024, column.length)).fill(-1);
		of.set(column);
		return new GroupCounts(of, counts, strings as string[], undefined);
	}

	/** How many memories share the key of the memory at `slot` (0 when it has none). */
	count(slot: number): number {
		const id = slot < this.#of.length ? this.#of[slot] : -1;
		return id < 0 ? 0 : this.#counts[id];
	}

	/** The memory at `slot` has key `group`. */
	add(group: string, slot: number): void {
		const ids = this.ids();
		let id = ids.get(group);
		if (id === undefined) {
			id = this.#free.pop() ?? this.#keys.length;
			this.#keys[id] = group;
			ids.set(group, id);
			if (id >= this.#counts.length) this.#counts = grown(this.#counts, id, 0);
		}
		this.#counts[id]++;
		if (slot >= this.#of.length) this.#of = grown(this.#of, slot, -1);
		this.#of[slot] = id;
	}

	/** The memory at `slot` no longer has its key. */
	delete(slot: number): void {
		const id = slot < this.#of.length ? this.#of[slot] : -1;
		if (id < 0) return;
		const ids = this.ids();
		this.#of[slot] = -1;
		if (--this.#counts[id] > 0) return;
		ids.delete(this.#keys[id]);
		this.#free.push(id);
	}

	/** The memory at `from` moved to `to` (an index's swap-remove; `to` is free). */
	move(from: number, to: number): void {
		if (to >= this.#of.length) this.#of = grown(this.#of, to, -1);
		this.#of[to] = from < this.#of.length ? this.#of[from] : -1;
		if (from < this.#of.length) this.#of[from] = -1;
	}

	/** Makes the key map now (a settling index does, so the first write after a load need not). */
	settle(): void {
		this.ids();
	}

	private ids(): Map<string, number> {
		if (this.#ids) return this.#ids;
		// The restored table is shared with the metadata: written to only as this object's copy.
		this.#keys = [...this.#keys];
		const ids = new Map<string, number>();
		for (let k = 0; k < this.#keys.length; k++) {
			if (this.#counts[k] > 0) ids.set(this.#keys[k], k);
			else this.#free.push(k);
		}
		return (this.#ids = ids);
	}
}

/** `a` grown to hold index `i`, new entries `fill`. */
function grown(a: Int32Array, i: number, fill: number): Int32Array {
	const out = new Int32Array(Math.max(i + 1, a.length * 2)).fill(fill);
	out.set(a);
	return out;
}

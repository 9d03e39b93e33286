/**
 * Which memories mention each entity, for graph expansion through shared entities and the
 * per-entity counts of stats. A restored index starts from the snapshot's entity columns as a
 * packed inverted list (`loadPacked`): at 100k memories that is about 400k mentions, and making a
 * Set for every entity at page load cost more than the rest of the metadata. An entity's Set is
 * made the first time it is read or changed, and kept from then on.
 */

/** The snapshot's mentions inverted: the memories of entity e are `slots[start[e]..start[e+1])`. */
interface PackedBase {
	names: readonly string[];
	ids: readonly string[];
	start: Int32Array;
	slots: Int32Array;
	/** Entity name → index into `names`, built on first lookup. */
	index?: Map<string, number>;
	/** 1 once an entity's Set has been made (it lives in `sets` from then on, and is dropped when emptied). */
	done: Uint8Array;
}

/** Entity id → ids of the memories that mention it. */
export class EntityDocs {
	private readonly sets = new Map<string, Set<string>>();
	private base: PackedBase | undefined;

	/** The memories mentioning `entity`, or undefined when none. The set is live: don't mutate it. */
	get(entity: string): ReadonlySet<string> | undefined {
		return this.sets.get(entity) ?? this.make(entity);
	}

	/**
	 * How many memories mention `entity` (get(entity)'s size, 0 when none), without making its
	 * Set: graph expansion skips entities mentioned by too many memories, and at 100k memories
	 * making the Set of every common entity a recall's sources named was ~1 ms of each recall.
	 */
	count(entity: string): number {
		const set = this.sets.get(entity);
		if (set) return set.size;
		const b = this.base;
		if (!b) return 0;
		const e = this.indexOf(b, entity);
		return e === undefined || b.done[e] ? 0 : b.start[e + 1] - b.start[e];
	}

	add(entity: string, id: string): void {
		let set = this.sets.get(entity) ?? this.make(entity);
		if (!set) this.sets.set(entity, (set = new Set()));
		set.add(id);
	}

	delete(entity: string, id: string): void {
		const set = this.sets.get(entity) ?? this.make(entity);
		if (!set) return;
		set.delete(id);
		if (set.size === 0) this.sets.delete(entity);
	}

	/** Memories per entity, for every entity mentioned at least once. */
	counts(): Map<string, number> {
		return new Map(this.entries());
	}

	/**
	 * What counts() holds, as [entity, memories] pairs, without building its Map: stats needs
	 * only the most mentioned and how many there are, and at 100k memories the Map (tens of
	 * thousands of names hashed for the first time) was 50–150 ms of a page load's first stats.
	 * Each entity once: a name has either a Set or a packed list not yet made into one.
	 */
	*entries(): Generator<[string, number]> {
		for (const [e, set] of this.sets) yield [e, set.size];
		const b = this.base;
		if (b)
			for (let e = 0; e < b.names.length; e++) {
				const n = b.start[e + 1] - b.start[e];
				if (n > 0 && !b.done[e]) yield [b.names[e], n];
			}
	}

	/** How many entities are mentioned at least once (counts().size). */
	get size(): number {
		let n = this.sets.size;
		const b = this.base;
		if (b) for (let e = 0; e < b.names.length; e++) if (b.start[e + 1] > b.start[e] && !b.done[e]) n++;
		return n;
	}

	clear(): void {
		this.sets.clear();
		this.base = undefined;
	}

	/**
	 * Starts from a snapshot's mentions: memory slot s mentions `names[values[k]]` for k in
	 * `offsets[s]..offsets[s+1]`, and is `ids[s]`. Must be empty. The slot lists are inverted here
	 * with two passes over typed arrays; Sets are made when first needed. Keeps `ids` and `names`:
	 * the caller must not change them afterwards.
	 */
	loadPacked(ids: readonly string[], names: readonly string[], offsets: Int32Array, values: Int32Array): void {
		const start = new Int32Array(names.length + 1);
		for (let k = 0; k < values.length; k++) start[values[k] + 1]++;
		for (let e = 0; e < names.length; e++) start[e + 1] += start[e];
		const fill = start.slice(0, names.length);
		const slots = new Int32Array(values.length);
		for (let s = 0; s < ids.length; s++) for (let k = offsets[s]; k < offsets[s + 1]; k++) slots[fill[values[k]]++] = s;
		this.base = { names, ids, start, slots, done: new Uint8Array(names.length) };
	}

	/** `entity`'s index into the base's names, when it has mentions there (the name index is built on first use). */
	private indexOf(b: PackedBase, entity: string): number | undefined {
		if (!b.index) {
			b.index = new Map();
			b.names.forEach((name, e) => b.start[e + 1] > b.start[e] && b.index!.set(name, e));
		}
		return b.index.get(entity);
	}

	/** Makes `entity`'s Set from the packed base, when it has mentions there not yet made. */
	private make(entity: string): Set<string> | undefined {
		const b = this.base;
		if (!b) return undefined;
		const e = this.indexOf(b, entity);
		if (e === undefined || b.done[e]) return undefined;
		b.done[e] = 1;
		const set = new Set<string>();
		for (let k = b.start[e]; k < b.start[e + 1]; k++) set.add(b.ids[b.slots[k]]);
		if (set.size) this.sets.set(entity, set);
		return set.size ? set : undefined;
	}
}

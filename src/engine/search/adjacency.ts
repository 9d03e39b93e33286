/**
 * The index's copy of the association graph: for each memory, its edges in both directions.
 * Used for graph expansion, neighbouring turns and current-only chains, so recall never reads
 * associations from IndexedDB. Adding the same (from, to, type) twice updates its strength.
 *
 * A restored index starts from its snapshot's edges as packed arrays (`loadPacked`): a 100k
 * index has about a million edge ends, and making an object for each at page load took longer
 * than everything else in restoring the graph. A memory's list is made from the packed form the
 * first time it is read or changed, and kept from then on.
 */
import type { AssociationType } from '../../core/schemas';
import type { Steps } from './steps';
import type { Edge, SlotNames } from './types';

/** Memories whose edges are visited between two yields of `eachOut`. */
const EDGES_PER_STEP = 256;

/** One end's view of an edge: the other memory, the type, strength and direction. */
export interface AdjEntry {
	other: string;
	type: AssociationType;
	strength: number;
	/** 'out' when this memory is the edge's `from`. */
	dir: 'out' | 'in';
}

/** A snapshot's edges, by end: the edges of base slot s are `edge[start[s]..start[s+1])`. */
interface PackedBase {
	ids: readonly string[];
	slotOf: ReadonlyMap<string, number>;
	start: Int32Array;
	edge: Int32Array;
	from: Int32Array;
	to: Int32Array;
	type: Uint8Array;
	types: readonly AssociationType[];
	strength: ArrayLike<number>;
	/** 1 once a slot's list has been made (it lives in `lists` from then on, even when emptied). */
	made: Uint8Array;
}

/** Both-direction adjacency lists keyed by memory id. */
export class Adjacency {
	private readonly lists = new Map<string, AdjEntry[]>();
	private base: PackedBase | undefined;
	private edges = 0;
	/** Distinct edges per type, kept in step so stats never count IndexedDB (O(rows) there). */
	private readonly byType = new Map<AssociationType, number>();

	/** Number of distinct edges of each type. */
	countsByType(): ReadonlyMap<AssociationType, number> {
		return this.byType;
	}

	private tally(type: AssociationType, d: number): void {
		const n = (this.byType.get(type) ?? 0) + d;
		if (n > 0) this.byType.set(type, n);
		else this.byType.delete(type);
	}

	/** Number of distinct (from, to, type) edges. */
	get edgeCount(): number {
		return this.edges;
	}

	/** Edges of `id` (empty when none). The array is live: don't mutate it. */
	of(id: string): readonly AdjEntry[] {
		return this.lists.get(id) ?? this.make(id) ?? EMPTY;
	}

	/** Makes `id`'s list from the packed base if it has one there not yet made. */
	private make(id: string): AdjEntry[] | undefined {
		const b = this.base;
		const s = b?.slotOf.get(id);
		if (b === undefined || s === undefined || b.made[s]) return undefined;
		b.made[s] = 1;
		const list: AdjEntry[] = [];
		for (let k = b.start[s]; k < b.start[s + 1]; k++) {
			const e = b.edge[k];
			const out = b.from[e] === s;
			list.push({ other: b.ids[out ? b.to[e] : b.from[e]], type: b.types[b.type[e]], strength: b.strength[e], dir: out ? 'out' : 'in' });
		}
		if (list.length) this.lists.set(id, list);
		return list;
	}

	add(e: Edge): void {
		if (e.from === e.to) return;
		if (this.put(e.from, { other: e.to, type: e.type, strength: e.strength, dir: 'out' })) {
			this.edges++;
			this.tally(e.type, 1);
		}
		this.put(e.to, { other: e.from, type: e.type, strength: e.strength, dir: 'in' });
	}

	/**
	 * Starts from a snapshot's edges, given by slot (`ids[from[i]]` → `ids[to[i]]`, type
	 * `types[type[i]]`), known distinct; the adjacency must be empty. Only the packed form is built
	 * here; lists are made when first needed. Keeps `ids` and the arrays: the caller must not
	 * change them afterwards.
	 */
	loadPacked(
		{ ids, slotOf }: SlotNames,
		from: Int32Array,
		to: Int32Array,
		type: Uint8Array,
		types: readonly AssociationType[],
		strength: ArrayLike<number>,
	): void {
		const n = ids.length;
		const start = new Int32Array(n + 1);
		const perType = new Array<number>(types.length).fill(0);
		for (let i = 0; i < from.length; i++) {
			if (from[i] === to[i]) continue;
			start[from[i] + 1]++;
			start[to[i] + 1]++;
			perType[type[i]]++;
		}
		perType.forEach((count, t) => {
			this.edges += count;
			if (count) this.tally(types[t], count);
		});
		for (let s = 0; s < n; s++) start[s + 1] += start[s];
		const fill = start.slice(0, n);
		const edge = new Int32Array(start[n]);
		for (let i = 0; i < from.length; i++) {
			if (from[i] === to[i]) continue;
			edge[fill[from[i]]++] = i;
			edge[fill[to[i]]++] = i;
		}
		this.base = { ids, slotOf, start, edge, from, to, type, types, strength, made: new Uint8Array(n) };
	}

	remove(from: string, to: string, type: AssociationType): void {
		if (this.drop(from, to, type, 'out')) {
			this.edges--;
			this.tally(type, -1);
		}
		this.drop(to, from, type, 'in');
	}

	/** Removes every edge touching `id`, on both ends. */
	removeNode(id: string): void {
		const list = this.lists.get(id) ?? this.make(id);
		if (!list) return;
		// Each entry is a distinct edge (self-loops are never stored), counted once.
		this.edges -= list.length;
		for (const a of list) {
			this.tally(a.type, -1);
			this.drop(a.other, id, a.type, a.dir === 'out' ? 'in' : 'out');
		}
		this.lists.delete(id);
	}

	clear(): void {
		this.lists.clear();
		this.base = undefined;
		this.edges = 0;
		this.byType.clear();
	}

	/** Every edge once (from its source end), for snapshots. */
	*all(): Iterable<Edge> {
		for (const [id, list] of this.lists) for (const a of list) if (a.dir === 'out') yield { from: id, to: a.other, type: a.type, strength: a.strength };
		const b = this.base;
		if (!b) return;
		for (let s = 0; s < b.ids.length; s++) {
			if (b.made[s]) continue;
			for (let k = b.start[s]; k < b.start[s + 1]; k++) {
				const e = b.edge[k];
				if (b.from[e] === s) yield { from: b.ids[s], to: b.ids[b.to[e]], type: b.types[b.type[e]], strength: b.strength[e] };
			}
		}
	}

	/**
	 * Every edge once, from its source end, in `all()`'s order, with each end's slot in `slotOf`
	 * (undefined when it has none) and its id. Edges still packed are read by base slot, each base
	 * slot looked up once: a 100k index has ~500k edges, and an object per edge plus a look-up of
	 * both ends' ids was over half of a snapshot's encoding. Yields every EDGES_PER_STEP memories
	 * (see steps.ts); the adjacency must not change until it returns.
	 */
	*eachOut(
		slotOf: ReadonlyMap<string, number>,
		fn: (from: number | undefined, to: number | undefined, type: AssociationType, strength: number, fromId: string, toId: string) => void,
	): Steps<void> {
		// Plain functions over the next EDGES_PER_STEP memories, called between yields (V8
		// optimises those far better than a generator's own body).
		const made = (it: Iterator<[string, AdjEntry[]]>) => {
			for (let k = 0; k < EDGES_PER_STEP; k++) {
				const r = it.next();
				if (r.done) return false;
				const [id, list] = r.value;
				const a = slotOf.get(id);
				for (const x of list) if (x.dir === 'out') fn(a, slotOf.get(x.other), x.type, x.strength, id, x.other);
			}
			return true;
		};
		for (const it = this.lists.entries(); made(it);) yield;
		const b = this.base;
		if (!b) return;
		const n = b.ids.length;
		const now: (number | undefined)[] = new Array<number | undefined>(n);
		const translate = (from: number, to: number) => {
			for (let s = from; s < to; s++) now[s] = slotOf.get(b.ids[s]);
		};
		const packed = (from: number, to: number) => {
			for (let s = from; s < to; s++) {
				if (b.made[s]) continue;
				for (let k = b.start[s]; k < b.start[s + 1]; k++) {
					const e = b.edge[k];
					if (b.from[e] === s) fn(now[s], now[b.to[e]], b.types[b.type[e]], b.strength[e], b.ids[s], b.ids[b.to[e]]);
				}
			}
		};
		for (let s = 0; s < n; s += EDGES_PER_STEP) {
			translate(s, Math.min(n, s + EDGES_PER_STEP));
			yield;
		}
		for (let s = 0; s < n; s += EDGES_PER_STEP) {
			packed(s, Math.min(n, s + EDGES_PER_STEP));
			yield;
		}
	}

	/** Inserts or updates; true when inserted. */
	private put(id: string, entry: AdjEntry): boolean {
		let list = this.lists.get(id);
		if (!list) this.lists.set(id, (list = this.make(id) ?? []));
		const i = list.findIndex((a) => a.other === entry.other && a.type === entry.type && a.dir === entry.dir);
		if (i >= 0) {
			list[i] = entry;
			return false;
		}
		list.push(entry);
		return true;
	}

	private drop(id: string, other: string, type: AssociationType, dir: 'out' | 'in'): boolean {
		const list = this.lists.get(id) ?? this.make(id);
		if (!list) return false;
		const i = list.findIndex((a) => a.other === other && a.type === type && a.dir === dir);
		if (i < 0) return false;
		list.splice(i, 1);
		if (list.length === 0) this.lists.delete(id);
		return true;
	}
}

const EMPTY: readonly AdjEntry[] = Object.freeze([]);

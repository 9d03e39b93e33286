/**
 * The index's copy of the association graph: for each memory, its edges in both directions.
 * Used for graph expansion, neighbouring turns and current-only chains, so recall never reads
 * associations from IndexedDB. Adding the same (from, to, type) twice updates its strength.
 */
import type { AssociationType } from '../../core/schemas';
import type { Edge } from './types';

/** One end's view of an edge: the other memory, the type, strength and direction. */
export interface AdjEntry {
	other: string;
	type: AssociationType;
	strength: number;
	/** 'out' when this memory is the edge's `from`. */
	dir: 'out' | 'in';
}

/** Both-direction adjacency lists keyed by memory id. */
export class Adjacency {
	private readonly lists = new Map<string, AdjEntry[]>();
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
		return this.lists.get(id) ?? EMPTY;
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
	 * Adds edges known to be distinct and absent (a snapshot's), skipping the duplicate check
	 * that `add` makes per end: restoring a million links is then allocation, not search.
	 */
	addFresh(from: readonly string[], to: readonly string[], type: readonly AssociationType[], strength: ArrayLike<number>): void {
		for (let i = 0; i < from.length; i++) {
			const a = from[i];
			const b = to[i];
			if (a === b) continue;
			this.push(a, { other: b, type: type[i], strength: strength[i], dir: 'out' });
			this.push(b, { other: a, type: type[i], strength: strength[i], dir: 'in' });
			this.edges++;
			this.tally(type[i], 1);
		}
	}

	private push(id: string, entry: AdjEntry): void {
		const list = this.lists.get(id);
		if (list) list.push(entry);
		else this.lists.set(id, [entry]);
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
		const list = this.lists.get(id);
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
		this.edges = 0;
		this.byType.clear();
	}

	/** Every edge once (from its source end), for snapshots. */
	*all(): Iterable<Edge> {
		for (const [id, list] of this.lists)
			for (const a of list) if (a.dir === 'out') yield { from: id, to: a.other, type: a.type, strength: a.strength };
	}

	/** Inserts or updates; true when inserted. */
	private put(id: string, entry: AdjEntry): boolean {
		let list = this.lists.get(id);
		if (!list) this.lists.set(id, (list = []));
		const i = list.findIndex((a) => a.other === entry.other && a.type === entry.type && a.dir === entry.dir);
		if (i >= 0) {
			list[i] = entry;
			return false;
		}
		list.push(entry);
		return true;
	}

	private drop(id: string, other: string, type: AssociationType, dir: 'out' | 'in'): boolean {
		const list = this.lists.get(id);
		if (!list) return false;
		const i = list.findIndex((a) => a.other === other && a.type === type && a.dir === dir);
		if (i < 0) return false;
		list.splice(i, 1);
		if (list.length === 0) this.lists.delete(id);
		return true;
	}
}

const EMPTY: readonly AdjEntry[] = Object.freeze([]);

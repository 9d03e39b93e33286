/**
 * A restored index's id → slot map, made after start-up instead of during the restore. Hashing
 * 100k ids into a Map took 50–220 ms of a 100k restore (Node, a loaded machine), on the path to
 * the first answer. A snapshot's ids are usually in slot order already (ids are UUIDv7, which
 * sort by creation time, and memories fill slots in the order they are stored; only a delete's
 * swap-remove moves one), so until the Map is made a binary search over the slot ids answers;
 * `settle()` makes it in steps after start-up, as term-index.ts makes the term tree. Ids out of
 * order are hashed at once (`slotMapOf`), as before.
 *
 * Read-only: the index writes its changes to the OverlayMap over it (overlay-map.ts).
 */
import { strictlySorted } from './term-index';

/** Ids hashed into the Map per step of `settle()`. */
const STEP = 25_000;

/** The id → slot map over `ids` (id at each slot, none repeated): a {@link SortedSlotMap} when they are in order, else a Map. */
export function slotMapOf(ids: readonly string[]): Map<string, number> {
	if (strictlySorted(ids)) return new SortedSlotMap(ids);
	const m = new Map<string, number>();
	for (let i = 0; i < ids.length; i++) m.set(ids[i], i);
	return m;
}

/**
 * The slot of each of `ids` (strictly ascending), answered by binary search until `settle()` has
 * hashed them all into the Map (a look-up then costs one hash probe, not ~17 string compares).
 */
export class SortedSlotMap extends Map<string, number> {
	readonly #ids: readonly string[];
	#done = false;

	constructor(ids: readonly string[]) {
		super();
		this.#ids = ids;
	}

	/** Whether the Map is made (look-ups hash rather than search). */
	get made(): boolean {
		return this.#done;
	}

	override get(id: string): number | undefined {
		if (this.#done) return super.get(id);
		const ids = this.#ids;
		let lo = 0;
		let hi = ids.length;
		while (lo < hi) {
			const mid = (lo + hi) >>> 1;
			if (ids[mid] < id) lo = mid + 1;
			else hi = mid;
		}
		return lo < ids.length && ids[lo] === id ? lo : undefined;
	}

	override has(id: string): boolean {
		return this.get(id) !== undefined;
	}

	override get size(): number {
		return this.#ids.length;
	}

	override set(): this {
		throw new Error('SortedSlotMap is read-only');
	}

	override delete(): boolean {
		throw new Error('SortedSlotMap is read-only');
	}

	override clear(): void {
		throw new Error('SortedSlotMap is read-only');
	}

	override *keys(): MapIterator<string> {
		yield* this.#ids;
	}

	override *values(): MapIterator<number> {
		for (let i = 0; i < this.#ids.length; i++) yield i;
	}

	override *entries(): MapIterator<[string, number]> {
		for (let i = 0; i < this.#ids.length; i++) yield [this.#ids[i], i];
	}

	override [Symbol.iterator](): MapIterator<[string, number]> {
		return this.entries();
	}

	override forEach(fn: (value: number, key: string, map: Map<string, number>) => void, thisArg?: unknown): void {
		for (let i = 0; i < this.#ids.length; i++) fn.call(thisArg, i, this.#ids[i], this);
	}

	/** Hashes the ids into the Map in steps, awaiting `pause()` between them; look-ups search until the last step. */
	async settle(pause: () => Promise<void>): Promise<void> {
		const ids = this.#ids;
		for (let from = 0; !this.#done;) {
			const to = Math.min(ids.length, from + STEP);
			for (let i = from; i < to; i++) super.set(ids[i], i);
			from = to;
			if (to === ids.length) this.#done = true;
			else await pause();
		}
	}
}

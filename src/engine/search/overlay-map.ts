/**
 * A Map over a read-only base: reads fall through to the base, writes and deletes are recorded
 * on top of it. A restored index answers from its snapshot's packed arrays this way instead of
 * first copying 100k entries into each of several Maps (id → slot, minisearch's document tables)
 * at page load; only what changes afterwards lives in real Map entries.
 *
 * The base must not change, and must never hold `undefined` as a value.
 *
 * @example
 * const m = new OverlayMap({ size: 2, get: (k: string) => ({ a: 1, b: 2 })[k], keys: () => ['a', 'b'] });
 * m.set('c', 3); m.delete('a'); [...m.keys()]; // ['b', 'c']
 */

/** What an OverlayMap reads through to. */
export interface MapBase<K, V> {
	readonly size: number;
	/** The value of `key`, or undefined when the base does not hold it. */
	get(key: K): V | undefined;
	/** Whether the base holds `key`, when that is cheaper to tell than `get` (which it then answers like). */
	has?(key: K): boolean;
	/** Every key of the base, each once. */
	keys(): Iterable<K>;
}

/** An empty base (what `clear()` leaves). */
const EMPTY: MapBase<never, never> = { size: 0, get: () => undefined, keys: () => [] };

export class OverlayMap<K, V> extends Map<K, V> {
	#base: MapBase<K, V>;
	/** Base keys deleted or overwritten since: the base's answer for them no longer counts. */
	#hidden = new Set<K>();

	constructor(base: MapBase<K, V>) {
		super();
		this.#base = base;
	}

	override get(key: K): V | undefined {
		// A restored index's maps are read thousands of times per recall and written rarely: while
		// nothing was written, one look-up in the base, not three (measured: 3–4% of a 100k recall).
		if (super.size > 0) {
			const own = super.get(key);
			if (own !== undefined || super.has(key)) return own;
		}
		return this.#hidden.size > 0 && this.#hidden.has(key) ? undefined : this.#base.get(key);
	}

	/** Whether the base answers for `key` (nothing set or deleted over it since). */
	fromBase(key: K): boolean {
		return !(super.size > 0 && super.has(key)) && !(this.#hidden.size > 0 && this.#hidden.has(key));
	}

	override has(key: K): boolean {
		const base = this.#base;
		return (
			(super.size > 0 && super.has(key)) ||
			((base.has ? base.has(key) : base.get(key) !== undefined) && !(this.#hidden.size > 0 && this.#hidden.has(key)))
		);
	}

	override set(key: K, value: V): this {
		if (this.#base.get(key) !== undefined) this.#hidden.add(key);
		return super.set(key, value);
	}

	override delete(key: K): boolean {
		const own = super.delete(key);
		if (this.#base.get(key) === undefined || this.#hidden.has(key)) return own;
		this.#hidden.add(key);
		return true;
	}

	override clear(): void {
		super.clear();
		this.#base = EMPTY;
		this.#hidden.clear();
	}

	override get size(): number {
		return super.size + this.#base.size - this.#hidden.size;
	}

	override *keys(): MapIterator<K> {
		for (const k of this.#base.keys()) if (!this.#hidden.has(k)) yield k;
		yield* super.keys();
	}

	override *values(): MapIterator<V> {
		for (const [, v] of this.entries()) yield v;
	}

	override *entries(): MapIterator<[K, V]> {
		for (const k of this.#base.keys()) if (!this.#hidden.has(k)) yield [k, this.#base.get(k)!];
		yield* super.entries();
	}

	override [Symbol.iterator](): MapIterator<[K, V]> {
		return this.entries();
	}

	override forEach(fn: (value: V, key: K, map: Map<K, V>) => void, thisArg?: unknown): void {
		for (const [k, v] of this.entries()) fn.call(thisArg, v, k, this);
	}
}

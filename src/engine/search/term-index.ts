/**
 * minisearch's term index (`_index`, a radix tree of Maps) for a restored snapshot, made only
 * when something needs the tree. A restore hands over the snapshot's terms in sorted order with
 * each one's packed postings; lookups and prefix walks binary-search that list, which is all a
 * search does. Adding or removing a document, a fuzzy lookup or a full walk needs the real tree:
 * `tree()` makes it then (all at once), and `settle()` makes it ahead of need in steps between
 * other work. At 100k memories the tree and the per-term objects of 71k terms took 170–230 ms
 * of a 0.9 s Node restore (docs/BENCHMARKS.md ("Design notes: the search index")).
 */
import SearchableMap from 'minisearch/SearchableMap';

/** A term's field → (short id → term frequency) map, as minisearch keeps it. */
export type TermData = Map<number, Map<number, number>>;

/** Terms inserted into the tree per step of `settle()`. */
const STEP = 8_000;

/** Whether `terms` is in ascending code-unit order with no repeats. */
export function strictlySorted(terms: readonly string[]): boolean {
	for (let i = 1; i < terms.length; i++) if (!(terms[i - 1] < terms[i])) return false;
	return true;
}

export class PackedTermIndex {
	readonly #terms: readonly string[];
	/** Term i's postings are the packed range `ranges[2i] .. ranges[2i+1]`. */
	readonly #ranges: Int32Array;
	readonly #make: (from: number, to: number) => TermData;
	/** Term data handed out so far: the tree later holds these same objects. */
	readonly #made = new Map<number, TermData>();
	#tree: SearchableMap<TermData> | undefined;
	/** Terms [0, #filled) are already in #tree (while settling). */
	#filled = 0;
	#done = false;

	/**
	 * `terms` sorted (see strictlySorted); `ranges` their postings' packed ranges, which `make`
	 * turns into term data (lexical-codec.ts's PackedTermData) when a term is first read.
	 */
	constructor(terms: readonly string[], ranges: Int32Array, make: (from: number, to: number) => TermData) {
		this.#terms = terms;
		this.#ranges = ranges;
		this.#make = make;
	}

	get size(): number {
		return this.#done ? this.#tree!.size : this.#terms.length;
	}

	get(term: string): TermData | undefined {
		if (this.#done) return this.#tree!.get(term);
		const i = this.#find(term);
		return i < 0 ? undefined : this.#data(i);
	}

	has(term: string): boolean {
		return this.#done ? this.#tree!.has(term) : this.#find(term) >= 0;
	}

	/** The terms starting with `prefix` and their data (minisearch only iterates the result). */
	atPrefix(prefix: string): Iterable<[string, TermData]> {
		if (this.#done) return this.#tree!.atPrefix(prefix);
		const terms = this.#terms;
		let i = this.#lowerBound(prefix);
		const out: [string, TermData][] = [];
		for (; i < terms.length && terms[i].startsWith(prefix); i++) out.push([terms[i], this.#data(i)]);
		return out;
	}

	fetch(term: string, initial: () => TermData): TermData {
		return this.tree().fetch(term, initial);
	}

	set(term: string, value: TermData): this {
		this.tree().set(term, value);
		return this;
	}

	delete(term: string): void {
		this.tree().delete(term);
	}

	fuzzyGet(term: string, maxEditDistance: number): Map<string, [TermData, number]> {
		return this.tree().fuzzyGet(term, maxEditDistance);
	}

	[Symbol.iterator](): IterableIterator<[string, TermData]> {
		return this.tree()[Symbol.iterator]();
	}

	entries(): IterableIterator<[string, TermData]> {
		return this.tree().entries();
	}

	keys(): IterableIterator<string> {
		return this.tree().keys();
	}

	values(): IterableIterator<TermData> {
		return this.tree().values();
	}

	/** Whether the tree is made (every call then goes to it). */
	get made(): boolean {
		return this.#done;
	}

	/** Every term, without making the tree or any term's data (lexical.ts's vocabulary of a restored index). */
	*allTerms(): Iterable<string> {
		if (this.#done) yield* this.#tree!.keys();
		else yield* this.#terms;
	}

	/** Every term and its data, without making the tree when it is not made yet (for packing). */
	*all(): Iterable<[string, TermData]> {
		if (this.#done) {
			yield* this.#tree!;
			return;
		}
		for (let i = 0; i < this.#terms.length; i++) yield [this.#terms[i], this.#data(i)];
	}

	/** The real tree, made now if it is not yet; from then on every call goes to it. */
	tree(): SearchableMap<TermData> {
		while (!this.#done) this.#fill(Infinity);
		return this.#tree!;
	}

	/** Makes the tree in steps, awaiting `pause()` between them; a call that needs it meanwhile finishes it at once. */
	async settle(pause: () => Promise<void>): Promise<void> {
		while (!this.#done) {
			this.#fill(STEP);
			if (!this.#done) await pause();
		}
	}

	#fill(count: number): void {
		const tree = (this.#tree ??= new SearchableMap<TermData>());
		const end = Math.min(this.#terms.length, this.#filled + count);
		for (let i = this.#filled; i < end; i++) tree.set(this.#terms[i], this.#data(i));
		this.#filled = end;
		if (end === this.#terms.length) {
			this.#done = true;
			this.#made.clear();
		}
	}

	#data(i: number): TermData {
		let d = this.#made.get(i);
		if (d === undefined) this.#made.set(i, (d = this.#make(this.#ranges[2 * i], this.#ranges[2 * i + 1])));
		return d;
	}

	/** The index of `term`, or −1. */
	#find(term: string): number {
		const i = this.#lowerBound(term);
		return i < this.#terms.length && this.#terms[i] === term ? i : -1;
	}

	/** The first index whose term is not below `term`. */
	#lowerBound(term: string): number {
		const terms = this.#terms;
		let lo = 0;
		let hi = terms.length;
		while (lo < hi) {
			const mid = (lo + hi) >>> 1;
			if (terms[mid] < term) lo = mid + 1;
			else hi = mid;
		}
		return lo;
	}
}

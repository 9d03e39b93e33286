/**
 * An inverted-file coarse quantiser for nearest() at scale: spherical k-means centroids split
 * the vectors into lists, and a query scans only the lists of its `nprobe` closest centroids.
 * Storing a memory looks up its SIMILAR_TO neighbours and near-duplicates with nearest(); with
 * a brute-force scan, importing 100k memories would cost 100k × 50k dot products (quadratic),
 * with the quantiser about 100k × 4k. Trained once the index holds `IVF.trainAt` vectors (and
 * again after it grows `IVF.retrainGrowth`-fold); recall against exact search is measured by
 * bench/ann-recall.ts and reported in docs/BENCHMARKS.md.
 */
import { TopK } from './top-k';
import { VectorStore } from './vector-store';

/** Tunables of the quantiser. */
export const IVF = {
	/** Vectors before the first training; below it nearest() scans exactly. */
	trainAt: 20_000,
	/** Retrain when the index has grown this many times since the last training. */
	retrainGrowth: 8,
	/** k-means iterations. */
	iterations: 8,
	/** Training sample per centroid. */
	samplePerList: 40,
	/** Lists scanned per query, as a share of all lists (at least `minProbe`). */
	probeShare: 1 / 12,
	minProbe: 8,
	/** Centroids beyond those wanted that are scored again exactly (see Ivf.closest). */
	recheck: 8,
};

/** The number of lists for `n` vectors: about 2·√n, a power-of-two-free round number. */
export function listCount(n: number): number {
	return Math.max(16, Math.min(1024, Math.round(2 * Math.sqrt(n))));
}

/**
 * Slot-addressed membership in numbered lists: each slot is in at most one list, and a list's
 * slots can be walked without touching any other slot. The quantiser's lists are one use; the
 * index's per-scope lists (so a scoped nearest() scans only its scope) are another.
 */
export class SlotLists {
	/** List of each slot (−1: none). */
	private listOf = new Int32Array(1024).fill(-1);
	/** Position of each slot inside its list. */
	private posOf = new Int32Array(1024);
	private lists: Int32Array[] = [];
	private sizes: number[] = [];

	constructor(nlist = 0) {
		for (let l = 0; l < nlist; l++) this.addList();
	}

	/** Opens a new, empty list and returns its number. */
	addList(): number {
		this.lists.push(new Int32Array(16));
		this.sizes.push(0);
		return this.lists.length - 1;
	}

	/** The list `slot` is in (−1: none). */
	listAt(slot: number): number {
		return slot < this.listOf.length ? this.listOf[slot] : -1;
	}

	/** Number of slots in `list`. */
	sizeOf(list: number): number {
		return this.sizes[list] ?? 0;
	}

	/** Puts `slot` in list `list` (removing it from any previous one). */
	assign(slot: number, list: number): void {
		this.unassign(slot);
		this.grow(slot);
		if (this.sizes[list] === this.lists[list].length) {
			const bigger = new Int32Array(this.lists[list].length * 2);
			bigger.set(this.lists[list]);
			this.lists[list] = bigger;
		}
		this.posOf[slot] = this.sizes[list];
		this.lists[list][this.sizes[list]++] = slot;
		this.listOf[slot] = list;
	}

	/** Removes `slot` from its list (swap-remove inside the list). */
	unassign(slot: number): void {
		if (slot >= this.listOf.length) return;
		const list = this.listOf[slot];
		if (list < 0) return;
		const pos = this.posOf[slot];
		const last = this.lists[list][--this.sizes[list]];
		this.lists[list][pos] = last;
		this.posOf[last] = pos;
		this.listOf[slot] = -1;
	}

	/** Slot `from` now lives at `to` (the index's swap-remove). */
	move(from: number, to: number): void {
		this.unassign(to);
		if (from >= this.listOf.length || this.listOf[from] < 0) return;
		const list = this.listOf[from];
		this.grow(to);
		this.lists[list][this.posOf[from]] = to;
		this.listOf[to] = list;
		this.posOf[to] = this.posOf[from];
		this.listOf[from] = -1;
	}

	/** The slots of `list` (a live view: valid until the next change). */
	slotsOf(list: number): Int32Array {
		return this.lists[list].subarray(0, this.sizes[list]);
	}

	/** Each slot's list for the first `n` slots (−1: none), for snapshots. */
	assignments(n: number): Int32Array {
		const out = new Int32Array(n).fill(-1);
		out.set(this.listOf.subarray(0, Math.min(n, this.listOf.length)));
		return out;
	}

	private grow(slot: number): void {
		if (slot < this.listOf.length) return;
		let cap = this.listOf.length;
		while (cap <= slot) cap *= 2;
		const listOf = new Int32Array(cap).fill(-1);
		listOf.set(this.listOf);
		const posOf = new Int32Array(cap);
		posOf.set(this.posOf);
		this.listOf = listOf;
		this.posOf = posOf;
	}
}

/** The coarse quantiser: trained centroids, and each vector's slot in its closest centroid's list. */
export class Ivf extends SlotLists {
	readonly dims: number;
	readonly nlist: number;
	readonly centroids: Float32Array;
	/** The vector count when trained (for the retrain policy). */
	readonly trainedAt: number;

	/**
	 * The centroids as int8 codes, scored like the index's vectors (in SIMD where available):
	 * placing a vector scores every centroid, the index update's largest step after the lexical
	 * one, and training's whole cost. The int8 scores only shortlist: the best few are scored
	 * again exactly, since int8's error alone skewed which lists vectors went to (and so how
	 * many a probe scans).
	 */
	private readonly table: VectorStore;
	private readonly every: Int32Array;
	private readonly scores: Float32Array;

	constructor(dims: number, centroids: Float32Array, trainedAt: number) {
		super(centroids.length / dims);
		this.dims = dims;
		this.nlist = centroids.length / dims;
		this.centroids = centroids;
		this.trainedAt = trainedAt;
		this.table = new VectorStore(dims, this.nlist);
		for (let c = 0; c < this.nlist; c++) this.table.set(c, centroids.subarray(c * dims, (c + 1) * dims));
		this.every = Int32Array.from({ length: this.nlist }, (_, c) => c);
		this.scores = new Float32Array(this.nlist);
	}

	/** The `n` centroids closest to the unit vector `v`, best first, scored exactly. */
	private closest(v: Float32Array, n: number): number[] {
		this.table.dotsInto(this.every, this.nlist, v, this.scores);
		const shortlist = new TopK(Math.min(this.nlist, n + IVF.recheck));
		for (let c = 0; c < this.nlist; c++) shortlist.push(c, this.scores[c]);
		const top = new TopK(n);
		const d = this.dims;
		for (const h of shortlist.sorted()) {
			let s = 0;
			for (let i = 0, base = h.slot * d; i < d; i++) s += this.centroids[base + i] * v[i];
			top.push(h.slot, s);
		}
		return top.sorted().map((h) => h.slot);
	}

	/** The closest centroid of a unit vector. */
	nearestList(v: Float32Array): number {
		return this.closest(v, 1)[0];
	}

	/** The `nprobe` closest lists of a unit query, best first. */
	probe(q: Float32Array): number[] {
		return this.closest(q, Math.min(this.nlist, Math.max(IVF.minProbe, Math.round(this.nlist * IVF.probeShare))));
	}
}

/**
 * Spherical k-means over a deterministic sample of `n` vectors read with `vectorAt` (unit
 * length, or undefined for an empty slot); returns the centroids (nlist × dims, unit length).
 */
export function trainCentroids(n: number, dims: number, nlist: number, vectorAt: (slot: number) => Float32Array | undefined): Float32Array {
	const sample: Float32Array[] = [];
	const want = Math.min(n, nlist * IVF.samplePerList);
	const stride = n / want;
	for (let i = 0; i < want; i++) {
		const v = vectorAt(Math.floor(i * stride));
		if (v) sample.push(v);
	}
	const k = Math.min(nlist, sample.length);
	const cents = new Float32Array(k * dims);
	// Initial centroids: evenly spaced sample members (deterministic).
	for (let c = 0; c < k; c++) cents.set(sample[Math.floor((c * sample.length) / k)], c * dims);
	const assign = new Int32Array(sample.length);
	for (let it = 0; it < IVF.iterations; it++) {
		const probe = new Ivf(dims, cents, 0);
		sample.forEach((v, i) => (assign[i] = probe.nearestList(v)));
		const sums = new Float32Array(k * dims);
		sample.forEach((v, i) => {
			const base = assign[i] * dims;
			for (let j = 0; j < dims; j++) sums[base + j] += v[j];
		});
		for (let c = 0; c < k; c++) {
			let norm = 0;
			for (let j = 0; j < dims; j++) norm += sums[c * dims + j] ** 2;
			// An emptied centroid keeps its place rather than collapsing to zero.
			if (norm > 0) for (let j = 0; j < dims; j++) cents[c * dims + j] = sums[c * dims + j] / Math.sqrt(norm);
		}
	}
	return cents;
}

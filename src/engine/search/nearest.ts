/**
 * Exact nearest-neighbour search by brute force over the int8 vectors: the slots to score are
 * gathered first, scored in one call (WebAssembly SIMD where available, VectorStore.dotsInto),
 * then kept in a bounded heap. Exact is the right default up to ~20k vectors of the embedded
 * model's 100 dims; above, the quantiser's lists narrow the scan (see docs/BENCHMARKS.md).
 */
import { IVF, type Ivf } from './ivf';
import { TopK } from './top-k';
import type { IndexView } from './view';

/** Reused buffers for a scan's slots and their cosines (a scan never runs inside another). */
let scratchSlots = new Int32Array(4_096);
let scratchScores = new Float32Array(4_096);

/** 0, 1, 2, …: the positions of a contiguous copy, as the SIMD scan takes slot numbers. */
let identity = new Int32Array(0);

/** The first `n` positions. */
function positions(n: number): Int32Array {
	if (identity.length < n) identity = Int32Array.from({ length: Math.max(n, identity.length * 2) }, (_, i) => i);
	return identity;
}

/** Room for `n` slots in the scratch buffers. */
function scratch(n: number): void {
	if (n <= scratchSlots.length) return;
	let cap = scratchSlots.length;
	while (cap < n) cap *= 2;
	scratchSlots = new Int32Array(cap);
	scratchScores = new Float32Array(cap);
}

/**
 * The cosines of the first `count` scratch slots with `q`, each pushed into `top` (and summed);
 * the slots must hold vectors.
 */
function scoreInto(view: IndexView, q: Float32Array, count: number, top: TopK): number {
	view.vectors.dotsInto(scratchSlots, count, q, scratchScores);
	let sum = 0;
	for (let i = 0; i < count; i++) {
		const s = scratchScores[i];
		sum += s;
		top.push(scratchSlots[i], s);
	}
	return sum;
}

/** A scan's best hits plus the mean cosine of everything it accepted (the query's baseline). */
export interface ScanResult {
	hits: { slot: number; score: number }[];
	mean: number;
	scanned: number;
}

/** Best-first `k` neighbours of the unit vector `q` among slots accepted by `accept`. */
export function scanSlots(
	view: IndexView,
	q: Float32Array,
	k: number,
	accept?: (slot: number) => boolean,
): ScanResult {
	const top = new TopK(k);
	const scales = view.vectors.scales;
	const n = view.count;
	scratch(n);
	let m = 0;
	for (let slot = 0; slot < n; slot++) if (scales[slot] !== 0 && (accept === undefined || accept(slot))) scratchSlots[m++] = slot;
	const sum = scoreInto(view, q, m, top);
	return { hits: top.sorted(), mean: m > 0 ? sum / m : 0, scanned: m };
}

/** SearchIndex.nearest over a view: optional scope (only its slots are visited) and excluded ids. */
export function nearestScan(
	view: IndexView,
	q: Float32Array,
	k: number,
	filter?: { scope?: string; exclude?: string[] },
): { id: string; cosine: number }[] {
	const exclude = filter?.exclude && filter.exclude.length > 0 ? new Set(filter.exclude) : null;
	const toHits = (hits: { slot: number; score: number }[]) => hits.map((h) => ({ id: view.metas[h.slot].id, cosine: h.score }));
	if (filter?.scope === undefined) {
		const accept = exclude === null ? undefined : (slot: number) => !exclude.has(view.metas[slot].id);
		return toHits(scanSlots(view, q, k, accept).hits);
	}
	const top = new TopK(k);
	const scales = view.vectors.scales;
	const copy = view.contiguousScope?.(filter.scope);
	if (copy) {
		// One sweep over the scope's own copy of its codes (scope-codes.ts), then the filters.
		const m = copy.slots.length;
		scratch(m);
		copy.memory.dots(positions(m), m, q, scratchScores);
		for (let p = 0; p < m; p++) {
			const slot = copy.slots[p];
			const sc = scales[slot];
			if (sc !== 0 && (exclude === null || !exclude.has(view.metas[slot].id))) top.push(slot, scratchScores[p] * sc);
		}
		return toHits(top.sorted());
	}
	const slots = view.slotsInScope(filter.scope);
	scratch(slots.length);
	let m = 0;
	for (const slot of slots) if (scales[slot] !== 0 && (exclude === null || !exclude.has(view.metas[slot].id))) scratchSlots[m++] = slot;
	scoreInto(view, q, m, top);
	return toHits(top.sorted());
}

/**
 * nearest() through the coarse quantiser: only the lists of the query's closest centroids are
 * scanned. Falls back to the exact scan when the filter leaves fewer than `k` hits there (a
 * small scope spread thin over the lists).
 */
export function ivfScan(
	view: IndexView,
	ivf: Ivf,
	q: Float32Array,
	k: number,
	filter?: { scope?: string; exclude?: string[] },
): { id: string; cosine: number }[] {
	const scope = filter?.scope;
	// A scope no larger than the probed lists is cheaper to scan exactly: only its own slots are visited.
	if (scope !== undefined && view.scopeSize(scope) <= view.count * IVF.probeShare) return nearestScan(view, q, k, filter);
	const exclude = filter?.exclude && filter.exclude.length > 0 ? new Set(filter.exclude) : null;
	const member = scope === undefined ? undefined : view.inScope(scope);
	const keep =
		exclude === null
			? member
			: (slot: number) => (member === undefined || member(slot)) && !exclude.has(view.metas[slot].id);
	const hits = probeSlots(view, ivf, q, k, keep);
	if (hits.length < k) return nearestScan(view, q, k, filter);
	return hits.map((h) => ({ id: view.metas[h.slot].id, cosine: h.score }));
}

/** The best `k` slots (kept by `keep`, when given) in the lists the quantiser probes for `q`. */
export function probeSlots(view: IndexView, ivf: Ivf, q: Float32Array, k: number, keep?: (slot: number) => boolean): { slot: number; score: number }[] {
	const scales = view.vectors.scales;
	const lists = ivf.probe(q);
	let total = 0;
	for (const list of lists) total += ivf.sizeOf(list);
	scratch(total);
	let m = 0;
	for (const list of lists)
		for (const slot of ivf.slotsOf(list)) if (scales[slot] !== 0 && (keep === undefined || keep(slot))) scratchSlots[m++] = slot;
	const top = new TopK(k);
	scoreInto(view, q, m, top);
	return top.sorted();
}

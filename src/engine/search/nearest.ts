/**
 * Exact nearest-neighbour search by brute force over the int8 vectors: one pass over the
 * contiguous codes with a bounded heap. Exact is the right default up to ~100k vectors of the
 * embedded model's 100 dims (see docs/BENCHMARKS.md for the measured cost per query).
 */
import { IVF, type Ivf } from './ivf';
import { TopK } from './top-k';
import type { IndexView } from './view';

/** Dot product of int8 codes at `base` with a float query, unrolled by four. */
function dotAt(codes: Int8Array, base: number, q: Float32Array, d: number): number {
	let s0 = 0;
	let s1 = 0;
	let s2 = 0;
	let s3 = 0;
	let i = 0;
	for (; i + 3 < d; i += 4) {
		s0 += codes[base + i] * q[i];
		s1 += codes[base + i + 1] * q[i + 1];
		s2 += codes[base + i + 2] * q[i + 2];
		s3 += codes[base + i + 3] * q[i + 3];
	}
	for (; i < d; i++) s0 += codes[base + i] * q[i];
	return s0 + s1 + s2 + s3;
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
	const { codes, scales } = view.vectors;
	const d = view.dims;
	const n = view.count;
	let sum = 0;
	let scanned = 0;
	let s = 0;
	for (let slot = 0; slot < n; slot++) {
		const sc = scales[slot];
		if (sc === 0) continue;
		if (accept !== undefined && !accept(slot)) continue;
		s = dotAt(codes, slot * d, q, d) * sc;
		sum += s;
		scanned++;
		top.push(slot, s);
	}
	return { hits: top.sorted(), mean: scanned > 0 ? sum / scanned : 0, scanned };
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
	const { codes, scales } = view.vectors;
	const d = view.dims;
	for (const slot of view.slotsInScope(filter.scope)) {
		const sc = scales[slot];
		if (sc === 0 || (exclude !== null && exclude.has(view.metas[slot].id))) continue;
		top.push(slot, dotAt(codes, slot * d, q, d) * sc);
	}
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
	const { codes, scales } = view.vectors;
	const d = view.dims;
	const top = new TopK(k);
	for (const list of ivf.probe(q))
		for (const slot of ivf.slotsOf(list)) {
			const sc = scales[slot];
			if (sc === 0 || (keep !== undefined && !keep(slot))) continue;
			top.push(slot, dotAt(codes, slot * d, q, d) * sc);
		}
	return top.sorted();
}

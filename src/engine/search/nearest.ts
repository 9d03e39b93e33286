/**
 * Nearest-neighbour search over the int8 vectors: the slots to score are gathered, scored in
 * blocks (WebAssembly SIMD where available, VectorStore.dotsInto; a batch's queries eight per
 * pass over the codes, simd-many.ts), and kept in bounded heaps.
 * Exact is the right default up to ~20k vectors of the embedded model's 100 dims; above, the
 * quantiser's lists narrow the scan (see docs/BENCHMARKS.md).
 */
import { IVF, type Ivf } from './ivf';
import { CodeMemory, type PackedQueries } from './simd-dots';
import type { PreparedQuery } from './vector-store';
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
export function scanSlots(view: IndexView, q: Float32Array, k: number, accept?: (slot: number) => boolean): ScanResult {
	const top = new TopK(k);
	const scales = view.vectors.scales;
	const n = view.count;
	scratch(n);
	let m = 0;
	for (let slot = 0; slot < n; slot++) if (scales[slot] !== 0 && (accept === undefined || accept(slot))) scratchSlots[m++] = slot;
	const sum = scoreInto(view, q, m, top);
	return { hits: top.sorted(), mean: m > 0 ? sum / m : 0, scanned: m };
}

/** One nearest() look-up: a unit query, and optionally a scope and ids to leave out. */
export interface NearestQuery {
	q: Float32Array;
	scope?: string;
	exclude?: string[];
}

export type Neighbours = { id: string; cosine: number }[];

/** A look-up under way: its query made ready for the scan, its filters, and the best slots so far. */
interface Run {
	query: PreparedQuery;
	scope: string | undefined;
	/** view.scopeId(scope), or ANY_SCOPE. */
	scopeId: number;
	exclude: Set<string> | null;
	top: TopK;
}

const ANY_SCOPE = -2;

/** Tunables of the sweep. */
export const SWEEP = {
	/**
	 * Bytes of codes scored per query before moving on: a batch's queries take turns over each
	 * chunk of a group's codes, so the chunk comes from memory once and from cache for the rest.
	 */
	chunkBytes: 128 * 1024,
	/**
	 * Queries scored together in one pass over a chunk's codes (simd-many.ts; capped by what the
	 * query area holds at the width). 0 scores one query at a time (VectorStore.dotsInto), the
	 * path taken anyway without WebAssembly SIMD; the answers are the same either way.
	 */
	perPass: 8,
};

/**
 * SearchIndex.nearest for a batch of queries, each answered as if alone: the `k` best slots
 * in its scope, bar its excluded ids. A store looks up every new memory's neighbours at once.
 * Queries are grouped by what they scan (a scope; a quantiser list and scope) and each group's
 * codes are swept once for all its queries, chunk by chunk: at 100k memories a cold dot costs
 * 75–85 ns and one in cache 16 (docs/BENCHMARKS.md), and most of a batch's scans overlap.
 */
export function nearestMany(view: IndexView, queries: NearestQuery[], k: number): Neighbours[] {
	const runs = queries.map((x) => runOf(view, x, k));
	const ivf = view.ivf;
	const exact: Run[] = [];
	const probed: Run[] = [];
	// A scope no larger than the probed lists is cheaper to scan exactly: only its own slots are visited.
	for (const r of runs) (ivf && (r.scope === undefined || view.scopeSize(r.scope) > view.count * IVF.probeShare) ? probed : exact).push(r);
	if (ivf && probed.length > 0) {
		probeLists(view, ivf, probed);
		// A scope spread thin over the lists can leave fewer than k there: it is scanned exactly.
		for (const r of probed)
			if (r.top.size < k) {
				r.top = new TopK(k);
				exact.push(r);
			}
	}
	scanExact(view, exact);
	return runs.map((r) => neighbours(view, r));
}

/** The exact answer for one query, every slot of its scope (or of the index) scored: ann-recall's reference. */
export function nearestExact(view: IndexView, q: Float32Array, k: number, filter?: { scope?: string; exclude?: string[] }): Neighbours {
	const run = runOf(view, { q, ...filter }, k);
	scanExact(view, [run]);
	return neighbours(view, run);
}

/** The best `k` slots of the whole index in the lists the quantiser probes for `q` (a recall's semantic pool). */
export function probeSlots(view: IndexView, ivf: Ivf, q: Float32Array, k: number): { slot: number; score: number }[] {
	const run = runOf(view, { q }, k);
	probeLists(view, ivf, [run]);
	return run.top.sorted();
}

/** A look-up about to start. */
function runOf(view: IndexView, x: NearestQuery, k: number): Run {
	return {
		query: view.vectors.prepare(x.q),
		scope: x.scope,
		scopeId: x.scope === undefined ? ANY_SCOPE : view.scopeId(x.scope),
		exclude: x.exclude && x.exclude.length > 0 ? new Set(x.exclude) : null,
		top: new TopK(k),
	};
}

/** A finished look-up's best, as ids and cosines. */
function neighbours(view: IndexView, run: Run): Neighbours {
	return run.top.sorted().map((h) => ({ id: view.metas[h.slot].id, cosine: h.score }));
}

/** Every slot of each run's scope (of the index, unscoped), one sweep per scope. */
function scanExact(view: IndexView, runs: Run[]): void {
	const byScope = new Map<string | undefined, Run[]>();
	for (const r of runs) {
		if (r.scope !== undefined && r.scopeId < 0) continue; // no memory in that scope
		const same = byScope.get(r.scope);
		if (same) same.push(r);
		else byScope.set(r.scope, [r]);
	}
	const scales = view.vectors.scales;
	for (const [scope, group] of byScope) {
		const copy = scope === undefined ? undefined : view.contiguousScope?.(scope);
		if (copy) {
			// The scope's own copy of its codes (scope-codes.ts), read in one sweep.
			const m = copy.slots.length;
			sweep(view, group, copy.slots, m, true, (from, n, q, out) => copy.memory.dots(positions(from + n).subarray(from), n, q.rounded ?? q.vector, out), {
				memory: copy.memory,
				at: positions(m),
			});
			continue;
		}
		let m = 0;
		if (scope === undefined) {
			scratch(view.count);
			for (let slot = 0; slot < view.count; slot++) if (scales[slot] !== 0) scratchSlots[m++] = slot;
		} else {
			const slots = view.slotsInScope(scope);
			scratch(slots.length);
			for (const slot of slots) if (scales[slot] !== 0) scratchSlots[m++] = slot;
		}
		const gathered = scratchSlots;
		sweep(
			view,
			group,
			gathered,
			m,
			false,
			(from, n, q, out) => view.vectors.dotsInto(gathered.subarray(from, from + n), n, q, out),
			inPlace(view, gathered),
		);
	}
}

/** Scope id → group of the list being scanned (−1: none), reset after each list. */
let groupOf = new Int32Array(64).fill(-1);

/**
 * The lists the quantiser probes for each run, each list read once for all the runs probing it:
 * its slots are sorted by scope into the groups the runs ask for, and each group swept.
 */
function probeLists(view: IndexView, ivf: Ivf, runs: Run[]): void {
	if (runs.length === 1) return probeAlone(view, ivf, runs[0]);
	const byList: Run[][] = [];
	for (const r of runs) for (const list of ivf.probe(r.query.vector)) (byList[list] ??= []).push(r);
	const scales = view.vectors.scales;
	for (let list = 0; list < byList.length; list++) {
		const here = byList[list];
		if (!here) continue;
		const slots = ivf.slotsOf(list);
		// The groups: one per scope asked for, plus one for unscoped runs (every slot).
		const groups: { scopeId: number; runs: Run[]; count: number; at: number }[] = [];
		for (const r of here) {
			if (r.scopeId === -1) continue;
			let g = groups.find((x) => x.scopeId === r.scopeId);
			if (!g) {
				groups.push((g = { scopeId: r.scopeId, runs: [], count: 0, at: 0 }));
				if (r.scopeId >= 0) {
					if (r.scopeId >= groupOf.length) groupOf = grown(groupOf, r.scopeId);
					groupOf[r.scopeId] = groups.length - 1;
				}
			}
			g.runs.push(r);
		}
		const any = groups.find((g) => g.scopeId === ANY_SCOPE);
		// Counting sort of the list's slots into the groups' ranges of the scratch.
		let total = 0;
		for (const slot of slots) {
			if (scales[slot] === 0) continue;
			total++;
			const id = view.scopeIdOf(slot);
			const g = id >= 0 && id < groupOf.length ? groupOf[id] : -1;
			if (g >= 0) groups[g].count++;
		}
		if (any) any.count = total;
		let at = 0;
		for (const g of groups) {
			g.at = at;
			at += g.count;
			g.count = 0;
		}
		scratch(at);
		for (const slot of slots) {
			if (scales[slot] === 0) continue;
			if (any) scratchSlots[any.at + any.count++] = slot;
			const id = view.scopeIdOf(slot);
			const gi = id >= 0 && id < groupOf.length ? groupOf[id] : -1;
			if (gi >= 0) {
				const g = groups[gi];
				scratchSlots[g.at + g.count++] = slot;
			}
		}
		for (const g of groups) if (g.scopeId >= 0) groupOf[g.scopeId] = -1;
		for (const g of groups) {
			const mine = scratchSlots.subarray(g.at, g.at + g.count);
			sweep(
				view,
				g.runs,
				mine,
				g.count,
				false,
				(from, n, q, out) => view.vectors.dotsInto(mine.subarray(from, from + n), n, q, out),
				inPlace(view, mine),
			);
		}
	}
}

/**
 * One look-up's probed lists: their slots (in its scope) gathered into one scan, since there is
 * nothing to share (one SIMD call instead of one per list: a single nearest() at 100k takes
 * ~30% less time so).
 */
function probeAlone(view: IndexView, ivf: Ivf, run: Run): void {
	const scales = view.vectors.scales;
	const lists = ivf.probe(run.query.vector);
	let total = 0;
	for (const list of lists) total += ivf.sizeOf(list);
	scratch(total);
	let m = 0;
	for (const list of lists)
		for (const slot of ivf.slotsOf(list))
			if (scales[slot] !== 0 && (run.scopeId === ANY_SCOPE || view.scopeIdOf(slot) === run.scopeId)) scratchSlots[m++] = slot;
	const gathered = scratchSlots;
	sweep(view, [run], gathered, m, false, (from, n, q, out) => view.vectors.dotsInto(gathered.subarray(from, from + n), n, q, out), inPlace(view, gathered));
}

/** `a` grown to hold index `i`, new entries −1. */
function grown(a: Int32Array, i: number): Int32Array<ArrayBuffer> {
	const out = new Int32Array(Math.max(i + 1, a.length * 2)).fill(-1);
	out.set(a);
	return out;
}

/** Where a sweep's codes are scored several queries at a time: in the store's own SIMD memory, at the slots themselves. */
interface Kernel {
	memory: CodeMemory;
	/** The kernel's position of each of the sweep's slots (the slots, or positions in a scope's copy). */
	at: Int32Array;
}

/** The store's SIMD memory over `slots`, or undefined without SIMD. */
function inPlace(view: IndexView, slots: Int32Array): Kernel | undefined {
	const memory = view.vectors.codeMemory;
	return memory ? { memory, at: slots } : undefined;
}

/**
 * Scores the `m` slots of `slots` for every run, a chunk at a time, and keeps each run's best.
 * With a `kernel`, several runs are scored per pass over a chunk (sweepMany); else `dots` fills
 * `out` with the cosines of positions [from, from + n) for one run (`raw`: dot products still
 * to be scaled by the slots' scales, and slots without a vector still to be skipped).
 */
function sweep(
	view: IndexView,
	runs: Run[],
	slots: Int32Array,
	m: number,
	raw: boolean,
	dots: (from: number, n: number, q: PreparedQuery, out: Float32Array) => void,
	kernel?: Kernel,
): void {
	const per = kernel && SWEEP.perPass > 0 ? Math.min(SWEEP.perPass, kernel.memory.perPass) : 0;
	// A lone query has nothing to share a pass with: one query at a time is as fast for it (~10% faster at 10k).
	if (kernel && per > 0 && runs.length > 1 && runs.every((r) => r.query.rounded !== null)) return sweepMany(view, runs, slots, m, raw, kernel, per);
	const chunk = Math.max(64, Math.floor(SWEEP.chunkBytes / view.dims));
	const scales = view.vectors.scales;
	const metas = view.metas;
	if (chunkScores.length < chunk) chunkScores = new Float32Array(chunk);
	const out = chunkScores;
	for (let from = 0; from < m; from += chunk) {
		const n = Math.min(chunk, m - from);
		for (const r of runs) {
			dots(from, n, r.query, out);
			const top = r.top;
			const exclude = r.exclude;
			let threshold = top.threshold;
			for (let p = 0; p < n; p++) {
				const slot = slots[from + p];
				let s = out[p];
				if (raw) {
					const sc = scales[slot];
					if (sc === 0) continue;
					s *= sc;
				}
				if (s < threshold || (exclude !== null && exclude.has(metas[slot].id))) continue;
				top.push(slot, s);
				threshold = top.threshold;
			}
		}
	}
}

/**
 * sweep() with `per` runs scored in each pass over a block of codes (CodeMemory.dotsMany). The
 * raw products are scaled here as VectorStore.dotsInto scales them (rounded to float32), or, for
 * `raw` sweeps, as the one-query path does (not rounded), so every cosine is the same bit for
 * bit. The pass itself refuses every pair below its run's k-th best at the pass's start (the
 * same cosine, compared in the module), so only the few left are looked at here.
 */
function sweepMany(view: IndexView, runs: Run[], slots: Int32Array, m: number, raw: boolean, kernel: Kernel, per: number): void {
	const chunk = Math.min(Math.max(64, Math.floor(SWEEP.chunkBytes / view.dims)), CodeMemory.blockFor(Math.min(per, runs.length)));
	const scales = view.vectors.scales;
	const metas = view.metas;
	const memory = kernel.memory;
	const packs: PackedQueries[] = [];
	for (let g = 0; g < runs.length; g += per) packs.push(memory.pack(runs.slice(g, g + per).map((r) => r.query.rounded!)));
	if (chunkScales.length < chunk) chunkScales = new Float32Array(CodeMemory.blockFor(1));
	const cs = chunkScales;
	const thresholds = new Float64Array(per);
	for (let from = 0; from < m; from += chunk) {
		const n = Math.min(chunk, m - from);
		// The chunk's scales, read once for all the runs (NaN: no vector, refused by every threshold).
		for (let p = 0; p < n; p++) {
			const sc = scales[slots[from + p]];
			cs[p] = sc === 0 ? NaN : sc;
		}
		const at = kernel.at.subarray(from, from + n);
		for (let g = 0; g < packs.length; g++) {
			const pack = packs[g];
			const Q = pack.count;
			const first = g * per;
			for (let j = 0; j < Q; j++) thresholds[j] = runs[first + j].top.threshold;
			const { scores, picked, picks } = memory.dotsMany(at, n, pack, cs, thresholds, !raw);
			for (let t = 0; t < picks; t++) {
				const o = picked[t];
				const p = (o / Q) | 0;
				const r = runs[first + o - p * Q];
				const s = raw ? scores[o] * cs[p] : Math.fround(scores[o] * cs[p]);
				const top = r.top;
				if (!(s >= top.threshold)) continue;
				const slot = slots[from + p];
				if (r.exclude !== null && r.exclude.has(metas[slot].id)) continue;
				top.push(slot, s);
			}
		}
	}
}

/** Scales of a chunk of sweepMany. */
let chunkScales = new Float32Array(0);

/** Scores of one chunk of a sweep. */
let chunkScores = new Float32Array(0);

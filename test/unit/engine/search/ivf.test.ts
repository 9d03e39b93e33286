import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSearchIndex, restoreSearchIndex } from '../../../../src/engine/search/index';
import { IVF, Ivf, listCount } from '../../../../src/engine/search/ivf';
import { normalize, VectorStore } from '../../../../src/engine/search/vector-store';
import type { SearchIndex } from '../../../../src/engine/search/types';
import { cosine, meta, prng, randomVector } from './fixtures';

const DIMS = 16;
const saved = { ...IVF };

/** `n` vectors around 12 random cluster centres, so the quantiser has structure to find. */
function clustered(n: number, seed: number): Float32Array[] {
	const rnd = prng(seed);
	const centres = Array.from({ length: 12 }, () => randomVector(rnd, DIMS));
	return Array.from({ length: n }, (_, i) => {
		const c = centres[i % centres.length];
		const v = randomVector(rnd, DIMS);
		return c.map((x, j) => x + 0.35 * v[j]);
	});
}

function filled(vs: Float32Array[]): SearchIndex {
	const idx = createSearchIndex({ modelId: 'ivf', dims: DIMS });
	vs.forEach((v, i) => idx.upsert(meta(`v${i}`, { scope: i % 2 ? 'odd' : 'even' }), { content: `memory ${i}` }, v));
	return idx;
}

/** Share of the exact top-k that nearest() returned, averaged over queries. */
function recallVsExact(idx: SearchIndex, vs: [string, Float32Array][], queries: Float32Array[], k: number): number {
	let sum = 0;
	for (const q of queries) {
		const exact = vs
			.map(([id, v]) => ({ id, c: cosine(q, v) }))
			.sort((a, b) => b.c - a.c)
			.slice(0, k);
		const got = new Set(idx.nearest(q, k).map((h) => h.id));
		sum += exact.filter((e) => got.has(e.id)).length / k;
	}
	return sum / queries.length;
}

describe('IVF coarse quantiser', () => {
	beforeEach(() => Object.assign(IVF, { trainAt: 300, minProbe: 4, probeShare: 0.15 }));
	afterEach(() => Object.assign(IVF, saved));

	it('keeps nearest() recall high once trained', () => {
		const vs = clustered(1200, 3);
		const idx = filled(vs);
		const queries = clustered(40, 99);
		const r = recallVsExact(
			idx,
			vs.map((v, i) => [`v${i}`, v]),
			queries,
			5,
		);
		expect(r).toBeGreaterThan(0.9);
	});

	it('stays consistent through removals (swap-remove moves slots between lists)', () => {
		const vs = clustered(800, 5);
		const idx = filled(vs);
		const live: [string, Float32Array][] = [];
		vs.forEach((v, i) => (i % 3 === 0 ? idx.remove(`v${i}`) : live.push([`v${i}`, v])));
		const ids = new Set(live.map(([id]) => id));
		for (const q of clustered(20, 7)) for (const h of idx.nearest(q, 10)) expect(ids.has(h.id)).toBe(true);
		// Scope membership follows the moved slots too.
		for (const q of clustered(20, 8)) {
			const hits = idx.nearest(q, 10, { scope: 'odd' });
			expect(hits).toHaveLength(10);
			for (const h of hits) expect(ids.has(h.id) && Number(h.id.slice(1)) % 2 === 1).toBe(true);
		}
		// Every live slot sits in exactly one list, at the list its assignment says.
		const ivf = (idx as unknown as { ivf: Ivf }).ivf;
		const seen = new Map<number, number>();
		const all = Array.from({ length: ivf.nlist }, (_, l) => l);
		for (const l of all) for (const slot of ivf.slotsOf(l)) seen.set(slot, (seen.get(slot) ?? 0) + 1);
		expect(seen.size).toBe(live.length);
		expect([...seen.values()].every((c) => c === 1)).toBe(true);
		expect([...seen.keys()].every((slot) => slot < live.length)).toBe(true);
	});

	it('honours scope, falling back to an exact scan when the probed lists run short', () => {
		const vs = clustered(900, 11);
		const idx = filled(vs);
		for (const q of clustered(10, 12)) {
			const hits = idx.nearest(q, 8, { scope: 'odd' });
			expect(hits).toHaveLength(8);
			for (const h of hits) expect(Number(h.id.slice(1)) % 2).toBe(1);
		}
	});

	it('survives a snapshot round-trip with the same answers', () => {
		const vs = clustered(700, 13);
		const idx = filled(vs);
		const back = restoreSearchIndex(idx.snapshot());
		for (const q of clustered(10, 14)) expect(back.nearest(q, 5)).toEqual(idx.nearest(q, 5));
	});

	it('an unfiltered ranking takes its semantic candidates from the probed lists, with the exact mean', () => {
		const vs = clustered(1500, 17);
		const idx = filled(vs);
		const exactIdx = filled(vs);
		(exactIdx as unknown as { ivf: Ivf | null }).ivf = null;
		for (const q of clustered(10, 18)) {
			const at = Date.parse('2024-06-01T00:00:00Z');
			const got = idx.rank({ query: 'memory', limit: 5, weights: { lexical: 0 } }, { vectors: [q] }, at);
			const want = exactIdx.rank({ query: 'memory', limit: 5, weights: { lexical: 0 } }, { vectors: [q] }, at);
			// The best memory agrees, and so does every shared hit's normalised semantic score
			// (its cosine placed between the mean over all memories and the best), to the precision
			// of the scan's int16-rounded query (simd-dots.ts).
			expect(got.hits[0].id).toBe(want.hits[0].id);
			const shared = got.hits.filter((h) => want.hits.some((w) => w.id === h.id));
			expect(shared.length).toBeGreaterThanOrEqual(4);
			for (const h of shared) expect(h.components.semantic).toBeCloseTo(want.hits.find((w) => w.id === h.id)!.components.semantic, 5);
		}
	});
});

describe('VectorStore running mean', () => {
	it('meanDot equals the mean cosine over the stored vectors through sets, replacements, removals and a restore', () => {
		const vs = clustered(400, 21);
		const idx = createSearchIndex({ modelId: 'mean', dims: DIMS });
		vs.forEach((v, i) => idx.upsert(meta(`v${i}`), { content: `m ${i}` }, i % 7 === 0 ? null : v));
		for (let i = 0; i < 400; i += 5) idx.remove(`v${i}`);
		for (let i = 1; i < 400; i += 9) idx.setVector(`v${i}`, vs[(i * 13) % 400]);
		const view = idx as unknown as { vectors: VectorStore; count: number };
		const q = normalize(clustered(1, 22)[0])!;
		const exact = () => {
			let sum = 0;
			let n = 0;
			for (let slot = 0; slot < view.count; slot++)
				if (view.vectors.has(slot)) {
					sum += view.vectors.dot(slot, q);
					n++;
				}
			return sum / n;
		};
		expect(view.vectors.meanDot(q)).toBeCloseTo(exact(), 9);
		const back = restoreSearchIndex(idx.snapshot()) as unknown as { vectors: VectorStore };
		expect(back.vectors.meanDot(q)).toBeCloseTo(exact(), 9);
	});

	it('places a vector in the list of its exactly closest centroid, and probes the exactly closest lists', () => {
		const rnd = prng(11);
		for (const dims of [16, 100]) {
			const nlist = listCount(20_000);
			const centroids = new Float32Array(nlist * dims);
			for (let c = 0; c < nlist; c++) centroids.set(normalize(randomVector(rnd, dims))!, c * dims);
			const ivf = new Ivf(dims, centroids, 0);
			const exact = (v: Float32Array) =>
				Array.from({ length: nlist }, (_, c) => ({ c, s: cosine(v, centroids.subarray(c * dims, (c + 1) * dims)) })).sort((a, b) => b.s - a.s);
			for (let i = 0; i < 200; i++) {
				const v = normalize(randomVector(rnd, dims))!;
				const want = exact(v);
				expect(ivf.nearestList(v)).toBe(want[0].c);
				const probed = ivf.probe(v);
				expect(probed).toEqual(want.slice(0, probed.length).map((w) => w.c));
			}
		}
	});
});

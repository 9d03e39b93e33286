/**
 * nearestMany scores a batch's queries several per pass over the codes (SWEEP.perPass,
 * simd-many.ts). The answers must be exactly those of one query at a time: the same neighbours,
 * the same cosines bit for bit, the same order, ties broken alike, on every path (in place, a
 * scope's contiguous copy, the quantiser's lists) and whatever k.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSearchIndex } from '../../../../src/engine/search/index';
import { IVF } from '../../../../src/engine/search/ivf';
import { SWEEP } from '../../../../src/engine/search/nearest';
import { MAX_SIMD_DIMS } from '../../../../src/engine/search/simd-dots';
import type { IndexView } from '../../../../src/engine/search/view';
import { bareMeta, topicVectors } from '../../../../bench/lib/vectors';

const DIMS = 100;
const { unit, rnd } = topicVectors(DIMS, 41, 20, 0.5);
const meta = (id: string, scope: string) => bareMeta(id, scope);

/** An index of 3,000 memories in scopes of every size; some without a vector, some copies of others (ties). */
function build() {
	const index = createSearchIndex({ modelId: 'test', dims: DIMS });
	const stored: Float32Array[] = [];
	const scopes: [string, number][] = [
		['big', 2_000],
		['copied', 700],
		['tiny', 3],
		...Array.from({ length: 6 }, (_, i): [string, number] => [`small-${i}`, 40 + i * 7]),
	];
	let n = 0;
	const left = new Map(scopes);
	while ([...left.values()].some((c) => c > 0))
		for (const [scope, c] of left) {
			if (c === 0) continue;
			left.set(scope, c - 1);
			const i = n++;
			const v = i % 40 === 39 ? null : i % 9 === 8 && stored.length > 0 ? stored[Math.floor(rnd() * stored.length)] : unit();
			if (v) stored.push(v);
			index.upsert(meta(`m${i}`, scope), { content: `m${i}` }, v);
		}
	return { index, view: index as unknown as IndexView, stored, scopes: [...scopes.map(([s]) => s), undefined, 'nowhere'] };
}

/** A batch of look-ups: a seventh are stored vectors (their copies tie with them), a third exclude ids. */
function lookups(count: number, stored: Float32Array[], scopes: (string | undefined)[], total: number) {
	return Array.from({ length: count }, (_, i) => ({
		vector: i % 7 === 0 ? stored[Math.floor(rnd() * stored.length)] : unit(),
		scope: scopes[i % scopes.length],
		exclude: i % 3 === 0 ? [`m${Math.floor(rnd() * total)}`, `m${i}`] : undefined,
	}));
}

/** The answers with `perPass` queries per pass. */
function answer(index: ReturnType<typeof build>['index'], batch: ReturnType<typeof lookups>, k: number, perPass: number) {
	const saved = SWEEP.perPass;
	SWEEP.perPass = perPass;
	try {
		return index.nearestMany(batch, k);
	} finally {
		SWEEP.perPass = saved;
	}
}

/** Cosines compared bit for bit (toEqual would too, but this names the first difference). */
function expectSame(got: { id: string; cosine: number }[][], want: { id: string; cosine: number }[][]) {
	expect(got.length).toBe(want.length);
	got.forEach((hits, i) => {
		expect(hits.map((h) => h.id)).toEqual(want[i].map((h) => h.id));
		hits.forEach((h, j) => expect(Object.is(h.cosine, want[i][j].cosine)).toBe(true));
	});
}

describe('nearestMany, several queries per pass', () => {
	const saved = IVF.trainAt;
	afterEach(() => {
		IVF.trainAt = saved;
	});

	it('answers exactly as one query at a time, on the exact paths, for any batch size and k', () => {
		const { index, view, stored, scopes } = build();
		expect(view.ivf).toBeNull();
		expect(view.contiguousScope?.('copied')).toBeDefined();
		expect(view.vectors.codeMemory?.perPass).toBe(8);
		let ties = 0;
		for (const [count, k] of [
			[1, 5],
			[3, 10],
			[8, 5],
			[9, 1],
			[17, 50],
			[200, 5],
			[40, 5_000], // k beyond every scope's size: each answer is its whole scope, ordered
		]) {
			const batch = lookups(count, stored, scopes, view.count);
			const want = answer(index, batch, k, 0);
			for (const perPass of [1, 3, 8]) expectSame(answer(index, batch, k, perPass), want);
			for (const hits of want) for (let j = 1; j < hits.length; j++) if (hits[j].cosine === hits[j - 1].cosine) ties++;
			if (k === 5_000) want.forEach((hits, i) => batch[i].scope === 'tiny' && expect(hits).toHaveLength(3));
		}
		// The index's copies make equal cosines, so tie-breaking was compared too.
		expect(ties).toBeGreaterThan(10);
	});

	it('answers exactly as one query at a time through the quantiser lists, and in small chunks', () => {
		IVF.trainAt = 1_000;
		const { index, view, stored, scopes } = build();
		expect(view.ivf).not.toBeNull();
		const batch = lookups(120, stored, scopes, view.count);
		const want = answer(index, batch, 10, 0);
		expectSame(answer(index, batch, 10, 8), want);
		expectSame(answer(index, batch, 10, 5), want);
		const chunk = SWEEP.chunkBytes;
		SWEEP.chunkBytes = 64 * DIMS;
		try {
			expectSame(answer(index, batch, 10, 8), want);
		} finally {
			SWEEP.chunkBytes = chunk;
		}
	});

	it('without SIMD (vectors wider than the module takes) answers from the plain scan, best first', () => {
		const d = MAX_SIMD_DIMS + 8;
		const index = createSearchIndex({ modelId: 'wide', dims: d });
		const view = index as unknown as IndexView;
		const wide = () => {
			const v = Float32Array.from({ length: d }, () => rnd() - 0.5);
			const n = Math.hypot(...v);
			return v.map((x) => x / n);
		};
		const vs = Array.from({ length: 60 }, wide);
		vs.forEach((v, i) => index.upsert(meta(`w${i}`, 'default'), { content: `w${i}` }, i % 10 === 9 ? vs[i - 1] : v));
		expect(view.vectors.codeMemory).toBeNull();
		const batch = Array.from({ length: 5 }, (_, i) => ({ vector: vs[i * 7], scope: 'default', exclude: i === 0 ? ['w0'] : undefined }));
		const got = answer(index, batch, 4, 8);
		expectSame(answer(index, batch, 4, 0), got);
		got.forEach((hits, i) => {
			const want = Array.from({ length: 60 }, (_, slot) => ({ id: view.metas[slot].id, cosine: view.vectors.dot(slot, batch[i].vector) }))
				.filter((h) => h.id !== batch[i].exclude?.[0])
				.sort((a, b) => b.cosine - a.cosine);
			expect(hits.map((h) => h.cosine)).toEqual(want.slice(0, 4).map((h) => Math.fround(h.cosine)));
		});
	});
});

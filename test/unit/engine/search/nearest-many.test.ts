/**
 * nearestMany answers a batch of look-ups by scanning what they share once (nearest.ts): the
 * quantiser's lists grouped by scope, a scope's codes swept chunk by chunk for all its queries.
 * Each answer must be exactly the one the look-up gets alone, whatever else is in the batch;
 * and the exact paths must agree with a scan of the live vectors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchIndex } from '../../../../src/engine/search/index';
import { IVF } from '../../../../src/engine/search/ivf';
import { SWEEP } from '../../../../src/engine/search/nearest';
import { MIN_SLOTS } from '../../../../src/engine/search/scope-codes';
import { TopK } from '../../../../src/engine/search/top-k';
import type { SearchIndex } from '../../../../src/engine/search/types';
import type { IndexView } from '../../../../src/engine/search/view';
import { bareMeta, topicVectors } from '../../../../bench/lib/vectors';

const DIMS = 16;
const { unit, rnd } = topicVectors(DIMS, 23, 30, 0.4);
const meta = (id: string, scope: string) => bareMeta(id, scope);

/** The k best cosines in `scope` (every scope when undefined) by the index's per-slot dot product. */
function reference(view: IndexView, q: Float32Array, scope: string | undefined, k: number, exclude: string[] = []): number[] {
	const out: number[] = [];
	for (let slot = 0; slot < view.count; slot++) {
		const m = view.metas[slot];
		if ((scope === undefined || m.scope === scope) && view.vectors.has(slot) && !exclude.includes(m.id)) out.push(view.vectors.dot(slot, q));
	}
	return out.sort((a, b) => b - a).slice(0, k);
}

/** Sizes chosen so every path is taken once the quantiser is trained (a twelfth of all is 536). */
const SCOPES: [string, number][] = [
	['big', 4_000], // probed through the quantiser's lists
	['mid', 1_800], // probed as well
	['copied', 520], // exact, from the scope's contiguous copy (≥ MIN_SLOTS)
	...Array.from({ length: 5 }, (_, i): [string, number] => [`small-${i}`, 20 + i]), // exact, in place
];

describe('nearestMany', () => {
	const saved = IVF.trainAt;
	let index: SearchIndex;
	let view: IndexView;
	const stored: Float32Array[] = [];

	beforeAll(() => {
		IVF.trainAt = 2_000;
		index = createSearchIndex({ modelId: 'test', dims: DIMS });
		view = index as unknown as IndexView;
		let n = 0;
		// Scopes interleaved, as memories arrive; every 40th without a vector, every 25th a copy
		// of an earlier vector (equal cosines, so ties must break the same way in any order).
		const left = new Map(SCOPES);
		while ([...left.values()].some((c) => c > 0)) {
			for (const [scope, c] of left) {
				if (c === 0) continue;
				left.set(scope, c - 1);
				const i = n++;
				const v = i % 40 === 39 ? null : i % 25 === 24 && stored.length > 0 ? stored[Math.floor(rnd() * stored.length)] : unit();
				if (v) stored.push(v);
				index.upsert(meta(`m${i}`, scope), { content: `m${i}` }, v);
			}
		}
	});
	afterAll(() => {
		IVF.trainAt = saved;
	});

	it('takes every path on this index', () => {
		expect(view.ivf).not.toBeNull();
		expect(view.scopeSize('big')).toBeGreaterThan(view.count * IVF.probeShare);
		expect(view.scopeSize('copied')).toBeGreaterThanOrEqual(MIN_SLOTS);
		expect(view.scopeSize('copied')).toBeLessThanOrEqual(view.count * IVF.probeShare);
		expect(view.contiguousScope?.('copied')).toBeDefined();
	});

	it('answers each look-up of a batch as it answers it alone', () => {
		const scopes = [...SCOPES.map(([s]) => s), undefined, 'nowhere'];
		const lookups = Array.from({ length: 400 }, (_, i) => {
			// Some queries are stored vectors themselves: their copies tie with them.
			const vector = i % 7 === 0 ? stored[Math.floor(rnd() * stored.length)] : unit();
			const scope = scopes[i % scopes.length];
			const exclude = i % 3 === 0 ? [`m${Math.floor(rnd() * view.count)}`, `m${i}`] : undefined;
			return { vector, scope, exclude };
		});
		const together = index.nearestMany(lookups, 5);
		const alone = lookups.map((l) => index.nearest(l.vector, 5, { scope: l.scope, exclude: l.exclude }));
		expect(together).toEqual(alone);
		// Batched in another order, the answers stay each look-up's own.
		const reversed = index.nearestMany([...lookups].reverse(), 5).reverse();
		expect(reversed).toEqual(together);
		// And swept in chunks smaller than a scope, which the default chunk holds whole here.
		const chunk = SWEEP.chunkBytes;
		SWEEP.chunkBytes = 64 * DIMS;
		try {
			expect(index.nearestMany(lookups, 5)).toEqual(together);
		} finally {
			SWEEP.chunkBytes = chunk;
		}
		for (const [i, hits] of together.entries()) {
			const l = lookups[i];
			if (l.scope === 'nowhere') expect(hits).toEqual([]);
			else expect(hits).toHaveLength(5);
			for (const h of hits) {
				expect(l.exclude ?? []).not.toContain(h.id);
				if (l.scope !== undefined) expect(view.metas[view.slotOf.get(h.id)!].scope).toBe(l.scope);
			}
		}
	});

	it('scans the exact paths exactly, and falls back to them when the probed lists hold too few', () => {
		for (const scope of ['copied', 'small-0', 'small-4', 'mid', 'big']) {
			const q = unit();
			const exclude = [`m${Math.floor(rnd() * view.count)}`];
			// 'mid' and 'big' asked for more than their probed lists hold: scanned exactly instead.
			const k = scope === 'mid' || scope === 'big' ? view.scopeSize(scope) : 50;
			const [got] = index.nearestMany(
				[
					{ vector: q, scope, exclude },
					{ vector: unit(), scope },
				],
				k,
			);
			const want = reference(view, q, scope, k, exclude);
			expect(got.length).toBe(want.length);
			got.forEach((h, i) => expect(Math.abs(h.cosine - want[i])).toBeLessThan(1e-3));
		}
	});

	it('finds through the quantiser most of what an exact scan finds', () => {
		let found = 0;
		let wanted = 0;
		for (let t = 0; t < 100; t++) {
			const q = unit();
			const scope = t % 2 ? 'big' : undefined;
			const got = new Set(index.nearestMany([{ vector: q, scope }], 5)[0].map((h) => Math.round(h.cosine * 1e3)));
			const want = reference(view, q, scope, 5).map((c) => Math.round(c * 1e3));
			wanted += want.length;
			found += want.filter((c) => got.has(c)).length;
		}
		expect(found / wanted).toBeGreaterThan(0.8);
	});

	it('answers nothing for k ≤ 0 and for vectors it cannot use, in their places', () => {
		const out = index.nearestMany(
			[{ vector: unit() }, { vector: new Float32Array(DIMS) }, { vector: new Float32Array(3).fill(1) }, { vector: unit(), scope: 'big' }],
			3,
		);
		expect(out.map((h) => h.length)).toEqual([3, 0, 0, 3]);
		expect(index.nearestMany([{ vector: unit() }], 0)).toEqual([[]]);
	});
});

describe('TopK', () => {
	it('keeps the same k whatever the order of the pushes, equal scores going to the lower slot', () => {
		const pairs = Array.from({ length: 200 }, (_, slot) => ({ slot, score: Math.floor(rnd() * 20) / 20 }));
		const kept = (order: typeof pairs) => {
			const top = new TopK(15);
			for (const p of order) top.push(p.slot, p.score);
			return top.sorted();
		};
		const want = [...pairs].sort((a, b) => b.score - a.score || a.slot - b.slot).slice(0, 15);
		expect(kept(pairs)).toEqual(want);
		expect(kept([...pairs].reverse())).toEqual(want);
		for (let t = 0; t < 5; t++) expect(kept([...pairs].sort(() => rnd() - 0.5))).toEqual(want);
	});
});

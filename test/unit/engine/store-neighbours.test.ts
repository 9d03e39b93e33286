import { describe, expect, it } from 'vitest';
import type { EngineContext } from '../../../src/engine/context';
import { UPDATE_MAX_CHARS } from '../../../src/engine/duplicates';
import { BatchDots } from '../../../src/engine/batch-dots';
import { batchNeighbours, contentsAbove, MAX_SIMILAR, nearestOf, type Draft, type Neighbour, type Written } from '../../../src/engine/store-neighbours';

/** What nearestOf replaced: a stable sort by cosine, best first, then a cut. */
const bySort = (near: Neighbour[]) => [...near].sort((a, b) => b.cosine - a.cosine).slice(0, MAX_SIMILAR);

describe('nearestOf', () => {
	it('equals a stable sort then a cut, ties kept in list order', () => {
		let seed = 7;
		const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
		for (let trial = 0; trial < 500; trial++) {
			const n = Math.floor(rand() * 30);
			// Few distinct cosines, so ties are common.
			const near = Array.from({ length: n }, (_, i) => ({ id: `m${i}`, cosine: Math.round(rand() * 8) / 8 }));
			expect(nearestOf(near).map((x) => x.id)).toEqual(bySort(near).map((x) => x.id));
		}
	});

	it('keeps fewer than MAX_SIMILAR as they are, best first', () => {
		const near = [
			{ id: 'a', cosine: 0.5 },
			{ id: 'b', cosine: 0.9 },
			{ id: 'c', cosine: 0.5 },
		];
		expect(nearestOf(near).map((x) => x.id)).toEqual(['b', 'a', 'c']);
		expect(nearestOf([])).toEqual([]);
	});
});

describe('contentsAbove', () => {
	it('takes what the index remembers and reads the rest in one request, above the threshold only', async () => {
		const reads: string[][] = [];
		const remembered = new Map([['a', 'content of a']]);
		const ctx = {
			thresholds: { similar: 0.6 },
			index: { contentOf: (id: string) => remembered.get(id) },
			db: {
				memories: {
					bulkGet: async (ids: string[]) => (reads.push(ids), ids.map((id) => (id === 'gone' ? undefined : { id, content: `row of ${id}` }))),
				},
			},
		} as unknown as EngineContext;
		const draft = (content: string) => ({ row: { content } }) as Draft;
		const neighbours = new Map<Draft, Neighbour[]>([
			[
				draft('short'),
				[
					{ id: 'a', cosine: 0.9 },
					{ id: 'b', cosine: 0.7 },
					{ id: 'gone', cosine: 0.65 },
					{ id: 'low', cosine: 0.5 },
				],
			],
			[draft('x'.repeat(UPDATE_MAX_CHARS + 1)), [{ id: 'long', cosine: 0.99 }]],
			[draft('other'), [{ id: 'b', cosine: 0.8 }]],
		]);
		const out = await contentsAbove(ctx, neighbours);
		expect([...out]).toEqual([
			['a', 'content of a'],
			['b', 'row of b'],
		]);
		expect(reads).toEqual([['b', 'gone']]);
		remembered.set('b', 'b').set('gone', 'g');
		reads.length = 0;
		await contentsAbove(ctx, neighbours);
		expect(reads).toEqual([]);
	});
});

describe('batchNeighbours', () => {
	it('finds the same neighbours with the approximate products as with exact ones alone, cosines to the bit', () => {
		let seed = 5;
		const rand = () => ((seed = (seed * 16807) % 2147483647), seed / 2147483647);
		const dims = 100;
		const ctx = { thresholds: { similar: 0.6, duplicate: 0.95 } } as unknown as EngineContext;
		// Vectors around a few directions, so many pairs sit near the thresholds; some exactly repeated.
		const centres = Array.from({ length: 4 }, () => Float32Array.from({ length: dims }, () => rand() - 0.5));
		const drafts: Draft[] = Array.from({ length: 300 }, (_, index) => {
			const c = centres[index % 4];
			const noise = (index % 7) * 0.05;
			const vector = index % 50 === 49 ? null : Float32Array.from(c, (x) => x + noise * (rand() - 0.5));
			let sq = 0;
			if (vector) for (const x of vector) sq += x * x;
			return { index, row: { id: `m${index}`, scope: index % 5 === 0 ? 'other' : 'default' }, vector, sq } as unknown as Draft;
		});
		drafts[200].vector = drafts[100].vector && Float32Array.from(drafts[100].vector);
		drafts[200].sq = drafts[100].sq;
		const dots = BatchDots.create(dims, drafts.length)!;
		for (const d of drafts) if (d.vector) dots.set(d.index, d.vector);
		const written: Written[] = [];
		let found = 0;
		for (const d of drafts) {
			const exact = batchNeighbours(ctx, d, written);
			const fast = batchNeighbours(ctx, d, written, d.vector ? dots.before(d.index) : undefined);
			expect(fast.map((n) => [n.id, n.cosine])).toEqual(exact.map((n) => [n.id, n.cosine]));
			found += exact.length;
			written.push({ draft: d, row: { ...d.row, seq: d.index } } as unknown as Written);
		}
		expect(found).toBeGreaterThan(1000);
	});
});

import { describe, expect, it } from 'vitest';
import type { EngineContext } from '../../../src/engine/context';
import { UPDATE_MAX_CHARS } from '../../../src/engine/duplicates';
import { contentsAbove, MAX_SIMILAR, nearestOf, type Draft, type Neighbour } from '../../../src/engine/store-neighbours';

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

import { describe, expect, it } from 'vitest';
import { MAX_SIMILAR, nearestOf, type Neighbour } from '../../../src/engine/store-neighbours';

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

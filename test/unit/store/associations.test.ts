import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withLink, withLinks } from '../../../src/store/associations';
import type { AssociationRow } from '../../../src/store/rows';
import { memoryRow } from './memory-row';

describe('withLinks', () => {
	it('adds links as withLink one at a time does (a later link of the same target and type replacing the earlier), on a copy of the row', () => {
		const link = fc.record({
			to: fc.constantFrom('b', 'c', 'd'),
			type: fc.constantFrom('SIMILAR_TO', 'PRECEDED_BY', 'RELATES_TO'),
			strength: fc.double({ min: 0, max: 1, noNaN: true }),
		});
		fc.assert(
			fc.property(fc.array(link, { maxLength: 4 }), fc.array(link, { maxLength: 8 }), (before, added) => {
				const asRow = (l: (typeof before)[number]) => ({ from: 'a', ...l, created_at: '2026-01-01T00:00:00.000Z' }) as AssociationRow;
				const start = memoryRow('a', 1);
				if (before.length) start.links = before.map(asRow).map(({ from: _f, ...l }) => l);
				const snapshot = structuredClone(start);
				const links = added.map(asRow);
				const one = withLinks(start, links);
				expect(one).toEqual(links.reduce(withLink, start));
				// The row passed in is left as it was.
				expect(start).toEqual(snapshot);
				if (links.length) expect(one).not.toBe(start);
			}),
			{ numRuns: 500 },
		);
	});
});

import { describe, expect, it } from 'vitest';
import { GroupCounts } from '../../../../src/engine/search/group-counts';

describe('GroupCounts', () => {
	it('answers a restored slot from the snapshot column, then follows changes by slot', () => {
		const g = GroupCounts.packed(['a', 'b'], Int32Array.of(0, 0, 1, -1));
		expect([0, 1, 2, 3].map((s) => g.count(s))).toEqual([2, 2, 1, 0]);
		g.add('b', 3);
		expect([g.count(2), g.count(3)]).toEqual([2, 2]);
		g.delete(0);
		expect([g.count(0), g.count(1)]).toEqual([0, 1]);
		// Swap-remove: slot 3 moves into the hole at 0.
		g.move(3, 0);
		expect([g.count(0), g.count(3)]).toEqual([2, 0]);
	});

	it('frees a key whose last memory left and reuses its number for a new key', () => {
		const g = GroupCounts.empty();
		g.add('x', 0);
		g.add('x', 1);
		g.add('y', 2);
		g.delete(2);
		g.add('z', 2);
		g.add('z', 5000);
		expect([g.count(0), g.count(1), g.count(2), g.count(5000)]).toEqual([2, 2, 2, 2]);
		g.delete(0);
		g.delete(1);
		g.add('x', 7);
		expect(g.count(7)).toBe(1);
	});

	it('keeps the restored string table unchanged when keys are added', () => {
		const strings = ['a'];
		const g = GroupCounts.packed(strings, Int32Array.of(0));
		g.settle();
		g.delete(0);
		g.add('c', 0);
		expect(strings).toEqual(['a']);
		expect(g.count(0)).toBe(1);
	});
});

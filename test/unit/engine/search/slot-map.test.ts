import { describe, expect, it } from 'vitest';
import { slotMapOf, SortedSlotMap } from '../../../../src/engine/search/slot-map';

describe('slotMapOf', () => {
	const sorted = Array.from({ length: 1000 }, (_, i) => `01a24e86-${String(i).padStart(4, '0')}-7${i % 7}`);
	const expectSame = (m: Map<string, number>, ids: readonly string[]) => {
		expect(m.size).toBe(ids.length);
		ids.forEach((id, slot) => {
			expect(m.get(id)).toBe(slot);
			expect(m.has(id)).toBe(true);
		});
		for (const missing of ['', '0', '01a24e86-0000', '01a24e86-0999-70z', 'zzz']) {
			expect(m.get(missing)).toBeUndefined();
			expect(m.has(missing)).toBe(false);
		}
		expect([...m.keys()]).toEqual(ids);
		expect([...m.entries()]).toEqual(ids.map((id, slot) => [id, slot]));
	};

	it('answers by binary search over ids in order, and by hash after settle(), the same', async () => {
		const m = slotMapOf(sorted);
		expect(m).toBeInstanceOf(SortedSlotMap);
		expect((m as SortedSlotMap).made).toBe(false);
		expectSame(m, sorted);
		let pauses = 0;
		await (m as SortedSlotMap).settle(async () => void pauses++);
		expect((m as SortedSlotMap).made).toBe(true);
		expectSame(m, sorted);
	});

	it('makes a plain Map at once for ids out of order', () => {
		const shuffled = [...sorted.slice(500), ...sorted.slice(0, 500)];
		const m = slotMapOf(shuffled);
		expect(m).not.toBeInstanceOf(SortedSlotMap);
		expectSame(m, shuffled);
	});

	it('refuses writes (the index writes to the OverlayMap over it)', () => {
		const m = slotMapOf(sorted);
		expect(() => m.set('x', 1)).toThrow(/read-only/);
		expect(() => m.delete(sorted[0])).toThrow(/read-only/);
		expect(m.get(sorted[0])).toBe(0);
	});
});

import { describe, expect, it } from 'vitest';
import { newMemoryId } from '../../../src/core/ids';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newMemoryId', () => {
	it('makes version-7 UUIDs that carry the time they were made', () => {
		const id = newMemoryId(Date.UTC(2031, 0, 2));
		expect(id).toMatch(UUID_V7);
		expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(Date.UTC(2031, 0, 2));
	});

	it('orders ids made in the same millisecond, past the 12-bit counter, and when the clock goes back', () => {
		const t = Date.UTC(2032, 5, 1);
		const ids = [
			...Array.from({ length: 5000 }, () => newMemoryId(t)),
			...Array.from({ length: 10 }, () => newMemoryId(t - 60_000)),
			newMemoryId(t + 10_000),
		];
		for (const id of ids) expect(id).toMatch(UUID_V7);
		expect(new Set(ids).size).toBe(ids.length);
		expect([...ids].sort()).toEqual(ids);
	});
});

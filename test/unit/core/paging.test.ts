import { describe, expect, it } from 'vitest';
import { readPages, type Page } from '../../../src/core/paging';

/** A listing of `n` numbers served `size` at a time, recording the offsets asked. */
function listing(n: number, size: number) {
	const asked: number[] = [];
	const fetch = async (offset: number): Promise<Page<number>> => {
		asked.push(offset);
		const items = Array.from({ length: Math.max(0, Math.min(size, n - offset)) }, (_, i) => offset + i);
		return { items, has_more: offset + items.length < n };
	};
	return { asked, fetch };
}

describe('readPages', () => {
	it('reads every page of a listing shorter than the cap, in order', async () => {
		const { asked, fetch } = listing(450, 200);
		const seen: number[] = [];
		expect(await readPages(fetch, 2000, (items) => void seen.push(...items))).toEqual({ read: 450, truncated: false });
		expect(asked).toEqual([0, 200, 400]);
		expect(seen).toEqual(Array.from({ length: 450 }, (_, i) => i));
	});

	it('stops at the first page that reaches the cap and says it was truncated', async () => {
		const { asked, fetch } = listing(5000, 200);
		expect(await readPages(fetch, 1000, () => undefined)).toEqual({ read: 1000, truncated: true });
		expect(asked).toEqual([0, 200, 400, 600, 800]);
	});

	it('is not truncated when the cap is reached on the last page', async () => {
		const { fetch } = listing(1000, 200);
		expect(await readPages(fetch, 1000, () => undefined)).toEqual({ read: 1000, truncated: false });
	});

	it('stops early when take says it has enough', async () => {
		const { asked, fetch } = listing(5000, 200);
		const kept: number[] = [];
		const out = await readPages(fetch, 20_000, (items) => {
			kept.push(...items.filter((x) => x % 100 === 0));
			return kept.length >= 3;
		});
		expect(out).toEqual({ read: 400, truncated: false });
		expect(asked).toEqual([0, 200]);
	});

	it('follows next_offset when the listing gives one', async () => {
		const asked: number[] = [];
		const fetch = async (offset: number): Promise<Page<number>> => {
			asked.push(offset);
			return offset < 30 ? { items: [offset], has_more: true, next_offset: offset + 10 } : { items: [offset], has_more: false };
		};
		expect(await readPages(fetch, 100, () => undefined)).toEqual({ read: 4, truncated: false });
		expect(asked).toEqual([0, 10, 20, 30]);
	});

	it('ends on an empty page even when the listing says more follow', async () => {
		let calls = 0;
		const fetch = async (): Promise<Page<number>> => (calls++, { items: [], has_more: true });
		expect(await readPages(fetch, 100, () => undefined)).toEqual({ read: 0, truncated: false });
		expect(calls).toBe(1);
	});

	it('passes a fetch error through', async () => {
		const fetch = async (): Promise<Page<number>> => {
			throw new Error('entity: no entity "x"');
		};
		await expect(readPages(fetch, 100, () => undefined)).rejects.toThrow('entity: no entity "x"');
	});
});

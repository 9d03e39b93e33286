/**
 * The timeline is a virtual list: with thousands of memories only the rows in view exist in the
 * DOM, pages load as the person scrolls, and the last row is reachable.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { engine, useApp } from './app-support';

const app = useApp();
const N = 3000;

beforeAll(async () => {
	// Import (one call, batched into ≤ 500-record transactions by the engine) with ascending times.
	const base = Date.parse('2024-01-01T00:00:00Z');
	const lines = [JSON.stringify({ kind: 'header', format: 'engram', version: 1 })];
	for (let i = 0; i < N; i++)
		lines.push(
			JSON.stringify({
				kind: 'memory',
				id: `t-${i}`,
				content: `Timeline entry ${i}: a note about subject ${i % 97}`,
				timestamp: new Date(base + i * 60_000).toISOString(),
			}),
		);
	await engine(app.page, 'importMemories', { data: lines.join('\n'), format: 'jsonl' });
	await app.page.reload();
});

describe('timeline', () => {
	it('shows the total and renders only the rows in view', async () => {
		await app.page.getByText(`${N.toLocaleString('en-US')} memories`).waitFor();
		await app.page.getByRole('link', { name: `Timeline entry ${N - 1}: a note about subject ${(N - 1) % 97}` }).waitFor();
		const rows = await app.page.locator('[role="list"][aria-label^="Memories"] [role="listitem"]').count();
		expect(rows).toBeGreaterThan(5);
		expect(rows).toBeLessThan(60);
	});

	it('loads pages while scrolling and reaches the oldest memory', async () => {
		const list = app.page.locator('[role="list"][aria-label^="Memories"]');
		await list.evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
		const mid = Math.floor(N / 2);
		await app.page.waitForFunction(
			(n) =>
				[...document.querySelectorAll('[role="listitem"] a[data-primary]')].some(
					(a) => /Timeline entry (\d+)/.exec(a.textContent ?? '') && Math.abs(Number(/Timeline entry (\d+)/.exec(a.textContent ?? '')![1]) - n) < 40,
				),
			mid,
		);
		await list.evaluate((el) => (el.scrollTop = el.scrollHeight));
		await app.page.getByRole('link', { name: 'Timeline entry 0: a note about subject 0' }).waitFor();
		expect(await app.page.locator('[role="list"][aria-label^="Memories"] [role="listitem"]').count()).toBeLessThan(60);
	});

	it('moves focus row by row with the arrow keys, scrolling as it goes', async () => {
		await app.page.locator('#search-input').focus();
		await app.page.keyboard.press('ArrowDown');
		for (let i = 0; i < 30; i++) await app.page.keyboard.press('ArrowDown');
		const text = await app.page.evaluate(() => document.activeElement?.textContent ?? '');
		expect(text).toContain(`Timeline entry ${N - 31}:`);
		const visible = await app.page.evaluate(() => {
			const r = document.activeElement!.getBoundingClientRect();
			return r.top >= 0 && r.bottom <= innerHeight;
		});
		expect(visible).toBe(true);
	});
});

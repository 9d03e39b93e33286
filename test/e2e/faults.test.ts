/**
 * Fault suite (bounded, loopback only): the built app in real Chromium, hit where it hurts.
 * - A tab killed in the middle of a 500-memory batch (renderer crashed with CDP `Page.crash`, or
 *   the page closed) leaves 0 or 500 of that batch, never a part, and the app works after.
 * - Two tabs writing at once both end up seeing every memory, in the store and in their indexes.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startPreview, type Browser, type Server } from './helpers';

let server: Server;
let browser: Browser;

type Engram = {
	store(i: unknown): Promise<{ results: { memory_id: string }[] }>;
	stats(i: unknown): Promise<{ total_memories: number }>;
	recall(i: unknown): Promise<{ results: { memory: { id: string; tags: string[] } }[]; has_more: boolean }>;
	getMemories(ids: string[]): Promise<unknown[]>;
};

beforeAll(async () => {
	server = await startPreview();
	browser = await launchBrowser({ offlineCapable: false });
});

afterAll(async () => {
	await browser?.close();
	await server?.stop();
});

/** A new tab on the app, once its engine answers. */
async function openTab(): Promise<Page> {
	const page = await browser.context.newPage();
	await page.goto(server.url);
	await page.waitForFunction(() => '__engram' in globalThis, undefined, { timeout: 60_000 });
	await page.evaluate(() => (globalThis as unknown as { __engram: { health(): Promise<unknown> } }).__engram.health());
	return page;
}

function total(page: Page): Promise<number> {
	return page.evaluate(async () => (await (globalThis as unknown as { __engram: Engram }).__engram.stats({})).total_memories);
}

/** How many memories carry `tag` (recall filtered by tag, paged; the tag is also the query word). */
function tagged(page: Page, tag: string): Promise<number> {
	return page.evaluate(async (tag) => {
		const engram = (globalThis as unknown as { __engram: Engram }).__engram;
		const ids = new Set<string>();
		for (let offset = 0; ; offset += 200) {
			const r = await engram.recall({ query: tag, tags: [tag], limit: 200, offset });
			r.results.forEach((x) => ids.add(x.memory.id));
			if (!r.has_more || r.results.length === 0) break;
		}
		return ids.size;
	}, tag);
}

/** Starts storing a batch of `n` memories tagged `tag` without waiting for it. */
function startBatch(page: Page, tag: string, n: number): Promise<void> {
	return page.evaluate(
		({ tag, n }) => {
			const engram = (globalThis as unknown as { __engram: Engram }).__engram;
			const memories = Array.from({ length: n }, (_, i) => ({
				content: `Fault batch ${tag} note ${i}: the ${tag} crate holds part ${i * 7919}`,
				tags: [tag],
			}));
			void engram.store({ memories }).catch(() => undefined);
		},
		{ tag, n },
	);
}

describe('fault suite', () => {
	it('a tab killed mid-batch leaves 0 or 500 of the batch, never a part, and the app still works', async () => {
		// Delays after the call starts: before embedding ends, around the write, after it.
		const faults: { delay: number; how: 'crash' | 'close' }[] = [
			{ delay: 0, how: 'crash' },
			{ delay: 250, how: 'crash' },
			{ delay: 700, how: 'close' },
			{ delay: 1_200, how: 'crash' },
			{ delay: 2_500, how: 'close' },
		];
		const outcomes: number[] = [];
		let expected = await total(await openTab());
		for (const [k, f] of faults.entries()) {
			const page = await openTab();
			const tag = `kill${k}batch`;
			await startBatch(page, tag, 500);
			await new Promise((r) => setTimeout(r, f.delay));
			if (f.how === 'crash') {
				const cdp = await browser.context.newCDPSession(page);
				// The renderer (and its worker) dies at once; the command itself never answers.
				void cdp.send('Page.crash').catch(() => undefined);
				await page.waitForEvent('crash', { timeout: 10_000 }).catch(() => undefined);
			}
			await page.close({ runBeforeUnload: false });
			const after = await openTab();
			const kept = await tagged(after, tag);
			outcomes.push(kept);
			expect([0, 500], `fault ${k} (${f.how} at ${f.delay} ms) left ${kept}`).toContain(kept);
			expected += kept;
			expect(await total(after)).toBe(expected);
			await after.close();
		}
		// The app still works: a new memory is stored and found.
		const page = await openTab();
		const id = await page.evaluate(
			async () =>
				(await (globalThis as unknown as { __engram: Engram }).__engram.store({ content: 'After the crashes the wombat ledger still balances' }))
					.results[0].memory_id,
		);
		const found = await page.evaluate(async () =>
			(await (globalThis as unknown as { __engram: Engram }).__engram.recall({ query: 'wombat ledger', limit: 1 })).results.map((r) => r.memory.id),
		);
		expect(found).toEqual([id]);
		expect(await total(page)).toBe(expected + 1);
		console.log(`kill mid-batch outcomes (0 or 500 each): ${outcomes.join(', ')}`);
		await page.close();
	});

	it('two tabs writing at once both see every memory within a bounded wait', async () => {
		const [a, b] = [await openTab(), await openTab()];
		const before = await total(a);
		const write = (page: Page, tag: string) =>
			page.evaluate(async (tag) => {
				const engram = (globalThis as unknown as { __engram: Engram }).__engram;
				const memories = Array.from({ length: 150 }, (_, i) => ({
					content: `Tab ${tag} wrote note ${i} about the ${tag} orchard row ${i * 31}`,
					tags: [tag],
				}));
				return (await engram.store({ memories })).results.length;
			}, tag);
		expect(await Promise.all([write(a, 'tabalpha'), write(b, 'tabbravo')])).toEqual([150, 150]);
		const deadline = Date.now() + 15_000;
		const seen = async () => [
			await total(a),
			await total(b),
			await tagged(a, 'tabbravo'),
			await tagged(b, 'tabalpha'),
			await tagged(a, 'tabalpha'),
			await tagged(b, 'tabbravo'),
		];
		let now = await seen();
		while (now.join() !== [before + 300, before + 300, 150, 150, 150, 150].join() && Date.now() < deadline) {
			await new Promise((r) => setTimeout(r, 250));
			now = await seen();
		}
		expect(now).toEqual([before + 300, before + 300, 150, 150, 150, 150]);
		await a.close();
		await b.close();
	});
});

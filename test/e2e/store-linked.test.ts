/**
 * storeLinked in a real browser: the engine worker over real IndexedDB (Chromium) stores a memory
 * and links an existing one to it in one transaction, and a link step that fails (its source is
 * unknown, found only inside the transaction) rolls the store back: nothing stored, nothing indexed.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startPreview, type Browser, type Server } from './helpers';

let server: Server;
let browser: Browser;
let page: Page;

beforeAll(async () => {
	server = await startPreview();
	browser = await launchBrowser();
	page = await browser.context.newPage();
	await page.goto(server.url);
	await page.waitForFunction(() => '__engram' in globalThis, undefined, { timeout: 60_000 });
});

afterAll(async () => {
	await browser?.close();
	await server?.stop();
});

describe('storeLinked in Chromium', () => {
	it('stores and links in one transaction through the worker, or stores nothing when the link fails', async () => {
		const out = await page.evaluate(async () => {
			type Api = {
				store(i: unknown): Promise<{ memory_id: string }>;
				storeLinked(i: unknown): Promise<{ memory_id: string; linked?: { memory1_id: string; memory2_id: string; type: string } }>;
				associationsOf(id: string): Promise<{ from: string; to: string; type: string }[]>;
				stats(i: unknown): Promise<{ total_memories: number }>;
				recall(i: unknown): Promise<{ results: { memory: { content: string } }[] }>;
			};
			const engram = (globalThis as unknown as { __engram: Api }).__engram;
			const link = { type: 'OCCURRED_BEFORE', strength: 1, reason: 'prev_event_id' };
			const prev = await engram.store({ content: 'Billing chose PgBouncer in transaction mode for its connection pool' });
			const next = await engram.storeLinked({
				memory: { content: 'The PgBouncer pool for billing went from 40 to 60 connections' },
				link_from: { memory1_id: prev.memory_id, ...link },
			});
			const links = await engram.associationsOf(next.memory_id);
			const before = (await engram.stats({})).total_memories;
			let error: { code: string; message: string } | null = null;
			try {
				await engram.storeLinked({
					memory: { content: 'Grafana now alerts on the checkout p99 latency above 300 ms' },
					link_from: { memory1_id: 'no-such-memory', ...link },
				});
			} catch (e) {
				error = { code: (e as { code: string }).code, message: (e as Error).message };
			}
			const after = (await engram.stats({})).total_memories;
			const found = (await engram.recall({ query: 'Grafana checkout p99 latency alert' })).results.map((r) => r.memory.content);
			return { prev: prev.memory_id, next, links, before, after, error, found };
		});
		expect(out.next.linked).toMatchObject({ memory1_id: out.prev, memory2_id: out.next.memory_id, type: 'OCCURRED_BEFORE' });
		expect(out.links).toContainEqual(expect.objectContaining({ from: out.prev, to: out.next.memory_id, type: 'OCCURRED_BEFORE' }));
		expect(out.error).toEqual({ code: 'not_found', message: 'link_from.memory1_id: no memory with id "no-such-memory"' });
		expect(out.after).toBe(out.before);
		expect(out.found.filter((c) => c.startsWith('Grafana'))).toEqual([]);
	});
});

/**
 * request_id in real Chromium: a write's request id lives in IndexedDB, so a resend after the
 * page reloads, or from a second tab, is answered with the original result and stores nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, engineReady, openApp, type AppFixture } from './app-support';

let app: AppFixture;

beforeAll(async () => {
	app = await openApp();
});

afterAll(async () => {
	await app?.close();
});

type Stored = { memory_id: string; seq: number; replayed?: true };
const total = async (page = app.page) => (await engine<{ total_memories: number }>(page, 'stats', {})).total_memories;

describe('request_id', () => {
	it('is recognised after a page reload and in a second tab', async () => {
		const { page } = app;
		const args = { content: `The on-call rota changes every Monday (${Date.now()})`, tags: ['ops'], request_id: 'e2e-reload-1' };
		const before = await total();
		const first = await engine<Stored>(page, 'store', args);
		expect(first.replayed).toBeUndefined();

		await page.reload();
		await engineReady(page);
		const again = await engine<Stored>(page, 'store', args);
		expect(again).toMatchObject({ replayed: true, memory_id: first.memory_id, seq: first.seq });

		const tab = await app.browser.context.newPage();
		await tab.goto(app.server.url);
		await engineReady(tab);
		expect(await engine<Stored>(tab, 'store', args)).toMatchObject({ replayed: true, memory_id: first.memory_id });
		await tab.close();
		expect(await total()).toBe(before + 1);
		expect(app.errors).toEqual([]);
	});
});

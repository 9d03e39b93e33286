/**
 * Issue 23, item 3: a stored string with a lone UTF-16 surrogate (written straight into
 * IndexedDB, as an older version could have stored it) must not blank the app. The list renders
 * every row, the bad row links to its memory page, and no page error is thrown (encodeURIComponent
 * used to throw `URIError: URI malformed` while rendering the row's link).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { engine, openApp, seed, type AppFixture } from './app-support';

let app: AppFixture;
let page: Page;

beforeAll(async () => {
	app = await openApp();
	page = app.page;
});
afterAll(async () => {
	await app?.close();
});

describe('ill-formed stored strings', () => {
	it('a row with a lone surrogate in its id, tags and content still lists, opens, and throws nothing', async () => {
		await engine(page, 'wipe');
		const ids = await seed(
			page,
			Array.from({ length: 10 }, (_, i) => ({ content: `Plain memory number ${i + 1} about ${'abcdefghij'[i]}`, tags: ['plain'], force: true })),
		);
		// Bypass every schema: rewrite one row under an ill-formed id and bump the write stamp so the
		// engine rebuilds its index from the rows on the next load, as after an older version's write.
		await page.evaluate(async (victim) => {
			const bad = (s: string, c: number) => s + String.fromCharCode(c);
			const db: IDBDatabase = await new Promise((ok, fail) => {
				const r = indexedDB.open('engram');
				r.onsuccess = () => ok(r.result);
				r.onerror = () => fail(r.error);
			});
			await new Promise<void>((ok, fail) => {
				const tx = db.transaction(['memories', 'settings'], 'readwrite');
				const mems = tx.objectStore('memories');
				const get = mems.get(victim);
				get.onsuccess = () => {
					const row = get.result as Record<string, unknown>;
					mems.delete(victim);
					mems.put({ ...row, id: bad('bad', 0xd800) + 'id', tags: [bad('t', 0xdfff)], content: bad('Broken text ', 0xdc00) + ' end' });
					const settings = tx.objectStore('settings');
					const c = settings.get('sys:counters');
					c.onsuccess = () => {
						const v = c.result as { key: string; value: { seq: number; stamp: number } };
						settings.put({ ...v, value: { ...v.value, stamp: v.value.stamp + 1 } });
					};
				};
				tx.oncomplete = () => ok();
				tx.onerror = () => fail(tx.error);
			});
			db.close();
		}, ids[4]);
		await page.goto(app.server.url + '/#/');
		await page.reload();
		await page.getByRole('link', { name: /Broken text/ }).waitFor();
		const rows = page.getByRole('link', { name: /Plain memory number|Broken text/ });
		expect(await rows.count()).toBe(10);
		// The bad row's link opens its own page, and the memory shows there.
		await page.getByRole('link', { name: /Broken text/ }).click();
		await page
			.getByText(/Broken text/)
			.first()
			.waitFor();
		expect(await page.evaluate(() => location.hash)).toBe('#/memory/bad~uD800id');
		await page.goBack();
		await page.getByRole('link', { name: /Plain memory number 1 / }).waitFor();
		expect(app.errors).toEqual([]);
	});
});

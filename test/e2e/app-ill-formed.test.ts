/**
 * Issue 23, item 3: a stored string with a lone UTF-16 surrogate (written straight into
 * IndexedDB, as an older version could have stored it) must not blank the app. The list renders
 * every row, the bad row links to its memory page, and no page error is thrown (encodeURIComponent
 * used to throw `URIError: URI malformed` while rendering the row's link).
 */
import { describe, expect, it } from 'vitest';
import { engine, seed, useApp } from './app-support';

const app = useApp();

describe('ill-formed stored strings', () => {
	it('a row with a lone surrogate in its id, tags and content still lists, opens, and throws nothing', async () => {
		await engine(app.page, 'wipe');
		const ids = await seed(
			app.page,
			Array.from({ length: 10 }, (_, i) => ({ content: `Plain memory number ${i + 1} about ${'abcdefghij'[i]}`, tags: ['plain'], force: true })),
		);
		// Bypass every schema: rewrite one row under an ill-formed id and bump the write stamp so the
		// engine rebuilds its index from the rows on the next load, as after an older version's write.
		await app.page.evaluate(async (victim) => {
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
		await app.page.goto(app.server.url + '/#/');
		await app.page.reload();
		await app.page.getByRole('link', { name: /Broken text/ }).waitFor();
		const rows = app.page.getByRole('link', { name: /Plain memory number|Broken text/ });
		expect(await rows.count()).toBe(10);
		// The bad row's link opens its own page, and the memory shows there.
		await app.page.getByRole('link', { name: /Broken text/ }).click();
		await app.page
			.getByText(/Broken text/)
			.first()
			.waitFor();
		expect(await app.page.evaluate(() => location.hash)).toBe('#/memory/bad~uD800id');
		await app.page.goBack();
		await app.page.getByRole('link', { name: /Plain memory number 1 / }).waitFor();
		expect(app.errors).toEqual([]);
	});
});

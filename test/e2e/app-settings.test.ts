/**
 * Settings: theme (applied and remembered), ranking weights (saved and used by the app's
 * searches), storage use and the persistence request, and a hub model that cannot be downloaded
 * (offline) failing with a clear message while the embedded model stays active.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { engine, openApp, seed, SAMPLE, type AppFixture } from './app-support';

let app: AppFixture;
let page: Page;

beforeAll(async () => {
	app = await openApp('/#/settings');
	page = app.page;
	await seed(page, SAMPLE);
});
afterAll(async () => {
	await app?.close();
});

describe('settings', () => {
	it('switches to the dark theme and remembers it across reloads', async () => {
		await page.getByRole('radiogroup', { name: 'Theme' }).getByText('Dark').click();
		expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
		const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
		await page.reload();
		expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
		expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(bg);
		await page.getByRole('radiogroup', { name: 'Theme' }).getByText('Match system').click();
		expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBeUndefined();
	});

	it('saves ranking weights and uses them in the app’s searches', async () => {
		await page.getByLabel('Recency weight').fill('1.5');
		await page.getByRole('button', { name: 'Save weights' }).click();
		await page.getByText('Ranking weights saved').waitFor();
		expect(await engine(page, 'getSetting', 'recall_weights')).toEqual({ recency: 1.5 });
		await page.goto(`${app.server.url}/#/`);
		await page.locator('#search-input').fill('billing database');
		const first = page.getByTestId('result').first();
		await first.waitFor();
		await first.getByRole('button', { name: /why\?/ }).click();
		// The recency bar's title shows the weight the search used.
		expect(await first.locator('[title^="Recency"]').getAttribute('title')).toContain('weight 1.5');
		await page.goto(`${app.server.url}/#/settings`);
		await page.getByRole('button', { name: 'Restore defaults' }).click();
		await page.waitForFunction(
			async () =>
				(await (globalThis as unknown as { __engram: { getSetting(k: string): Promise<unknown> } }).__engram.getSetting('recall_weights')) == null,
		);
	});

	it('shows storage used and asks the browser to keep the data', async () => {
		const storage = page.getByRole('region', { name: 'Storage' });
		await storage.getByText(/used of .* available to this app/).waitFor();
		expect(await storage.getByRole('progressbar', { name: 'Storage used' }).count()).toBe(1);
		const ask = storage.getByRole('button', { name: 'Ask the browser to keep it' });
		if (await ask.count()) {
			await ask.click();
			await page.getByText(/Storage is now persistent|The browser declined/).waitFor();
		} else {
			await storage.getByText('Persistent', { exact: true }).waitFor();
		}
	});

	it('reports a hub model that cannot be downloaded, keeping the embedded model active', async () => {
		await app.browser.context.setOffline(true);
		try {
			await page.getByLabel('Hub model id').fill('Xenova/all-MiniLM-L6-v2');
			await page.getByRole('button', { name: 'Download and use' }).click();
			const error = page.getByRole('region', { name: 'Embedding model' }).getByRole('alert');
			await error.waitFor({ timeout: 60_000 });
			expect(await error.innerText()).toMatch(/all-MiniLM-L6-v2/);
		} finally {
			await app.browser.context.setOffline(false);
		}
		expect(await page.getByTestId('active-model').innerText()).toBe('engram/glove-sif-100d');
		expect((await engine<{ active: string }>(page, 'models')).active).toBe('engram/glove-sif-100d');
	});
});

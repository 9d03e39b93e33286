/**
 * Settings: theme (applied and remembered), ranking weights (saved and used by the app's
 * searches), storage use and the persistence request, and a hub model that cannot be downloaded
 * (offline) failing with a clear message while the embedded model stays active.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { engine, seed, SAMPLE, useApp } from './app-support';

const app = useApp({ path: '/#/settings' });

beforeAll(async () => {
	await seed(app.page, SAMPLE);
});

describe('settings', () => {
	it('switches to the dark theme and remembers it across reloads', async () => {
		await app.page.getByRole('radiogroup', { name: 'Theme' }).getByText('Dark').click();
		expect(await app.page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
		const bg = await app.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
		await app.page.reload();
		expect(await app.page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
		expect(await app.page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(bg);
		await app.page.getByRole('radiogroup', { name: 'Theme' }).getByText('Match system').click();
		expect(await app.page.evaluate(() => document.documentElement.dataset.theme)).toBeUndefined();
	});

	it('saves ranking weights and uses them in the app’s searches', async () => {
		await app.page.getByLabel('Recency weight').fill('1.5');
		await app.page.getByRole('button', { name: 'Save weights' }).click();
		await app.page.getByText('Ranking weights saved').waitFor();
		expect(await engine(app.page, 'getSetting', 'recall_weights')).toEqual({ recency: 1.5 });
		await app.page.goto(`${app.server.url}/#/`);
		await app.page.locator('#search-input').fill('billing database');
		const first = app.page.getByTestId('result').first();
		await first.waitFor();
		await first.getByRole('button', { name: /why\?/ }).click();
		// The recency bar's title shows the weight the search used.
		expect(await first.locator('[title^="Recency"]').getAttribute('title')).toContain('weight 1.5');
		await app.page.goto(`${app.server.url}/#/settings`);
		await app.page.getByRole('button', { name: 'Restore defaults' }).click();
		await app.page.waitForFunction(
			async () =>
				(await (globalThis as unknown as { __engram: { getSetting(k: string): Promise<unknown> } }).__engram.getSetting('recall_weights')) == null,
		);
	});

	it('shows storage used and asks the browser to keep the data', async () => {
		const storage = app.page.getByRole('region', { name: 'Storage' });
		await storage.getByText(/used of .* available to this app/).waitFor();
		expect(await storage.getByRole('progressbar', { name: 'Storage used' }).count()).toBe(1);
		const ask = storage.getByRole('button', { name: 'Ask the browser to keep it' });
		if (await ask.count()) {
			await ask.click();
			await app.page.getByText(/Storage is now persistent|The browser declined/).waitFor();
		} else {
			await storage.getByText('Persistent', { exact: true }).waitFor();
		}
	});

	it('reports a hub model that cannot be downloaded, keeping the embedded model active', async () => {
		await app.browser.context.setOffline(true);
		try {
			await app.page.getByLabel('Hub model id').fill('Xenova/all-MiniLM-L6-v2');
			await app.page.getByRole('button', { name: 'Download and use' }).click();
			const error = app.page.getByRole('region', { name: 'Embedding model' }).getByRole('alert');
			await error.waitFor({ timeout: 60_000 });
			expect(await error.innerText()).toMatch(/all-MiniLM-L6-v2/);
		} finally {
			await app.browser.context.setOffline(false);
		}
		expect(await app.page.getByTestId('active-model').innerText()).toBe('engram/glove-sif-100d');
		expect((await engine<{ active: string }>(app.page, 'models')).active).toBe('engram/glove-sif-100d');
	});
});

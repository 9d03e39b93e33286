/**
 * Settings: theme (applied and remembered), ranking weights (saved and used by the app's
 * searches), storage use and the persistence request, and a hub model that cannot be downloaded
 * (offline) failing with a clear message while the embedded model stays active.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { engine, seed, SAMPLE, useApp } from './app-support';

const app = useApp({ path: '/#/settings' });

let ids: string[] = [];
beforeAll(async () => {
	ids = await seed(app.page, SAMPLE);
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

	it('gives every line of text at least 4.5:1 contrast (3:1 when large) on every screen, light and dark', async () => {
		const id = ids[0];
		const failures: string[] = [];
		for (const theme of ['Light', 'Dark']) {
			await app.page.goto(`${app.server.url}/#/settings`);
			await app.page.getByRole('radiogroup', { name: 'Theme' }).getByText(theme, { exact: true }).click();
			for (const route of ['/', `/memory/${encodeURIComponent(id)}`, '/import', '/settings', '/connections']) {
				await app.page.goto(`${app.server.url}/#${route}`);
				await app.page.locator('main h1, main [role="list"], main time').first().waitFor();
				const low = await app.page.evaluate(lowContrastText);
				failures.push(...low.map((l) => `${theme} #${route}: ${l}`));
			}
		}
		await app.page.goto(`${app.server.url}/#/settings`);
		await app.page.getByRole('radiogroup', { name: 'Theme' }).getByText('Match system').click();
		expect(failures).toEqual([]);
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

	it('keeps saved ranking weights after a reload: shown in Settings and used by a search in the address', async () => {
		await app.page.goto(`${app.server.url}/#/settings`);
		await app.page.getByLabel('Recency weight').fill('1.5');
		await app.page.getByRole('button', { name: 'Save weights' }).click();
		await app.page.getByText('Ranking weights saved').waitFor();
		try {
			await app.page.reload();
			// The sliders are enabled once the saved weights are read, and then show them (a loaded
			// machine took over a second: they showed the defaults, which Save would have stored).
			const slider = app.page.getByLabel('Recency weight');
			await expect.poll(() => slider.isEnabled(), { timeout: 30_000 }).toBe(true);
			expect(await slider.inputValue()).toBe('1.5');
			await app.page.goto(`${app.server.url}/#/?q=${encodeURIComponent('billing database')}`);
			await app.page.reload();
			const first = app.page.getByTestId('result').first();
			await first.waitFor();
			await first.getByRole('button', { name: /why\?/ }).click();
			expect(await first.locator('[title^="Recency"]').getAttribute('title')).toContain('weight 1.5');
		} finally {
			await app.page.goto(`${app.server.url}/#/settings`);
			await app.page.getByRole('button', { name: 'Restore defaults' }).click();
			await app.page.waitForFunction(
				async () =>
					(await (globalThis as unknown as { __engram: { getSetting(k: string): Promise<unknown> } }).__engram.getSetting('recall_weights')) == null,
			);
		}
	});

	it('keeps every ranking weight and its value inside the card on a 320 px phone', async () => {
		await app.page.setViewportSize({ width: 320, height: 700 });
		try {
			await app.page.goto(`${app.server.url}/#/settings`);
			const card = app.page.locator('section.card', { has: app.page.locator('#weights') });
			await card.locator('output').first().waitFor();
			const box = (await card.boundingBox())!;
			const outside: string[] = [];
			for (const el of await card.locator('label.weight, label.weight > *').all()) {
				const b = (await el.boundingBox())!;
				if (b.x < box.x || b.x + b.width > box.x + box.width) outside.push(`${await el.evaluate((e) => e.tagName)} "${await el.textContent()}"`);
			}
			expect(outside).toEqual([]);
		} finally {
			await app.page.setViewportSize({ width: 1280, height: 800 });
		}
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
			expect(await error.innerText()).toBe(
				'Could not download Xenova/all-MiniLM-L6-v2: this browser is offline or cannot reach the Hugging Face hub. Try again when online; engram/glove-sif-100d stays in use.',
			);
		} finally {
			await app.browser.context.setOffline(false);
		}
		expect(await app.page.getByTestId('active-model').innerText()).toBe('engram/glove-sif-100d');
		expect((await engine<{ active: string }>(app.page, 'models')).active).toBe('engram/glove-sif-100d');
	});

	it('says why a memory with no known word has no vector, instead of re-embedding forever', async () => {
		const { memory_id } = await engine<{ memory_id: string }>(app.page, 'store', { content: '🙂🎉🙂' });
		try {
			await app.page.goto(`${app.server.url}/#/settings`);
			const note = app.page.getByTestId('without-vector');
			await note.waitFor();
			expect(await note.innerText()).toMatch(/^1 memory has no vector for engram\/glove-sif-100d: no word of its text is in the model's vocabulary/);
			expect(await app.page.getByTestId('reembedding').count()).toBe(0);
			expect(await app.page.getByText('re-embedding…').count()).toBe(0);
			// Found by its own characters all the same.
			const found = await engine<{ results: { memory: { id: string } }[] }>(app.page, 'recall', { query: '🎉' });
			expect(found.results.map((r) => r.memory.id)).toContain(memory_id);
		} finally {
			await engine(app.page, 'delete', { memory_id });
		}
		await app.page.getByTestId('without-vector').waitFor({ state: 'detached' });
	});
});

/**
 * Runs in the page: each element with text of its own, its contrast ratio against the first
 * opaque background behind it (WCAG relative luminance), listed when under 4.5:1 (3:1 for large
 * text). Disabled controls are exempt, as WCAG allows.
 */
function lowContrastText(): string[] {
	// rgb()/rgba() give 0–255 channels; color-mix() computes to color(srgb r g b) with 0–1 channels.
	const rgba = (c: string) => {
		const [r = 0, g = 0, b = 0, a = 1] = (c.match(/[\d.]+/g) ?? []).map(Number);
		return c.startsWith('color(') ? [r * 255, g * 255, b * 255, a] : [r, g, b, a];
	};
	const channel = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
	const luminance = ([r, g, b]: number[]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
	const background = (start: Element): number[] => {
		for (let el: Element | null = start; el; el = el.parentElement) {
			const c = rgba(getComputedStyle(el).backgroundColor);
			if (c[3] > 0.5) return c;
		}
		return [255, 255, 255];
	};
	const out: string[] = [];
	for (const el of document.querySelectorAll('body *')) {
		if (![...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim())) continue;
		const box = el.getBoundingClientRect();
		const style = getComputedStyle(el);
		if (!box.width || !box.height || style.visibility === 'hidden' || el.closest(':disabled, [aria-disabled="true"]')) continue;
		const [hi, lo] = [luminance(rgba(style.color)), luminance(background(el))].sort((a, b) => b - a);
		const ratio = (hi + 0.05) / (lo + 0.05);
		const size = parseFloat(style.fontSize);
		const large = size >= 24 || (size >= 18.6 && Number(style.fontWeight) >= 700);
		if (ratio < (large ? 3 : 4.5)) out.push(`${ratio.toFixed(2)}:1 "${el.textContent?.trim().slice(0, 40)}"`);
	}
	return [...new Set(out)];
}

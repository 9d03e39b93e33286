/**
 * The list's search and filters under Back and Forward, as a person moves about: each history
 * entry shows the list it showed. Before, an entry at `#/` (the list with nothing set) came back
 * with whatever was searched later — after an entity's search, or after Clear filters and a
 * visit elsewhere — because `#/` also means "the Memories link: keep what is set".
 */
import { describe, expect, it } from 'vitest';
import { seed, useApp } from './app-support';

const app = useApp({ fresh: '/#/' });

const MEMORIES = [
	{ content: 'Alice Chen approved the billing change.', tags: ['billing'], type: 'Decision' },
	{ content: 'Deploys run every Tuesday morning.', tags: ['ops'], type: 'Habit' },
	{ content: 'The ops rota covers billing alerts too.', tags: ['ops', 'billing'], type: 'Insight' },
];

/** The list's status line once it has settled ("3 memories", "1 match for …"). */
async function status(): Promise<string> {
	const s = app.page.getByTestId('search-status');
	await app.page.waitForFunction(() => {
		const el = document.querySelector('[data-testid="search-status"]');
		return el?.getAttribute('data-state') === 'idle' && !/Opening your memory/.test(el.textContent ?? '');
	});
	return (await s.innerText()).replace(/\s+/g, ' ').trim();
}

describe('the memories list under Back and Forward', () => {
	it("comes back to the list as it was before an entity's search, and Forward to the search", async () => {
		await seed(app.page, MEMORIES);
		await app.page.reload();
		await app.page.getByText('3 memories').waitFor();
		await app.page.getByRole('link', { name: /Alice Chen approved/ }).click();
		await app.page.getByRole('button', { name: /Alice Chen/ }).click();
		await app.page.waitForURL((u) => u.hash === '#/?q=Alice%20Chen');
		expect(await status()).toMatch(/^1 match for “Alice Chen”/);
		await app.page.goBack();
		await app.page.waitForURL(/#\/memory\//);
		await app.page.goBack();
		await app.page.waitForURL((u) => u.hash === '#/');
		expect(await status()).toBe('3 memories');
		expect(await app.page.locator('#search-input').inputValue()).toBe('');
		await app.page.goForward();
		await app.page.goForward();
		await app.page.waitForURL((u) => u.hash === '#/?q=Alice%20Chen');
		expect(await status()).toMatch(/^1 match for “Alice Chen”/);
	});

	it('shows after Forward the list cleared before leaving it, not the filters of the entry Back passed', async () => {
		await seed(app.page, MEMORIES);
		await app.page.goto(`${app.server.url}/#/?tag=ops`);
		expect(await status()).toMatch(/^2 memories · filtered/);
		await app.page.getByRole('link', { name: 'Graph' }).first().click();
		await app.page.waitForURL(/#\/graph$/);
		await app.page
			.getByRole('link', { name: /^Memories/ })
			.first()
			.click();
		// The Memories link keeps the filters set.
		await app.page.waitForURL((u) => u.hash === '#/?tag=ops');
		await app.page.getByRole('button', { name: 'Clear filters' }).click();
		await app.page.waitForURL((u) => u.hash === '#/');
		expect(await status()).toBe('3 memories');
		await app.page.goBack();
		await app.page.waitForURL(/#\/graph$/);
		await app.page.goBack();
		await app.page.waitForURL((u) => u.hash === '#/?tag=ops');
		expect(await status()).toMatch(/^2 memories · filtered/);
		await app.page.goForward();
		await app.page.waitForURL(/#\/graph$/);
		await app.page.goForward();
		await app.page.waitForURL((u) => u.hash === '#/');
		expect(await status()).toBe('3 memories');
		// A reload shows the same list.
		await app.page.reload();
		expect(await status()).toBe('3 memories');
	});

	it("searches an entity's memories without the filters set before, which hid the memory it was clicked on", async () => {
		const [alice] = await seed(app.page, MEMORIES);
		await app.page.goto(`${app.server.url}/#/?tag=ops`);
		expect(await status()).toMatch(/^2 memories · filtered/);
		await app.page.goto(`${app.server.url}/#/memory/${alice}`);
		await app.page.getByRole('button', { name: /Alice Chen/ }).click();
		await app.page.waitForURL((u) => u.hash === '#/?q=Alice%20Chen');
		expect(await status()).toMatch(/^1 match for “Alice Chen”/);
		await app.page
			.getByTestId('result')
			.getByRole('link', { name: /Alice Chen approved/ })
			.waitFor();
	});
});

/**
 * Filters and search that do what they say (issue 24), driven through the built app as a person
 * would: the Filters panel's tags "all" with and without a query, strong matches above a "weaker
 * matches" divider, why? naming what matched, a time phrase typed in the search box becoming a
 * removable time filter, and the When field read in the person's own time zone.
 */
import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { engine, seed, SAMPLE, useApp } from './app-support';

const app = useApp({ fresh: '/#/' });
const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

/** The status line above the list. */
const status = () => app.page.locator('.status');
/** Adds a tag to the Filters panel's tag field. */
async function filterTag(tag: string) {
	const field = app.page.getByLabel('Filter by tags');
	await field.fill(tag);
	await field.press('Enter');
}
/** Titles of the memories the browse list shows. */
const rows = () => app.page.locator('.mrow .title').allInnerTexts();
/** Titles of the search results, in the order shown. */
const results = () => app.page.locator('[data-testid="result"] .title').allInnerTexts();

describe('filters', () => {
	it('tags "all" lists only memories carrying every tag, with and without a query', async () => {
		await seed(app.page, [
			{ content: 'Garden: watered the tomatoes and the basil.', tags: ['garden', 'herbs'] },
			{ content: 'Garden: the fence needs a coat of paint.', tags: ['garden'] },
			{ content: 'Garden: basil wants full sun.', tags: ['herbs'] },
		]);
		await app.page.reload();
		await app.page.getByRole('button', { name: /Filters/ }).click();
		await filterTag('garden');
		await filterTag('herbs');
		await app.page.getByRole('radio', { name: 'all' }).check();
		await status().getByText('1 memory').waitFor();
		expect(await rows()).toEqual(['Garden: watered the tomatoes and the basil.']);
		await app.page.locator('#search-input').fill('garden');
		await app.page.getByTestId('result').first().waitFor();
		await app.page.waitForTimeout(400);
		expect(await results()).toEqual(['Garden: watered the tomatoes and the basil.']);
		await app.page.getByRole('radio', { name: 'any' }).check();
		await app.page.getByTestId('result').nth(2).waitFor();
	});

	it('"without tags" holds in browse mode too', async () => {
		await seed(app.page, [
			{ content: 'Kept: the spare key is under the blue pot.', tags: ['home'] },
			{ content: 'Dropped: the old wifi password.', tags: ['home', 'stale'] },
		]);
		await app.page.reload();
		await app.page.getByRole('button', { name: /Filters/ }).click();
		const field = app.page.getByLabel('Exclude tags');
		await field.fill('stale');
		await field.press('Enter');
		await status().getByText('1 memory').waitFor();
		expect(await rows()).toEqual(['Kept: the spare key is under the blue pot.']);
	});

	it('shows a scope from the address that holds no memory in the Scope box, not a blank', async () => {
		await seed(app.page, [{ content: 'Sprint planning is on Mondays.', scope: 'work' }]);
		await app.page.goto(`${app.server.url}/#/?scope=gone`);
		await app.page.reload();
		// Filters from the address open the panel.
		const scope = app.page.getByLabel('Scope', { exact: true });
		await expect.poll(() => scope.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent ?? '')).toBe('gone (no memories)');
		await scope.selectOption('work');
		await status().getByText('1 memory').waitFor();
		expect(await scope.locator('option').allTextContents()).toEqual(['All scopes', 'work']);
	});
});

describe('strong and weaker matches', () => {
	it('shows the strong matches, then a "weaker matches" divider, and counts only the matches', async () => {
		await seed(app.page, SAMPLE);
		await app.page.reload();
		await app.page.locator('#search-input').fill('PostgreSQL');
		await app.page.getByTestId('weaker-divider').waitFor();
		await app.page.waitForTimeout(400);
		expect(await app.page.getByTestId('match-count').innerText()).toBe('1 match for “PostgreSQL”');
		const titles = await results();
		expect(titles[0]).toContain('Billing moved to PostgreSQL');
		// The divider comes right after the one strong match.
		const order = await app.page
			.locator('.results > *')
			.evaluateAll((els) => els.map((e) => (e.matches('[data-testid="weaker-divider"]') ? 'divider' : 'hit')));
		expect(order.slice(0, 2)).toEqual(['hit', 'divider']);
	});
});

describe('why?', () => {
	it('names the matched words, and for a linked memory the memory it is linked from', async () => {
		const [a, b] = await seed(app.page, [
			{ content: 'The quarterly roadmap review is on Thursday.', summary: 'Quarterly roadmap review' },
			{ content: 'Bring the printed slides and the budget sheet.' },
		]);
		await engine(app.page, 'associate', { memory1_id: a, memory2_id: b, type: 'RELATES_TO', strength: 1 });
		await app.page.reload();
		await app.page.locator('#search-input').fill('quarterly roadmap');
		const first = app.page.locator(`[data-testid="result"][data-id="${a}"]`);
		await first.waitFor();
		await first.getByRole('button', { name: /why\?/ }).click();
		const why = first.getByLabel('Why it matched');
		expect(await why.locator('[data-reason="words"]').innerText()).toMatch(/Its words match: quarterly, roadmap/);
		expect(await why.innerText()).not.toContain('Direct match');
		const linked = app.page.locator(`[data-testid="result"][data-id="${b}"]`);
		await linked.getByRole('button', { name: /why\?/ }).click();
		const reason = linked.getByLabel('Why it matched').locator('[data-reason="link"]');
		await reason.getByRole('link', { name: 'Quarterly roadmap review' }).waitFor();
		expect(await reason.innerText()).toContain('Linked from a match');
		expect(await linked.getByLabel('Why it matched').innerText()).not.toContain('Direct match');
	});
});

describe('time phrases', () => {
	it('a time phrase typed in the search box becomes a removable time filter', async () => {
		await seed(app.page, [
			{ content: 'Billing: the invoice run failed on the first try.', timestamp: ago(10) },
			{ content: 'Billing: we switched the invoice provider.', timestamp: ago(60) },
		]);
		await app.page.reload();
		await app.page.locator('#search-input').fill('billing last 30 days');
		const chip = app.page.getByTestId('time-chip');
		await chip.waitFor();
		expect(await chip.innerText()).toContain('last 30 days');
		await app.page.getByTestId('result').first().waitFor();
		await app.page.waitForTimeout(400);
		expect(await results()).toEqual(['Billing: the invoice run failed on the first try.']);
		expect(await app.page.getByTestId('match-count').innerText()).toBe('1 match for “billing”');
		await chip.getByRole('button', { name: /Remove the time filter/ }).click();
		expect(await app.page.locator('#search-input').inputValue()).toBe('billing');
		await app.page.getByTestId('result').nth(1).waitFor();
		// Only a time phrase: every memory of that window, no words searched.
		await app.page.locator('#search-input').fill('last 30 days');
		await status().getByText('1 memory').waitFor();
		expect(await rows()).toEqual(['Billing: the invoice run failed on the first try.']);
	});

	it('a date typed alone filters by time, and can be searched in the text instead', async () => {
		await seed(app.page, [
			{ content: 'Dentist appointment on 3 March at 10am.', timestamp: ago(2) },
			{ content: 'Bought new running shoes for the spring races.', timestamp: ago(3) },
		]);
		await app.page.reload();
		const box = app.page.locator('#search-input');
		await box.fill('3 March');
		await app.page.getByTestId('time-chip').waitFor();
		await status().getByText('0 memories').waitFor();
		await app.page.getByTestId('time-as-words').click();
		await app.page.getByTestId('result').first().waitFor();
		expect(await app.page.getByTestId('time-chip').count()).toBe(0);
		expect(await box.inputValue()).toBe('3 March');
		expect((await results())[0]).toBe('Dentist appointment on 3 March at 10am.');
		// Typing another date reads it as a time again.
		await box.fill('4 March');
		await app.page.getByTestId('time-chip').waitFor();
	});

	it('words in quotes are searched as words, never read as a time', async () => {
		await seed(app.page, [
			{ content: 'Retro note: last week the deploy slipped twice.', timestamp: ago(400) },
			{ content: 'Groceries for the weekend.', timestamp: ago(2) },
		]);
		await app.page.reload();
		const box = app.page.locator('#search-input');
		for (const q of ['"last week"', '“last week”', "'last week'", 'deploy "last week"']) {
			await box.fill(q);
			await app.page.getByTestId('result').first().waitFor();
			expect(await app.page.getByTestId('time-chip').count()).toBe(0);
			expect((await results())[0]).toBe('Retro note: last week the deploy slipped twice.');
		}
		// Unquoted, the same words are a time filter (and the year-old note is outside it).
		await box.fill('deploy last week');
		await app.page.getByTestId('time-chip').waitFor();
	});

	it('the When field reads a phrase in the local time zone, shows its dates, and says plainly when it cannot', async () => {
		const cdp = await app.page.context().newCDPSession(app.page);
		await cdp.send('Emulation.setTimezoneOverride', { timezoneId: 'Pacific/Auckland' });
		// Local yesterday 00:30 and local two days ago 23:30: UTC days put them the other way round.
		const [inside, outside, label] = await app.page.evaluate(() => {
			const d = new Date();
			d.setDate(d.getDate() - 1);
			d.setHours(0, 30, 0, 0);
			const e = new Date(d);
			e.setHours(-1, 0, 0, 0);
			return [d.toISOString(), e.toISOString(), d.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' })];
		});
		await seed(app.page, [
			{ content: 'Yesterday just after midnight: the boiler was serviced.', timestamp: inside },
			{ content: 'The day before, late at night: the cat knocked over a vase.', timestamp: outside },
		]);
		await app.page.reload();
		await app.page.getByRole('button', { name: /Filters/ }).click();
		await app.page.getByLabel('Time range').fill('yesterday');
		await app.page.getByTestId('time-window').waitFor();
		expect(await app.page.getByTestId('time-window').innerText()).toBe(label);
		await status().getByText('1 memory').waitFor();
		expect(await rows()).toEqual(['Yesterday just after midnight: the boiler was serviced.']);
		await app.page.getByLabel('Time range').fill('when pigs fly');
		const msg = app.page.locator('#time-window.error-text');
		await msg.waitFor();
		expect(await msg.innerText()).toMatch(/^“when pigs fly” is not a time I can read/);
		expect(await app.page.locator('.error-text', { hasText: 'time_query' }).count()).toBe(0);
		await app.page.waitForTimeout(400);
		expect(await app.page.locator('.skeleton-list').count()).toBe(0);
		await cdp.send('Emulation.setTimezoneOverride', { timezoneId: '' });
	});
});

describe('screenshot', () => {
	it('search results with the weaker-matches divider and the why? panel', async () => {
		await seed(app.page, SAMPLE);
		await app.page.reload();
		await app.page.locator('#search-input').fill('PostgreSQL');
		await app.page.getByTestId('weaker-divider').waitFor();
		await app.page.waitForTimeout(400);
		await app.page.getByTestId('result').first().getByRole('button', { name: /why\?/ }).click();
		await app.page.getByTestId('result').nth(1).getByRole('button', { name: /why\?/ }).click();
		await app.page.waitForTimeout(200);
		mkdirSync('docs/screenshots', { recursive: true });
		await app.page.screenshot({ path: 'docs/screenshots/search-weaker-matches.png' });
		expect(app.errors).toEqual([]);
	});
});

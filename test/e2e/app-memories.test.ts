/**
 * The memories workflows in the built app, in real Chromium with real IndexedDB and the real
 * engine worker: add, validate, search, filter, edit, delete with undo, bulk actions, link,
 * safe Markdown and the keyboard.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { engine, openApp, seed, SAMPLE, type AppFixture } from './app-support';

let app: AppFixture;
let page: Page;

beforeAll(async () => {
	app = await openApp();
	page = app.page;
});
afterAll(async () => {
	await app?.close();
});
beforeEach(async () => {
	await engine(page, 'wipe');
	await page.goto(app.server.url + '/#/');
	await page.reload();
});

interface Mem {
	id: string;
	seq: number;
	content: string;
	summary?: string;
	type: string;
	tags: string[];
	importance: number;
	confidence: number;
	metadata: Record<string, unknown>;
	timestamp: string;
	t_invalid?: string;
	entities: { name: string; type: string }[];
}
const getMemory = async (id: string) => (await engine<{ memory: Mem }>(page, 'get', { memory_id: id, track_access: false })).memory;

describe('app', () => {
	describe('adding', () => {
		it('adds a memory from the New memory dialog and lists it', async () => {
			await page.getByRole('button', { name: 'New memory' }).first().click();
			await page.locator('#new-content').fill('Remember that the staging database is reset every Sunday night.');
			await page.locator('#new-tags').fill('ops, staging');
			await page.locator('#new-tags').press('Enter');
			await page.locator('#new-type').selectOption('Habit');
			await page.getByRole('button', { name: 'Save memory' }).click();
			await page.getByText('Memory stored').waitFor();
			await page.getByRole('link', { name: /staging database is reset/ }).waitFor();
			const list = await engine<{ memories: { content: string; tags: string[]; type: string }[] }>(page, 'timeline', { limit: 5 });
			expect(list.memories).toHaveLength(1);
			expect(list.memories[0]).toMatchObject({ type: 'Habit', tags: ['ops', 'staging'] });
		});

		it('refuses bad input with an error naming the field and stores nothing', async () => {
			await page.getByRole('button', { name: 'New memory' }).first().click();
			await page.getByRole('button', { name: 'Save memory' }).click();
			await page.locator('dialog .error-text', { hasText: /^Write something to remember$/ }).waitFor();
			await page.locator('#new-content').fill('Has content now');
			await page.locator('dialog summary', { hasText: 'Time, metadata and entities' }).click();
			await page.locator('#new-metadata').fill('{not json');
			await page.getByRole('button', { name: 'Save memory' }).click();
			await page.locator('dialog .error-text', { hasText: /^metadata: not valid JSON/ }).waitFor();
			expect((await engine<{ total_memories: number }>(page, 'stats', {})).total_memories).toBe(0);
		});

		it('does not store a near-duplicate twice and offers the existing memory', async () => {
			const [id] = await seed(page, [SAMPLE[2]]);
			await page.reload();
			await page.getByRole('button', { name: 'New memory' }).first().click();
			await page.locator('#new-content').fill(SAMPLE[2].content);
			await page.getByRole('button', { name: 'Save memory' }).click();
			const open = page.getByRole('link', { name: 'Open the existing memory' });
			await open.waitFor();
			expect(await open.getAttribute('href')).toBe(`#/memory/${encodeURIComponent(id)}`);
			expect((await engine<{ total_memories: number }>(page, 'stats', {})).total_memories).toBe(1);
		});
	});

	describe('searching', () => {
		it('searches as you type and explains why a result matched', async () => {
			await seed(page, SAMPLE);
			await page.reload();
			await page.locator('#search-input').fill('database for invoices');
			const first = page.getByTestId('result').first();
			await first.waitFor();
			expect(await first.innerText()).toContain('Billing moved to PostgreSQL');
			await first.getByRole('button', { name: /why\?/ }).click();
			const why = first.getByLabel('Why it matched');
			await why.waitFor();
			expect(await why.innerText()).toMatch(/Words|Meaning/);
			expect(await page.locator('[data-testid="result"] mark').count()).toBeGreaterThan(0);
		});

		it('filters by type', async () => {
			await seed(page, SAMPLE);
			await page.reload();
			await page.getByRole('button', { name: /Filters/ }).click();
			await page.getByRole('button', { name: 'Decision', exact: true }).click();
			await page.locator('#search-input').fill('billing tooling workspaces');
			await page.getByTestId('result').first().waitFor();
			await page.locator('[data-testid="search-status"][data-state="idle"]').waitFor();
			const types = await page.locator('[data-testid="result"] .type').allInnerTexts();
			expect(types.length).toBeGreaterThan(0);
			expect(new Set(types)).toEqual(new Set(['Decision']));
		});

		it('filters by a natural time phrase and says plainly when it cannot read one', async () => {
			const old = new Date(Date.now() - 60 * 86_400_000).toISOString();
			await seed(page, [
				{ content: 'Old note about the billing migration plan.', timestamp: old, tags: ['billing'] },
				// Seven days ago is always inside the previous calendar week, which "last week" means.
				{
					content: 'Fresh note about the billing migration status.',
					tags: ['billing'],
					timestamp: new Date(Date.now() - 7 * 86_400_000).toISOString(),
				},
			]);
			await page.reload();
			await page.getByRole('button', { name: /Filters/ }).click();
			await page.getByLabel('Time range').fill('last week');
			await page.locator('#search-input').fill('billing migration');
			await page.getByTestId('result').first().waitFor();
			await page.locator('[data-testid="search-status"][data-state="idle"]').waitFor();
			const texts = await page.getByTestId('result').allInnerTexts();
			expect(texts).toHaveLength(1);
			expect(texts[0]).toContain('Fresh note');
			await page.getByLabel('Time range').fill('when pigs fly');
			await page.locator('.error-text', { hasText: 'is not a time I can read' }).first().waitFor();
		});

		it('current only hides superseded memories', async () => {
			const [oldId] = await seed(page, [{ content: 'The team uses Jenkins for continuous integration builds.', tags: ['ci'] }]);
			await engine(page, 'store', {
				content: 'The team moved continuous integration builds to GitHub Actions.',
				tags: ['ci'],
				supersedes_memory_id: oldId,
			});
			await page.reload();
			await page.locator('#search-input').fill('continuous integration builds');
			await page.getByTestId('result').nth(1).waitFor();
			await page.getByRole('button', { name: /Filters/ }).click();
			await page.getByLabel(/Current only/).check();
			await page.waitForFunction((id) => !document.querySelector(`[data-testid="result"][data-id="${id}"]`), oldId);
			const texts = await page.getByTestId('result').allInnerTexts();
			expect(texts.some((t) => t.includes('GitHub Actions'))).toBe(true);
		});
	});

	describe('the memory page', () => {
		it('edits every field and saves only what changed', async () => {
			const [id] = await seed(page, [SAMPLE[0]]);
			await page.goto(`${app.server.url}/#/memory/${encodeURIComponent(id)}`);
			await page.getByRole('button', { name: 'Edit' }).click();
			await page.locator('#edit-content').fill('The user prefers light mode in the mornings.');
			await page.locator('#edit-summary').fill('Light mode mornings');
			await page.locator('#edit-type').selectOption('Habit');
			await page.getByRole('button', { name: 'Remove tag ui' }).click();
			await page.locator('#edit-tags').fill('mornings');
			await page.locator('#edit-tags').press('Enter');
			await page.locator('#edit-importance').fill('0.3');
			await page.locator('#edit-metadata').fill('{"project": "engram"}');
			await page.getByRole('button', { name: 'Save changes' }).click();
			await page.getByText(/^Saved “/).waitFor();
			const m = await getMemory(id);
			expect(m).toMatchObject({
				content: 'The user prefers light mode in the mornings.',
				summary: 'Light mode mornings',
				type: 'Habit',
				tags: ['style', 'mornings'],
				importance: 0.3,
				metadata: { project: 'engram' },
			});
			await page.getByRole('heading', { name: 'Light mode mornings' }).waitFor();
		});

		it('deletes with undo, restoring the same id, seq, time and links', async () => {
			const [a, b] = await seed(page, [SAMPLE[1], SAMPLE[3]]);
			await engine(page, 'associate', { memory1_id: b, memory2_id: a, type: 'DERIVED_FROM', strength: 0.8, transformation: 'found after the move' });
			const before = await getMemory(a);
			await page.goto(`${app.server.url}/#/memory/${encodeURIComponent(a)}`);
			await page.getByRole('button', { name: 'Delete' }).click();
			await page.getByText('Deleted 1 memory').waitFor();
			expect(await engine<unknown[]>(page, 'getMemories', [a])).toEqual([undefined]);
			await page.getByRole('button', { name: 'Undo' }).click();
			await page.getByText('Restored 1 memory').waitFor();
			const after = await getMemory(a);
			expect(after).toMatchObject({ id: a, seq: before.seq, timestamp: before.timestamp, content: before.content, tags: before.tags });
			const links = await engine<{ from: string; to: string; type: string; transformation?: string }[]>(page, 'associationsOf', a);
			expect(links).toContainEqual(expect.objectContaining({ from: b, to: a, type: 'DERIVED_FROM', transformation: 'found after the move' }));
		});

		it('links to another memory with any authorable type and its fields', async () => {
			const [a, b] = await seed(page, [SAMPLE[0], { content: 'The user asked for light backgrounds in screenshots for the docs.', tags: ['style'] }]);
			await page.goto(`${app.server.url}/#/memory/${encodeURIComponent(a)}`);
			await page.getByRole('button', { name: 'Link' }).first().click();
			await page.getByLabel('Find the memory to link to').fill('light backgrounds screenshots');
			await page.getByRole('button', { name: /light backgrounds in screenshots/ }).click();
			await page.getByLabel('Relationship type').selectOption('CONTRADICTS');
			await page.getByLabel('Reason').fill('dark vs light');
			await page.getByLabel('Resolution').fill('dark in the app, light in docs');
			await page.getByRole('button', { name: 'Create link' }).click();
			await page.getByText(/^Linked: this memory contradicts “/).waitFor();
			await page.locator('[data-testid="association"][data-type="CONTRADICTS"]').waitFor();
			const links = await engine<{ from: string; to: string; type: string; reason?: string; resolution?: string }[]>(page, 'associationsOf', a);
			expect(links).toContainEqual(
				expect.objectContaining({ from: a, to: b, type: 'CONTRADICTS', reason: 'dark vs light', resolution: 'dark in the app, light in docs' }),
			);
		});

		it('shows related memories with similarity and what agents did', async () => {
			const [a] = await seed(page, [
				{ content: 'Invoices are generated nightly by the billing cron job.', tags: ['billing'] },
				{ content: 'The billing cron job generates invoices every night at 02:00.', tags: ['billing'], force: true },
			]);
			await engine(page, 'get', { memory_id: a }, { actor: 'test-agent' });
			await page.goto(`${app.server.url}/#/memory/${encodeURIComponent(a)}`);
			await page.getByRole('heading', { name: 'Related memories' }).waitFor();
			await page.locator('.related li').first().waitFor();
			expect(await page.locator('.related li').first().innerText()).toMatch(/0\.\d\d/);
			await page.locator('.history li', { hasText: 'test-agent' }).first().waitFor();
		});
	});

	describe('bulk actions', () => {
		it('tags and deletes the selected memories, and Undo brings them back', async () => {
			const ids = await seed(page, SAMPLE.slice(0, 3));
			await page.reload();
			await page.getByRole('link', { name: /Deploys happen on Tuesdays/ }).waitFor();
			for (const box of await page.getByRole('checkbox', { name: /^Select memory/ }).all()) await box.check();
			await page.getByLabel('Tags for the selected memories').fill('reviewed');
			await page.getByRole('button', { name: 'Add tags' }).click();
			await page.getByText(/Added #reviewed to 3 memories/).waitFor();
			for (const id of ids) expect((await getMemory(id)).tags).toContain('reviewed');
			await page.getByRole('toolbar', { name: 'Bulk actions' }).getByRole('button', { name: 'Delete' }).click();
			await page.getByText('Deleted 3 memories').waitFor();
			expect((await engine<{ total_memories: number }>(page, 'stats', {})).total_memories).toBe(0);
			await page.getByRole('button', { name: 'Undo' }).click();
			await page.getByText('Restored 3 memories').waitFor();
			expect((await engine<{ total_memories: number }>(page, 'stats', {})).total_memories).toBe(3);
		});
	});

	describe('Markdown', () => {
		it('renders memory content as Markdown and runs no script from it', async () => {
			const payload = [
				'# Heading **bold**',
				'<img src="x" onerror="window.__pwned = 1">',
				'<script>window.__pwned = 2</script>',
				'[click me](javascript:window.__pwned=3)',
				'<svg><g onload="window.__pwned = 4"></g></svg>',
				'<iframe src="javascript:parent.__pwned=5"></iframe>',
				'![tracker](https://tracker.example/pixel.png)',
			].join('\n\n');
			const [id] = await seed(page, [{ content: payload }]);
			const outside: string[] = [];
			page.on('request', (r) => {
				if (!r.url().startsWith(app.server.url)) outside.push(r.url());
			});
			await page.goto(`${app.server.url}/#/memory/${encodeURIComponent(id)}`);
			const content = page.getByTestId('memory-content');
			await content.locator('h1 strong').waitFor();
			await page.waitForTimeout(300);
			expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
			expect(await content.locator('[onerror], [onload], script, iframe').count()).toBe(0);
			expect(await content.locator('a[href^="javascript:"]').count()).toBe(0);
			expect(await content.locator('img[src^="https:"]').count()).toBe(0);
			expect(await content.getByRole('link', { name: '🖼 tracker' }).getAttribute('href')).toBe('https://tracker.example/pixel.png');
			expect(outside).toEqual([]);
		});
	});

	describe('keyboard', () => {
		it('/ focuses search, arrows move through rows, Enter opens, Esc goes back', async () => {
			await seed(page, SAMPLE.slice(0, 3));
			await page.reload();
			await page.getByRole('link', { name: /Deploys happen on Tuesdays/ }).waitFor();
			await page.locator('body').click({ position: { x: 5, y: 400 } });
			await page.keyboard.press('/');
			await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('search-input');
			await page.keyboard.press('ArrowDown');
			const first = await page.evaluate(() => document.activeElement?.textContent);
			await page.keyboard.press('ArrowDown');
			const second = await page.evaluate(() => document.activeElement?.textContent);
			expect(first).not.toEqual(second);
			await page.keyboard.press('Enter');
			await page.waitForURL(/#\/memory\//);
			await page.getByRole('button', { name: 'Edit' }).waitFor();
			await page.keyboard.press('Escape');
			await page.waitForURL((u) => u.hash === '#/' || u.hash === '');
		});
	});
});

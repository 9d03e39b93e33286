/**
 * The memories workflows in the built app, in real Chromium with real IndexedDB and the real
 * engine worker: add, validate, search, filter, edit, delete with undo, bulk actions, link,
 * safe Markdown and the keyboard.
 */
import { describe, expect, it } from 'vitest';
import { engine, seed, SAMPLE, useApp } from './app-support';

const app = useApp({ fresh: '/#/' });

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
const getMemory = async (id: string) => (await engine<{ memory: Mem }>(app.page, 'get', { memory_id: id, track_access: false })).memory;

describe('app', () => {
	describe('adding', () => {
		it('adds a memory from the New memory dialog and lists it', async () => {
			await app.page.getByRole('button', { name: 'New memory' }).first().click();
			await app.page.locator('#new-content').fill('Remember that the staging database is reset every Sunday night.');
			await app.page.locator('#new-tags').fill('ops, staging');
			await app.page.locator('#new-tags').press('Enter');
			await app.page.locator('#new-type').selectOption('Habit');
			await app.page.getByRole('button', { name: 'Save memory' }).click();
			await app.page.getByText('Memory stored').waitFor();
			await app.page.getByRole('link', { name: /staging database is reset/ }).waitFor();
			const list = await engine<{ memories: { content: string; tags: string[]; type: string }[] }>(app.page, 'timeline', { limit: 5 });
			expect(list.memories).toHaveLength(1);
			expect(list.memories[0]).toMatchObject({ type: 'Habit', tags: ['ops', 'staging'] });
		});

		it('Enter in the Tags field adds the typed tag and never saves the form', async () => {
			await app.page.getByRole('button', { name: 'New memory' }).first().click();
			await app.page.locator('#new-content').fill('A memory its author is still tagging.');
			await app.page.locator('#new-tags').press('Enter');
			await app.page.locator('#new-tags').fill('draft');
			await app.page.locator('#new-tags').press('Enter');
			await app.page.locator('#new-tags').press('Enter');
			await app.page.waitForTimeout(300);
			expect(await app.page.locator('dialog[open] .chip', { hasText: '#draft' }).count()).toBe(1);
			expect(await app.page.locator('#new-content').isVisible()).toBe(true);
			expect((await engine<{ total_memories: number }>(app.page, 'stats', {})).total_memories).toBe(0);
			await app.page.getByRole('button', { name: 'Save memory' }).click();
			await app.page.getByText('Memory stored').waitFor();
			expect((await engine<{ memories: { tags: string[] }[] }>(app.page, 'timeline', { limit: 5 })).memories[0].tags).toEqual(['draft']);
		});

		it('refuses bad input with an error naming the field and stores nothing', async () => {
			await app.page.getByRole('button', { name: 'New memory' }).first().click();
			await app.page.getByRole('button', { name: 'Save memory' }).click();
			await app.page.locator('dialog .error-text', { hasText: /^Write something to remember$/ }).waitFor();
			await app.page.locator('#new-content').fill('Has content now');
			await app.page.locator('dialog summary', { hasText: 'Time, metadata and entities' }).click();
			await app.page.locator('#new-metadata').fill('{not json');
			await app.page.getByRole('button', { name: 'Save memory' }).click();
			await app.page.locator('dialog .error-text', { hasText: /^metadata: not valid JSON/ }).waitFor();
			expect((await engine<{ total_memories: number }>(app.page, 'stats', {})).total_memories).toBe(0);
		});

		it('keeps a paste over the limit whole, counts it and refuses it on save saying what to do', async () => {
			await app.page.getByRole('button', { name: 'New memory' }).first().click();
			const text = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(3_600);
			await app.page.locator('#new-content').fill(text);
			expect((await app.page.locator('#new-content').inputValue()).length).toBe(text.length);
			await app.page.locator('dialog .counter.error-text', { hasText: '205,200 / 50,000' }).waitFor();
			await app.page.getByRole('button', { name: 'Save memory' }).click();
			await app.page.locator('dialog .error-text', { hasText: /^Content is too long \(at most 50,000 characters\): split it/ }).waitFor();
			expect((await app.page.locator('#new-content').inputValue()).length).toBe(text.length);
			expect((await engine<{ total_memories: number }>(app.page, 'stats', {})).total_memories).toBe(0);
		});

		it('does not store a near-duplicate twice and offers the existing memory', async () => {
			const [id] = await seed(app.page, [SAMPLE[2]]);
			await app.page.reload();
			await app.page.getByRole('button', { name: 'New memory' }).first().click();
			await app.page.locator('#new-content').fill(SAMPLE[2].content);
			await app.page.getByRole('button', { name: 'Save memory' }).click();
			const open = app.page.getByRole('link', { name: 'Open the existing memory' });
			await open.waitFor();
			expect(await open.getAttribute('href')).toBe(`#/memory/${encodeURIComponent(id)}`);
			expect((await engine<{ total_memories: number }>(app.page, 'stats', {})).total_memories).toBe(1);
		});
	});

	describe('searching', () => {
		it('searches as you type and explains why a result matched', async () => {
			await seed(app.page, SAMPLE);
			await app.page.reload();
			await app.page.locator('#search-input').fill('database for invoices');
			const first = app.page.getByTestId('result').first();
			await first.waitFor();
			expect(await first.innerText()).toContain('Billing moved to PostgreSQL');
			await first.getByRole('button', { name: /why\?/ }).click();
			const why = first.getByLabel('Why it matched');
			await why.waitFor();
			expect(await why.innerText()).toMatch(/Words|Meaning/);
			expect(await app.page.locator('[data-testid="result"] mark').count()).toBeGreaterThan(0);
		});

		it('filters by type', async () => {
			await seed(app.page, SAMPLE);
			await app.page.reload();
			await app.page.getByRole('button', { name: /Filters/ }).click();
			await app.page.getByRole('button', { name: 'Decision', exact: true }).click();
			await app.page.locator('#search-input').fill('billing tooling workspaces');
			await app.page.getByTestId('result').first().waitFor();
			await app.page.locator('[data-testid="search-status"][data-state="idle"]').waitFor();
			const types = await app.page.locator('[data-testid="result"] .type').allInnerTexts();
			expect(types.length).toBeGreaterThan(0);
			expect(new Set(types)).toEqual(new Set(['Decision']));
		});

		it('filters by a natural time phrase and says plainly when it cannot read one', async () => {
			const old = new Date(Date.now() - 60 * 86_400_000).toISOString();
			await seed(app.page, [
				{ content: 'Old note about the billing migration plan.', timestamp: old, tags: ['billing'] },
				// Seven days ago is always inside the previous calendar week, which "last week" means.
				{
					content: 'Fresh note about the billing migration status.',
					tags: ['billing'],
					timestamp: new Date(Date.now() - 7 * 86_400_000).toISOString(),
				},
			]);
			await app.page.reload();
			await app.page.getByRole('button', { name: /Filters/ }).click();
			await app.page.getByLabel('Time range').fill('last week');
			await app.page.locator('#search-input').fill('billing migration');
			await app.page.getByTestId('result').first().waitFor();
			await app.page.locator('[data-testid="search-status"][data-state="idle"]').waitFor();
			const texts = await app.page.getByTestId('result').allInnerTexts();
			expect(texts).toHaveLength(1);
			expect(texts[0]).toContain('Fresh note');
			await app.page.getByLabel('Time range').fill('when pigs fly');
			await app.page.locator('.error-text', { hasText: 'is not a time I can read' }).first().waitFor();
		});

		it('current only hides superseded memories', async () => {
			const [oldId] = await seed(app.page, [{ content: 'The team uses Jenkins for continuous integration builds.', tags: ['ci'] }]);
			await engine(app.page, 'store', {
				content: 'The team moved continuous integration builds to GitHub Actions.',
				tags: ['ci'],
				supersedes_memory_id: oldId,
			});
			await app.page.reload();
			await app.page.locator('#search-input').fill('continuous integration builds');
			await app.page.getByTestId('result').nth(1).waitFor();
			await app.page.getByRole('button', { name: /Filters/ }).click();
			await app.page.getByLabel(/Current only/).check();
			await app.page.waitForFunction((id) => !document.querySelector(`[data-testid="result"][data-id="${id}"]`), oldId);
			const texts = await app.page.getByTestId('result').allInnerTexts();
			expect(texts.some((t) => t.includes('GitHub Actions'))).toBe(true);
		});
	});

	describe('the memory page', () => {
		it('keeps an edit left unsaved for a sidebar link, reopens it on return, and Cancel drops it', async () => {
			const [id] = await seed(app.page, [SAMPLE[2]]);
			await app.page.goto(`${app.server.url}/#/memory/${encodeURIComponent(id)}`);
			await app.page.getByRole('button', { name: 'Edit' }).click();
			await app.page.locator('#edit-content').fill('Deploys happen on Wednesdays now.');
			await app.page.getByRole('link', { name: 'Graph' }).first().click();
			await app.page.waitForURL(/#\/graph$/);
			await app.page.goBack();
			await app.page.getByTestId('edit-restored').waitFor();
			expect(await app.page.locator('#edit-content').inputValue()).toBe('Deploys happen on Wednesdays now.');
			await app.page.getByRole('button', { name: 'Save changes' }).click();
			await app.page.getByText(/^Saved “/).waitFor();
			expect((await getMemory(id)).content).toBe('Deploys happen on Wednesdays now.');
			// Cancelled, an edit is gone for good.
			await app.page.getByRole('button', { name: 'Edit' }).click();
			await app.page.locator('#edit-content').fill('Never mind.');
			await app.page.getByRole('button', { name: 'Cancel' }).click();
			await app.page.getByRole('link', { name: 'Graph' }).first().click();
			await app.page.goBack();
			await app.page.getByRole('button', { name: 'Edit' }).waitFor();
			expect(await app.page.locator('#edit-content').count()).toBe(0);
		});

		it('edits every field and saves only what changed', async () => {
			const [id] = await seed(app.page, [SAMPLE[0]]);
			await app.page.goto(`${app.server.url}/#/memory/${encodeURIComponent(id)}`);
			await app.page.getByRole('button', { name: 'Edit' }).click();
			await app.page.locator('#edit-content').fill('The user prefers light mode in the mornings.');
			await app.page.locator('#edit-summary').fill('Light mode mornings');
			await app.page.locator('#edit-type').selectOption('Habit');
			await app.page.getByRole('button', { name: 'Remove tag ui' }).click();
			await app.page.locator('#edit-tags').fill('mornings');
			await app.page.locator('#edit-tags').press('Enter');
			await app.page.locator('#edit-importance').fill('0.3');
			await app.page.locator('#edit-metadata').fill('{"project": "engram"}');
			await app.page.getByRole('button', { name: 'Save changes' }).click();
			await app.page.getByText(/^Saved “/).waitFor();
			const m = await getMemory(id);
			expect(m).toMatchObject({
				content: 'The user prefers light mode in the mornings.',
				summary: 'Light mode mornings',
				type: 'Habit',
				tags: ['style', 'mornings'],
				importance: 0.3,
				metadata: { project: 'engram' },
			});
			await app.page.getByRole('heading', { name: 'Light mode mornings' }).waitFor();
		});

		it('deletes with undo, restoring the same id, seq, time and links', async () => {
			const [a, b] = await seed(app.page, [SAMPLE[1], SAMPLE[3]]);
			await engine(app.page, 'associate', { memory1_id: b, memory2_id: a, type: 'DERIVED_FROM', strength: 0.8, transformation: 'found after the move' });
			const before = await getMemory(a);
			await app.page.goto(`${app.server.url}/#/memory/${encodeURIComponent(a)}`);
			await app.page.getByRole('button', { name: 'Delete' }).click();
			await app.page.getByText('Deleted 1 memory').waitFor();
			expect(await engine<unknown[]>(app.page, 'getMemories', [a])).toEqual([undefined]);
			await app.page.getByRole('button', { name: 'Undo' }).click();
			await app.page.getByText('Restored 1 memory').waitFor();
			const after = await getMemory(a);
			expect(after).toMatchObject({ id: a, seq: before.seq, timestamp: before.timestamp, content: before.content, tags: before.tags });
			const links = await engine<{ from: string; to: string; type: string; transformation?: string }[]>(app.page, 'associationsOf', a);
			expect(links).toContainEqual(expect.objectContaining({ from: b, to: a, type: 'DERIVED_FROM', transformation: 'found after the move' }));
		});

		it('links to another memory with any authorable type and its fields', async () => {
			const [a, b] = await seed(app.page, [SAMPLE[0], { content: 'The user asked for light backgrounds in screenshots for the docs.', tags: ['style'] }]);
			await app.page.goto(`${app.server.url}/#/memory/${encodeURIComponent(a)}`);
			await app.page.getByRole('button', { name: 'Link' }).first().click();
			await app.page.getByLabel('Find the memory to link to').fill('light backgrounds screenshots');
			await app.page.getByRole('button', { name: /light backgrounds in screenshots/ }).click();
			await app.page.getByLabel('Relationship type').selectOption('CONTRADICTS');
			await app.page.getByLabel('Reason').fill('dark vs light');
			await app.page.getByLabel('Resolution').fill('dark in the app, light in docs');
			await app.page.getByRole('button', { name: 'Create link' }).click();
			await app.page.getByText(/^Linked: this memory contradicts “/).waitFor();
			await app.page.locator('[data-testid="association"][data-type="CONTRADICTS"]').waitFor();
			const links = await engine<{ from: string; to: string; type: string; reason?: string; resolution?: string }[]>(app.page, 'associationsOf', a);
			expect(links).toContainEqual(
				expect.objectContaining({ from: a, to: b, type: 'CONTRADICTS', reason: 'dark vs light', resolution: 'dark in the app, light in docs' }),
			);
		});

		it('clamps a long summary to three lines on a phone, with a button that shows all of it', async () => {
			const summary = 'A summary that an agent wrote far too long, going on and on about the same thing '.repeat(6).slice(0, 480);
			const [a] = await seed(app.page, [{ content: 'The body of a memory with a very long summary.', summary }]);
			const viewport = app.page.viewportSize();
			await app.page.setViewportSize({ width: 390, height: 844 });
			try {
				await app.page.goto(`${app.server.url}/#/memory/${encodeURIComponent(a)}`);
				const title = app.page.locator('#memory-title');
				await title.waitFor();
				const lines = () => title.evaluate((h) => Math.round(h.getBoundingClientRect().height / parseFloat(getComputedStyle(h).lineHeight)));
				expect(await lines()).toBeLessThanOrEqual(3);
				// The body stays on the first screen.
				expect((await app.page.locator('.content').boundingBox())!.y).toBeLessThan(600);
				const more = app.page.getByRole('button', { name: 'Show the whole summary' });
				await more.click();
				expect(await lines()).toBeGreaterThan(6);
				expect(await title.textContent()).toBe(summary);
				await app.page.getByRole('button', { name: 'Show less' }).click();
				expect(await lines()).toBeLessThanOrEqual(3);
				// A short title has no button.
				const [b] = await seed(app.page, [{ content: 'Short body.', summary: 'Short title' }]);
				await app.page.goto(`${app.server.url}/#/memory/${encodeURIComponent(b)}`);
				await app.page.locator('#memory-title', { hasText: 'Short title' }).waitFor();
				expect(await app.page.getByRole('button', { name: 'Show the whole summary' }).count()).toBe(0);
			} finally {
				if (viewport) await app.page.setViewportSize(viewport);
			}
		});

		it('keeps every tag and the scope of a row in sight on a phone, a long tag cut with an ellipsis and whole in its title', async () => {
			const long = 'a-very-long-tag-name-that-keeps-going-and-going-and-going';
			await seed(app.page, [{ content: 'A memory with a long tag.', tags: [long, 'x'], scope: 'work' }]);
			const viewport = app.page.viewportSize();
			await app.page.setViewportSize({ width: 390, height: 844 });
			try {
				await app.page.goto(`${app.server.url}/#/`);
				const row = app.page.locator('.mrow', { hasText: 'A memory with a long tag.' });
				await row.waitFor();
				const chips = await row.locator('.meta').evaluate((meta) => {
					const edge = meta.getBoundingClientRect().right;
					return [...meta.querySelectorAll<HTMLElement>('.chip')].map((c) => ({
						text: c.textContent,
						title: c.title,
						inside: c.getBoundingClientRect().right <= edge + 0.5,
						// Cut with an ellipsis, or shown whole.
						cut: c.scrollWidth > c.clientWidth ? getComputedStyle(c).textOverflow : 'whole',
					}));
				});
				expect(chips).toEqual([
					{ text: `#${long}`, title: `#${long}`, inside: true, cut: 'ellipsis' },
					{ text: '#x', title: '#x', inside: true, cut: 'whole' },
					{ text: 'work', title: 'Scope: work', inside: true, cut: 'whole' },
				]);
			} finally {
				if (viewport) await app.page.setViewportSize(viewport);
			}
		});

		it('says when no other memory matches the link search, and that a memory cannot link to itself', async () => {
			const [a] = await seed(app.page, [{ content: 'Zebra crossings near the office are repainted every spring.' }]);
			const viewport = app.page.viewportSize();
			await app.page.setViewportSize({ width: 390, height: 844 });
			try {
				await app.page.goto(`${app.server.url}/#/memory/${encodeURIComponent(a)}`);
				await app.page.getByRole('button', { name: 'Link' }).first().click();
				const find = app.page.getByLabel('Find the memory to link to');
				await find.fill('zebra crossings repainted');
				await app.page.getByRole('status').getByText('Only this memory matches; a memory cannot link to itself.').waitFor();
				await find.fill('qwxyzzy');
				await app.page.getByRole('status').getByText('No other memory matches “qwxyzzy”.').waitFor();
				// On a phone the relationship select spans the dialog, so its option is not cut off.
				const select = app.page.getByLabel('Relationship type');
				const fits = await select.evaluate((s: HTMLSelectElement) => s.getBoundingClientRect().width >= 300);
				expect(fits).toBe(true);
				expect(await engine<unknown[]>(app.page, 'associationsOf', a)).toEqual([]);
			} finally {
				if (viewport) await app.page.setViewportSize(viewport);
			}
		});

		it('shows related memories with similarity and what agents did', async () => {
			const [a] = await seed(app.page, [
				{ content: 'Invoices are generated nightly by the billing cron job.', tags: ['billing'] },
				{ content: 'The billing cron job generates invoices every night at 02:00.', tags: ['billing'], force: true },
			]);
			await engine(app.page, 'get', { memory_id: a }, { actor: 'test-agent' });
			await app.page.goto(`${app.server.url}/#/memory/${encodeURIComponent(a)}`);
			await app.page.getByRole('heading', { name: 'Related memories' }).waitFor();
			await app.page.locator('.related li').first().waitFor();
			expect(await app.page.locator('.related li').first().innerText()).toMatch(/0\.\d\d/);
			await app.page.locator('.history li', { hasText: 'test-agent' }).first().waitFor();
		});
	});

	describe('bulk actions', () => {
		it('tags and deletes the selected memories, and Undo brings them back', async () => {
			const ids = await seed(app.page, SAMPLE.slice(0, 3));
			await app.page.reload();
			await app.page.getByRole('link', { name: /Deploys happen on Tuesdays/ }).waitFor();
			for (const box of await app.page.getByRole('checkbox', { name: /^Select memory/ }).all()) await box.check();
			await app.page.getByLabel('Tags for the selected memories').fill('reviewed');
			await app.page.getByRole('button', { name: 'Add tags' }).click();
			await app.page.getByText(/Added #reviewed to 3 memories/).waitFor();
			for (const id of ids) expect((await getMemory(id)).tags).toContain('reviewed');
			await app.page.getByRole('toolbar', { name: 'Bulk actions' }).getByRole('button', { name: 'Delete' }).click();
			await app.page.getByText('Deleted 3 memories').waitFor();
			expect((await engine<{ total_memories: number }>(app.page, 'stats', {})).total_memories).toBe(0);
			await app.page.getByRole('button', { name: 'Undo' }).click();
			await app.page.getByText('Restored 3 memories').waitFor();
			expect((await engine<{ total_memories: number }>(app.page, 'stats', {})).total_memories).toBe(3);
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
			const [id] = await seed(app.page, [{ content: payload }]);
			const outside: string[] = [];
			app.page.on('request', (r) => {
				if (!r.url().startsWith(app.server.url)) outside.push(r.url());
			});
			await app.page.goto(`${app.server.url}/#/memory/${encodeURIComponent(id)}`);
			const content = app.page.getByTestId('memory-content');
			await content.locator('h1 strong').waitFor();
			await app.page.waitForTimeout(300);
			expect(await app.page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
			expect(await content.locator('[onerror], [onload], script, iframe').count()).toBe(0);
			expect(await content.locator('a[href^="javascript:"]').count()).toBe(0);
			expect(await content.locator('img[src^="https:"]').count()).toBe(0);
			expect(await content.getByRole('link', { name: '🖼 tracker' }).getAttribute('href')).toBe('https://tracker.example/pixel.png');
			expect(outside).toEqual([]);
		});

		it('scrolls a wide table sideways inside the content on a phone, one word per cell line, never split into letters', async () => {
			const cols = Array.from({ length: 30 }, (_, i) => `column${i}`);
			const table = [
				`| ${cols.join(' | ')} |`,
				`|${'---|'.repeat(30)}`,
				...Array.from({ length: 20 }, (_, r) => `| ${cols.map((_, c) => `r${r}c${c}`).join(' | ')} |`),
			].join('\n');
			const rtl = 'مرحبا بالعالم، هذا نص من اليمين إلى اليسار';
			const [id, rtlId] = await seed(app.page, [{ content: table }, { content: rtl }]);
			const viewport = app.page.viewportSize();
			await app.page.setViewportSize({ width: 390, height: 844 });
			try {
				await app.page.goto(`${app.server.url}/#/memory/${encodeURIComponent(id)}`);
				const content = app.page.getByTestId('memory-content');
				await content.locator('table').waitFor();
				const box = await content.evaluate((md) => {
					const t = md.querySelector('table') as HTMLElement;
					const th = md.querySelector('th') as HTMLElement;
					return {
						mdRight: md.getBoundingClientRect().right,
						tableRight: t.getBoundingClientRect().right,
						scrolls: t.scrollWidth > t.clientWidth && getComputedStyle(t).overflowX === 'auto',
						thLines: th.getBoundingClientRect().height / parseFloat(getComputedStyle(th).lineHeight),
						pageWide: document.documentElement.scrollWidth > innerWidth,
					};
				});
				expect(box.tableRight).toBeLessThanOrEqual(box.mdRight + 0.5);
				expect(box.scrolls).toBe(true);
				expect(box.thLines).toBeLessThan(2.5);
				expect(box.pageWide).toBe(false);
				// Right-to-left text reads from the right: the content and the title take their direction from the text.
				await app.page.goto(`${app.server.url}/#/memory/${encodeURIComponent(rtlId)}`);
				await content.getByText(rtl).waitFor();
				expect(await content.locator('p').evaluate((p) => getComputedStyle(p).direction)).toBe('rtl');
				expect(await app.page.locator('h1').evaluate((h) => getComputedStyle(h).direction)).toBe('rtl');
			} finally {
				if (viewport) await app.page.setViewportSize(viewport);
			}
		});
	});

	describe('keyboard', () => {
		it('/ focuses search, arrows move through rows, Enter opens, Esc goes back', async () => {
			await seed(app.page, SAMPLE.slice(0, 3));
			await app.page.reload();
			await app.page.getByRole('link', { name: /Deploys happen on Tuesdays/ }).waitFor();
			await app.page.locator('body').click({ position: { x: 5, y: 400 } });
			await app.page.keyboard.press('/');
			await expect.poll(() => app.page.evaluate(() => document.activeElement?.id)).toBe('search-input');
			await app.page.keyboard.press('ArrowDown');
			const first = await app.page.evaluate(() => document.activeElement?.textContent);
			await app.page.keyboard.press('ArrowDown');
			const second = await app.page.evaluate(() => document.activeElement?.textContent);
			expect(first).not.toEqual(second);
			await app.page.keyboard.press('Enter');
			await app.page.waitForURL(/#\/memory\//);
			await app.page.getByRole('button', { name: 'Edit' }).waitFor();
			await app.page.keyboard.press('Escape');
			await app.page.waitForURL((u) => u.hash === '#/' || u.hash === '');
		});
	});
});

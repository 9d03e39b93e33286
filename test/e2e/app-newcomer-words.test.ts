/**
 * What a newcomer meets, checked in the built app: a Claude export whose attached file and long
 * paste are kept (they were dropped, the paste called "not something anyone said"), a ChatGPT
 * export whose left-out branches are counted on screen, a JSONL error naming the file's own line,
 * an empty filtered list that says which filters emptied it, and a sort that says what it does
 * when nothing is searched.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { engine, seed, useApp } from './app-support';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'imports');
const dir = mkdtempSync(join(tmpdir(), 'engram-newcomer-'));

describe('import: every piece of text kept or named', () => {
	const app = useApp({ fresh: '/#/import' });

	async function importFile(path: string): Promise<string> {
		await app.page.getByLabel('Choose a file to import').setInputFiles(path);
		await app.page.getByText(/looks like/).waitFor();
		await app.page.getByRole('button', { name: 'Import', exact: true }).click();
		const result = app.page.getByTestId('import-result');
		await result.waitFor();
		await result.locator('details').evaluateAll((ds) => ds.forEach((d) => ((d as HTMLDetailsElement).open = true)));
		return result.innerText();
	}

	async function contents(): Promise<string[]> {
		const out = await engine<{ data: string }>(app.page, 'exportMemories', { format: 'json' });
		return (JSON.parse(out.data) as { memories: { content: string }[] }).memories.map((m) => m.content);
	}

	it("keeps a Claude message's attached file and pasted text, and names the image it cannot hold", async () => {
		await app.page.getByLabel('Choose a file to import').setInputFiles(join(FIXTURES, 'claude-attachments.json'));
		await app.page.getByText('looks like a Claude chat export (conversations.json): 1 conversation').waitFor();
		const text = await importFile(join(FIXTURES, 'claude-attachments.json'));
		expect(text).toContain('5 imported');
		expect(text).toContain('What was not imported, and why');
		expect(text).toContain('1 attached image or file whose content the export does not hold (only the name)');
		expect(text).not.toContain('not something anyone said');
		expect(await contents()).toEqual(
			expect.arrayContaining(['500 g flour\n350 g water\n10 g salt\n3 g yeast', 'PASTED: oven is 230 °C fan, 35 minutes', '# Two loaves\n1 kg flour']),
		);
	});

	it("counts a ChatGPT conversation's other branches and keeps its custom instructions", async () => {
		const text = await importFile(join(FIXTURES, 'chatgpt-branches.json'));
		expect(text).toContain('8 imported');
		expect(text).toMatch(/3 messages on other branches: earlier versions of edited messages and regenerated answers/);
		expect(await contents()).toEqual(expect.arrayContaining(['I am a nurse in Porto.', 'Answer in British English.']));
	});

	it("imports ChatGPT's export as it arrives, a .zip with chat.html and images", async () => {
		const zip = join(dir, 'chatgpt-export.zip');
		writeFileSync(
			zip,
			zipSync({
				'chat.html': strToU8('<html><body>chats</body></html>'),
				'file-abc.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
				'conversations.json': strToU8(readFileSync(join(FIXTURES, 'chatgpt-branches.json'), 'utf8')),
			}),
		);
		await app.page.getByLabel('Choose a file to import').setInputFiles(zip);
		await app.page.getByText('looks like a ChatGPT chat export (conversations.json): 1 conversation').waitFor();
		await app.page.getByRole('button', { name: 'Import', exact: true }).click();
		const result = app.page.getByTestId('import-result');
		await result.waitFor();
		expect(await result.innerText()).toContain('8 imported');
	});

	it('undoes an import: what it added goes, with its links, and a memory it replaced comes back as it was', async () => {
		await engine(app.page, 'store', { memories: [{ id: 'claude-m1', content: 'My own note, here before the import.', tags: ['mine'] }] });
		await app.page.getByLabel('If a memory is already here').selectOption({ label: "Replace it with the file's" });
		const text = await importFile(join(FIXTURES, 'claude-attachments.json'));
		expect(text).toContain('4 imported');
		expect(text).toContain('1 replaced');
		expect(await contents()).toHaveLength(5);
		expect(await app.page.locator('.undo small').innerText()).toBe(
			'removes the 4 memories it added, and puts back the 1 memory it replaced, as it was before the import',
		);
		await app.page.screenshot({ path: join(tmpdir(), 'engram-undo-import.png') });
		await app.page.getByRole('button', { name: 'Undo this import' }).click();
		await app.page.getByTestId('import-undone').waitFor();
		expect(await app.page.getByTestId('import-undone').innerText()).toBe('Import undone: 4 memories removed, 1 memory put back as it was.');
		const out = JSON.parse((await engine<{ data: string }>(app.page, 'exportMemories', { format: 'json' })).data) as {
			memories: { id: string; content: string; tags: string[] }[];
			associations: unknown[];
		};
		expect(out.memories.map((m) => [m.id, m.content, m.tags])).toEqual([['claude-m1', 'My own note, here before the import.', ['mine']]]);
		expect(out.associations).toEqual([]);
	});

	it('leaves on Undo a memory an agent changed after the import, and says so', async () => {
		const text = await importFile(join(FIXTURES, 'claude-attachments.json'));
		expect(text).toContain('5 imported');
		const before = JSON.parse((await engine<{ data: string }>(app.page, 'exportMemories', { format: 'json' })).data) as { memories: { id: string }[] };
		const edited = before.memories[0].id;
		// An agent's edit after the import: the clock moves past the import's end first.
		await app.page.evaluate(() => new Promise((r) => setTimeout(r, 5)));
		await engine(app.page, 'update', { memory_id: edited, content: 'An agent rewrote this after the import.' });
		await app.page.getByRole('button', { name: 'Undo this import' }).click();
		await app.page.getByTestId('import-undone').waitFor();
		expect(await app.page.getByTestId('import-undone').innerText()).toBe(
			'Import undone: 4 memories removed. 1 memory changed since the import was left as it is.',
		);
		const after = JSON.parse((await engine<{ data: string }>(app.page, 'exportMemories', { format: 'json' })).data) as {
			memories: { id: string; content: string }[];
		};
		expect(after.memories.map((m) => [m.id, m.content])).toEqual([[edited, 'An agent rewrote this after the import.']]);
	});

	it('undoes a server-memory graph: its new observations go, and its relation between entities already here', async () => {
		const line = (o: object) => JSON.stringify(o);
		const entity = (name: string, observations: string[]) => line({ type: 'entity', name, entityType: 'person', observations });
		writeFileSync(join(dir, 'first.jsonl'), [entity('Ana', ['Fixes boilers']), entity('Ben', ['Owns the flat'])].join('\n'));
		writeFileSync(
			join(dir, 'second.jsonl'),
			[
				entity('Ana', ['Fixes boilers', 'Speaks Portuguese']),
				entity('Ben', ['Owns the flat']),
				line({ type: 'relation', from: 'Ben', to: 'Ana', relationType: 'hired' }),
			].join('\n'),
		);
		expect(await importFile(join(dir, 'first.jsonl'))).toContain('2 imported');
		const before = (await engine<{ data: string }>(app.page, 'exportMemories', { format: 'json' })).data;
		const text = await importFile(join(dir, 'second.jsonl'));
		expect(text).toContain('1 imported, 2 already there, 1 link');
		expect(await app.page.locator('.undo small').innerText()).toBe('removes the 1 memory it added, and the links it made between memories already here');
		await app.page.getByRole('button', { name: 'Undo this import' }).click();
		await app.page.getByTestId('import-undone').waitFor();
		expect(await app.page.getByTestId('import-undone').innerText()).toBe(
			'Import undone: 1 memory removed, 1 link between memories already here taken back.',
		);
		const after = (await engine<{ data: string }>(app.page, 'exportMemories', { format: 'json' })).data;
		const body = (json: string) => ({ ...(JSON.parse(json) as object), exported_at: undefined });
		expect(body(after)).toEqual(body(before));
	});

	it("says before the import what a file of records brings in, and that a ChatGPT export's user.json brings nothing", async () => {
		const records = join(dir, 'records.json');
		writeFileSync(records, JSON.stringify([{ content: 'Tea, not coffee.' }, { content: 'Standing desk.' }, { text: 'no content' }]));
		await app.page.getByLabel('Choose a file to import').setInputFiles(records);
		expect(await app.page.getByTestId('import-preview').innerText()).toBe('2 memories; 1 record will be refused (the result says why)');
		const user = join(dir, 'user.json');
		writeFileSync(user, JSON.stringify({ id: 'user-1', email: 'a@example.com', chatgpt_plus_user: false }));
		await app.page.getByLabel('Choose a file to import').setInputFiles(user);
		expect(await app.page.getByTestId('import-nothing').innerText()).toBe(
			'Nothing to import: this JSON is not a list of records (its top level has "id", "email", "chatgpt_plus_user"). Engram reads [{"content": "…"}] records or {"memories": [...]}. user.json is part of a ChatGPT export: its chats are in conversations.json beside it (or choose the export\'s .zip).',
		);
		expect(await app.page.getByTestId('import-preview').count()).toBe(0);
	});

	it('warns when the format chosen by hand is not the one the file reads as', async () => {
		const path = join(dir, 'records.json');
		writeFileSync(path, JSON.stringify([{ content: 'Deploys happen on Tuesdays.' }]));
		await app.page.getByLabel('Choose a file to import').setInputFiles(path);
		await app.page.getByText('looks like JSON records (Engram or plain)').waitFor();
		const format = app.page.locator('#import-title').locator('xpath=..').locator('label.field', { hasText: 'Format' }).locator('select');
		const warning = app.page.getByTestId('format-mismatch');
		await format.selectOption({ label: 'Markdown' });
		await warning.waitFor();
		expect(await warning.innerText()).toBe(
			'This file looks like JSON records (Engram or plain). Read as Markdown, it may come in as one memory holding its text, or not at all: choose “Detect automatically” unless you are sure.',
		);
		await format.selectOption({ label: 'JSON records' });
		await warning.waitFor({ state: 'detached' });
		await format.selectOption({ label: 'Detect automatically' });
		expect(await warning.count()).toBe(0);
	});

	it('names the JSONL line and column of a syntax error, not the parser’s "line 1"', async () => {
		const path = join(dir, 'broken.jsonl');
		writeFileSync(path, '{"content":"first"}\n{"content":"second",}\n{"content":"third"}\n');
		const text = await importFile(path);
		expect(text).toContain('line 2: not valid JSON: expected double-quoted property name (column 21)');
		expect(text).not.toMatch(/line 1 column/);
	});
});

describe('the list says what its filters do', () => {
	const app = useApp({ fresh: '/' });

	it('an empty filtered list names the filters that emptied it, and Clear filters brings every memory back', async () => {
		await seed(app.page, [
			{ content: 'C++ templates are compiled per translation unit.', tags: ['c++'], type: 'Insight' },
			{ content: 'Café opens at 8 on Sundays.', tags: ['Food & Drink'], type: 'Context' },
		]);
		await app.page.getByRole('button', { name: /Filters/ }).click();
		const tags = app.page.getByLabel('Filter by tags');
		for (const t of ['c++', 'Food & Drink']) {
			await tags.fill(t);
			await tags.press('Enter');
		}
		await app.page.getByText('2 memories').waitFor();
		await app.page.getByLabel('all').check();
		const why = app.page.getByTestId('filters-set');
		await why.waitFor();
		expect(await why.innerText()).toBe('Showing only memories tagged with all of #c++, #Food & Drink.');
		await app.page.screenshot({ path: join(tmpdir(), 'engram-empty-filters.png') });
		await app.page.getByRole('button', { name: 'Clear filters' }).click();
		await app.page.getByText('2 memories').waitFor();
	});

	it('keeps the search and filters in the address: a reload and Back show the same list', async () => {
		await seed(app.page, [
			{ content: 'C++ templates are compiled per translation unit.', tags: ['c++'], type: 'Insight' },
			{ content: 'C++ modules replace headers.', tags: ['c++'], type: 'Decision' },
			{ content: 'Café opens at 8 on Sundays.', tags: ['Food & Drink'], type: 'Context' },
		]);
		await app.page.getByRole('button', { name: /Filters/ }).click();
		const tags = app.page.getByLabel('Filter by tags');
		await tags.fill('c++');
		await tags.press('Enter');
		await app.page.getByRole('button', { name: 'Insight', exact: true }).click();
		await app.page.getByText('1 memory').waitFor();
		await app.page.waitForURL((u) => u.hash === '#/?tag=c%2B%2B&type=Insight');
		await app.page.reload();
		await app.page.getByText('1 memory').waitFor();
		expect(await app.page.getByRole('button', { name: 'Insight', exact: true }).getAttribute('aria-pressed')).toBe('true');
		await app.page.getByRole('link', { name: /C\+\+ templates/ }).click();
		await app.page.waitForURL(/#\/memory\//);
		await app.page.goBack();
		await app.page.getByText('1 memory').waitFor();
		await app.page.getByRole('link', { name: /C\+\+ templates/ }).waitFor();
		// Clear filters is there while memories are listed, and clears the address too.
		await app.page
			.getByRole('button', { name: 'Clear search' })
			.or(app.page.getByRole('button', { name: 'Clear filters' }))
			.first()
			.click();
		await app.page.getByText('3 memories').waitFor();
		await app.page.waitForURL((u) => u.hash === '#/');
	});

	it('says Best match lists newest first until words are searched, and names the order it lists in', async () => {
		await seed(app.page, [{ content: 'Deploys happen on Tuesdays.' }]);
		await app.page.getByRole('button', { name: /Filters/ }).click();
		const sort = app.page.getByLabel('Sort order');
		expect(await app.page.getByTestId('sort-hint').innerText()).toBe('newest first until you search');
		await app.page.screenshot({ path: join(tmpdir(), 'engram-sort-hint.png') });
		await sort.selectOption('time_asc');
		await app.page.getByRole('list', { name: 'Memories, oldest first' }).waitFor();
		await app.page.getByPlaceholder(/Search memories/).fill('deploys');
		await sort.selectOption('score');
		await app.page.getByTestId('match-count').waitFor();
		expect(await app.page.getByTestId('sort-hint').count()).toBe(0);
	});

	it('says what a scope is where the filter offers one', async () => {
		await seed(app.page, [{ content: 'Deploys happen on Tuesdays.' }]);
		await app.page.getByRole('button', { name: /Filters/ }).click();
		const hint = await app.page.getByLabel('Scope').evaluate((el) => el.closest('label')?.title);
		expect(hint).toMatch(/^A scope keeps a group of memories apart, such as a project or a person/);
	});
});

describe('a memory page and the graph in plain words', () => {
	const app = useApp({ fresh: '/#/' });

	it('says how often agents read a memory ("Not yet", "Once"), not "Accessed 0×"', async () => {
		const [id] = await seed(app.page, [{ content: 'The user prefers tea to coffee.' }]);
		await app.page.goto(`${app.server.url}/#/memory/${id}`);
		const read = app.page.getByTestId('read-count');
		expect(await read.innerText()).toBe('Not yet');
		expect(await app.page.locator('.facts').innerText()).not.toMatch(/Accessed|\d×/);
		await engine(app.page, 'get', { memory_id: id });
		await app.page.reload();
		await read.getByText(/^Once · /).waitFor();
		await engine(app.page, 'get', { memory_id: id });
		await app.page.reload();
		await read.getByText(/^2 times · last /).waitFor();
	});

	it('says why the graph is empty, and how memories get linked when none are', async () => {
		await app.page.goto(`${app.server.url}/#/graph`);
		const empty = app.page.getByTestId('graph-empty');
		expect(await empty.innerText()).toBe(
			'Nothing to draw yet: the graph shows your memories and the links between them. Add some from Memories, or import a file.',
		);
		await empty.getByRole('link', { name: 'import' }).click();
		await app.page.waitForURL(/#\/import$/);
		await seed(app.page, [{ content: 'Tomatoes need staking by June.' }]);
		await app.page.goto(`${app.server.url}/#/graph`);
		const none = app.page.getByTestId('graph-no-links');
		expect((await none.innerText()).replace(/\s+/g, ' ')).toBe(
			'This memory is not linked to another yet. Link one to another from its page (Link), or let an agent do it. Engram also links memories that are alike or stored one after another, in the same scope.',
		);
		await app.page.getByLabel('Similarity & sequence links').uncheck();
		await none.getByText(/Tick “Similarity & sequence links” to see the links Engram makes itself\.$/).waitFor();
		await app.page.goto(`${app.server.url}/#/graph?q=${encodeURIComponent('zebra crossings')}`);
		expect(await empty.innerText()).toBe('No memory matches “zebra crossings”, so there is nothing to draw around it. Show the latest memories');
	});
});

describe('a phone-sized window', () => {
	const app = useApp({ fresh: '/' });

	it('names every screen under its icon in the bottom bar, and the links keep their full names', async () => {
		await app.page.setViewportSize({ width: 375, height: 720 });
		const nav = app.page.getByRole('navigation', { name: 'Main' });
		const words = nav.locator('.nav-short');
		await words.first().waitFor();
		expect(await words.evaluateAll((els) => els.map((e) => (e.getBoundingClientRect().height > 0 ? e.textContent : '')))).toEqual([
			'Memories',
			'Graph',
			'Connect',
			'Import',
			'Settings',
			'Dark',
		]);
		await nav.getByRole('link', { name: /^Import & export/ }).click();
		await app.page.getByRole('heading', { name: 'Import & export' }).waitFor();
		// Nothing scrolls sideways.
		expect(await app.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
		await app.page.screenshot({ path: join(tmpdir(), 'engram-phone-nav.png') });
		await app.page.setViewportSize({ width: 1280, height: 800 });
	});

	it('shows the list under the open filters, a scroll away (it was squeezed to 1 px)', async () => {
		await seed(app.page, [{ content: 'Tomatoes need staking by June.', tags: ['garden'] }]);
		await app.page.setViewportSize({ width: 375, height: 720 });
		await app.page.reload();
		await app.page.getByText('1 memory').waitFor();
		await app.page.getByRole('button', { name: /Filters/ }).click();
		const row = app.page.getByRole('link', { name: /Tomatoes need staking/ });
		await row.scrollIntoViewIfNeeded();
		const box = await row.boundingBox();
		const list = await app.page.locator('.list').boundingBox();
		expect(list!.height).toBeGreaterThanOrEqual(320);
		// Seen whole, above the bottom bar.
		expect(box!.height).toBeGreaterThan(20);
		const bar = await app.page.getByRole('navigation', { name: 'Main' }).boundingBox();
		expect(box!.y + box!.height).toBeLessThanOrEqual(bar!.y);
		await app.page.screenshot({ path: join(tmpdir(), 'engram-phone-filters.png') });
		await app.page.setViewportSize({ width: 1280, height: 800 });
	});
});

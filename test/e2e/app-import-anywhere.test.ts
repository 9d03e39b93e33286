/**
 * Bringing memories in from what people already have, through the Import screen as a person does
 * it: hand-written JSON/JSONL records, foreign Markdown, a folder or zip of notes with front
 * matter and wiki links, mem0's export, a CSV with columns chosen on screen, an empty file, and a
 * file dropped anywhere on the screen. The outcome box says whether everything, part or nothing
 * was imported, and lists what was refused or left out and why.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { engine, useApp } from './app-support';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'imports');
const dir = mkdtempSync(join(tmpdir(), 'engram-import-'));
const app = useApp({ fresh: '/#/import' });

interface Exported {
	id: string;
	content: string;
	tags: string[];
	summary?: string;
	timestamp: string;
	updated_at: string;
	type: string;
	metadata: Record<string, unknown>;
}

async function stored(): Promise<{ memories: Exported[]; associations: { from: string; to: string; type: string }[] }> {
	const out = await engine<{ data: string }>(app.page, 'exportMemories', { format: 'json' });
	return JSON.parse(out.data) as { memories: Exported[]; associations: { from: string; to: string; type: string }[] };
}

function byContent(list: Exported[], start: string): Exported {
	const m = list.find((x) => x.content.startsWith(start));
	if (!m) throw new Error(`no memory starting ${JSON.stringify(start)} in ${JSON.stringify(list.map((x) => x.content))}`);
	return m;
}

async function chooseFile(path: string): Promise<void> {
	await app.page.getByLabel('Choose a file to import').setInputFiles(path);
}

async function runImport(): Promise<string> {
	await app.page.getByRole('button', { name: 'Import', exact: true }).click();
	const result = app.page.getByTestId('import-result');
	await result.waitFor();
	return result.innerText();
}

async function outcome(): Promise<string | null> {
	return app.page.getByTestId('import-result').getAttribute('data-outcome');
}

describe('import from anywhere', () => {
	it('imports hand-written JSONL and JSON records without a kind, detects them by content, and shows the shape', async () => {
		await expect(app.page.getByTestId('format-help').innerText()).resolves.toContain('{"content": "');
		await chooseFile(join(FIXTURES, 'plain.jsonl'));
		await app.page.getByText('looks like JSONL records').waitFor();
		const text = await runImport();
		expect(text).toContain('3 imported');
		expect(text).not.toMatch(/refused/);
		expect(await outcome()).toBe('success');
		const { memories } = await stored();
		expect(byContent(memories, 'Deploys happen').tags).toEqual(['ops']);
		expect(byContent(memories, 'Deploys happen').type).toBe('Habit');
		expect(byContent(memories, 'Billing moved').timestamp).toBe('2024-05-02T00:00:00.000Z');

		await chooseFile(join(FIXTURES, 'plain.json'));
		await app.page.getByText('looks like JSON records').waitFor();
		expect(await runImport()).toContain('2 imported');
		expect((await stored()).memories).toHaveLength(5);
	});

	it('imports foreign Markdown as one memory per bullet and paragraph, headings as tags, listing what was left out', async () => {
		await expect(app.page.getByTestId('format-help').innerText()).resolves.toMatch(/one memory per bullet and per paragraph/i);
		await chooseFile(join(FIXTURES, 'foreign.md'));
		const text = await runImport();
		expect(text).toContain('3 imported');
		expect(text).toMatch(/What was not imported, and why/);
		await app.page.getByText(/What was not imported/).click();
		await app.page.getByText(/line 6: "---": a horizontal rule/).waitFor();
		await app.page.getByText(/line 12: "## Empty section": a heading with nothing under it/).waitFor();
		const { memories } = await stored();
		expect(byContent(memories, 'Deploys happen on Tuesdays.').tags).toEqual(['Project notes']);
		expect(byContent(memories, 'Never deploy on Fridays.').tags).toEqual(['Project notes']);
		expect(byContent(memories, 'Billing moved to PostgreSQL').tags).toEqual(['Project notes', 'Billing']);
	});

	it('shows nothing imported as a warning, a partial import as partial, and a full one as success', async () => {
		const bad = join(dir, 'bad.jsonl');
		writeFileSync(bad, ['{"tags": ["x"]}', 'not json', '{"content": ""}'].join('\n'));
		await chooseFile(bad);
		let text = await runImport();
		expect(await outcome()).toBe('nothing');
		expect(text).toMatch(/^Nothing was imported/);
		expect(text).toContain('3 refused');

		const mixed = join(dir, 'mixed.jsonl');
		writeFileSync(mixed, ['{"content": "A good line"}', 'not json'].join('\n'));
		await chooseFile(mixed);
		text = await runImport();
		expect(await outcome()).toBe('partial');
		expect(text).toMatch(/^Partly imported/);

		const good = join(dir, 'good.jsonl');
		writeFileSync(good, '{"content": "Another good line"}\n');
		await chooseFile(good);
		text = await runImport();
		expect(await outcome()).toBe('success');
		expect(text).toContain('1 imported');
	});

	it('says the file is empty before guessing a format', async () => {
		for (const [name, body] of [
			['empty.json', ''],
			['blank.md', ' \n\t\n'],
		]) {
			const file = join(dir, name);
			writeFileSync(file, body);
			await chooseFile(file);
			await app.page.getByText('The file is empty: there is nothing to import.').waitFor();
			expect(await app.page.getByTestId('drop-zone').innerText()).not.toContain('looks like');
			expect(await app.page.getByRole('button', { name: 'Import', exact: true }).isDisabled()).toBe(true);
		}
	});

	async function checkNotes(text: string): Promise<void> {
		expect(text).toContain('3 imported');
		expect(text).toContain('3 links');
		expect(text).toContain('1 refused');
		await app.page.getByText(/record refused/).click();
		await app.page.getByText(/Broken\.md: front matter/).waitFor();
		await app.page.getByText(/What was not imported/).click();
		await app.page
			.getByText(/readme\.txt: not a Markdown note/)
			.first()
			.waitFor();
		await app.page.getByText(/\[\[Payments API\]\]: no note of that name/).waitFor();
		const { memories, associations } = await stored();
		const billing = byContent(memories, 'We moved billing');
		expect(billing.summary).toBe('Billing on PostgreSQL');
		expect(billing.tags).toEqual(['billing', 'database']);
		expect(billing.timestamp).toBe('2024-03-01T00:00:00.000Z');
		expect(billing.updated_at).toBe('2024-03-05T10:00:00.000Z');
		const alice = byContent(memories, '# Alice Chen');
		expect(alice.summary).toBe('Alice Chen');
		expect(alice.tags).toEqual(['people', 'payments']);
		expect(alice.timestamp).toBe('2024-02-10T00:00:00.000Z');
		const plain = byContent(memories, 'A note with no front matter');
		const links = associations
			.filter((a) => a.type === 'RELATES_TO')
			.map((a) => `${a.from}>${a.to}`)
			.sort();
		expect(links).toEqual([`${billing.id}>${alice.id}`, `${alice.id}>${billing.id}`, `${plain.id}>${billing.id}`].sort());
	}

	it('imports a folder of Markdown notes with front matter, wiki links as associations, unresolved links listed', async () => {
		await app.page.getByLabel('Choose a folder of notes').setInputFiles(join(FIXTURES, 'notes'));
		await app.page
			.getByText(/Markdown notes/)
			.first()
			.waitFor();
		await checkNotes(await runImport());
	});

	it('imports a zip of Markdown notes the same way', async () => {
		const files: Record<string, Uint8Array> = {};
		const walk = (d: string) => {
			for (const name of readdirSync(d)) {
				const p = join(d, name);
				if (statSync(p).isDirectory()) walk(p);
				else files[`vault/${relative(join(FIXTURES, 'notes'), p)}`] = readFileSync(p);
			}
		};
		walk(join(FIXTURES, 'notes'));
		const zip = join(dir, 'vault.zip');
		writeFileSync(zip, zipSync(files));
		await chooseFile(zip);
		await checkNotes(await runImport());
	});

	it("imports mem0's exported memories JSON, refusing a record without text by its position", async () => {
		await chooseFile(join(FIXTURES, 'mem0.json'));
		await app.page.getByText(/looks like a mem0 export: \d+ memories/).waitFor();
		const text = await runImport();
		expect(text).toContain('2 imported');
		expect(text).toContain('1 refused');
		expect(await outcome()).toBe('partial');
		await app.page.getByText(/record refused/).click();
		await app.page.getByText(/results\[2\]: memory: /).waitFor();
		const { memories } = await stored();
		const food = byContent(memories, 'Prefers vegetarian');
		expect(food.tags).toEqual(['food', 'health']);
		expect(food.timestamp).toBe('2024-07-20T08:23:45.678Z');
		expect(food.metadata).toMatchObject({ source: 'chat', mem0: { id: '6b2f3c1e-8d7a-4c1b-9f0e-2a3b4c5d6e7f', user_id: 'alex' } });
		expect(byContent(memories, 'Is planning a trip').metadata).toMatchObject({ mem0: { agent_id: 'travel-agent' } });
	});

	it("imports ChatGPT's conversations.json as linked turns, lists what is not a message, and adds nothing the second time", async () => {
		const file = join(FIXTURES, 'chatgpt-conversations.json');
		await chooseFile(file);
		await app.page.getByText('looks like a ChatGPT chat export (conversations.json): 2 conversations').waitFor();
		const text = await runImport();
		expect(text).toContain('6 imported');
		expect(text).toContain('4 links');
		expect(await outcome()).toBe('success');
		await app.page.getByText(/2 system, tool, hidden or empty messages/).waitFor({ state: 'attached' });
		const { memories, associations } = await stored();
		const ask = byContent(memories, 'I want to visit Lisbon');
		expect(ask).toMatchObject({ id: 'chatgpt-u1', tags: ['chatgpt'], timestamp: '2024-05-01T10:00:01.500Z' });
		expect(ask.metadata).toMatchObject({ speaker: 'user', conversation_id: 'c-lisbon', chatgpt: { conversation: 'Lisbon trip with Ana' } });
		expect(associations.filter((a) => a.type === 'PRECEDED_BY')).toHaveLength(4);
		await chooseFile(file);
		expect(await runImport()).toContain('6 already there');
		expect((await stored()).memories).toHaveLength(6);
	});

	it('imports a CSV with the columns chosen on screen after a preview, refusing bad rows by line', async () => {
		await chooseFile(join(FIXTURES, 'people.csv'));
		const preview = app.page.getByTestId('csv-preview');
		await preview.waitFor();
		expect(await preview.innerText()).toContain('Alice Chen owns the "payments" API');
		// Guessed from the header; the person picks the others.
		expect(await app.page.getByLabel('Content column').inputValue()).toBe('note');
		await app.page.getByLabel('Tags column').selectOption('labels');
		await app.page.getByLabel('Date column').selectOption('when');
		const text = await runImport();
		expect(text).toContain('2 imported');
		expect(text).toContain('2 refused');
		await app.page.getByText(/records refused/).click();
		await app.page.getByText(/line 5: when: /).waitFor();
		await app.page.getByText(/line 6: note: /).waitFor();
		const { memories } = await stored();
		const alice = byContent(memories, 'Alice Chen owns');
		expect(alice.tags).toEqual(['people', 'billing']);
		expect(alice.timestamp).toBe('2024-05-01T00:00:00.000Z');
		expect(alice.metadata).toEqual({ csv: { source: 'wiki' } });
		expect(byContent(memories, 'Deploy checklist:\nrun migrations').tags).toEqual(['ops', 'deploy']);
	});

	it('reads the dates spreadsheets write; a date that reads two ways is asked about once, for the whole column', async () => {
		// A European export: semicolons, day-first dates with dots, and a slashed date only day first can read.
		const eu = join(dir, 'europe.csv');
		writeFileSync(
			eu,
			'\ufeffNotiz;Datum\r\n"Porto: drove down, stayed 3 nights";07.05.2023\r\n"Dentist, lower left";25/06/2023 14:30\r\n"Ski week";Jan 9, 2024\r\n',
		);
		await chooseFile(eu);
		await app.page.getByTestId('csv-preview').waitFor();
		await app.page.getByLabel('Content column').selectOption('Notiz');
		await app.page.getByLabel('Date column').selectOption('Datum');
		// The file shows its order (25/06): the question is asked, already answered.
		expect(await app.page.getByTestId('csv-date-order').inputValue()).toBe('dmy');
		expect(await runImport()).toContain('3 imported');
		let { memories } = await stored();
		expect(byContent(memories, 'Porto').timestamp).toBe('2023-05-07T00:00:00.000Z');
		expect(byContent(memories, 'Ski week').timestamp).toBe('2024-01-09T00:00:00.000Z');
		expect(byContent(memories, 'Dentist, lower left').timestamp.slice(0, 10)).toBe('2023-06-25');
		// A US-style file whose dates read both ways: the person says day first, and every row follows.
		const us = join(dir, 'either.csv');
		writeFileSync(us, 'title,text,date\nJuly,Book club met,05/07/2023\n,Book club again,01/02/2023\n');
		await chooseFile(us);
		await app.page.getByTestId('csv-date-order').selectOption('dmy');
		expect(await runImport()).toContain('2 imported');
		({ memories } = await stored());
		expect(byContent(memories, 'Book club met').timestamp).toBe('2023-07-05T00:00:00.000Z');
		expect(byContent(memories, 'Book club again').timestamp).toBe('2023-02-01T00:00:00.000Z');
		// The title column was guessed and became the summary.
		expect(byContent(memories, 'Book club met').summary).toBe('July');
		expect(byContent(memories, 'Book club met').metadata).toEqual({});
	});

	it('takes a file dropped anywhere on the Import screen, highlighting the drop zone while dragging', async () => {
		const drag = (type: string) =>
			app.page.evaluate(
				({ type, text }) => {
					const w = window as unknown as { __dt?: DataTransfer };
					if (!w.__dt) {
						w.__dt = new DataTransfer();
						w.__dt.items.add(new File([text], 'dropped.jsonl', { type: 'application/x-ndjson' }));
					}
					document.querySelector('h1')!.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: w.__dt }));
				},
				{ type, text: '{"content": "Dropped on the heading"}\n' },
			);
		await app.page.getByRole('heading', { name: 'Import & export' }).waitFor();
		await drag('dragenter');
		await drag('dragover');
		await app.page.getByTestId('drop-overlay').waitFor();
		await drag('drop');
		await app.page.getByTestId('drop-overlay').waitFor({ state: 'hidden' });
		await app.page.getByText('dropped.jsonl').waitFor();
		expect(await runImport()).toContain('1 imported');
		expect((await stored()).memories.map((m) => m.content)).toEqual(['Dropped on the heading']);
	});

	it('shows the format help and a partial import as a warning (screenshot)', async () => {
		await app.page.setViewportSize({ width: 1280, height: 1650 });
		await chooseFile(join(FIXTURES, 'people.csv'));
		await app.page.getByTestId('csv-preview').waitFor();
		await runImport();
		expect(await outcome()).toBe('partial');
		await app.page.getByText(/records refused/).click();
		await app.page.screenshot({ path: join(import.meta.dirname, '..', '..', 'docs', 'screenshots', 'import-partial.png'), fullPage: true });
	});
});

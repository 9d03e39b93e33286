/**
 * What a newcomer ran into in the app, each checked in a real Chromium: a Latin-1 file imported
 * with "�" in place of its accented letters, a binary file renamed .json imported as a memory of
 * garbage, a 2,000-character query pushing Clear search off the screen, and a date range typed end
 * first answered with "not a time I can read".
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { engine, seed, useApp } from './app-support';

const app = useApp({ fresh: '/#/import' });
const dir = mkdtempSync(join(tmpdir(), 'engram-newcomer-'));

async function chooseFile(name: string, bytes: Uint8Array | string): Promise<void> {
	const path = join(dir, name);
	writeFileSync(path, bytes);
	await app.page.getByLabel('Choose a file to import').setInputFiles(path);
}

const contents = async () =>
	(JSON.parse((await engine<{ data: string }>(app.page, 'exportMemories', { format: 'json' })).data) as { memories: { content: string }[] }).memories.map(
		(m) => m.content,
	);

describe('a newcomer imports files that are not UTF-8 text', () => {
	it('refuses a Latin-1 file, naming the line and the byte, and imports nothing (no letter turned into �)', async () => {
		const latin1 = Uint8Array.from('- Café crème at the résumé meeting\n- naïve\n', (c) => c.charCodeAt(0));
		await chooseFile('latin1.md', latin1);
		const alert = app.page.getByRole('alert');
		await alert.waitFor();
		expect(await alert.innerText()).toMatch(
			/^latin1\.md: line 1 is not UTF-8 text \(byte 0xE9 at position 6\)\. Nothing was imported.*save the file as UTF-8/,
		);
		expect(await app.page.getByRole('button', { name: 'Import', exact: true }).isDisabled()).toBe(true);
		expect(await contents()).toEqual([]);
	});

	it('refuses a binary file renamed .json instead of importing it as a memory', async () => {
		const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 1, 2, 3]);
		await chooseFile('photo.json', png);
		const alert = app.page.getByRole('alert');
		await alert.waitFor();
		expect(await alert.innerText()).toMatch(/^photo\.json: this is not a text file/);
		expect(await app.page.getByRole('button', { name: 'Import', exact: true }).isDisabled()).toBe(true);
	});

	it('imports a UTF-8 file with a byte order mark and a UTF-16 one exactly, after a refused file', async () => {
		await chooseFile('bad.md', new Uint8Array([0x2d, 0x20, 0xe9, 0x0a]));
		await app.page.getByRole('alert').waitFor();
		const text = 'Crème brûlée 🍮 at the offsite';
		const utf16 = new Uint8Array(2 + text.length * 2);
		utf16.set([0xff, 0xfe]);
		for (let i = 0; i < text.length; i++) [utf16[2 + 2 * i], utf16[3 + 2 * i]] = [text.charCodeAt(i) & 0xff, text.charCodeAt(i) >> 8];
		await chooseFile('excel.md', utf16);
		await app.page.getByText('looks like Markdown').waitFor();
		// The old refusal is gone once a readable file is chosen.
		expect(await app.page.getByRole('alert').count()).toBe(0);
		await app.page.getByRole('button', { name: 'Import', exact: true }).click();
		await app.page.getByTestId('import-result').waitFor();
		expect(await contents()).toEqual([text]);
		await chooseFile('bom.md', new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('Café au lait, naïve façade')]));
		await app.page.getByText('looks like Markdown').waitFor();
		await app.page.getByRole('button', { name: 'Import', exact: true }).click();
		// The first import's "1 imported" may still be on screen: wait for the second file's memory itself.
		await expect.poll(async () => (await contents()).sort(), { timeout: 30_000 }).toEqual(['Café au lait, naïve façade', text]);
	});
});

describe('a newcomer imports a JSONL file with bad lines among good ones', () => {
	it('imports the good records and lists every refused line in file order, naming field and rule', async () => {
		const lines = [
			'{"content":"ok 1"}',
			'{"content":"trunc',
			'{"content": 42}',
			'{"text":"no content field"}',
			'[1,2]',
			'{"content":"ok 2","type":"decision"}',
			'{"content":"","tags":[]}',
			'{"content":"ok 3","timestamp":"yesterday"}',
		];
		await chooseFile('bad-lines.jsonl', lines.join('\r\n') + '\r\n');
		await app.page.getByText('looks like JSONL').waitFor();
		// The conflict choice in words a newcomer knows (it was "When an id exists").
		expect(await app.page.getByRole('combobox', { name: 'If a memory is already here' }).inputValue()).toBe('skip');
		await app.page.getByRole('button', { name: 'Import', exact: true }).click();
		const result = app.page.getByTestId('import-result');
		await result.waitFor();
		expect(await result.getAttribute('data-outcome')).toBe('partial');
		const refused = await result.locator('li').allTextContents();
		expect(refused.map((t) => Number(/^line (\d+):/.exec(t)?.[1]))).toEqual([2, 3, 4, 5, 7, 8]);
		expect(refused[1]).toBe('line 3: memory.content: must be a string (got number)');
		expect(refused[5]).toMatch(/^line 8: memory\.timestamp: must be an ISO 8601 date/);
		expect((await contents()).sort()).toEqual(['ok 1', 'ok 2']);
	});
});

describe('a newcomer imports the same file again', () => {
	const importChosen = async (name: string, data: string, scope = '') => {
		await chooseFile(name, data);
		await app.page.getByText(name, { exact: true }).waitFor();
		await app.page.getByRole('textbox', { name: 'Into scope' }).fill(scope);
		await app.page.getByRole('button', { name: 'Import', exact: true }).click();
		const result = app.page.getByTestId('import-result');
		await result.waitFor();
		const text = (await result.locator('strong').innerText()).trim();
		await app.page.getByRole('button', { name: 'Import', exact: true }).waitFor();
		return text;
	};

	it('finds plain records, mem0 memories and CSV rows already there instead of storing them twice', async () => {
		const jsonl = [
			'{"content":"Deploys happen on Tuesdays","tags":["ops"]}',
			'{"content":"bad","importance":7}',
			'{"content":"Billing uses PostgreSQL"}',
		].join('\n');
		expect(await importChosen('plain.jsonl', jsonl)).toBe('Partly imported: 2 imported, 1 refused');
		// The refused line fixed, the file imported again: only that record is new.
		expect(await importChosen('plain-fixed.jsonl', jsonl.replace('"importance":7', '"importance":0.7'))).toBe('1 imported, 2 already there');
		const mem0 = JSON.stringify({ results: [{ id: 'm-1', memory: 'Likes green tea', user_id: 'u' }] });
		expect(await importChosen('mem0.json', mem0)).toBe('1 imported');
		expect(await importChosen('mem0-again.json', mem0)).toBe('0 imported, 1 already there');
		const csv = 'text,tags\r\n"Standup at 9:30, every day",team\r\n';
		expect(await importChosen('notes.csv', csv)).toBe('1 imported');
		expect(await importChosen('notes-again.csv', csv)).toBe('0 imported, 1 already there');
		expect((await contents()).sort()).toEqual([
			'Billing uses PostgreSQL',
			'Deploys happen on Tuesdays',
			'Likes green tea',
			'Standup at 9:30, every day',
			'bad',
		]);
		const md = '# Team\n\n- Retro every other Friday\n- Retro every other Friday\n\nA paragraph\nover two lines.\n\n---\n';
		expect(await importChosen('team.md', md)).toBe('3 imported');
		expect(await app.page.getByTestId('import-result').locator('li').allTextContents()).toEqual(['line 9: "---": a horizontal rule']);
		expect(await importChosen('team-again.md', md)).toBe('0 imported, 3 already there');
		// The same bullet twice under one heading is two memories (nothing the file says is folded away), once each after a re-import.
		expect((await contents()).filter((c) => c.startsWith('Retro') || c.startsWith('A paragraph'))).toEqual([
			'Retro every other Friday',
			'Retro every other Friday',
			'A paragraph\nover two lines.',
		]);
		const zip = zipSync({
			'vault/Billing.md': new TextEncoder().encode('---\ntags: [billing]\n---\nWe chose PostgreSQL. See [[Ops]].'),
			'vault/Ops.md': new TextEncoder().encode('Deploys on Tuesdays.'),
		});
		writeFileSync(join(dir, 'vault.zip'), zip);
		writeFileSync(join(dir, 'vault-again.zip'), zip);
		await app.page.getByLabel('Choose a file to import').setInputFiles(join(dir, 'vault.zip'));
		await app.page.getByText('Markdown notes: 2 of 2 files').waitFor();
		await app.page.getByRole('button', { name: 'Import', exact: true }).click();
		await app.page.getByTestId('import-result').getByText('2 imported, 1 link', { exact: true }).waitFor();
		await app.page.getByLabel('Choose a file to import').setInputFiles(join(dir, 'vault-again.zip'));
		await app.page.getByText('vault-again.zip').waitFor();
		await app.page.getByRole('button', { name: 'Import', exact: true }).click();
		await app.page
			.getByTestId('import-result')
			.getByText(/^0 imported, 2 already there/)
			.waitFor();
		expect((await contents()).filter((c) => /PostgreSQL\.|Tuesdays\./.test(c))).toHaveLength(2);
		// Into another scope, the same records are other memories.
		expect(await importChosen('mem0-work.json', mem0, 'work')).toBe('1 imported');
	});
});

describe('a newcomer searches and filters', () => {
	it('a 2,000-character query keeps Clear search on screen and the page from scrolling sideways', async () => {
		await seed(app.page, [{ content: 'We deploy on Tuesdays after the standup.' }]);
		await app.page.goto(`${app.server.url}/#/`);
		await app.page.getByPlaceholder('Search memories…').fill('x'.repeat(2000));
		const count = app.page.getByTestId('match-count');
		await count.waitFor();
		expect(await count.innerText()).toBe(`0 matches for “${'x'.repeat(79)}…”`);
		const clear = app.page.getByRole('button', { name: 'Clear search' });
		const box = await clear.boundingBox();
		const width = app.page.viewportSize()!.width;
		expect(box && box.x + box.width).toBeLessThanOrEqual(width);
		const status = app.page.getByTestId('search-status');
		expect(await status.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
		await clear.click();
		expect(await app.page.getByPlaceholder('Search memories…').inputValue()).toBe('');
	});

	it('a When range typed end first says so and offers it the right way round', async () => {
		await app.page.goto(`${app.server.url}/#/`);
		await app.page.getByRole('button', { name: /Filters/ }).click();
		await app.page.getByLabel('Time range').fill('from 2025-01-01 to 2024-01-01');
		const msg = app.page.locator('#time-window');
		await msg.waitFor();
		expect(await msg.innerText()).toBe(
			'“from 2025-01-01 to 2024-01-01” ends before it starts: 2024-01-01 is earlier than 2025-01-01. Try “from 2024-01-01 to 2025-01-01”.',
		);
		await app.page.getByLabel('Time range').fill('from 2024-01-01 to 2025-01-01');
		await app.page.getByTestId('time-window').waitFor();
	});
});

describe('a newcomer adds a memory with the keyboard', () => {
	it('the New memory dialog opens with the cursor in Content, and saves the text exactly', async () => {
		await app.page.goto(`${app.server.url}/#/`);
		await app.page.getByRole('button', { name: 'New memory' }).first().click();
		await app.page.locator('dialog[open]').waitFor();
		expect(await app.page.evaluate(() => document.activeElement?.id)).toBe('new-content');
		const content = '  Indented first line\n\n\tTabbed line   \n"quotes" & <b>html</b> 🍵  ';
		await app.page.keyboard.insertText(content);
		await app.page.getByRole('button', { name: 'Save memory' }).click();
		await app.page.locator('dialog[open]').waitFor({ state: 'detached' });
		expect(await contents()).toEqual([content]);
	});
});

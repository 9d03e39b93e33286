/**
 * Import and export through the app's screen: a JSON export downloaded from the page, everything
 * deleted with the typed confirmation in Settings, the file imported back by the file picker —
 * the memories, links and entities come back identical. Also the server-memory knowledge graph
 * and per-line errors.
 */
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { engine, openApp, seed, SAMPLE, type AppFixture } from './app-support';

let app: AppFixture;
let page: Page;
const dir = mkdtempSync(join(tmpdir(), 'engram-transfer-'));

beforeAll(async () => {
	app = await openApp();
	page = app.page;
});
afterAll(async () => {
	await app?.close();
});
beforeEach(async () => {
	await engine(page, 'wipe');
	// A fresh page: no toasts left over from the previous test.
	await page.reload();
});

/** Everything that must survive a round trip, in a comparable order. */
async function dump(): Promise<unknown> {
	const out = await engine<{ data: string }>(page, 'exportMemories', { format: 'json' });
	const doc = JSON.parse(out.data) as { memories: { seq: number }[]; associations: { from: string; to: string; type: string }[]; entities: { id: string }[] };
	const key = (a: { from: string; to: string; type: string }) => `${a.from}|${a.to}|${a.type}`;
	return {
		memories: doc.memories.sort((a, b) => a.seq - b.seq),
		associations: doc.associations.sort((a, b) => key(a).localeCompare(key(b))),
		entities: doc.entities.sort((a, b) => a.id.localeCompare(b.id)),
	};
}

async function wipeFromSettings(): Promise<void> {
	await page.goto(`${app.server.url}/#/settings`);
	await page.getByRole('button', { name: 'Delete everything…' }).click();
	const confirm = page.locator('dialog').getByRole('button', { name: 'Delete everything' });
	expect(await confirm.isDisabled()).toBe(true);
	await page.getByLabel(/Type delete everything to confirm/).fill('delete everything');
	await confirm.click();
	await page.getByText('Everything was deleted.').waitFor();
}

async function importFile(path: string): Promise<string> {
	await page.goto(`${app.server.url}/#/import`);
	await page.getByLabel('Choose a file to import').setInputFiles(path);
	await page.getByRole('button', { name: 'Import', exact: true }).click();
	const result = page.getByTestId('import-result');
	await result.waitFor();
	return result.innerText();
}

describe('import and export', () => {
	for (const format of ['json', 'jsonl'] as const) {
		it(`round-trips losslessly through a ${format.toUpperCase()} file: export, delete everything, import`, async () => {
			const ids = await seed(page, SAMPLE);
			await engine(page, 'associate', {
				memory1_id: ids[3],
				memory2_id: ids[1],
				type: 'DERIVED_FROM',
				strength: 0.8,
				transformation: 'after the migration',
			});
			await engine(page, 'get', { memory_id: ids[0] });
			const before = await dump();

			await page.goto(`${app.server.url}/#/import`);
			await page.getByRole('radio', { name: new RegExp(`^${format.toUpperCase()} —`) }).check();
			const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export', exact: true }).click()]);
			const file = join(dir, download.suggestedFilename());
			await download.saveAs(file);
			expect(file.endsWith(`.${format}`)).toBe(true);

			await wipeFromSettings();
			expect((await engine<{ total_memories: number }>(page, 'stats', {})).total_memories).toBe(0);

			const text = await importFile(file);
			expect(text).toContain(`${SAMPLE.length} imported`);
			expect(await dump()).toEqual(before);
		});
	}

	it('exports Markdown a person can read', async () => {
		await seed(page, SAMPLE.slice(0, 2));
		await page.goto(`${app.server.url}/#/import`);
		await page.getByRole('radio', { name: /^Markdown/ }).check();
		const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export', exact: true }).click()]);
		const file = join(dir, download.suggestedFilename());
		await download.saveAs(file);
		const md = readFileSync(file, 'utf8');
		expect(file.endsWith('.md')).toBe(true);
		expect(md).toContain('PostgreSQL');
		expect(md).toMatch(/^#/m);
	});

	it('imports a server-memory knowledge graph and reports bad lines with their numbers', async () => {
		const file = join(dir, 'memory.jsonl');
		writeFileSync(
			file,
			[
				JSON.stringify({
					type: 'entity',
					name: 'Alice',
					entityType: 'person',
					observations: ['Alice leads the payments team', 'Alice prefers async reviews'],
				}),
				JSON.stringify({ type: 'entity', name: 'Payments API', entityType: 'project', observations: ['The payments API is written in Go'] }),
				'{this is not json',
				JSON.stringify({ type: 'relation', from: 'Alice', to: 'Payments API', relationType: 'owns' }),
			].join('\n'),
		);
		const text = await importFile(file);
		expect(text).toMatch(/3 imported/);
		expect(text).toMatch(/1 refused/);
		await page.getByText(/record refused/).click();
		await page.getByText(/^line 3: /).waitFor();
		expect((await engine<{ total_memories: number }>(page, 'stats', {})).total_memories).toBe(3);
	});

	it("shows at once why nothing was imported from a JSON file that is not Engram's, saying what Engram reads", async () => {
		const file = join(dir, 'users.json');
		writeFileSync(file, JSON.stringify({ users: [{ name: 'Ann' }], version: 2 }));
		const text = await importFile(file);
		expect(text).toContain('Nothing was imported');
		// The reason is open, not behind a click.
		expect(text).toContain(
			'memories: must be an array; this file is not an Engram export (its top level has "users", "version"). Engram reads a list of records with a "content" field',
		);
		expect((await engine<{ total_memories: number }>(page, 'stats', {})).total_memories).toBe(0);
		// A partial import keeps its list closed: what came in is the news.
		const mixed = join(dir, 'mixed.jsonl');
		writeFileSync(mixed, '{"content": "good one"}\n{bad json}\n');
		expect(await importFile(mixed)).not.toContain('not valid JSON');
	});

	it('counts a one-row CSV as "1 row"', async () => {
		const file = join(dir, 'one.csv');
		writeFileSync(file, '\ufeffcontent,tags\r\nA single row,"a,b"\r\n');
		await page.goto(`${app.server.url}/#/import`);
		await page.getByLabel('Choose a file to import').setInputFiles(file);
		await page.getByTestId('drop-zone').getByText('CSV: 1 row, 2 columns').waitFor();
	});

	it('shows progress while importing and can be cancelled between chunks, leaving whole memories', async () => {
		const n = 4500;
		const lines = [JSON.stringify({ kind: 'header', format: 'engram', version: 1 })];
		for (let i = 0; i < n; i++)
			lines.push(JSON.stringify({ kind: 'memory', id: `bulk-${i}`, content: `Bulk imported note number ${i} about topic ${i % 37}` }));
		const file = join(dir, 'bulk.jsonl');
		writeFileSync(file, lines.join('\n'));
		await page.goto(`${app.server.url}/#/import`);
		await page.getByLabel('Choose a file to import').setInputFiles(file);
		await page.getByRole('button', { name: 'Import', exact: true }).click();
		const task = page.getByTestId('task').first();
		await task.getByRole('progressbar').waitFor();
		await task.getByRole('button', { name: 'Cancel' }).click();
		const result = page.getByTestId('import-result');
		await result.waitFor({ timeout: 120_000 });
		expect(await result.innerText()).toMatch(/^Cancelled: /);
		const total = (await engine<{ total_memories: number }>(page, 'stats', {})).total_memories;
		expect(total).toBeGreaterThan(0);
		expect(total).toBeLessThan(n);
		// Chunks are whole: the count is a multiple of the chunk size (2000).
		expect(total % 2000).toBe(0);
	});
});

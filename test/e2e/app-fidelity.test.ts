/**
 * What a person gives the app is kept or refused with a word, never lost or damaged: an edit
 * saved while an agent changed the same memory, a memory deleted while it was being edited, and
 * fields the form shows but the person did not touch (edge spaces, CRLF, an off-step importance).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { engine, seed, useApp } from './app-support';

const app = useApp({ fresh: '/#/' });

const getMemory = async (id: string) =>
	(await engine<{ memory: { content: string; tags: string[]; importance: number } }>(app.page, 'get', { memory_id: id, track_access: false })).memory;

describe('editing a memory someone else changes meanwhile', () => {
	it('does not overwrite an agent’s change: says so, keeps the draft, and saves it only when asked', async () => {
		const [id] = await seed(app.page, [{ content: 'Standup is at 9 every morning', tags: ['team'] }]);
		await app.page.goto(`${app.server.url}/#/memory/${encodeURIComponent(id)}`);
		await app.page.getByRole('button', { name: 'Edit' }).click();
		await app.page.locator('#edit-content').fill('Standup is at 10 every morning');
		// An agent (the relay, another tab) rewrites the same field while the form is open.
		await engine(app.page, 'update', { memory_id: id, content: 'Standup is at 9:30 every morning' }, { actor: 'agent' });
		await app.page.getByRole('button', { name: 'Save changes' }).click();
		await app.page
			.getByRole('alert')
			.filter({ hasText: /changed elsewhere/ })
			.waitFor();
		expect((await getMemory(id)).content).toBe('Standup is at 9:30 every morning');
		expect(await app.page.locator('#edit-content').inputValue()).toBe('Standup is at 10 every morning');
		await app.page.getByRole('button', { name: 'Save mine anyway' }).click();
		await app.page.getByText(/^Saved “/).waitFor();
		expect((await getMemory(id)).content).toBe('Standup is at 10 every morning');
	});

	it('saves the person’s field and keeps the agent’s other change', async () => {
		const [id] = await seed(app.page, [{ content: 'The cache lives in a bucket', tags: ['infra'], importance: 0.5 }]);
		await app.page.goto(`${app.server.url}/#/memory/${encodeURIComponent(id)}`);
		await app.page.getByRole('button', { name: 'Edit' }).click();
		await app.page.locator('#edit-content').fill('The build cache lives in a bucket');
		await engine(app.page, 'update', { memory_id: id, tags_add: ['ops'] }, { actor: 'agent' });
		await app.page.getByRole('button', { name: 'Save changes' }).click();
		await app.page.getByText(/^Saved “/).waitFor();
		expect(await getMemory(id)).toMatchObject({ content: 'The build cache lives in a bucket', tags: ['infra', 'ops'] });
	});

	it('keeps the draft and says the memory is gone when an agent deleted it meanwhile', async () => {
		const [id] = await seed(app.page, [{ content: 'Lunch is at noon on Fridays' }]);
		await app.page.goto(`${app.server.url}/#/memory/${encodeURIComponent(id)}`);
		await app.page.getByRole('button', { name: 'Edit' }).click();
		await app.page.locator('#edit-content').fill('Lunch is at one on Fridays');
		await engine(app.page, 'delete', { memory_id: id }, { actor: 'agent' });
		await app.page.getByRole('button', { name: 'Save changes' }).click();
		await app.page.getByRole('alert').waitFor();
		expect(await app.page.getByRole('alert').innerText()).toMatch(/no longer exists/i);
		expect(await app.page.locator('#edit-content').inputValue()).toBe('Lunch is at one on Fridays');
	});
});

describe('saving the edit form', () => {
	it('changes only what the person changed: edge spaces, CRLF line ends and an off-step importance stay', async () => {
		const stored = {
			content: 'First line\r\nSecond line\r\n',
			summary: ' Deploys ',
			source: 'agent ',
			scope: ' team scope ',
			importance: 0.33,
			tags: ['ops'],
			entities: [{ name: ' Tuesday ', type: 'concept' }],
		};
		const { memory_id: id } = await engine<{ memory_id: string }>(app.page, 'store', stored);
		const read = async () => (await engine<{ memory: Record<string, unknown> }>(app.page, 'get', { memory_id: id, track_access: false })).memory;
		await app.page.goto(`${app.server.url}/#/memory/${encodeURIComponent(id)}`);
		await app.page.getByRole('button', { name: 'Edit' }).click();
		await app.page.locator('#edit-tags').fill('weekly');
		await app.page.locator('#edit-tags').press('Enter');
		await app.page.getByRole('button', { name: 'Save changes' }).click();
		await app.page.getByText(/^Saved “/).waitFor();
		expect(await read()).toMatchObject({ ...stored, tags: ['ops', 'weekly'] });

		await app.page.getByRole('button', { name: 'Edit' }).click();
		await app.page.locator('#edit-content').fill('First line\nSecond line, edited\n');
		await app.page.getByRole('button', { name: 'Save changes' }).click();
		await app.page.getByText(/content changed/).waitFor();
		expect((await read()).content).toBe('First line\r\nSecond line, edited\r\n');
	});
});

describe('deleting from the memory page', () => {
	it('deletes once on a double click, with one Undo that brings it back', async () => {
		const [id] = await seed(app.page, [{ content: 'The standup is at nine' }]);
		await app.page.goto(`${app.server.url}/#/memory/${encodeURIComponent(id)}`);
		await app.page.getByRole('button', { name: 'Delete' }).dblclick();
		await app.page.getByText('Deleted 1 memory').waitFor();
		await app.page.getByRole('button', { name: 'Undo' }).click();
		await app.page.getByText('Restored 1 memory').waitFor();
		expect(await app.page.getByText(/Deleted 0 memories|already deleted/).count()).toBe(0);
		expect(await engine<unknown[]>(app.page, 'getMemories', [id])).toEqual([expect.objectContaining({ id })]);
	});
});

describe('exporting a backup', () => {
	it('keeps vectors an import cannot compute again (an agent’s own embedding) unless the person unticks them, and says so then', async () => {
		await engine(app.page, 'store', { id: 'own-vector', content: 'The build cache lives in a bucket', embedding: [0.1, 0.2, 0.3] });
		await app.page.goto(`${app.server.url}/#/import`);
		const box = app.page.getByRole('checkbox', { name: /Include embedding vectors/ });
		await expect.poll(() => box.isChecked()).toBe(true);
		expect(await app.page.getByTestId('vectors-lost').count()).toBe(0);
		const [download] = await Promise.all([app.page.waitForEvent('download'), app.page.getByRole('button', { name: 'Export', exact: true }).click()]);
		const text = await streamText(await download.createReadStream());
		const doc = JSON.parse(text) as { vectors?: { model: string; memory_id: string }[] };
		expect(doc.vectors?.some((v) => v.memory_id === 'own-vector' && v.model !== 'engram/glove-sif-100d')).toBe(true);
		await box.uncheck();
		expect(await app.page.getByTestId('vectors-lost').innerText()).toMatch(/1 memory holds a vector of .+, which an import cannot compute again/);
	});
});

async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
	return Buffer.concat(chunks).toString('utf8');
}

describe('reverting a change from the History', () => {
	it('does not undo a later change of the same field without a word', async () => {
		const [id] = await seed(app.page, [{ content: 'Standup is at 9 every morning' }]);
		await engine(app.page, 'update', { memory_id: id, importance: 0.9 }, { actor: 'agent' });
		await engine(app.page, 'update', { memory_id: id, importance: 0.2 }, { actor: 'agent' });
		await app.page.goto(`${app.server.url}/#/memory/${encodeURIComponent(id)}`);
		// The older change (0.50 → 0.90), below the newer one.
		const older = app.page.getByTestId('history-entry').filter({ hasText: /0\.50\s+→\s+0\.90/ });
		await older.getByRole('button', { name: 'Revert' }).click();
		await app.page.getByText(/changed elsewhere/).waitFor();
		expect((await getMemory(id)).importance).toBe(0.2);
		// The newest change reverts as before.
		await app.page
			.getByTestId('history-entry')
			.filter({ hasText: /0\.90\s+→\s+0\.20/ })
			.getByRole('button', { name: 'Revert' })
			.click();
		await app.page.getByText(/^Reverted /).waitFor();
		expect((await getMemory(id)).importance).toBe(0.9);
	});
});

describe('importing a backup over memories edited since', () => {
	it('says which memories here differ from the file’s, by line, instead of “already there”', async () => {
		const [id] = await seed(app.page, [{ content: 'Standup is at 9 every morning', id: 'standup' }]);
		const file = join(mkdtempSync(join(tmpdir(), 'engram-fidelity-')), 'backup.jsonl');
		writeFileSync(file, (await engine<{ data: string }>(app.page, 'exportMemories', { format: 'jsonl' })).data);
		await engine(app.page, 'update', { memory_id: id, content: 'Standup is at 9:30 every morning' }, { actor: 'agent' });
		await app.page.goto(`${app.server.url}/#/import`);
		await app.page.getByLabel('Choose a file to import').setInputFiles(file);
		await app.page.getByRole('button', { name: 'Import', exact: true }).click();
		const result = app.page.getByTestId('import-result');
		await result.waitFor();
		expect(await result.getAttribute('data-outcome')).toBe('nothing');
		expect(await result.innerText()).toMatch(/1 already there, 1 of them different from the file's/);
		await result.getByText(/not imported/).click();
		expect(await result.innerText()).toMatch(/line 2: memory "standup": one with this id is already here with another content/);
		await app.page.screenshot({ path: join(tmpdir(), 'engram-fidelity-import.png') });
		expect((await getMemory(id)).content).toBe('Standup is at 9:30 every morning');
	});
});

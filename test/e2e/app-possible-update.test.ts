/**
 * "Did this replace …?" on a memory's page, in the built app (real Chromium, IndexedDB and
 * engine worker): a newer memory that store_memory reported as a possible update of an older
 * one offers to supersede it in one click, with Undo; "No" keeps both; unrelated or
 * already-superseded memories are never offered. And recall in the app expanding the category a
 * question asks for with WordNet's table (issue 28).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { engine, openApp, type AppFixture } from './app-support';

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

interface StoreOut {
	results: { memory_id: string; possible_update_of?: string[] }[];
}
interface Got {
	memory: { t_invalid?: string; timestamp: string };
	associations: { from: string; to: string; type: string }[];
}

/** Stores one memory at a time (the second sees the first), returning ids and store results. */
async function storeTwo(older: string, newer: string): Promise<{ oldId: string; newId: string; newer: StoreOut['results'][number] }> {
	const a = await engine<StoreOut>(page, 'store', { memories: [{ content: older, timestamp: '2024-03-01T09:00:00Z' }] });
	const b = await engine<StoreOut>(page, 'store', { memories: [{ content: newer, timestamp: '2024-05-01T09:00:00Z' }] });
	return { oldId: a.results[0].memory_id, newId: b.results[0].memory_id, newer: b.results[0] };
}

const openMemory = async (id: string) => {
	await page.goto(`${app.server.url}/#/memory/${encodeURIComponent(id)}`);
	await page.locator('#memory-title').waitFor();
};
const get = (id: string) => engine<Got>(page, 'get', { memory_id: id, track_access: false });

describe('memory page: did this replace …?', () => {
	it('supersedes the older memory in one click, and Undo restores it', async () => {
		const { oldId, newId, newer } = await storeTwo('The team stand-up is at 9am on Tuesdays.', 'The team stand-up is at 10am on Tuesdays.');
		expect(newer.possible_update_of).toEqual([oldId]);
		await openMemory(newId);
		const prompt = page.getByRole('region', { name: 'Possible update' });
		await prompt.getByText('Did this replace').waitFor();
		expect(await prompt.getByRole('link').getAttribute('href')).toBe(`#/memory/${encodeURIComponent(oldId)}`);
		await prompt.getByRole('button', { name: 'Yes, supersede it' }).click();
		await page.getByText(/is now superseded by this memory/).waitFor();
		await prompt.waitFor({ state: 'detached' });
		const old = await get(oldId);
		expect(old.memory.t_invalid).toBe((await get(newId)).memory.timestamp);
		expect(old.associations).toContainEqual(expect.objectContaining({ from: oldId, to: newId, type: 'INVALIDATED_BY' }));
		// current_only recall now finds the newer memory only.
		const recalled = await engine<{ results: { memory: { id: string } }[] }>(page, 'recall', { query: 'team stand-up time', current_only: true });
		expect(recalled.results.map((r) => r.memory.id)).toEqual([newId]);

		await page.getByRole('button', { name: 'Undo' }).click();
		await prompt.getByText('Did this replace').waitFor();
		const back = await get(oldId);
		expect(back.memory.t_invalid).toBeUndefined();
		expect(back.associations.filter((a) => a.type === 'INVALIDATED_BY')).toEqual([]);
	});

	it('keeps both on "No", and never asks on the older memory or about an unrelated one', async () => {
		const { oldId, newId } = await storeTwo('The team stand-up is at 9am on Tuesdays.', 'The team stand-up is at 10am on Tuesdays.');
		const other = await engine<StoreOut>(page, 'store', {
			memories: [{ content: 'The team stand-up notes live in the shared drive.', timestamp: '2024-06-01T09:00:00Z' }],
		});
		await openMemory(newId);
		const prompt = page.getByRole('region', { name: 'Possible update' });
		await prompt.getByRole('button', { name: 'No, keep both' }).click();
		await prompt.waitFor({ state: 'detached' });
		expect((await get(oldId)).memory.t_invalid).toBeUndefined();

		// The older memory's page: it replaced nothing. The unrelated one: same subject, no changed value.
		for (const id of [oldId, other.results[0].memory_id]) {
			await openMemory(id);
			// The page renders once it has read everything the question needs (memory-page.svelte load()).
			await page.getByRole('heading', { name: 'Related memories' }).waitFor();
			expect(await page.getByRole('region', { name: 'Possible update' }).count()).toBe(0);
		}
	});
});

describe('recall in the app: WordNet categories', () => {
	it('finds a memory naming only a member of the category a question asks for (categories.json, precached with the model)', async () => {
		const out = await engine<StoreOut>(page, 'store', {
			memories: [{ content: 'Judo on Wednesday was brutal, my shoulders hate me.' }, { content: 'The bakery on Mill Road sells sourdough now.' }],
		});
		const judo = out.results[0].memory_id;
		// Words only: "sports" is in neither memory, so only the category table can find judo.
		const ask = () =>
			engine<{ results: { memory: { id: string } }[] }>(page, 'recall', { query: 'Which sports came up?', weights: { semantic: 0 } }).then((r) =>
				r.results.map((x) => x.memory.id),
			);
		// The engine loads the table without waiting for it: the first recalls may come before it.
		await expect.poll(ask, { timeout: 10_000 }).toEqual([judo]);
	});
});

/**
 * Words a person understands, driven through the built app in real Chromium: links read as
 * sentences and can be removed, History names memories by title and shows old → new values
 * with Revert, Undo after delete is recorded, errors read as sentences, the memory page names
 * "happened" and "added", quick saves collapse into one toast, and Settings shows Engram's own
 * data size.
 */
import { describe, expect, it } from 'vitest';
import { engine, seed, useApp } from './app-support';

const app = useApp({ fresh: '/#/' });

const OLD = { content: 'We chose MongoDB for billing in 2019.\nIt was fast to start with.', type: 'Decision', tags: ['billing'] };
const NEW = { content: 'Billing moved to PostgreSQL because invoices need ACID transactions.', type: 'Decision', tags: ['billing'] };

async function openMemory(id: string): Promise<void> {
	await app.page.goto(`${app.server.url}/#/memory/${encodeURIComponent(id)}`);
	await app.page.locator('#memory-title').waitFor();
}

describe('app words', () => {
	describe('memory app.page links', () => {
		it('reads links as sentences both ways, names memories by title, never by type code or id', async () => {
			const [a, b] = await seed(app.page, [OLD, NEW]);
			await engine(app.page, 'associate', { memory1_id: a, memory2_id: b, type: 'INVALIDATED_BY', strength: 0.9 });
			await openMemory(a);
			const out = app.page.getByTestId('association').filter({ hasText: 'was replaced by' });
			await out.waitFor();
			expect(await out.innerText()).toMatch(/This memory\s+was replaced by\s+Billing moved to PostgreSQL/);
			const main = await app.page.locator('.main-col').innerText();
			expect(main).not.toContain('INVALIDATED_BY');
			expect(main).not.toContain(b);
			// History: the link names the other memory by its title.
			const linked = app.page.getByTestId('history-entry').filter({ hasText: 'linked' });
			expect(await linked.innerText()).toContain('Billing moved to PostgreSQL');
			await openMemory(b);
			const back = app.page.getByTestId('association').filter({ hasText: 'replaced' });
			expect(await back.innerText()).toMatch(/This memory\s+replaced\s+We chose MongoDB for billing in 2019\./);
			expect(await app.page.locator('.main-col').innerText()).not.toContain('INVALIDATED_BY');
		});

		it('removes a link from the memory app.page, in the store and in History', async () => {
			const [a, b] = await seed(app.page, [OLD, NEW]);
			await engine(app.page, 'associate', { memory1_id: a, memory2_id: b, type: 'RELATES_TO' });
			await openMemory(a);
			await app.page.getByRole('button', { name: /^Remove link: this memory relates to Billing moved/ }).click();
			await app.page.getByText(/Removed the link: this memory relates to “Billing moved/).waitFor();
			await app.page.getByTestId('association').filter({ hasText: 'relates to' }).waitFor({ state: 'detached' });
			const links = await engine<{ type: string }[]>(app.page, 'associationsOf', a);
			expect(links.filter((l) => l.type === 'RELATES_TO')).toEqual([]);
			await app.page.getByTestId('history-entry').filter({ hasText: 'unlinked' }).waitFor();
		});
	});

	describe('memory app.page facts', () => {
		it('shows when it happened and when it was added, both named', async () => {
			const happened = new Date(Date.now() - 3 * 86_400_000).toISOString();
			const [id] = await seed(app.page, [{ ...NEW, timestamp: happened }]);
			await openMemory(id);
			const facts = await app.page.locator('.facts').innerText();
			expect(facts).toMatch(/Happened\s+[^\n]+\s+\(3 days ago\)/);
			expect(facts).toMatch(/Added\s+[^\n]+\s+\((just now|now|[^)]*(second|minute)[^)]*)\)/);
			expect(facts).not.toMatch(/glove|engram\//i);
		});
	});

	describe('History', () => {
		it('shows old → new for a change and reverts it through the normal update', async () => {
			const [id] = await seed(app.page, [{ ...NEW, importance: 0.5 }]);
			await engine(app.page, 'update', { memory_id: id, importance: 0.9, tags: ['billing', 'database'] });
			await openMemory(id);
			const changed = app.page.getByTestId('history-entry').filter({ hasText: 'changed' }).first();
			await changed.waitFor();
			const text = await changed.innerText();
			expect(text).toMatch(/Importance\s+0\.50\s+→\s+0\.90/);
			expect(text).toMatch(/Tags\s+#billing\s+→\s+#billing, #database/);
			await changed.getByRole('button', { name: 'Revert' }).click();
			await app.page.getByText(/^Reverted .* of “Billing moved/).waitFor();
			const { memory } = await engine<{ memory: { importance: number; tags: string[] } }>(app.page, 'get', { memory_id: id, track_access: false });
			expect(memory).toMatchObject({ importance: 0.5, tags: ['billing'] });
		});

		it('saving an edit says what changed by name, without "(re-embedded)"', async () => {
			const [id] = await seed(app.page, [NEW]);
			await openMemory(id);
			await app.page.getByRole('button', { name: 'Edit' }).click();
			await app.page.locator('#edit-content').fill('Billing moved to PostgreSQL for ACID transactions and row locks.');
			await app.page.getByRole('button', { name: 'Save changes' }).click();
			const toast = app.page.getByTestId('toast').filter({ hasText: 'Saved' });
			await toast.waitFor();
			expect(await toast.innerText()).toMatch(/^Saved “Billing moved to PostgreSQL for ACID[^”]*”: content changed$/);
			expect(await toast.innerText()).not.toContain('re-embedded');
		});

		it('Undo after delete brings the memory back and History says it was restored', async () => {
			const [id] = await seed(app.page, [NEW]);
			await openMemory(id);
			await app.page.getByRole('button', { name: 'Delete' }).click();
			await app.page.getByTestId('toast').getByRole('button', { name: 'Undo' }).click();
			await app.page.getByText('Restored 1 memory').waitFor();
			await openMemory(id);
			await app.page.getByTestId('history-entry').filter({ hasText: 'restored' }).waitFor();
		});
	});

	describe('errors and toasts', () => {
		it('an empty memory reads "Write something to remember"', async () => {
			await app.page.getByRole('button', { name: 'New memory' }).first().click();
			await app.page.getByRole('button', { name: 'Save memory' }).click();
			const err = app.page.locator('dialog .error-text').first();
			await err.waitFor();
			expect(await err.innerText()).toBe('Write something to remember');
		});

		it('seven quick saves collapse into one toast', async () => {
			for (let i = 1; i <= 7; i++) {
				await app.page.getByRole('button', { name: 'New memory' }).first().click();
				await app.page
					.locator('#new-content')
					.fill(`Quick note number ${i}: ${['apples', 'boats', 'cedar', 'dunes', 'embers', 'fjords', 'glaciers'][i - 1]} are on the list.`);
				await app.page.getByRole('button', { name: 'Save memory' }).click();
				await app.page
					.locator('dialog[open]')
					.waitFor({ state: 'detached' })
					.catch(() => undefined);
				await app.page.waitForFunction(() => !document.querySelector('dialog[open]'));
			}
			const toasts = app.page.getByTestId('toast');
			expect(await toasts.count()).toBeLessThanOrEqual(3);
			await toasts.filter({ hasText: '7 memories saved' }).waitFor({ timeout: 2_000 });
		});
	});

	describe('Settings', () => {
		it("shows Engram's own data size next to the browser's estimate, labelled", async () => {
			await seed(app.page, [OLD, NEW]);
			await app.page.goto(`${app.server.url}/#/settings`);
			const size = app.page.getByTestId('engram-size');
			await size.waitFor();
			expect(await size.innerText()).toMatch(/^\d+(\.\d)? (B|KB|MB) of memories, vectors and search index \(2 memories\)\.$/);
		});
	});
});

/**
 * The open list follows an agent's writes without a reload: a memory stored appears, an edit shows
 * its new words, a delete takes the row away, the list's filter still holds, and a write made in
 * another tab reaches it too. The worker keeps the list's rows between refreshes (browse-ops.ts
 * `BriefCache`), so these are the cases where a kept row would be stale.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { engine, engineReady, seed, useApp } from './app-support';

const app = useApp({ fresh: '/#/' });
const ROWS = '[role="list"][aria-label^="Memories"] [role="listitem"]';

/** The contents of the rows in view, top first. */
const rowTexts = (page: Page) => page.locator(`${ROWS} a[data-primary]`).allInnerTexts();

/** Waits until a row shows `text` (or, with `gone`, until none does). */
async function row(page: Page, text: string, gone = false): Promise<void> {
	await page.waitForFunction(({ sel, text, gone }) => [...document.querySelectorAll(sel)].some((a) => a.textContent?.includes(text)) !== gone, {
		sel: `${ROWS} a[data-primary]`,
		text,
		gone,
	});
}

/** Waits until the list's status line gives `n` memories. */
const total = (page: Page, n: number) => page.getByText(`${n.toLocaleString('en-US')} ${n === 1 ? 'memory' : 'memories'}`, { exact: true }).waitFor();

beforeAll(() => {
	expect(app.errors).toEqual([]);
});

describe('the live list', () => {
	it("shows an agent's stores, edits and deletes as they happen", async () => {
		const ids = await seed(
			app.page,
			Array.from({ length: 150 }, (_, i) => ({
				content: `Seeded note ${i} about the harbour survey.`,
				timestamp: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString(),
			})),
		);
		await app.page.reload();
		await engineReady(app.page);
		await total(app.page, 150);
		await row(app.page, 'Seeded note 149 about');

		// Stores, one by one as an agent makes them (the list refreshes while they keep coming).
		for (let i = 0; i < 5; i++) await engine(app.page, 'store', { content: `Agent note ${i}: the crane inspection is booked.` }, { actor: 'test-agent' });
		await total(app.page, 155);
		for (let i = 0; i < 5; i++) await row(app.page, `Agent note ${i}:`);

		// An edit of a row the list already showed (and the worker kept): its new words, not the old.
		await engine(app.page, 'update', { memory_id: ids[149], content: 'Seeded note 149 rewritten: the survey moved to May.' }, { actor: 'test-agent' });
		await row(app.page, 'Seeded note 149 rewritten');
		await row(app.page, 'Seeded note 149 about', true);

		// A delete: the row goes, the total follows.
		await engine(app.page, 'delete', { memory_id: ids[148] }, { actor: 'test-agent' });
		await total(app.page, 154);
		await row(app.page, 'Seeded note 148 about', true);
		expect(await rowTexts(app.page)).toContain('Seeded note 147 about the harbour survey.');
	});

	it('keeps the filter while an agent writes', async () => {
		await seed(app.page, [
			{ content: 'A decision: the depot opens at seven.', type: 'Decision', timestamp: '2024-02-01T08:00:00Z' },
			{ content: 'A plain note about the depot keys.', timestamp: '2024-02-01T09:00:00Z' },
		]);
		await app.page.reload();
		await engineReady(app.page);
		await app.page.getByRole('button', { name: /Filters/ }).click();
		await app.page.getByRole('button', { name: 'Decision', exact: true }).click();
		await total(app.page, 1);
		await engine(app.page, 'store', { content: 'Another plain note about the depot gate.' }, { actor: 'test-agent' });
		await engine(app.page, 'store', { content: 'A decision: the depot gate stays shut on Sundays.', type: 'Decision' }, { actor: 'test-agent' });
		await row(app.page, 'depot gate stays shut');
		await total(app.page, 2);
		expect((await rowTexts(app.page)).some((t) => t.includes('plain note'))).toBe(false);
		// An edit that moves a shown memory out of the filter takes it off the list.
		const [first] = await engine<{ memories: { id: string; content: string }[] }>(app.page, 'timeline', { types: ['Decision'], order: 'asc' }).then(
			(o) => o.memories,
		);
		expect(first.content).toContain('opens at seven');
		await engine(app.page, 'update', { memory_id: first.id, type: 'Context' }, { actor: 'test-agent' });
		await total(app.page, 1);
		await row(app.page, 'opens at seven', true);
	});

	it('reflects a write made in another tab', async () => {
		const [id] = await seed(app.page, [{ content: 'The ferry timetable changes in June.', timestamp: '2024-03-01T08:00:00Z' }]);
		await app.page.reload();
		await engineReady(app.page);
		await row(app.page, 'ferry timetable changes in June');
		const other = await app.context.newPage();
		try {
			await other.goto(app.server.url + '/#/settings');
			await engineReady(other);
			await engine(other, 'update', { memory_id: id, content: 'The ferry timetable changes in July, not June.' }, { actor: 'other-tab' });
			await engine(other, 'store', { content: 'Stored from the other tab: the pier lights are fixed.' }, { actor: 'other-tab' });
		} finally {
			await other.close();
		}
		await row(app.page, 'changes in July, not June');
		await row(app.page, 'pier lights are fixed');
		await row(app.page, 'ferry timetable changes in June.', true);
		expect(app.errors).toEqual([]);
	});

	it("Settings re-reads Engram's size once an agent's writes pause", async () => {
		await seed(app.page, [{ content: 'A first note to give the store a size.' }]);
		await app.page.goto(`${app.server.url}/#/settings`);
		const size = app.page.getByTestId('engram-size');
		await size
			.filter({ hasText: '(1 memories)' })
			.or(size.filter({ hasText: '(1 memory)' }))
			.waitFor();
		const before = await size.innerText();
		// The size is a scan of every row: while the writes come it waits, then reads once.
		for (let i = 0; i < 5; i++)
			await engine(app.page, 'store', { content: `Agent note ${i}: ${'a longer body of text to grow the store. '.repeat(20)}` }, { actor: 'test-agent' });
		await app.page.waitForFunction(
			({ before }) => {
				const text = (document.querySelector('[data-testid="engram-size"]')?.textContent ?? '').replace(/\s+/g, ' ');
				return text.includes('(6 memories)') && text.split(' of ')[0] !== before.split(' of ')[0];
			},
			{ before },
		);
	});
});

/**
 * Sync between two devices (two Chromium profiles, each its own IndexedDB) through a
 * CouchDB-protocol server on loopback (pouchdb-server --in-memory, started here): the Settings
 * form, a wrong passphrase refused before any local write, everything reaching the second device
 * (edits and deletes too), a change going back, one syncing tab per device, concurrent edits and
 * delete-vs-edit while apart, resuming after a reload (and not after Stop), and no plaintext on
 * the server.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { engine, engineReady, seed } from './app-support';
import { has, newDevice, serverRecords, syncSuite, total, until } from './sync-support';

const CANARY = 'canary-7f3a9c-plaintext-must-not-leak';
const DB = 'engram-e2e';
// No database yet: device A's "Test connection" offers to create it.
const suite = syncSuite([]);
const device = () => newDevice(suite.app.url, suite.devices);

async function fill(page: Page, passphrase: string): Promise<void> {
	await page.getByLabel('Server URL').fill(suite.couch.url);
	await page.getByLabel('Database').fill(DB);
	await page.getByLabel('User').fill('');
	await page.getByLabel('Password', { exact: true }).fill('');
	await page.getByLabel('Passphrase').fill(passphrase);
}

describe('sync across devices', () => {
	let a: Page;
	let b: Page;
	let ids: string[];

	it('device A: test connection offers to create a missing database, then syncs what it holds', async () => {
		a = await device();
		ids = await seed(a, [
			{ content: `Deploys happen on Tuesdays after the standup ${CANARY}`, tags: ['ops'] },
			{ content: 'The billing database runs on Postgres 16 in eu-west', tags: ['infra'] },
			{ content: 'Alice prefers tea over coffee in the afternoon' },
		]);
		await engine(a, 'update', { memory_id: ids[1], content: 'The billing database runs on Postgres 17 in eu-west' });
		await engine(a, 'delete', { memory_id: ids[2] });
		await fill(a, 'correct horse battery staple');
		await a.getByRole('button', { name: 'Test connection' }).click();
		await a.getByText(`The database "${DB}" does not exist on this server.`).waitFor();
		await a.getByRole('button', { name: 'Create database' }).click();
		await a.getByText(`Created the database "${DB}".`).waitFor();
		await a.getByRole('button', { name: 'Start syncing' }).click();
		await a.getByTestId('sync-chip').or(a.getByRole('alert')).first().waitFor({ timeout: 20_000 });
		if (await a.getByRole('alert').count()) throw new Error(await a.getByRole('alert').first().innerText());
		await a.getByTestId('sync-chip').getByText('Synced').waitFor({ timeout: 20_000 });
		await until('two memory docs on the server', async () => {
			const r = (await (await fetch(`${suite.couch.url}/${DB}/_all_docs`)).json()) as { rows: { id: string }[] };
			return r.rows.filter((x) => ids.includes(x.id)).length === 2;
		});
		// The controller writes its state for memory_stats without waiting (behind other writes).
		await until('memory_stats reports sync on', async () => (await engine<{ sync: { on: boolean } }>(a, 'stats', {})).sync.on);
	}, 60_000);

	it('device B: a wrong passphrase is refused before anything is written; the right one brings everything', async () => {
		b = await device();
		await fill(b, 'wrong passphrase');
		await b.getByRole('button', { name: 'Start syncing' }).click();
		await b
			.getByText(/Wrong passphrase/)
			.first()
			.waitFor({ timeout: 20_000 });
		expect(await total(b)).toBe(0);
		const dbs = await b.evaluate(async () => (await indexedDB.databases()).map((d) => d.name));
		expect(dbs.some((n) => n?.includes('engram-sync'))).toBe(false);
		const t0 = Date.now();
		await b.getByLabel('Passphrase').fill('correct horse battery staple');
		await b.getByRole('button', { name: 'Start syncing' }).click();
		await until('B has both memories', async () => (await total(b)) === 2, 30_000);
		console.log(`first sync of 2 memories on B: ${Date.now() - t0} ms (includes key derivation)`);
		const got = await engine<{ memory: { content: string; tags: string[] } }>(b, 'get', { memory_id: ids[1] });
		expect(got.memory.content).toBe('The billing database runs on Postgres 17 in eu-west');
		const found = await engine<{ results: { memory: { id: string } }[] }>(b, 'recall', { query: 'when do deploys happen' });
		expect(found.results.map((r) => r.memory.id)).toContain(ids[0]);
		await expect(engine(b, 'get', { memory_id: ids[2] })).rejects.toThrow();
	}, 60_000);

	it('a change on B reaches A, and A does not echo it back as a new edit', async () => {
		const t0 = Date.now();
		const [id] = await seed(b, [{ content: 'The on-call rotation changes every Monday at noon' }]);
		await until('A has the memory from B', async () => (await total(a)) === 3);
		console.log(`one new memory B → A: ${Date.now() - t0} ms`);
		const t1 = Date.now();
		await engine(b, 'update', { memory_id: ids[0], tags: ['ops', 'release'] });
		await until('A sees the edit', async () =>
			(await engine<{ memory: { tags: string[] } }>(a, 'get', { memory_id: ids[0] })).memory.tags.includes('release'),
		);
		console.log(`one edit B → A: ${Date.now() - t1} ms`);
		await a.evaluate(() => (globalThis as unknown as { __engramSync: { idle(): Promise<void> } }).__engramSync.idle());
		const doc = (await (await fetch(`${suite.couch.url}/${DB}/${encodeURIComponent(id)}`)).json()) as { _rev: string };
		expect(doc._rev.startsWith('1-')).toBe(true);
	}, 60_000);

	it('one tab of a device syncs (Web Lock); another takes over when it closes', async () => {
		const a2 = await suite.devices[0].browser.context.newPage();
		await a2.goto(`${suite.app.url}/#/settings`);
		await engineReady(a2);
		const state = (p: Page) =>
			p.evaluate(() => {
				const s = (globalThis as unknown as { __engramSync: { elsewhere: boolean; status: { status: string } } }).__engramSync;
				return { elsewhere: s.elsewhere, status: s.status.status };
			});
		await until("the second tab waits, showing the first tab's status", async () => {
			const s = await state(a2);
			return s.elsewhere && s.status === 'synced';
		});
		await a2.getByTestId('sync-chip').getByText('Synced').waitFor();
		await a.close();
		await until('the second tab syncs', async () => {
			const s = await state(a2);
			return !s.elsewhere && s.status === 'synced';
		});
		a = a2;
		const [id] = await seed(b, [{ content: 'The design review moved to Thursday afternoons' }]);
		await until('the new holder receives a memory from B', () => has(a, id));
	}, 60_000);

	it('concurrent edits while apart converge on the latest; the loser is in History on both; an edit wins over a delete; a supersede survives an edit', async () => {
		// Paused replication stands in for being offline: both devices write to their mirrors only.
		const ctl = (p: Page, what: 'pause' | 'resume' | 'idle') =>
			p.evaluate((w) => (globalThis as unknown as { __engramSync: Record<string, () => unknown> }).__engramSync[w](), what);
		const [x, y, z] = await seed(a, [
			{ content: 'The team lunch is on Wednesdays at noon' },
			{ content: 'The wiki lives on the old intranet server' },
			{ content: 'The build server is jenkins-01' },
		]);
		await until('B has all three', async () => (await has(b, x)) && (await has(b, y)) && (await has(b, z)));
		await ctl(a, 'idle');
		await ctl(b, 'idle');
		await ctl(a, 'pause');
		await ctl(b, 'pause');
		await engine(a, 'update', { memory_id: x, content: 'The team lunch is on Thursdays at noon' });
		await engine(a, 'delete', { memory_id: y });
		// A supersedes z; B, not knowing, edits z later: B's edit wins, and z stays superseded.
		const [z2] = await seed(a, [{ content: 'The build server is buildkite, jenkins-01 is retired', supersedes_memory_id: z } as never]);
		await new Promise((r) => setTimeout(r, 30)); // B's edits are the later ones
		await engine(b, 'update', { memory_id: z, content: 'The build server is jenkins-01 in rack 4' });
		await engine(b, 'update', { memory_id: x, content: 'The team lunch is on Fridays at one' });
		await engine(b, 'update', { memory_id: y, content: 'The wiki moved to the new docs site' });
		// The engine's change events reach the controller asynchronously: let them land in the mirrors.
		await new Promise((r) => setTimeout(r, 300));
		await ctl(a, 'idle');
		await ctl(b, 'idle');
		await ctl(a, 'resume');
		await ctl(b, 'resume');
		const content = (p: Page, id: string) =>
			engine<{ memory: { content: string } }>(p, 'get', { memory_id: id }).then(
				(m) => m.memory.content,
				() => undefined,
			);
		for (const p of [a, b]) {
			await until('the later edit wins on both devices', async () => (await content(p, x)) === 'The team lunch is on Fridays at one');
			// DESIGN §4.7: a live revision wins over a deleted one, so the edit brings the memory back.
			await until('the edit wins over the delete', async () => (await content(p, y)) === 'The wiki moved to the new docs site');
			await until('the edit of z wins and z stays superseded by z2', async () => {
				const m = await engine<{ memory: { content: string; t_invalid?: string } }>(p, 'get', { memory_id: z });
				const links = await engine<{ from: string; to: string; type: string }[]>(p, 'associationsOf', z);
				return (
					m.memory.content === 'The build server is jenkins-01 in rack 4' &&
					m.memory.t_invalid !== undefined &&
					links.some((l) => l.from === z && l.to === z2 && l.type === 'INVALIDATED_BY')
				);
			});
		}
		// The server holds the merged version too (a device joining later gets the supersede).
		await until('the server has z edited and superseded', async () => {
			const r = (await serverRecords(suite.couch.url, DB, 'correct horse battery staple')).get(z);
			return (
				r?.content === 'The build server is jenkins-01 in rack 4' &&
				r.t_invalid !== undefined &&
				r.links.some((l) => l.to === z2 && l.type === 'INVALIDATED_BY')
			);
		});
		for (const p of [a, b]) {
			await until('the losing version is in the history', async () => {
				const h = await engine<{ actor: string; changes?: { content?: { from: unknown } } }[]>(p, 'history', x);
				return h.some((e) => e.actor === 'sync' && e.changes?.content?.from === 'The team lunch is on Thursdays at noon');
			});
			await p.goto(`${suite.app.url}/#/memory/${x}`);
			await p.getByText('The team lunch is on Thursdays at noon').first().waitFor({ timeout: 10_000 });
		}
		await until('the server keeps no conflicting revision', async () => {
			const doc = (await (await fetch(`${suite.couch.url}/${DB}/${encodeURIComponent(x)}?conflicts=true`)).json()) as { _conflicts?: string[] };
			return !doc._conflicts?.length;
		});
		await b.goto(`${suite.app.url}/#/settings`);
		await engineReady(b);
	}, 60_000);

	it('B resumes after a reload without re-entering anything; after Stop, a reload does not sync', async () => {
		await b.reload();
		await engineReady(b);
		await b.getByTestId('sync-chip').getByText('Synced').waitFor({ timeout: 20_000 });
		const [id] = await seed(a, [{ content: 'The staging cluster restarts every night at two' }]);
		await until('B has the memory from A after its reload', () => has(b, id));
		const kept = await b.evaluate(async () => {
			const c = await (globalThis as unknown as { __engram: { getSetting(k: string): Promise<{ key: CryptoKey; server: object }> } }).__engram.getSetting(
				'sync_config',
			);
			return { key: c.key instanceof CryptoKey && !c.key.extractable, text: JSON.stringify(c) };
		});
		expect(kept.key).toBe(true);
		expect(kept.text).not.toContain('correct horse');
		await b.getByRole('button', { name: 'Stop syncing this device' }).click();
		await b.getByTestId('sync-chip').waitFor({ state: 'detached' });
		await b.reload();
		await engineReady(b);
		const [later] = await seed(a, [{ content: 'The office closes early on Fridays in August' }]);
		await until('the memory from A is on the server', async () => (await fetch(`${suite.couch.url}/${DB}/${encodeURIComponent(later)}`)).ok);
		await new Promise((r) => setTimeout(r, 1_500));
		expect(await has(b, later)).toBe(false);
		expect(await has(b, id)).toBe(true);
		expect(await b.getByTestId('sync-chip').count()).toBe(0);
		expect((await engine<{ sync: { on: boolean } }>(b, 'stats', {})).sync.on).toBe(false);
		await b.getByLabel('Passphrase').waitFor();
	}, 60_000);

	it('the server never holds the plaintext', async () => {
		const all = await (await fetch(`${suite.couch.url}/${DB}/_all_docs?include_docs=true`)).text();
		expect(all).not.toContain(CANARY);
		expect(all).not.toContain('Postgres');
		expect(all).not.toContain('on-call');
		expect(all).toContain('engram-sync-salt');
	});
});

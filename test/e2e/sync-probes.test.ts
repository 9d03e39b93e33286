/**
 * Sync as a stranger would strain it, with two devices (two Chromium profiles) through
 * pouchdb-server on loopback: a device that narrows its scopes and later widens them again (the
 * memories it stops syncing stay on the server and on the other device; widening takes in what the
 * server holds of the scopes added); and an import of 2,000 memories on one device while the other
 * edits and tags the memories they share (everything arrives, every edit stays).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { engine, engineReady, seed } from './app-support';
import { content, ctl, has, join, newDevice, serverRecords, total, until, syncSuite } from './sync-support';

const DB = 'engram-probes';
const PASS = 'probes passphrase';
const suite = syncSuite([DB]);
const { devices } = suite;
let a: Page;
let b: Page;

/**
 * Changes the scopes this device syncs, as the Sync form does when it resumes with the kept key
 * (same server and database, no passphrase), and reloads so sync resumes with them.
 */
async function rescope(p: Page, scopes: string[] | undefined): Promise<void> {
	await p.evaluate(async (s) => {
		const e = (globalThis as unknown as { __engram: { getSetting(k: string): Promise<any>; setSetting(k: string, v: unknown): Promise<void> } }).__engram; // eslint-disable-line @typescript-eslint/no-explicit-any
		const cfg = await e.getSetting('sync_config');
		cfg.server.scopes = s;
		await e.setSetting('sync_config', cfg);
	}, scopes);
	await p.reload();
	await engineReady(p);
	await p.getByTestId('sync-chip').getByText('Synced').waitFor({ timeout: 30_000 });
}

describe('sync probes', () => {
	it('two devices in step', async () => {
		a = await newDevice(suite.app.url, devices);
		await join(a, { url: suite.couch.url, database: DB, passphrase: PASS });
		b = await newDevice(suite.app.url, devices);
		await join(b, { url: suite.couch.url, database: DB, passphrase: PASS });
	}, 90_000);

	it('a device that narrows its scopes deletes nothing elsewhere; widening them again takes in what the server holds', async () => {
		const [team, mine] = await seed(a, [
			{ content: 'The team standup moved to 9:45', scope: 'team' },
			{ content: 'My own reading list: Designing Data-Intensive Applications', scope: 'reading' },
		]);
		await until('B has both', async () => (await has(b, team)) && (await has(b, mine)));
		await ctl(a, 'idle');
		// The device's sync map is saved within 5 s (sync-map.ts): a person changes the scopes later.
		await new Promise((r) => setTimeout(r, 6_000));
		await rescope(a, ['team']);
		await ctl(a, 'idle');
		// A memory of another scope written on B while A syncs only "team" stays away from A.
		const [later] = await seed(b, [{ content: 'Reading list addition: The Pragmatic Programmer', scope: 'reading' }]);
		const [teamLater] = await seed(b, [{ content: 'The team retro is on Friday', scope: 'team' }]);
		await until('A has the team memory from B', () => has(a, teamLater));
		await ctl(a, 'idle');
		await ctl(b, 'idle');
		expect(await has(a, later)).toBe(false);
		// Nothing A stopped syncing was deleted: on the server, on B, on A.
		const recs = await serverRecords(suite.couch.url, DB, PASS);
		expect(recs.has(mine)).toBe(true);
		expect(await has(b, mine)).toBe(true);
		expect(await has(a, mine)).toBe(true);
		// Widening again: what the server holds of "reading" arrives.
		await rescope(a, undefined);
		await until('A has B’s reading memory after widening', () => has(a, later));
		expect(await total(a)).toBe(await total(b));
	}, 120_000);

	it('an import of 2,000 memories on A while B edits and tags the shared memories: everything arrives, every edit stays', async () => {
		const shared = await seed(
			a,
			Array.from({ length: 5 }, (_, i) => ({
				content: `Shared note ${i}: the ${['red', 'green', 'blue', 'amber', 'grey'][i]} team owns service ${i}`,
				tags: ['shared'],
			})),
		);
		for (const id of shared) await until('B has the shared notes', () => has(b, id));
		const lines = [JSON.stringify({ kind: 'header', format: 'engram', version: 1 })];
		for (let i = 0; i < 2000; i++)
			lines.push(
				JSON.stringify({
					kind: 'memory',
					id: `bulk-${i}`,
					content: `Bulk note ${i}: sensor ${i % 97} read ${(i * 7) % 101} degrees in hall ${i % 13}`,
				}),
			);
		const importing = engine(a, 'importMemories', { data: lines.join('\n'), format: 'jsonl' });
		for (const [i, id] of shared.entries()) {
			await engine(b, 'update', { memory_id: id, content: `Shared note ${i}: edited on B while A imported`, tags: ['shared', `b-${i}`] });
		}
		await importing;
		const n = await total(a);
		await until('B has every imported memory', async () => (await total(b)) === n, 120_000);
		for (const [i, id] of shared.entries())
			for (const p of [a, b]) {
				await until('the edit from B on both', async () => (await content(p, id)) === `Shared note ${i}: edited on B while A imported`, 30_000);
			}
		expect(await has(b, 'bulk-1999')).toBe(true);
	}, 240_000);
});

/**
 * Sync when things go wrong, with two devices (two Chromium profiles) and a CouchDB-protocol
 * server on loopback kept on disk: the server stopped in the middle of a push and started again
 * on the same port (replication resumes from its checkpoints: nothing lost, nothing written
 * twice); a device offline while both write (its chip says what waits; both converge once it is
 * back); and bad documents arriving during a running sync (tampered ciphertext, another app's
 * document, a newer schema version, a huge one): skipped and listed in the sync panel while sync
 * goes on and the local store stays as it was; the database deleted under a running device (it
 * says so and sends nothing more; set up again on the re-created database with a new passphrase,
 * every document there opens with the new key).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { engine, seed } from './app-support';
import { content, ctl, has, join, newDevice, serverDocs, serverRecords, total, until, syncSuite } from './sync-support';

const DB = 'engram-faults';
const PASS = 'faults passphrase';
const suite = syncSuite([DB], { persistent: true });
const { devices } = suite;
let a: Page;
let b: Page;

const memoryDocs = async () => (await serverDocs(suite.couch.url, DB)).filter((d) => d._id !== 'engram-sync-salt');

describe('sync faults', () => {
	it('two devices in step', async () => {
		a = await newDevice(suite.app.url, devices);
		await seed(a, [{ content: 'The release train leaves every second Wednesday' }]);
		await join(a, { url: suite.couch.url, database: DB, passphrase: PASS });
		b = await newDevice(suite.app.url, devices);
		await join(b, { url: suite.couch.url, database: DB, passphrase: PASS });
		await until('B has the memory', async () => (await total(b)) === 1);
	}, 90_000);

	it('the server stops in the middle of a push and comes back on the same port: sync resumes from its checkpoint', async () => {
		const n = 400;
		const lines = [JSON.stringify({ kind: 'header', format: 'engram', version: 1 })];
		for (let i = 0; i < n; i++)
			lines.push(
				JSON.stringify({
					kind: 'memory',
					id: `batch-${i}`,
					content: `Batch note ${i}: the ${['north', 'south', 'east', 'west'][i % 4]} rack holds server ${i}`,
				}),
			);
		await engine(a, 'importMemories', { data: lines.join('\n'), format: 'jsonl' });
		// Stop the server as soon as part of the batch is on it.
		await until('part of the batch reached the server', async () => (await memoryDocs()).length > 1, 60_000);
		await suite.couch.halt();
		await a
			.getByTestId('sync-chip')
			.getByText(/^Offline/)
			.waitFor({ timeout: 30_000 });
		// A write while the server is away waits on the device.
		const [late] = await seed(a, [{ content: 'Written while the server was away: the badge reader is fixed' }]);
		await suite.couch.restart();
		await until('B has everything', async () => (await total(b)) === n + 2, 90_000);
		expect(await has(b, late)).toBe(true);
		await a.getByTestId('sync-chip').getByText('Synced').waitFor({ timeout: 30_000 });
		// Resumed, not restarted: every document on the server is still at its first revision.
		const docs = await memoryDocs();
		expect(docs.length).toBe(n + 2);
		expect(docs.filter((d) => !String(d._rev).startsWith('1-'))).toEqual([]);
		expect(await total(a)).toBe(n + 2);
	}, 180_000);

	it('a device offline while both write: its chip says what waits; both converge when it is back', async () => {
		await ctl(a, 'idle');
		await ctl(b, 'idle');
		const [shared] = await seed(a, [{ content: 'The printer on floor three needs toner' }]);
		await until('B has it', () => has(b, shared));
		await devices[1].browser.context.setOffline(true);
		const [fromA] = await seed(a, [{ content: 'The VPN certificate expires in March' }]);
		await engine(a, 'update', { memory_id: shared, content: 'The printer on floor three has new toner' });
		const fromB = await seed(b, [{ content: 'Lunch orders close at eleven' }, { content: 'The fire drill is on Friday at ten' }]);
		await b.getByTestId('sync-chip').getByText('Offline, 2 waiting').waitFor({ timeout: 30_000 });
		await devices[1].browser.context.setOffline(false);
		await until('A has both of B’s memories', async () => (await has(a, fromB[0])) && (await has(a, fromB[1])), 40_000);
		await until(
			'B has A’s memory and edit',
			async () => (await has(b, fromA)) && (await content(b, shared)) === 'The printer on floor three has new toner',
			40_000,
		);
		await b.getByTestId('sync-chip').getByText('Synced').waitFor({ timeout: 30_000 });
		expect(await total(a)).toBe(await total(b));
	}, 120_000);

	it('tampered, foreign, newer-version and huge documents are skipped and listed; sync goes on; the local store is intact', async () => {
		const [victim] = await seed(a, [{ content: 'The staging database password rotates monthly' }]);
		await until('B has it', () => has(b, victim));
		await ctl(b, 'idle');
		const countB = await total(b);
		// Flip bytes of the ciphertext through the server's HTTP API.
		const doc = (await (await fetch(`${suite.couch.url}/${DB}/${victim}`)).json()) as { ct: string };
		const ct = doc.ct;
		const flipped = ct.slice(0, 10) + (ct[10] === 'A' ? 'B' : 'A') + ct.slice(11);
		const put = (d: Record<string, unknown>) =>
			fetch(`${suite.couch.url}/${DB}/${encodeURIComponent(String(d._id))}`, {
				method: 'PUT',
				headers: { 'Content-Type': 'application/json' },
				body: JSON.stringify(d),
			});
		expect((await put({ ...doc, ct: flipped })).ok).toBe(true);
		expect((await put({ _id: 'other-app-note-1', title: 'Shopping list', items: ['milk'] })).ok).toBe(true);
		expect((await put({ _id: 'from-the-future-1', v: 2, iv: 'AAAAAAAAAAAAAAAA', ct: 'AAAA', alg: 'xchacha' })).ok).toBe(true);
		expect((await put({ _id: 'huge-1', v: 1, iv: 'AAAAAAAAAAAAAAAA', ct: 'A'.repeat(2_000_000) })).ok).toBe(true);
		// Sync goes on: a memory written after them arrives.
		const [after] = await seed(a, [{ content: 'The coffee machine is descaled on Mondays' }]);
		await until('B has the memory written after the bad documents', () => has(b, after), 30_000);
		await b.getByText('4 document(s) skipped').click();
		const list = b.getByTestId('sync-skipped');
		await list.getByText(`${victim}`).waitFor();
		await expect(list.innerText()).resolves.toMatch(new RegExp(`${victim}: could not be decrypted`));
		const text = await list.innerText();
		expect(text).toMatch(/other-app-note-1: not an Engram document/);
		expect(text).toMatch(/from-the-future-1: unknown schema version 2/);
		expect(text).toMatch(/huge-1: too large/);
		// The tampered memory is as it was; nothing else changed.
		expect(await content(b, victim)).toBe('The staging database password rotates monthly');
		expect(await total(b)).toBe(countB + 1);
		await b.getByTestId('sync-chip').getByText('Synced').waitFor();
		// A (which wrote them) lists the same and keeps its memory too.
		expect(await content(a, victim)).toBe('The staging database password rotates monthly');
	}, 90_000);

	it('the database deleted under a running device: it says so and sends nothing more; after a reload, set up again with a new passphrase, every document opens with it', async () => {
		await ctl(a, 'idle');
		expect((await fetch(`${suite.couch.url}/${DB}`, { method: 'DELETE' })).ok).toBe(true);
		const [lost] = await seed(a, [{ content: 'Written after the database was deleted: the on-call rota moved to Mondays' }]);
		await a.getByTestId('sync-chip').getByText('Sync error').waitFor({ timeout: 30_000 });
		await a.getByRole('alert').getByText(`The database "${DB}" is gone from the server`).waitFor();
		// Someone re-creates it empty (no key document): what A holds must not land there under the old key.
		expect((await fetch(`${suite.couch.url}/${DB}`, { method: 'PUT' })).ok).toBe(true);
		await seed(a, [{ content: 'Written after the database was re-created: the VPN moved to port 8443' }]);
		// After a reload the device finds the database without its key document and says what to do.
		await a.reload();
		await a.getByRole('alert').getByText('The database has no engram-sync-salt document any more').waitFor({ timeout: 30_000 });
		const fresh = 'a new passphrase after the loss';
		await join(a, { url: suite.couch.url, database: DB, passphrase: fresh });
		const n = await total(a);
		await until('every memory of A is on the server', async () => (await memoryDocs()).length === n, 60_000);
		// Every document opens with the new passphrase (none was sent under the old key).
		const records = await serverRecords(suite.couch.url, DB, fresh);
		expect(records.size).toBe(n);
		expect(records.get(lost)?.content).toBe('Written after the database was deleted: the on-call rota moved to Mondays');
	}, 120_000);
});

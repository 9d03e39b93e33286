/**
 * Sync when the server misbehaves, with two devices (two Chromium profiles) syncing through a proxy
 * in front of pouchdb-server that answers 500, 401, never, or 3 s late: 500s and a server that
 * stops answering leave the chip at "Offline, N waiting" and sync picks up by itself once the
 * server answers again (nothing lost, nothing sent twice); a slow server gets there; a 401 stops
 * sync with words that say what to do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seed } from './app-support';
import { faultProxy, has, join, newDevice, serverDocs, total, until, syncSuite, type FaultProxy } from './sync-support';

const DB = 'engram-server';
const PASS = 'server passphrase';
const suite = syncSuite([DB]);
const { devices } = suite;
let proxy: FaultProxy;
let a: Page;
let b: Page;

beforeAll(async () => {
	proxy = await faultProxy(suite.couch.url);
});
afterAll(async () => {
	await proxy?.stop();
});

const chip = (p: Page) => p.getByTestId('sync-chip').innerText();

/** Every memory document on the server is a single revision line: nothing was written twice. */
async function noDuplicates(): Promise<void> {
	for (const d of await serverDocs(suite.couch.url, DB)) expect(d._conflicts).toBeUndefined();
}

describe('a misbehaving server', () => {
	it('two devices in step through the proxy', async () => {
		a = await newDevice(suite.app.url, devices);
		await join(a, { url: proxy.url, database: DB, passphrase: PASS });
		b = await newDevice(suite.app.url, devices);
		await join(b, { url: proxy.url, database: DB, passphrase: PASS });
	}, 90_000);

	it('the server answers 500 while A writes: Offline, N waiting; once it answers again everything arrives', async () => {
		proxy.mode = '500';
		const ids = await seed(
			a,
			Array.from({ length: 5 }, (_, i) => ({ content: `Written while the server fails: note ${i}` })),
		);
		await until('A says it is offline with what waits', async () => /^Offline, \d+ waiting$/.test(await chip(a)), 30_000);
		proxy.mode = 'pass';
		for (const id of ids) await until('B has it', () => has(b, id), 60_000);
		await until('A says Synced', async () => (await chip(a)) === 'Synced', 60_000);
		await noDuplicates();
	}, 120_000);

	it('the server stops answering (requests hang): A says so; once it answers again sync picks up by itself', async () => {
		proxy.mode = 'hang';
		const [id] = await seed(a, [{ content: 'Written while the server hangs' }]);
		// Before, the chip said "Syncing" for good and the memory never left, even once the server answered again.
		await until('A says it is offline with what waits', async () => /^Offline, \d+ waiting$/.test(await chip(a)), 120_000);
		proxy.mode = 'pass';
		await until('B has it', () => has(b, id), 120_000);
		await until('A says Synced', async () => (await chip(a)) === 'Synced', 60_000);
		await noDuplicates();
	}, 300_000);

	it('a server answering 3 s late: everything arrives', async () => {
		proxy.mode = 'slow';
		const ids = await seed(
			b,
			Array.from({ length: 3 }, (_, i) => ({ content: `Written while the server is slow: note ${i}` })),
		);
		for (const id of ids) await until('A has it', () => has(a, id), 90_000);
		proxy.mode = 'pass';
		await until('both Synced', async () => (await chip(a)) === 'Synced' && (await chip(b)) === 'Synced', 60_000);
		expect(await total(a)).toBe(await total(b));
		await noDuplicates();
	}, 150_000);

	it('the server refuses the password (401): sync stops and says what to do', async () => {
		proxy.mode = '401';
		await seed(a, [{ content: 'Written after the password changed on the server' }]);
		await until('A says Sync error', async () => (await chip(a)) === 'Sync error', 60_000);
		expect(await a.getByTestId('sync-chip').getAttribute('title')).toBe(
			'The server refused the user and password (401): sync stopped. Every memory stays on this device; to sync again, Stop syncing this device and Start syncing with the current password and the passphrase.',
		);
		proxy.mode = 'pass';
	}, 90_000);
});

/**
 * Sync over time, with two devices (two Chromium profiles) through pouchdb-server on loopback:
 * the mirror of a memory edited many times stays bounded (compaction.ts) and a merge after it
 * still finds its base; a device offline for long that edits a memory the other edited many times
 * meanwhile, against a server that compacted away their common version: both edits stay; and
 * deleting every memory on one device deletes them everywhere except those another device edited
 * while offline (an edit beats a delete).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { engine, seed } from './app-support';
import { startPreview, type Server } from './helpers';
import { content, ctl, has, join, mirrorStats, newDevice, serverDocs, startCouch, total, until, type Couch, type Device } from './sync-support';
import { KEEP_VERSIONS } from '../../src/sync/compaction';

const DB = 'engram-apart';
const PASS = 'apart passphrase';
let couch: Couch;
let app: Server;
const devices: Device[] = [];
let a: Page;
let b: Page;

beforeAll(async () => {
	[couch, app] = await Promise.all([startCouch(), startPreview()]);
	await fetch(`${couch.url}/${DB}`, { method: 'PUT' });
}, 60_000);
afterAll(async () => {
	for (const d of devices) await d.browser.close();
	await app?.stop();
	await couch?.stop();
});

type Mem = { content: string; tags: string[]; importance: number };
const memory = (p: Page, id: string) => engine<{ memory: Mem }>(p, 'get', { memory_id: id }).then((m) => m.memory);

/** Waits until neither device has work queued and both chips say Synced, and the server holds no conflict. */
async function settled(pages: Page[]): Promise<void> {
	await until(
		'both devices synced, no conflict on the server',
		async () => {
			for (const p of pages) await ctl(p, 'idle');
			if (!(await serverDocs(couch.url, DB)).every((d) => !d._conflicts)) return false;
			for (const p of pages) if (!(await p.getByTestId('sync-chip').getByText('Synced').count())) return false;
			return true;
		},
		30_000,
	);
}

describe('sync over time', () => {
	it('two devices in step', async () => {
		a = await newDevice(app.url, devices);
		await join(a, { url: couch.url, database: DB, passphrase: PASS });
		b = await newDevice(app.url, devices);
		await join(b, { url: couch.url, database: DB, passphrase: PASS });
	}, 90_000);

	it('a memory edited 40 times: each mirror keeps a bounded number of its versions, and a merge afterwards still finds its base', async () => {
		const [m] = await seed(a, [{ content: 'The on-call rota changes every Monday', tags: ['ops'] }]);
		await until('B has it', () => has(b, m));
		for (let i = 1; i <= 40; i++) {
			await engine(a, 'update', { memory_id: m, content: `The on-call rota changes every Monday (revision ${i})` });
			await ctl(a, 'idle');
		}
		await until('B has the last edit', async () => (await content(b, m))?.endsWith('(revision 40)') ?? false);
		// Compaction runs once both directions are caught up, at most every 10 s.
		const bound = (await mirrorStats(a)).docs * (KEEP_VERSIONS + 1);
		for (const p of [a, b]) await until('the mirror is compacted', async () => (await mirrorStats(p)).bodies <= bound, 30_000);
		// A merge of two edits made apart (content on A, tags on B) still finds the version they came from.
		for (const p of [a, b]) await ctl(p, 'idle');
		for (const p of [a, b]) await ctl(p, 'pause');
		await engine(a, 'update', { memory_id: m, content: 'The on-call rota changes every Tuesday' });
		await engine(b, 'update', { memory_id: m, tags: ['ops', 'rota'] });
		await new Promise((r) => setTimeout(r, 300));
		for (const p of [a, b]) await ctl(p, 'idle');
		for (const p of [a, b]) await ctl(p, 'resume');
		for (const p of [a, b])
			await until('both edits on the device', async () => {
				const x = await memory(p, m);
				return x.content === 'The on-call rota changes every Tuesday' && x.tags.includes('rota');
			});
		await settled([a, b]);
	}, 120_000);
});

/**
 * Sync merging what two devices changed while apart (two, then three Chromium profiles, each its
 * own IndexedDB, through pouchdb-server on loopback; paused replication stands in for being
 * offline): tags added on one and a link on the other both stay; a tag removed on one stays
 * removed while the other adds one; a content edit and a tag edit both stay; a link removed on one
 * stays removed while the other edits the content; the same field
 * changed on both keeps the later value, the other in History on both devices; every device and
 * the server end with the same record and no conflicting revision. Then ids and tags CouchDB
 * treats specially (a leading "_", "_design/…", "_local/…", the salt document's id, "/", "%",
 * emoji, right-to-left text) and a 50,000-character memory travel intact and the database's key
 * document stays untouched.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { engine, seed } from './app-support';
import { content, ctl, has, join, linksOf, newDevice, serverDocs, serverRecords, total, until, syncSuite } from './sync-support';
import type { SyncRecord } from '../../src/engine/types';
import { fingerprint } from '../../src/sync/records';

const DB = 'engram-merge';
const PASS = 'merge passphrase';
const suite = syncSuite([DB]);
const { devices } = suite;
let a: Page;
let b: Page;

type Mem = { content: string; tags: string[]; importance: number; metadata: Record<string, unknown> };
const memory = (p: Page, id: string) => engine<{ memory: Mem }>(p, 'get', { memory_id: id }).then((m) => m.memory);
const history = (p: Page, id: string) =>
	engine<{ actor: string; detail?: string; changes?: Record<string, { from: unknown; to: unknown }> }[]>(p, 'history', id);

/** Pauses every device once its queue is empty: from here each writes to its own mirror only. */
async function apart(pages: Page[]): Promise<void> {
	for (const p of pages) await ctl(p, 'idle');
	for (const p of pages) await ctl(p, 'pause');
}

/** Lets the engine's change events land in the mirrors, then resumes every device. */
async function together(pages: Page[]): Promise<void> {
	// The engine's change events reach the controller asynchronously (as in sync.test.ts).
	await new Promise((r) => setTimeout(r, 300));
	for (const p of pages) await ctl(p, 'idle');
	for (const p of pages) await ctl(p, 'resume');
}

/**
 * Waits until the server holds no conflicting revision and every device holds exactly the
 * server's record of each of `ids` (the merges written, the losing revisions removed), each
 * device idle and caught up.
 */
async function settled(pages: Page[], ids: string[]): Promise<void> {
	await until(
		'every device and the server hold the same records',
		async () => {
			for (const p of pages) await ctl(p, 'idle');
			if (!(await serverDocs(suite.couch.url, DB)).every((d) => !d._conflicts)) return false;
			const recs = await serverRecords(suite.couch.url, DB, PASS);
			for (const p of pages) {
				if (!(await p.getByTestId('sync-chip').getByText('Synced').count())) return false;
				for (const r of await engine<SyncRecord[]>(p, 'syncRecords', ids))
					if (!recs.has(r.id) || fingerprint(recs.get(r.id)!) !== fingerprint(r)) return false;
			}
			return true;
		},
		30_000,
	);
}

describe('merging what two devices changed while apart', () => {
	it('two devices in step', async () => {
		a = await newDevice(suite.app.url, devices);
		await join(a, { url: suite.couch.url, database: DB, passphrase: PASS });
		b = await newDevice(suite.app.url, devices);
		await join(b, { url: suite.couch.url, database: DB, passphrase: PASS });
	}, 90_000);

	it('tags added on A and a link added on B both stay; a tag removed on A stays removed while B adds one; a content edit on A and a tag edit on B both stay', async () => {
		const [m1, m2, m3, m4] = await seed(a, [
			{ content: 'The payments service retries failed charges three times', tags: ['payments'] },
			{ content: 'The fraud scorer runs before every charge', tags: ['fraud'] },
			{ content: 'The staging database is refreshed every Sunday', tags: ['staging', 'old'] },
			{ content: 'The release checklist lives in the wiki', tags: ['release'] },
		]);
		await until('B has all four', async () => (await Promise.all([m1, m2, m3, m4].map((id) => has(b, id)))).every(Boolean));
		await apart([a, b]);
		await engine(a, 'update', { memory_id: m1, tags: ['payments', 'urgent', '🔥'] });
		await engine(a, 'update', { memory_id: m3, tags: ['staging'] });
		await engine(a, 'update', { memory_id: m4, content: 'The release checklist lives in the repository, next to the code' });
		await new Promise((r) => setTimeout(r, 20)); // B's edits are the later ones
		await engine(b, 'associate', { memory1_id: m1, memory2_id: m2, type: 'LEADS_TO', strength: 0.7 });
		await engine(b, 'update', { memory_id: m3, tags: ['staging', 'old', 'weekly'] });
		await engine(b, 'update', { memory_id: m4, tags: ['release', 'process'] });
		await together([a, b]);
		for (const p of [a, b]) {
			await until('both edits of m1 on the device', async () => {
				const [m, l] = [await memory(p, m1), await linksOf(p, m1)];
				return m.tags.includes('urgent') && l.includes(`LEADS_TO→${m2}`);
			});
			await until(
				'm3: the removal and the addition',
				async () => (await memory(p, m3)).tags.includes('weekly') && !(await memory(p, m3)).tags.includes('old'),
			);
			await until('m4: the content edit and the tag edit', async () => {
				const m = await memory(p, m4);
				return m.content === 'The release checklist lives in the repository, next to the code' && m.tags.includes('process');
			});
		}
		await settled([a, b], [m1, m3, m4]);
		const recs = await serverRecords(suite.couch.url, DB, PASS);
		for (const p of [a, b]) {
			expect((await memory(p, m1)).tags.sort()).toEqual(['payments', 'urgent', '🔥'].sort());
			expect(await linksOf(p, m1)).toEqual([`LEADS_TO→${m2}`]);
			expect((await memory(p, m3)).tags.sort()).toEqual(['staging', 'weekly']);
			expect((await memory(p, m4)).tags.sort()).toEqual(['process', 'release']);
			// Nothing conflicted: no sync entry in History.
			for (const id of [m1, m3, m4]) expect((await history(p, id)).filter((e) => e.actor === 'sync')).toEqual([]);
		}
		// The server holds the merged record.
		expect(recs.get(m1)?.tags.sort()).toEqual(['payments', 'urgent', '🔥'].sort());
		expect(recs.get(m1)?.links.map((l) => `${String(l.type)}→${String(l.to)}`)).toEqual([`LEADS_TO→${m2}`]);
		expect(recs.get(m3)?.tags.sort()).toEqual(['staging', 'weekly']);
		expect(recs.get(m4)).toMatchObject({ content: 'The release checklist lives in the repository, next to the code' });
		expect(recs.get(m4)?.tags.sort()).toEqual(['process', 'release']);
	}, 90_000);

	it('a link removed on A while B edits the content: the link stays removed and the edit stays', async () => {
		const [m5, m6] = await seed(a, [
			{ content: 'The nightly backup copies the billing database' },
			{ content: 'The billing database holds invoices since 2019' },
		]);
		await engine(a, 'associate', { memory1_id: m5, memory2_id: m6, type: 'RELATES_TO', strength: 0.6 });
		await until('B has the link', async () => (await linksOf(b, m5)).includes(`RELATES_TO→${m6}`));
		await apart([a, b]);
		await engine(a, 'deleteAssociation', { memory1_id: m5, memory2_id: m6, type: 'RELATES_TO' });
		await new Promise((r) => setTimeout(r, 20));
		await engine(b, 'update', { memory_id: m5, content: 'The nightly backup copies the billing database to cold storage' });
		await together([a, b]);
		for (const p of [a, b])
			await until('the unlink and the edit on the device', async () => {
				// (Derived links such as SIMILAR_TO are each device's own.)
				return (
					(await content(p, m5)) === 'The nightly backup copies the billing database to cold storage' &&
					!(await linksOf(p, m5)).includes(`RELATES_TO→${m6}`)
				);
			});
		await settled([a, b], [m5]);
		expect((await serverRecords(suite.couch.url, DB, PASS)).get(m5)?.links).toEqual([]);
	}, 90_000);

	it('the same field changed on both keeps the later value and the other in History on both; importance too; they converge without new revisions', async () => {
		const [x, y] = await seed(a, [
			{ content: 'The team lunch is on Wednesdays at noon', importance: 0.5 },
			{ content: 'The VPN certificate expires in March', importance: 0.5, tags: ['security'] },
		]);
		await until('B has both', async () => (await has(b, x)) && (await has(b, y)));
		await apart([a, b]);
		await engine(a, 'update', { memory_id: x, content: 'The team lunch is on Thursdays at noon' });
		await engine(a, 'update', { memory_id: y, importance: 0.9, tags: ['security', 'expiry'] });
		await new Promise((r) => setTimeout(r, 20));
		await engine(b, 'update', { memory_id: x, content: 'The team lunch is on Fridays at one' });
		await engine(b, 'update', { memory_id: y, importance: 0.2 });
		await together([a, b]);
		for (const p of [a, b]) {
			await until('the later content on the device', async () => (await content(p, x)) === 'The team lunch is on Fridays at one');
			await until('y: B’s importance, A’s tag', async () => {
				const m = await memory(p, y);
				return m.importance === 0.2 && m.tags.includes('expiry');
			});
			await until('the losing content is in the History', async () =>
				(await history(p, x)).some((e) => e.actor === 'sync' && e.changes?.content?.from === 'The team lunch is on Thursdays at noon'),
			);
			await until('the losing importance is in the History, and only it', async () =>
				(await history(p, y)).some((e) => e.actor === 'sync' && e.changes?.importance?.from === 0.9 && Object.keys(e.changes).join() === 'importance'),
			);
		}
		await settled([a, b], [x, y]);
		const revs = new Map((await serverDocs(suite.couch.url, DB)).map((d) => [String(d._id), String(d._rev)]));
		// Another round on both devices writes nothing new (no ping-pong of merges).
		await settled([a, b], [x, y]);
		for (const d of await serverDocs(suite.couch.url, DB)) expect(d._rev).toBe(revs.get(String(d._id)));
		const recs = await serverRecords(suite.couch.url, DB, PASS);
		expect(recs.get(x)?.content).toBe('The team lunch is on Fridays at one');
		expect(recs.get(y)).toMatchObject({ importance: 0.2 });
		// Exactly one History entry per conflict, on each device.
		for (const p of [a, b]) expect((await history(p, x)).filter((e) => e.actor === 'sync').length).toBe(1);
	}, 90_000);

	it('three devices each changing another part of one memory while apart converge on all three changes', async () => {
		const c = await newDevice(suite.app.url, devices);
		await join(c, { url: suite.couch.url, database: DB, passphrase: PASS });
		const [m] = await seed(a, [{ content: 'The office wifi password rotates monthly', tags: ['office'], metadata: { floor: 3 } } as never]);
		const all = [a, b, c];
		for (const p of all) await until('everyone has m', () => has(p, m));
		await apart(all);
		await engine(a, 'update', { memory_id: m, content: 'The office wifi password rotates on the first Monday of each month' });
		await engine(b, 'update', { memory_id: m, tags: ['office', 'it'] });
		await engine(c, 'update', { memory_id: m, metadata: { floor: 3, building: 'B' } });
		await together(all);
		for (const p of all)
			await until(
				'all three changes on the device',
				async () => {
					const x = await memory(p, m);
					return x.content.includes('first Monday') && x.tags.includes('it') && x.metadata.building === 'B';
				},
				30_000,
			);
		await settled(all, [m]);
		const rec = (await serverRecords(suite.couch.url, DB, PASS)).get(m);
		expect(rec).toMatchObject({ content: 'The office wifi password rotates on the first Monday of each month', metadata: { floor: 3, building: 'B' } });
		expect(rec?.tags.sort()).toEqual(['it', 'office']);
	}, 120_000);
});

describe('ids, tags and sizes CouchDB treats specially', () => {
	it('travel intact, and the key document stays untouched', async () => {
		const saltBefore = (await serverDocs(suite.couch.url, DB)).find((d) => d._id === 'engram-sync-salt');
		const ids = ['_underscore', '_design/looks-like-a-view', '_local/looks-local', 'engram-sync-salt', 'a/b', '100%', '🔥 emoji', 'שלום', '~tilde'];
		const big = 'x'.repeat(49_990) + ' tail';
		await engine(a, 'store', {
			memories: [
				...ids.map((id, i) => ({
					id,
					content: `A memory with an awkward id number ${i}`,
					tags: ['🔥', 'שלום', 'a/b', '100%', '_design', '__proto__'],
				})),
				{ id: 'big-one', content: big },
			],
		});
		for (const id of [...ids, 'big-one']) await until(`B has ${id}`, () => has(b, id));
		expect(await content(b, 'big-one')).toBe(big);
		for (const [i, id] of ids.entries()) {
			const m = await memory(b, id);
			expect(m.content).toBe(`A memory with an awkward id number ${i}`);
			expect(m.tags).toEqual(['🔥', 'שלום', 'a/b', '100%', '_design', '__proto__']);
		}
		const saltAfter = (await serverDocs(suite.couch.url, DB)).find((d) => d._id === 'engram-sync-salt');
		expect(saltAfter).toEqual(saltBefore);
		// An edit and a delete of such a memory travel too.
		await engine(b, 'update', { memory_id: '_design/looks-like-a-view', content: 'Edited on B' });
		await engine(b, 'delete', { memory_id: 'engram-sync-salt' });
		await until('the edit reached A', async () => (await content(a, '_design/looks-like-a-view')) === 'Edited on B');
		await until('the delete reached A', async () => !(await has(a, 'engram-sync-salt')));
		// A new device still joins with the passphrase.
		const d = await newDevice(suite.app.url, devices);
		await join(d, { url: suite.couch.url, database: DB, passphrase: PASS });
		await until('the new device has everything', async () => (await total(d)) === (await total(a)), 30_000);
	}, 120_000);
});

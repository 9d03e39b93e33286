/**
 * Sync over time, with two devices (two Chromium profiles) through pouchdb-server on loopback:
 * the mirror of a memory edited many times stays bounded (compaction.ts) and a merge after it
 * still finds its base; a device offline for long that edits a memory the other edited many times
 * meanwhile, against a server that compacted away their common version: both edits stay; an edit
 * stamped a day ahead (the revision tree orders an edit of what it wrote; a clash while apart keeps
 * the later edit on sync's shared clock, which a caller-set updated_at does not move, the other in History; a clock truly ahead is
 * test/unit/sync/incoming.test.ts "clocks that disagree"); a second tab that does not sync sees and sends changes; and
 * deleting every memory on one device deletes them everywhere except the one another device
 * edited while offline (an edit beats a delete). */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { engine, engineReady, seed } from './app-support';
import { content, ctl, has, join, mirrorStats, newDevice, serverDocs, total, until, syncSuite } from './sync-support';
import { KEEP_VERSIONS } from '../../src/sync/compaction';

const DB = 'engram-apart';
const PASS = 'apart passphrase';
const suite = syncSuite([DB]);
const { devices } = suite;
let a: Page;
let b: Page;

type Mem = { content: string; tags: string[]; importance: number };
const history = (p: Page, id: string) => engine<{ actor: string; changes?: Record<string, { from: unknown; to: unknown }> }[]>(p, 'history', id);
const memory = (p: Page, id: string) => engine<{ memory: Mem }>(p, 'get', { memory_id: id }).then((m) => m.memory);

/** Whether a device's mirror holds no more than `KEEP_VERSIONS` + 1 bodies per document. */
async function compacted(p: Page): Promise<boolean> {
	const s = await mirrorStats(p);
	return s.bodies <= s.docs * (KEEP_VERSIONS + 1);
}

/** Waits until neither device has work queued and both chips say Synced, and the server holds no conflict. */
async function settled(pages: Page[]): Promise<void> {
	await diagnosed(pages, () =>
		until(
			'both devices synced, no conflict on the server',
			async () => {
				for (const p of pages) await ctl(p, 'idle');
				if (!(await serverDocs(suite.couch.url, DB)).every((d) => !d._conflicts)) return false;
				for (const p of pages) if (!(await p.getByTestId('sync-chip').getByText('Synced').count())) return false;
				return true;
			},
			// 30 s ran out once in CI; 60 s ran out once in eleven runs of this file on 2026-12-08,
			// right after the server's _compact: both chips "Offline" (replication's requests failing)
			// for over a minute, no conflict, and the next test synced again. `diagnosed` names what
			// each device says. A minute leaves room for a slow host without hiding a device that never settles.
			60_000,
		),
	);
}

/** Runs `wait`; when it throws, adds what each device and the server say (an intermittent failure names its cause). */
async function diagnosed(pages: Page[], wait: () => Promise<void>): Promise<void> {
	try {
		await wait();
	} catch (e) {
		const states = await Promise.all(
			pages.map((p) =>
				p
					.evaluate(() => JSON.stringify((globalThis as unknown as { __engramSync: { status: unknown; elsewhere: unknown } }).__engramSync.status))
					.catch((x: Error) => x.message),
			),
		);
		const chips = await Promise.all(
			pages.map((p) =>
				p
					.getByTestId('sync-chip')
					.innerText()
					.catch((x: Error) => x.message),
			),
		);
		const conflicts = (await serverDocs(suite.couch.url, DB))
			.filter((d) => d._conflicts)
			.map((d) => `${String(d._id)} ${String(d._rev)} ${JSON.stringify(d._conflicts)}`);
		throw new Error(
			`${(e as Error).message}\nchips: ${JSON.stringify(chips)}\nstatus: ${states.join('\n')}\nserver conflicts: ${JSON.stringify(conflicts)}`,
			{ cause: e },
		);
	}
}

describe('sync over time', () => {
	it('two devices in step', async () => {
		a = await newDevice(suite.app.url, devices);
		await join(a, { url: suite.couch.url, database: DB, passphrase: PASS });
		b = await newDevice(suite.app.url, devices);
		await join(b, { url: suite.couch.url, database: DB, passphrase: PASS });
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
		for (const p of [a, b]) await until('the mirror is compacted', () => compacted(p), 30_000);
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

	it('B offline for long edits a memory A edits 15 times meanwhile; the server compacted their common version away: both edits stay', async () => {
		const [m] = await seed(a, [{ content: 'The staging cluster runs three nodes', tags: ['infra'] }]);
		await until('B has it', () => has(b, m));
		await ctl(b, 'idle');
		await ctl(b, 'pause');
		await engine(b, 'update', { memory_id: m, content: 'The staging cluster runs five nodes' });
		for (let i = 1; i <= 15; i++) {
			await engine(a, 'update', { memory_id: m, tags: ['infra', `week-${i}`], importance: 0.5 + i / 100 });
			await ctl(a, 'idle');
		}
		const others = await seed(
			a,
			Array.from({ length: 50 }, (_, i) => ({ content: `Meanwhile on A: runbook step ${i} checks disk ${i % 7}` })),
		);
		// CouchDB 3 compacts on its own: the version B started from is gone from the server.
		await until('A caught up', async () => (await a.getByTestId('sync-chip').getByText('Synced').count()) > 0);
		const r = await fetch(`${suite.couch.url}/${DB}/_compact`, { method: 'POST', headers: { 'Content-Type': 'application/json' } });
		expect(r.ok).toBe(true);
		await until(
			'the server compacted',
			async () => {
				const d = (await (await fetch(`${suite.couch.url}/${DB}/${m}?revs_info=true`)).json()) as { _revs_info: { status: string }[] };
				return d._revs_info.filter((x) => x.status === 'available').length === 1;
			},
			20_000,
		);
		await until('A compacted', () => compacted(a), 30_000);
		await new Promise((r) => setTimeout(r, 300));
		await ctl(b, 'idle');
		await ctl(b, 'resume');
		for (const p of [a, b])
			await until('the content from B and the tags and importance from A', async () => {
				const x = await memory(p, m);
				return x.content === 'The staging cluster runs five nodes' && x.tags.includes('week-15') && x.importance === 0.65;
			});
		await settled([a, b]);
		for (const p of [a, b]) {
			const x = await memory(p, m);
			expect([x.content, x.tags.sort(), x.importance]).toEqual(['The staging cluster runs five nodes', ['infra', 'week-15'], 0.65]);
		}
		await until('B has what A wrote meanwhile', () => has(b, others[49]));
	}, 120_000);

	it('an updated_at a day ahead set on A: B’s later edit of what A wrote wins; a clash while apart keeps B’s truly later edit (a caller-set date is no clock) and A’s is in History on both', async () => {
		const ahead = () => new Date(Date.now() + 86_400_000).toISOString();
		const [x, y] = await seed(a, [{ content: 'The printer on floor 2 needs toner' }, { content: 'The badge reader at door B is flaky' }]);
		await until('B has both', async () => (await has(b, x)) && (await has(b, y)));
		// A's edit carries a stamp a day ahead; B then edits the version A wrote, with its true clock.
		await engine(a, 'update', { memory_id: x, content: 'The printer on floor 2 got new toner', updated_at: ahead() });
		await until('B has A’s edit', async () => (await content(b, x)) === 'The printer on floor 2 got new toner');
		await ctl(b, 'idle');
		await engine(b, 'update', { memory_id: x, content: 'The printer on floor 2 was replaced' });
		for (const p of [a, b]) await until('B’s later edit on both', async () => (await content(p, x)) === 'The printer on floor 2 was replaced');
		// Apart, both change y's content, B truly later: A's updated_at says tomorrow, but A stamps
		// sync's clock no later than its own clock (both clocks are right here), so B's edit stays.
		for (const p of [a, b]) await ctl(p, 'idle');
		for (const p of [a, b]) await ctl(p, 'pause');
		await engine(a, 'update', { memory_id: y, content: 'The badge reader at door B was fixed', updated_at: ahead() });
		await new Promise((r) => setTimeout(r, 50));
		await engine(b, 'update', { memory_id: y, content: 'The badge reader at door B is flaky again' });
		await new Promise((r) => setTimeout(r, 300));
		for (const p of [a, b]) await ctl(p, 'idle');
		for (const p of [a, b]) await ctl(p, 'resume');
		for (const p of [a, b]) {
			await until('B’s later edit wins on the device', async () => (await content(p, y)) === 'The badge reader at door B is flaky again');
			await until('A’s content is in the History', async () =>
				(await history(p, y)).some((e) => e.actor === 'sync' && e.changes?.content?.from === 'The badge reader at door B was fixed'),
			);
		}
		await settled([a, b]);
		expect(await content(a, x)).toBe('The printer on floor 2 was replaced');
	}, 120_000);

	it('a second tab of A, which does not sync, sees what B writes, and what it writes reaches B', async () => {
		const a2 = await devices[0].browser.context.newPage();
		await a2.goto(a.url());
		await engineReady(a2);
		await a2.getByTestId('sync-chip').getByText('Synced').waitFor({ timeout: 30_000 });
		const [fromB] = await seed(b, [{ content: 'The parking garage closes at 22:00' }]);
		await until('the second tab has it', () => has(a2, fromB));
		const [fromA2] = await seed(a2, [{ content: 'The parking garage opens at 6:00' }]);
		await until('B has what the second tab wrote', () => has(b, fromA2));
		await a2.close();
	}, 90_000);

	it('deleting every memory on A deletes them on B too, except the one B edited while offline', async () => {
		const ids = await seed(
			a,
			Array.from({ length: 20 }, (_, i) => ({ content: `Shelf ${i}: the archive box of year ${2000 + i}` })),
		);
		for (const id of ids) await until('B has them', () => has(b, id));
		await ctl(b, 'idle');
		await ctl(b, 'pause');
		await engine(b, 'update', { memory_id: ids[3], content: 'Shelf 3: the archive box of 2003, checked by B' });
		await engine(a, 'wipe');
		await until('A holds nothing', async () => (await total(a)) === 0);
		await until(
			'the server holds no memory',
			async () => (await serverDocs(suite.couch.url, DB)).filter((d) => !String(d._id).startsWith('engram-')).length === 0,
			30_000,
		);
		await new Promise((r) => setTimeout(r, 300));
		await ctl(b, 'idle');
		await ctl(b, 'resume');
		await until('B applied the deletions', async () => (await total(b)) === 1, 30_000);
		await until('A has the memory B edited back', async () => (await content(a, ids[3])) === 'Shelf 3: the archive box of 2003, checked by B');
		await settled([a, b]);
		expect(await total(a)).toBe(1);
		expect(await content(b, ids[3])).toBe('Shelf 3: the archive box of 2003, checked by B');
	}, 120_000);
});

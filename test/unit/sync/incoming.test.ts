/**
 * The incoming path over a real PouchDB revision tree (the memory adapter, in Node) and a small
 * in-memory engine: conflicting revisions that changed different fields are merged over their
 * common ancestor and the merge is sent again; a local edit not yet sent that meets an incoming
 * version is merged over the version this device last had, rather than one of them winning whole.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { createRequire } from 'node:module';
import { describe, expect, it, vi } from 'vitest';
import type { SyncRecord } from '../../../src/engine/types';
import type { SyncContext } from '../../../src/sync/context';
import { seal } from '../../../src/sync/crypto';
import { Incoming } from '../../../src/sync/incoming';
import { Outgoing } from '../../../src/sync/outgoing';
import { fingerprint } from '../../../src/sync/records';
import { SyncStatusTracker } from '../../../src/sync/status';
import { SyncMap } from '../../../src/sync/sync-map';
import { Replication } from '../../../src/sync/replication';

// PouchDB's Node build with its in-memory adapter (the packages pouchdb-server brings; no types).
const require = createRequire(import.meta.url);
const PouchDB = require('pouchdb-core').plugin(require('pouchdb-adapter-memory')).plugin(require('pouchdb-replication'));

const T0 = '2026-12-01T10:00:00.000Z';
const base: SyncRecord = {
	id: 'm1',
	content: 'The build server is jenkins-01',
	type: 'Context',
	tags: ['ops'],
	scope: 'default',
	importance: 0.5,
	confidence: 0.9,
	metadata: {},
	timestamp: T0,
	updated_at: T0,
	links: [],
};

/** An engine holding records in a Map, with what Incoming calls. */
function fakeEngine() {
	const rows = new Map<string, SyncRecord>();
	const conflicts: { winner: SyncRecord; loser: SyncRecord; detail: string }[] = [];
	return {
		rows,
		conflicts,
		async syncRecords(ids?: string[]) {
			return (ids ?? [...rows.keys()]).flatMap((id) => (rows.has(id) ? [structuredClone(rows.get(id)!)] : []));
		},
		async applySyncRecords(input: { records: SyncRecord[]; links: Record<string, unknown>[]; conflicts: typeof conflicts }) {
			for (const { device: _d, clock: _c, ...r } of input.records) rows.set(r.id, structuredClone(r));
			for (const { from, ...l } of input.links) rows.get(String(from))?.links.push(l);
			conflicts.push(...input.conflicts);
			return { errors: [] };
		},
		async delete(input: { memory_ids: string[] }) {
			for (const id of input.memory_ids) rows.delete(id);
		},
		async recordSyncConflict(winner: SyncRecord, loser: SyncRecord, detail: string) {
			conflicts.push({ winner, loser, detail });
		},
		/** History entries by memory id (what `history` answers). */
		histories: new Map<string, { at: string; actor: string; action: string }[]>(),
		async history(id: string) {
			return this.histories.get(id) ?? [];
		},
		async setSetting() {},
		async subscribe() {
			return () => undefined;
		},
	};
}

async function setup(name: string) {
	const local = new PouchDB(name, { adapter: 'memory' });
	const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
	const engine = fakeEngine();
	let queue: Promise<unknown> = Promise.resolve();
	const serial = <T>(fn: () => Promise<T>): Promise<T> => {
		const run = queue.then(fn, fn);
		// As the controller's queue: a failure goes to the status.
		queue = run.catch((e: Error) => ctx.status.set({ status: 'error', error: e.message }));
		return run;
	};
	const map = new SyncMap(() => local, serial);
	await map.load(local);
	const resent: string[] = [];
	const ctx: SyncContext = {
		engine: engine as any,
		device: 'dev-here',
		local,
		remote: undefined,
		key,
		server: undefined,
		map,
		status: new SyncStatusTracker(engine),
		timings: { apply: 0, open: 0, import: 0, write: 0, reconcile: 0, batches: 0, docs: 0 },
		serial,
		resend: (ids) => resent.push(...ids),
		waiting: () => 0,
		caughtUp: () => undefined,
		recovered: () => undefined,
		unapplied: () => incoming.unapplied,
	};
	const incoming: Incoming = new Incoming(ctx);
	incoming.listen();
	/** Waits until the feed delivered every change of the mirror and the batch is applied. */
	const settle = async () => {
		await incoming.delivered((await local.info()).update_seq);
		incoming.flush();
		await queue;
	};
	const box = async (r: SyncRecord, device: string) => seal(key, { ...r, device }, r.id);
	return { ctx, local, engine, map, resent, incoming, settle, box };
}

describe('incoming: merging over the common base', () => {
	it('conflicting revisions that changed different fields are merged, and the merge goes out again', async () => {
		const t = await setup('merge-resolve');
		const r1 = await t.local.put({ _id: 'm1', ...(await t.box(base, 'dev-0')) });
		await t.settle();
		expect(t.engine.rows.get('m1')?.content).toBe(base.content);
		// Two children of 1-…, as replication stores them (new_edits: false).
		const [h1] = r1.rev.split('-').slice(1);
		const onA = { ...base, content: 'The build server is buildkite', updated_at: '2026-12-01T11:00:00.000Z' };
		const onB = { ...base, tags: ['ops', 'ci'], links: [{ to: 'm2', type: 'LEADS_TO', strength: 0.7 }], updated_at: '2026-12-01T12:00:00.000Z' };
		await t.local.bulkDocs(
			[
				{ _id: 'm1', _rev: '2-aaaa', _revisions: { start: 2, ids: ['aaaa', h1] }, ...(await t.box(onA, 'dev-a')) },
				{ _id: 'm1', _rev: '2-bbbb', _revisions: { start: 2, ids: ['bbbb', h1] }, ...(await t.box(onB, 'dev-b')) },
			],
			{ new_edits: false },
		);
		await t.settle();
		const got = t.engine.rows.get('m1')!;
		expect(got.content).toBe('The build server is buildkite');
		expect(got.tags).toEqual(['ops', 'ci']);
		expect(t.engine.conflicts).toEqual([]);
		expect(t.resent).toEqual(['m1']);
		// The losing revision is removed; the map names the server's winner, so the merge differs and goes out.
		const doc = await t.local.get('m1', { conflicts: true });
		expect(doc._conflicts ?? []).toEqual([]);
		expect(t.map.fp.m1).toBe(fingerprint({ ...onB }));
	});

	it('a local edit not yet sent meets an incoming version: both changes stay', async () => {
		const t = await setup('merge-pending');
		const r1 = await t.local.put({ _id: 'm1', ...(await t.box(base, 'dev-0')) });
		await t.settle();
		// An edit here that outgoing has not written to the mirror yet.
		t.engine.rows.set('m1', { ...base, tags: ['ops', 'mine'], updated_at: '2026-12-01T13:00:00.000Z' });
		// Meanwhile another device's content edit arrives (a child of what this device had).
		const theirs = { ...base, content: 'The build server is jenkins-01 in rack 4', updated_at: '2026-12-01T12:00:00.000Z' };
		await t.local.put({ _id: 'm1', _rev: r1.rev, ...(await t.box(theirs, 'dev-b')) });
		await t.settle();
		const got = t.engine.rows.get('m1')!;
		expect(got.content).toBe('The build server is jenkins-01 in rack 4');
		expect(got.tags).toEqual(['ops', 'mine']);
		expect(t.engine.conflicts).toEqual([]);
		expect(t.resent).toEqual(['m1']);
	});

	it('the same field changed on both: the later value, and History gets the other with only that field', async () => {
		const t = await setup('merge-conflict');
		const r1 = await t.local.put({ _id: 'm1', ...(await t.box(base, 'dev-0')) });
		await t.settle();
		const [h1] = r1.rev.split('-').slice(1);
		const onA = { ...base, content: 'Lunch is on Thursdays', importance: 0.9, updated_at: '2026-12-01T11:00:00.000Z' };
		const onB = { ...base, content: 'Lunch is on Fridays', updated_at: '2026-12-01T12:00:00.000Z' };
		await t.local.bulkDocs(
			[
				{ _id: 'm1', _rev: '2-aaaa', _revisions: { start: 2, ids: ['aaaa', h1] }, ...(await t.box(onA, 'dev-a')) },
				{ _id: 'm1', _rev: '2-bbbb', _revisions: { start: 2, ids: ['bbbb', h1] }, ...(await t.box(onB, 'dev-b')) },
			],
			{ new_edits: false },
		);
		await t.settle();
		expect(t.engine.rows.get('m1')).toMatchObject({ content: 'Lunch is on Fridays', importance: 0.9 });
		expect(t.engine.conflicts).toHaveLength(1);
		const [c] = t.engine.conflicts;
		expect(c.detail).toMatch(/^Sync conflict on content: the version from device dev-b/);
		expect(c.loser).toMatchObject({ content: 'Lunch is on Thursdays', importance: 0.9 });
	});
});

describe('incoming: no base version anywhere', () => {
	it('conflicting revisions whose common version is gone merge over an empty one: both sides’ tags, links and metadata keys stay', async () => {
		const t = await setup('merge-no-base');
		// Two children of a 1-… whose body neither the mirror nor a server holds (compacted away).
		const onA = {
			...base,
			content: 'The build server is buildkite',
			tags: ['ops', 'ci'],
			metadata: { owner: 'ann' },
			updated_at: '2026-12-01T11:00:00.000Z',
		};
		const onB = {
			...base,
			tags: ['ops', 'infra'],
			metadata: { rack: 4 },
			links: [{ to: 'm2', type: 'LEADS_TO', strength: 0.7 }],
			updated_at: '2026-12-01T12:00:00.000Z',
		};
		await t.local.bulkDocs(
			[
				{ _id: 'm1', _rev: '2-aaaa', _revisions: { start: 2, ids: ['aaaa', 'gone'] }, ...(await t.box(onA, 'dev-a')) },
				{ _id: 'm1', _rev: '2-bbbb', _revisions: { start: 2, ids: ['bbbb', 'gone'] }, ...(await t.box(onB, 'dev-b')) },
			],
			{ new_edits: false },
		);
		await t.settle();
		const got = t.engine.rows.get('m1')!;
		// Content: both differ from "nothing", so the later version's (B kept the original) wins; A's is in History.
		expect(got.content).toBe(base.content);
		expect(got.tags).toEqual(['ops', 'infra', 'ci']);
		expect(got.metadata).toEqual({ owner: 'ann', rack: 4 });
		expect(t.engine.conflicts).toHaveLength(1);
		expect(t.engine.conflicts[0].detail).toMatch(/^Sync conflict on content: the version from device dev-b/);
		expect(t.engine.conflicts[0].loser.content).toBe('The build server is buildkite');
		expect(t.resent).toEqual(['m1']);
	});

	it('a local edit not yet sent meets a version whose base is gone: both sides’ tags stay', async () => {
		const t = await setup('pending-no-base');
		t.engine.rows.set('m1', { ...base, tags: ['ops', 'mine'], updated_at: '2026-12-01T13:00:00.000Z' });
		t.map.fp.m1 = fingerprint(base);
		const theirs = { ...base, tags: ['ops', 'theirs'], importance: 0.8, updated_at: '2026-12-01T12:00:00.000Z' };
		await t.local.bulkDocs([{ _id: 'm1', _rev: '3-cccc', _revisions: { start: 3, ids: ['cccc', 'gone2', 'gone1'] }, ...(await t.box(theirs, 'dev-b')) }], {
			new_edits: false,
		});
		await t.settle();
		expect(t.engine.rows.get('m1')).toMatchObject({ tags: ['ops', 'mine', 'theirs'], importance: 0.5 });
		expect(t.engine.conflicts.map((c) => c.detail.split(':')[0])).toEqual(['Sync conflict on importance']);
	});
});

describe('incoming: no base version anywhere, after a removal here', () => {
	it('a tag, a link and a metadata key removed on this device stay removed when a version from before meets it without a base', async () => {
		const t = await setup('removal-no-base');
		const out = new Outgoing(t.ctx);
		const link = { to: 'm2', type: 'LEADS_TO', strength: 0.7 };
		// This device synced the memory with tag "ci", a link and metadata "room"…
		t.engine.rows.set('m1', { ...base, tags: ['ops', 'ci'], links: [link], metadata: { owner: 'ann', room: 4 } });
		await t.ctx.serial(() => out.reconcile());
		// …then the person removed all three; the version goes out.
		t.engine.rows.set('m1', { ...base, tags: ['ops'], links: [], metadata: { owner: 'ann' }, updated_at: '2026-12-01T11:00:00.000Z' });
		await t.ctx.serial(() => out.reconcile());
		await t.settle();
		// Another device's version from before (it still has all three), with a content edit, on a
		// revision line whose common version with this one is held nowhere.
		const theirs = {
			...base,
			content: 'The build server is buildkite',
			tags: ['ops', 'ci'],
			links: [link],
			metadata: { owner: 'ann', room: 4 },
			updated_at: '2026-12-01T12:00:00.000Z',
		};
		await t.local.bulkDocs([{ _id: 'm1', _rev: '3-dddd', _revisions: { start: 3, ids: ['dddd', 'gone2', 'gone1'] }, ...(await t.box(theirs, 'dev-b')) }], {
			new_edits: false,
		});
		await t.settle();
		expect(t.engine.rows.get('m1')).toMatchObject({ content: 'The build server is buildkite', tags: ['ops'], links: [], metadata: { owner: 'ann' } });
	});
});

describe('incoming: two devices that never synced meet with the same memory (one backup restored on both)', () => {
	const backup = { ...base, tags: ['ops', 'ci'], metadata: { room: 4 } };
	const fromA = { ...backup, content: 'The build server is buildkite', tags: ['ops'], metadata: {}, updated_at: '2026-12-01T11:00:00.000Z' };
	const meet = async (name: string, here: SyncRecord, edited: boolean) => {
		const t = await setup(name);
		t.engine.rows.set('m1', here);
		if (edited) t.engine.histories.set('m1', [{ at: here.updated_at, actor: 'user', action: 'updated' }]);
		// A synced first: its version is a `1-` revision of its own; this device never sent m1.
		await t.local.bulkDocs([{ _id: 'm1', _rev: '1-aaaa', _revisions: { start: 1, ids: ['aaaa'] }, ...(await t.box(fromA, 'dev-a')) }], {
			new_edits: false,
		});
		await t.settle();
		return t;
	};

	it('untouched here: the other device’s newer version comes in whole (its removed tag and metadata key stay removed), with no conflict in History', async () => {
		const t = await meet('first-untouched', backup, false);
		expect(t.engine.rows.get('m1')).toMatchObject({ content: 'The build server is buildkite', tags: ['ops'], metadata: {} });
		expect(t.engine.conflicts).toEqual([]);
	});

	it('untouched here and newer than the other device’s (a later backup): this version stays', async () => {
		const later = { ...backup, content: 'The build server is jenkins-02', updated_at: '2026-12-01T12:00:00.000Z' };
		const t = await meet('first-untouched-newer', later, false);
		expect(t.engine.rows.get('m1')).toMatchObject({ content: 'The build server is jenkins-02', tags: ['ops', 'ci'] });
		expect(t.engine.conflicts).toEqual([]);
		expect(t.resent).toEqual([]);
	});

	it('changed on both: merged without a base, nothing lost (the later content kept, the other in History; both sides’ tags and keys, so A’s removals before it synced come back)', async () => {
		const mine = { ...backup, content: 'The build server is jenkins-03', tags: ['ops', 'ci', 'mine'], updated_at: '2026-12-01T12:00:00.000Z' };
		const t = await meet('first-both', mine, true);
		expect(t.engine.rows.get('m1')).toMatchObject({ content: 'The build server is jenkins-03', tags: ['ops', 'ci', 'mine'], metadata: { room: 4 } });
		expect(t.engine.conflicts.map((c) => c.loser.content)).toEqual(['The build server is buildkite']);
	});
});

describe('incoming: clocks that disagree', () => {
	it('a device that saw a clock a day ahead wins a later clash with it: its local edit, not the one stamped ahead', async () => {
		vi.useFakeTimers({ toFake: ['Date'] });
		try {
			const t = await setup('clock-ahead');
			vi.setSystemTime(Date.parse('2026-12-01T10:00:00.000Z'));
			const r1 = await t.local.put({ _id: 'm1', ...(await t.box(base, 'dev-0')) });
			// A's clock runs a day ahead: its edit of another memory, written just now, says tomorrow.
			await t.local.put({
				_id: 'm2',
				...(await t.box(
					{
						...base,
						id: 'm2',
						content: 'Coffee beans are in the left cupboard',
						updated_at: '2026-12-02T10:00:00.000Z',
						clock: Date.parse('2026-12-02T10:00:00.000Z'),
					},
					'dev-a',
				)),
			});
			await t.settle();
			// Apart: A edits m1 at 10:05 (its clock: the 2nd), this device at 10:10, not sent yet.
			vi.setSystemTime(Date.parse('2026-12-01T10:10:00.000Z'));
			t.engine.rows.set('m1', { ...base, content: 'The build server is jenkins-02', updated_at: '2026-12-01T10:10:00.000Z' });
			const theirs = {
				...base,
				content: 'The build server is jenkins-03',
				updated_at: '2026-12-02T10:05:00.000Z',
				clock: Date.parse('2026-12-02T10:05:00.000Z'),
			};
			await t.local.put({ _id: 'm1', _rev: r1.rev, ...(await t.box(theirs, 'dev-a')) });
			await t.settle();
			expect(t.engine.rows.get('m1')!.content).toBe('The build server is jenkins-02');
			expect(t.engine.conflicts).toHaveLength(1);
			expect(t.engine.conflicts[0].loser.content).toBe('The build server is jenkins-03');
		} finally {
			vi.useRealTimers();
		}
	});
});

describe('incoming: a date a caller set far ahead', () => {
	it('moves no lead: a later edit here still wins a clash with a version whose updated_at says 2036', async () => {
		vi.useFakeTimers({ toFake: ['Date'] });
		try {
			const t = await setup('clock-caller-date');
			vi.setSystemTime(Date.parse('2026-12-01T10:00:00.000Z'));
			const r1 = await t.local.put({ _id: 'm1', ...(await t.box(base, 'dev-0')) });
			// An agent stored m2 on A with updated_at in 2036; A stamped it with its true clock (an
			// older Engram stamps nothing: its updated_at is all there is).
			const future = '2036-01-01T00:00:00.000Z';
			await t.local.put({
				_id: 'm2',
				...(await t.box({ ...base, id: 'm2', updated_at: future, clock: Date.parse('2026-12-01T10:00:00.000Z') }, 'dev-a')),
			});
			await t.local.put({ _id: 'm3', ...(await t.box({ ...base, id: 'm3', updated_at: future }, 'dev-old')) });
			await t.settle();
			expect(t.map.lead).toBe(0);
			// Apart: A edits m1 at 10:05, this device at 10:10 (not sent yet): this device's is later.
			vi.setSystemTime(Date.parse('2026-12-01T10:10:00.000Z'));
			t.engine.rows.set('m1', { ...base, content: 'The build server is jenkins-02', updated_at: '2026-12-01T10:10:00.000Z' });
			const theirs = {
				...base,
				content: 'The build server is jenkins-03',
				updated_at: '2026-12-01T10:05:00.000Z',
				clock: Date.parse('2026-12-01T10:05:00.000Z'),
			};
			await t.local.put({ _id: 'm1', _rev: r1.rev, ...(await t.box(theirs, 'dev-a')) });
			await t.settle();
			expect(t.engine.rows.get('m1')!.content).toBe('The build server is jenkins-02');
		} finally {
			vi.useRealTimers();
		}
	});
});

describe('incoming: a batch that fails', () => {
	it('is applied later: the next batch does not move the checkpoint past it', async () => {
		vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
		try {
			const t = await setup('fail-once');
			// The engine refuses the first apply as a full disk does.
			const apply = t.engine.applySyncRecords.bind(t.engine);
			let refuse = 1;
			t.engine.applySyncRecords = async (input) => {
				if (refuse-- > 0) throw Object.assign(new Error('The browser refused the write: storage is full.'), { code: 'quota_exceeded' });
				return apply(input);
			};
			const settle = async () => {
				await vi.advanceTimersByTimeAsync(100);
				await t.settle();
			};
			await t.local.put({ _id: 'm1', ...(await t.box(base, 'dev-0')) });
			await settle().catch(() => undefined);
			expect(t.engine.rows.has('m1')).toBe(false);
			await t.local.put({ _id: 'm2', ...(await t.box({ ...base, id: 'm2', content: 'The deploy bot is named shipit' }, 'dev-0')) });
			await settle().catch(() => undefined);
			// The feed is read again from the checkpoint, which stayed before m1.
			await vi.advanceTimersByTimeAsync(10_000);
			await settle();
			expect([...t.engine.rows.keys()].sort()).toEqual(['m1', 'm2']);
		} finally {
			vi.useRealTimers();
		}
	});
});

describe('incoming: a batch that fails while replication is caught up', () => {
	it('clears the error once the batch applies on its retry: the status says synced again', async () => {
		const t = await setup('recover-local');
		const remote = new PouchDB('recover-remote', { adapter: 'memory' });
		const apply = t.engine.applySyncRecords.bind(t.engine);
		let refuse = 1;
		t.engine.applySyncRecords = async (input) => {
			// Refused after replication said it was caught up (the import's embedding takes a while).
			if (refuse-- > 0) await new Promise((r) => setTimeout(r, 300)).then(() => Promise.reject(new Error("This device's storage is full")));
			return apply(input);
		};
		t.ctx.remote = remote;
		const replication = new Replication(t.ctx);
		t.ctx.recovered = () => replication.recovered();
		await remote.put({ _id: 'm1', ...(await t.box(base, 'dev-0')) });
		replication.start();
		const until = async (what: () => boolean) => {
			for (let i = 0; i < 200 && !what(); i++) await new Promise((r) => setTimeout(r, 25));
			expect([what(), t.ctx.status.current.status]).toEqual([true, expect.anything()]);
		};
		// Replication caught up (the document is in the mirror); the engine refused the batch.
		await until(() => t.engine.rows.size === 0 && t.ctx.status.current.status === 'error' && refuse === 0);
		await new Promise((r) => setTimeout(r, 200));
		expect(t.ctx.status.current).toMatchObject({ status: 'error', error: "This device's storage is full" });
		// Room again: the feed is read again from the checkpoint (what the retry timer does).
		t.incoming.cancel();
		t.incoming.listen();
		await t.settle();
		expect(t.engine.rows.has('m1')).toBe(true);
		await until(() => t.ctx.status.current.status === 'synced');
		expect(t.ctx.status.current.error).toBeUndefined();
		replication.cancel();
		t.incoming.cancel();
	});
});

describe('incoming: a batch that fails before replication catches up', () => {
	it('the status does not say synced while the batch waits for its retry, and does once it applies', async () => {
		const t = await setup('unapplied-local');
		const remote = new PouchDB('unapplied-remote', { adapter: 'memory' });
		const apply = t.engine.applySyncRecords.bind(t.engine);
		let refuse = 1;
		t.engine.applySyncRecords = async (input) => {
			if (refuse-- > 0) throw new Error("This device's storage is full");
			return apply(input);
		};
		t.ctx.remote = remote;
		const replication = new Replication(t.ctx);
		t.ctx.recovered = () => replication.recovered();
		const until = async (what: () => boolean | Promise<boolean>) => {
			let ok = false;
			for (let i = 0; i < 200 && !(ok = await what()); i++) await new Promise((r) => setTimeout(r, 25));
			expect(ok).toBe(true);
		};
		await remote.put({ _id: 'm1', ...(await t.box(base, 'dev-0')) });
		replication.start();
		await until(() => refuse === 0 && t.ctx.status.current.status === 'error');
		// Replication goes on and catches up again (another device wrote m2) while m1's batch waits
		// for its retry (10 s later): nothing of it is applied.
		await remote.put({ _id: 'm2', ...(await t.box({ ...base, id: 'm2', content: 'The VPN needs a token' }, 'dev-0')) });
		await until(() =>
			t.local.get('m2').then(
				() => true,
				() => false,
			),
		);
		const seen: string[] = [];
		const off = t.ctx.status.onStatus((s) => seen.push(s.status));
		await new Promise((r) => setTimeout(r, 500));
		expect(t.engine.rows.size).toBe(0);
		expect(seen).not.toContain('synced');
		// The retry reads the feed again from the checkpoint: both apply, and only then "synced".
		t.incoming.cancel();
		t.incoming.listen();
		await t.settle();
		expect([...t.engine.rows.keys()].sort()).toEqual(['m1', 'm2']);
		await until(() => t.ctx.status.current.status === 'synced');
		off();
		replication.cancel();
		t.incoming.cancel();
	});
});

/**
 * Applying an incoming version on a real engine (fake-indexeddb) through the incoming path: the
 * memory's content, fields, links and History land in one transaction, so a write refused midway
 * (a full disk) leaves the version the device had, whole, and the batch applies in full once it
 * is read again.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { SyncRecord } from '../../../src/engine/types';
import type { SyncContext } from '../../../src/sync/context';
import { seal } from '../../../src/sync/crypto';
import { Incoming } from '../../../src/sync/incoming';
import { SyncStatusTracker } from '../../../src/sync/status';
import { SyncMap } from '../../../src/sync/sync-map';
import { refuseLink, storedLinks, useEngines } from '../engine/helpers';

const require = createRequire(import.meta.url);
const PouchDB = require('pouchdb-core').plugin(require('pouchdb-adapter-memory'));

const engines = useEngines();
const T0 = '2026-12-01T10:00:00.000Z';
const rec = (id: string, content: string, o: Partial<SyncRecord> = {}): SyncRecord => ({
	id,
	content,
	type: 'Context',
	tags: ['ops'],
	scope: 'default',
	importance: 0.5,
	confidence: 0.9,
	metadata: {},
	timestamp: T0,
	updated_at: T0,
	links: [],
	...o,
});
const link = (to: string, type: string) => ({ to, type, strength: 0.5, created_at: T0 });

async function setup(name: string) {
	const engine = await engines();
	const local = new PouchDB(name, { adapter: 'memory' });
	const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
	let queue: Promise<unknown> = Promise.resolve();
	const serial = <T>(fn: () => Promise<T>): Promise<T> => {
		const run = queue.then(fn, fn);
		queue = run.catch(() => undefined);
		return run;
	};
	const map = new SyncMap(() => local, serial);
	await map.load(local);
	const ctx: SyncContext = {
		engine: engine as any,
		device: 'dev-here',
		local,
		remote: undefined,
		key,
		server: undefined,
		map,
		status: new SyncStatusTracker(engine as any),
		timings: { apply: 0, open: 0, import: 0, write: 0, reconcile: 0, batches: 0, docs: 0 },
		serial,
		resend: () => undefined,
		waiting: () => 0,
		caughtUp: () => undefined,
		recovered: () => undefined,
		unapplied: () => false,
	};
	const incoming = new Incoming(ctx);
	incoming.listen();
	const settle = async () => {
		await incoming.delivered((await local.info()).update_seq);
		incoming.flush();
		await queue;
	};
	const put = async (r: SyncRecord, rev?: string) =>
		local.put({ _id: r.id, ...(rev ? { _rev: rev } : {}), ...(await seal(key, { ...r, device: 'dev-b' }, r.id)) });
	return { engine, incoming, settle, put };
}

describe('applying an incoming version', () => {
	it('is one transaction: a refused link write leaves the old content and links; read again, the new version lands whole', async () => {
		const t = await setup('apply-atomic');
		const refuse = { on: false };
		t.engine.db.use(refuseLink('LEADS_TO', refuse));
		t.engine.db.close();
		await t.engine.db.open();
		await t.put(rec('m2', 'The deploy bot is named shipit'));
		await t.put(rec('m3', 'The staging cluster runs three nodes'));
		const first = await t.put(rec('m1', 'The build server is jenkins-01', { links: [link('m3', 'RELATES_TO')] }));
		await t.settle();
		expect((await t.engine.get({ memory_id: 'm1', track_access: false })).memory.content).toBe('The build server is jenkins-01');

		// Another device's version: new content and tags, the link to m3 removed, one to m2 added.
		const next = rec('m1', 'The build server is buildkite', {
			tags: ['ops', 'ci'],
			links: [link('m2', 'LEADS_TO')],
			updated_at: '2026-12-01T11:00:00.000Z',
		});
		await t.put(next, first.rev);
		refuse.on = true;
		await t.settle();
		const kept = (await t.engine.get({ memory_id: 'm1', track_access: false })).memory;
		expect([kept.content, kept.tags]).toEqual(['The build server is jenkins-01', ['ops']]);
		expect((await storedLinks(t.engine)).map((l) => `${l.from}>${l.to}:${l.type}`)).toEqual(['m1>m3:RELATES_TO']);

		// Room again: the feed is read again from the checkpoint (what the retry timer does).
		refuse.on = false;
		t.incoming.cancel();
		t.incoming.listen();
		await t.settle();
		const now = (await t.engine.get({ memory_id: 'm1', track_access: false })).memory;
		expect([now.content, now.tags]).toEqual(['The build server is buildkite', ['ops', 'ci']]);
		expect((await storedLinks(t.engine)).filter((l) => l.type !== 'SIMILAR_TO').map((l) => `${l.from}>${l.to}:${l.type}`)).toEqual(['m1>m2:LEADS_TO']);
		t.incoming.cancel();
	});
});

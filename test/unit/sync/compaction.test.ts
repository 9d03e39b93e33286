/**
 * The mirror's compaction over a real PouchDB (the memory adapter, in Node): a document edited
 * many times keeps only the bodies of its leaf and the `KEEP_VERSIONS` revisions below it; a
 * version written here and not yet sent keeps every body (its base may be far below); nothing is
 * dropped while something waits to go out; a second run reads only what changed since the first.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { Compaction, KEEP_VERSIONS } from '../../../src/sync/compaction';
import type { SyncContext } from '../../../src/sync/context';

const require = createRequire(import.meta.url);
const PouchDB = require('pouchdb-core').plugin(require('pouchdb-adapter-memory'));

let n = 0;
async function setup(waiting = 0) {
	const local = new PouchDB(`compaction-${n++}`, { adapter: 'memory' });
	const unsent = new Set<string>();
	const ctx = { local, map: { unsent }, serial: (fn: () => Promise<unknown>) => fn() } as unknown as SyncContext;
	return {
		local,
		unsent,
		compaction: new Compaction(
			ctx,
			async () => undefined,
			() => waiting > 0,
		),
	};
}

/** Writes `times` versions of a document. */
async function edit(local: any, id: string, times: number): Promise<void> {
	let rev: string | undefined;
	for (let i = 0; i < times; i++) rev = (await local.put({ _id: id, ...(rev ? { _rev: rev } : {}), body: `version ${i}` })).rev;
}

/** How many versions of a document still have their body. */
async function bodies(local: any, id: string): Promise<number> {
	const d = await local.get(id, { revs_info: true });
	return d._revs_info.filter((r: { status: string }) => r.status === 'available').length;
}

describe('mirror compaction', () => {
	it('keeps the leaf and the versions just below it, drops older ones', async () => {
		const { local, compaction } = await setup();
		await edit(local, 'many', 60);
		await edit(local, 'few', 3);
		expect(await bodies(local, 'many')).toBe(60);
		await compaction.run();
		expect(await bodies(local, 'many')).toBe(KEEP_VERSIONS + 1);
		expect(await bodies(local, 'few')).toBe(3);
		// The newest version and the one below it are still readable (a merge's base).
		const d = await local.get('many', { revs: true });
		expect(d.body).toBe('version 59');
		expect((await local.get('many', { rev: `${d._revisions.start - 1}-${d._revisions.ids[1]}` })).body).toBe('version 58');
		// A later run reads what changed since: new edits are trimmed too.
		const cur = await local.get('many');
		for (let i = 0; i < 20; i++) cur._rev = (await local.put({ ...cur, body: `later ${i}` })).rev;
		await compaction.run();
		expect(await bodies(local, 'many')).toBe(KEEP_VERSIONS + 1);
	});

	it('drops nothing of a document not yet sent, nor anything while changes wait to go out', async () => {
		const a = await setup();
		await edit(a.local, 'edited-offline', 30);
		a.unsent.add('edited-offline');
		await a.compaction.run();
		expect(await bodies(a.local, 'edited-offline')).toBe(30);
		const b = await setup(1);
		await edit(b.local, 'waiting', 30);
		await b.compaction.run();
		expect(await bodies(b.local, 'waiting')).toBe(30);
	});
});

/**
 * A refused write leaves nothing behind: every write is one IndexedDB transaction, all or
 * nothing, and a refusal means nothing changed (rows, history, counters, entities, request ids,
 * the search index). Forced below Dexie (native-faults.ts), so store/raw.ts's requests on the
 * native transaction are the ones refused, at the two points Chromium refuses: a failed request,
 * and the commit. And the other way round: a write that did commit is never answered as refused.
 */
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/engine/engine';
import { openEngramDB, type EngramDB } from '../../../src/store/db';
import { writeRows } from '../../../src/store/raw';
import { readCounters, writeCounters } from '../../../src/store/settings';
import { freshName, rejection, useEngines } from '../engine/helpers';
import { memoryRow } from './memory-row';
import { nativeFaults, type NativeFaults } from './native-faults';

const engines = useEngines();
let faults: NativeFaults | undefined;
const opened: EngramDB[] = [];
afterEach(() => {
	faults?.restore();
	faults = undefined;
	opened.splice(0).forEach((d) => d.close());
});

const row = (id: string, seq: number) => memoryRow(id, seq);

describe('EngramDB.write, with requests on the native transaction', () => {
	it('aborts the whole transaction on a failed request, even when the callback goes on', async () => {
		const db = await openEngramDB({ name: freshName(), indexedDB, IDBKeyRange });
		opened.push(db);
		expect(db.rawRequests).toBe(true);
		faults = nativeFaults();
		faults.failing.add('activity');
		const out = db.write(async () => {
			await db.memories.put(row('a', 1));
			// A caller that swallows the failure must not get the rest committed without it.
			await writeRows(db, 'activity', [{ at: 'now', actor: 'agent', action: 'created', memory_id: 'a' }], 'add').catch(() => undefined);
			await writeCounters(db, { seq: 1, stamp: 1 });
			return 'done';
		});
		expect((await rejection(out)).code).toBe('quota_exceeded');
		expect(faults.failed).toBe(1);
		faults.restore();
		expect(await db.memories.count()).toBe(0);
		expect(await readCounters(db)).toEqual({ seq: 0, stamp: 0 });
	});

	it('aborts on a failed Dexie request the callback catches, too', async () => {
		const db = await openEngramDB({ name: freshName(), indexedDB, IDBKeyRange });
		opened.push(db);
		faults = nativeFaults();
		faults.failing.add('memories');
		const out = db.write(async () => {
			await writeCounters(db, { seq: 1, stamp: 1 });
			await db.memories.put(row('a', 1)).catch(() => undefined);
		});
		expect((await rejection(out)).code).toBe('quota_exceeded');
		faults.restore();
		expect(await readCounters(db)).toEqual({ seq: 0, stamp: 0 });
	});

	it('refused at commit, writes none of its raw requests', async () => {
		const db = await openEngramDB({ name: freshName(), indexedDB, IDBKeyRange });
		opened.push(db);
		faults = nativeFaults();
		faults.full = true;
		const out = db.write(async () => {
			await writeRows(db, 'memories', [row('a', 1)], 'add');
			await writeRows(db, 'activity', [{ at: 'now', actor: 'agent', action: 'created', memory_id: 'a' }], 'add');
			await writeCounters(db, { seq: 1, stamp: 1 });
			db.commitNow();
		});
		expect((await rejection(out)).code).toBe('quota_exceeded');
		expect(faults.refused).toBe(1);
		expect(db.quotaFullSince).toBeDefined();
		faults.restore();
		expect(await db.memories.count()).toBe(0);
		expect(await db.activity.count()).toBe(0);
		expect(await readCounters(db)).toEqual({ seq: 0, stamp: 0 });
	});
});

/** Everything a write could change, read back outside any transaction. */
async function everything(e: Engine) {
	const db = e.db;
	const rows = await db.memories.toArray();
	const acts = await db.activity.toArray();
	return {
		rows: rows
			.map((r) => JSON.stringify({ id: r.id, c: r.content, t: r.tags, u: r.updated_at, l: r.links ?? [], v: r.t_invalid ?? null, e: r.entities }))
			.sort(),
		activity: acts.map((a) => JSON.stringify(a)),
		counters: await readCounters(db),
		entities: (await db.entities.toArray()).map((x) => JSON.stringify(x)).sort(),
		requests: await db.requests.count(),
		index: {
			size: e.ctx.index.size,
			tagged: e.ctx.index.withTags(['zebra'], 'any').length,
			edges: rows.map((r) => e.ctx.index.linkedFrom([r.id]).length),
		},
	};
}

type Write = { name: string; run: (e: Engine, ids: string[]) => Promise<unknown> };

const WRITES: Write[] = [
	{ name: 'a single store', run: (e) => e.store({ content: 'Zebra crossings near the harbour, says Alice Chen', tags: ['zebra'] }) },
	{
		name: 'a batch store',
		run: (e) =>
			e.store({
				memories: Array.from({ length: 70 }, (_, i) => ({ content: `Zebra note ${i}: Bob Lee counted ${i} stripes at the harbour`, tags: ['zebra'] })),
			}),
	},
	{ name: 'a content update', run: (e, ids) => e.update({ memory_id: ids[0], content: 'Zebra crossings, rewritten by Carol King', tags: ['zebra'] }) },
	{ name: 'a tag edit', run: (e, ids) => e.update({ memory_id: ids[1], tags_add: ['zebra'], request_id: 'tag-edit-1' }) },
	{ name: 'a link', run: (e, ids) => e.associate({ memory1_id: ids[0], memory2_id: ids[2], type: 'RELATES_TO', request_id: 'link-1' }) },
	{
		name: 'an import',
		run: (e) =>
			e.importMemories({ data: JSON.stringify([{ content: 'Zebra import: Dana Scott keeps the harbour log', tags: ['zebra'] }]), format: 'json' }),
	},
];

/** Three memories, each with a known entity, to write against. */
async function seeded(engines: () => Promise<Engine>): Promise<{ e: Engine; ids: string[] }> {
	const e = await engines();
	const out = await e.store({
		memories: [
			{ content: 'Alice Chen owns the payments API; ask her before changing webhooks', tags: ['people'] },
			{ content: 'Deploys happen on Tuesdays after the stand-up, says Bob Lee', tags: ['ops'] },
			{ content: 'Invoice totals are integer cents since the rounding bug', tags: ['billing'] },
		],
	});
	return { e, ids: out.results.map((r) => r.memory_id!) };
}

describe('a refused write leaves nothing behind (requests on the native transaction)', () => {
	for (const w of WRITES) {
		it(`${w.name}, refused at commit`, async () => {
			const { e, ids } = await seeded(engines);
			expect(e.db.rawRequests).toBe(true);
			const before = await everything(e);
			faults = nativeFaults();
			faults.full = true;
			const err = await rejection(w.run(e, ids));
			expect(err.code).toBe('quota_exceeded');
			expect(faults.refused).toBeGreaterThan(0);
			faults.restore();
			expect(await everything(e)).toEqual(before);
			// Once there is room, the same write goes through.
			await w.run(e, ids);
			expect(await everything(e)).not.toEqual(before);
		});

		for (const store of ['memories', 'activity', 'settings']) {
			it(`${w.name}, refused by a failed ${store} request`, async () => {
				const { e, ids } = await seeded(engines);
				const before = await everything(e);
				faults = nativeFaults();
				faults.failing.add(store);
				const err = await rejection(w.run(e, ids));
				expect(err.code).toBe('quota_exceeded');
				expect(faults.failed).toBeGreaterThan(0);
				faults.restore();
				expect(await everything(e)).toEqual(before);
			});
		}
	}

	it('a write that committed is answered as done, even when updating the index after the commit fails', async () => {
		const { e, ids } = await seeded(engines);
		const index = e.ctx.index;
		const upsert = index.upsert.bind(index);
		let broken = 1;
		index.upsert = (...args: Parameters<typeof upsert>) => {
			if (broken-- > 0) throw new Error('the index broke');
			return upsert(...args);
		};
		// The update mirrors its row into the index after asking IndexedDB to commit.
		const out = await e.update({ memory_id: ids[0], content: 'Zebra crossings near the harbour', tags: ['zebra'] });
		expect(broken).toBe(-1);
		expect(out.changed).toContain('content');
		expect((await e.db.memories.get(ids[0]))?.content).toBe('Zebra crossings near the harbour');
		// The index read the committed row back.
		expect(index.withTags(['zebra'], 'any')).toEqual([ids[0]]);
		expect((await e.history(ids[0])).map((h) => h.action)).toContain('updated');
	});

	it('a delete on a full disk removes the memory and nothing else changes', async () => {
		const { e, ids } = await seeded(engines);
		const before = await everything(e);
		faults = nativeFaults();
		faults.full = true;
		const out = await e.delete({ memory_id: ids[2] });
		expect(out.deleted_count).toBe(1);
		faults.restore();
		const after = await everything(e);
		expect(after.rows).toEqual(before.rows.filter((r) => !r.includes(ids[2])));
		// Its 'deleted' entry waits in the deferred log for room (delete-ops.ts).
		expect(after.activity.filter((a) => !a.includes('"deleted"'))).toEqual(before.activity);
		expect(after.counters).toEqual(before.counters);
	});
});

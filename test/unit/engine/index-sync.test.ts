import Dexie from 'dexie';
import { IDBObjectStore } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/engine/engine';
import { rejection, useEngines } from './helpers';

const engines = useEngines();

/** Ids of the memories the index finds by the words of `query` alone (no vector). */
async function hits(engine: Engine, query: string): Promise<string[]> {
	return engine.ctx.index.rank({ query, limit: 10 }, { vectors: [null] }, Date.now()).hits.map((h) => h.id);
}

describe('writeIndexed', () => {
	it('indexes a write while it commits and announces it once committed', async () => {
		const engine = await engines();
		const announced: number[] = [];
		const committed = engine.ctx.committed;
		engine.ctx.committed = (stamp, notice) => {
			announced.push(stamp);
			committed(stamp, notice);
		};
		const a = await engine.store({ content: 'The standup is at nine' });
		expect(await hits(engine, 'standup')).toEqual([a.memory_id]);
		await engine.update({ memory_id: a.memory_id!, content: 'The standup moved to ten' });
		expect([await hits(engine, 'nine'), await hits(engine, 'ten')]).toEqual([[], [a.memory_id]]);
		expect(announced).toEqual([announced[0], announced[0] + 1]);
	});

	it('a commit that fails after every request succeeded leaves the index as the database has it, unannounced', async () => {
		const engine = await engines();
		const a = await engine.store({ content: 'The standup is at nine', tags: ['team'] });
		const b = await engine.store({ content: 'Deploys happen on Tuesday' });
		await engine.associate({ memory1_id: a.memory_id!, memory2_id: b.memory_id!, type: 'RELATES_TO' });
		const before = { size: engine.ctx.index.size, edges: engine.ctx.index.counts().edgesByType };
		const announced: number[] = [];
		engine.ctx.committed = (stamp) => void announced.push(stamp);
		// Every request succeeds; then the transaction aborts instead of committing.
		const commitNow = engine.db.commitNow.bind(engine.db);
		engine.db.commitNow = () => Dexie.currentTransaction!.abort();

		expect((await rejection(engine.store({ content: 'Lunch is at noon on Fridays' }))).code).toBe('storage_failed');
		expect((await rejection(engine.update({ memory_id: a.memory_id!, content: 'The standup moved to ten' }))).code).toBe('storage_failed');
		expect((await rejection(engine.delete({ memory_id: b.memory_id! }))).code).toBe('storage_failed');
		expect((await rejection(engine.associate({ memory1_id: b.memory_id!, memory2_id: a.memory_id!, type: 'LEADS_TO' }))).code).toBe('storage_failed');

		expect(announced).toEqual([]);
		expect({ size: engine.ctx.index.size, edges: engine.ctx.index.counts().edgesByType }).toEqual(before);
		expect([await hits(engine, 'lunch noon'), await hits(engine, 'ten')]).toEqual([[], []]);
		expect((await hits(engine, 'nine'))[0]).toBe(a.memory_id);
		expect((await hits(engine, 'deploys tuesday'))[0]).toBe(b.memory_id);
		engine.db.commitNow = commitNow;
		const c = await engine.store({ content: 'Lunch is at noon on Fridays' });
		expect((await hits(engine, 'lunch noon'))[0]).toBe(c.memory_id);
	});

	it('a batch whose index update ran while its writes were pending, and whose write then fails, leaves the index as it was', async () => {
		const engine = await engines();
		const a = await engine.store({ content: 'The standup is at nine' });
		const before = { size: engine.ctx.index.size, edges: engine.ctx.index.counts().edgesByType };
		// The counters are written with the last wave, after the index update: fail that write (at
		// the IndexedDB request, which Dexie's table calls and the store's own requests both make).
		const put = Object.getOwnPropertyDescriptor(IDBObjectStore.prototype, 'put')!;
		Object.defineProperty(IDBObjectStore.prototype, 'put', {
			...put,
			value(this: IDBObjectStore, ...args: unknown[]) {
				if (this.name === 'settings') throw new Error('disk full');
				return (put.value as (...a: unknown[]) => IDBRequest).apply(this, args);
			},
		});
		const batch = { memories: [{ content: 'Lunch is at noon on Fridays' }, { content: 'Lunch moved to one on Fridays' }] };
		expect((await rejection(engine.store(batch))).message).toMatch(/disk full/);
		expect({ size: engine.ctx.index.size, edges: engine.ctx.index.counts().edgesByType }).toEqual(before);
		expect(await hits(engine, 'lunch fridays')).toEqual([]);
		expect((await hits(engine, 'standup'))[0]).toBe(a.memory_id);
		Object.defineProperty(IDBObjectStore.prototype, 'put', put);
		const ok = await engine.store(batch);
		expect(ok.stored_count).toBe(2);
		expect((await hits(engine, 'lunch fridays')).slice(0, 2).sort()).toEqual(ok.results.map((r) => r.memory_id).sort());
	});
});

/**
 * A store that skips its read wave plans with what the engine's last writes left (write-guess.ts)
 * and checks it in the same transaction. These tests make the guess wrong in each way it can be
 * (another tab's write, a delete in this tab, an evicted entity) and check that the store still
 * writes what a store with a read wave would have written.
 */
import { IDBIndex, IDBObjectStore } from 'fake-indexeddb';
import { entityIdsOf } from '../../../src/store/derived';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/engine/engine';
import { sameState, WriteGuesses, type WriteState } from '../../../src/engine/write-guess';
import type { Entity } from '../../../src/core/schemas';
import type { EntityRow } from '../../../src/store/rows';
import { freshName, quota, rejection, storedLinks, useEngines } from './helpers';

const engines = useEngines();

/** PRECEDED_BY targets by source id. */
async function precededBy(engine: Engine): Promise<Map<string, string>> {
	return new Map((await storedLinks(engine)).filter((l) => l.type === 'PRECEDED_BY').map((l) => [l.from, l.to]));
}

/** The entity as the engine reports it: its row, with the mentions counted from the memories. */
async function entity(engine: Engine, id: string): Promise<Entity | undefined> {
	return (await engine.getEntities([id]))[0];
}

/** How many stored memories mention an entity, counted on the rows themselves. */
function mentionsStored(engine: Engine, id: string): Promise<number> {
	return engine.db.memories.filter((m) => entityIdsOf(m.entities).includes(id)).count();
}

describe('stores that guess what they would read', () => {
	it('a store after a store skips the read wave and writes what a read would have given', async () => {
		const engine = await engines();
		const a = await engine.store({ content: 'Maria Lopez approved the Lisbon office budget' });
		expect(engine.ctx.guesses.hits).toBe(0);
		const b = await engine.store({ content: 'Maria Lopez moved the design review to Thursday' });
		expect(engine.ctx.guesses).toMatchObject({ hits: 1, stale: 0 });
		expect(b.seq).toBe(2);
		expect((await precededBy(engine)).get(b.memory_id!)).toBe(a.memory_id);
		expect(await entity(engine, 'person:maria lopez')).toMatchObject({ memory_count: 2 });
		expect(await engine.db.settings.get('sys:counters')).toMatchObject({ value: { seq: 2, stamp: 2 } });
	});

	it('another tab’s write makes the guess stale: the store runs again with fresh reads', async () => {
		const dbName = freshName();
		const a = await engines({ dbName });
		const b = await engines({ dbName });
		await a.store({ content: 'Maria Lopez approved the Lisbon office budget' });
		const other = await b.store({ content: 'Maria Lopez booked the venue for the offsite' });
		const out = await a.store({ content: 'Maria Lopez moved the design review to Thursday' });
		expect(a.ctx.guesses).toMatchObject({ hits: 1, stale: 1 });
		expect(out.seq).toBe(3);
		expect((await precededBy(a)).get(out.memory_id!)).toBe(other.memory_id);
		expect(await mentionsStored(a, 'person:maria lopez')).toBe(3);
		// The retry's reads are remembered: the next store guesses right.
		await a.store({ content: 'Maria Lopez signed the catering contract' });
		expect(a.ctx.guesses).toMatchObject({ hits: 2, stale: 1 });
		expect(await mentionsStored(a, 'person:maria lopez')).toBe(4);
	});

	it('a delete in the same tab changes entity counts and the newest memory: caught by the check', async () => {
		const engine = await engines();
		const first = await engine.store({ content: 'Maria Lopez approved the Lisbon office budget' });
		const second = await engine.store({ content: 'Maria Lopez moved the design review to Thursday' });
		await engine.delete({ memory_id: second.memory_id! });
		const third = await engine.store({ content: 'Maria Lopez signed the catering contract' });
		expect(engine.ctx.guesses.stale).toBe(1);
		expect(third.seq).toBe(3);
		expect((await precededBy(engine)).get(third.memory_id!)).toBe(first.memory_id);
		expect(await entity(engine, 'person:maria lopez')).toMatchObject({ memory_count: 2 });
	});

	it('a delete that leaves the write stamp (storage full) is caught by the index: the next store chains to the memory before', async () => {
		const engine = await engines();
		const state = { full: false };
		engine.db.use(quota(state));
		engine.db.close();
		await engine.db.open();
		const first = await engine.store({ content: 'Maria Lopez approved the Lisbon office budget' });
		const second = await engine.store({ content: 'Maria Lopez moved the design review to Thursday' });
		const stamp = async () => ((await engine.db.settings.get('sys:counters'))!.value as { stamp: number }).stamp;
		const before = await stamp();
		state.full = true;
		expect((await rejection(engine.store({ content: 'one more' }))).code).toBe('quota_exceeded');
		expect(await engine.delete({ memory_id: second.memory_id! })).toMatchObject({ deleted_count: 1 });
		expect(await stamp()).toBe(before);
		state.full = false;
		const third = await engine.store({ content: 'Maria Lopez signed the catering contract' });
		expect(engine.ctx.guesses.stale).toBe(1);
		expect((await precededBy(engine)).get(third.memory_id!)).toBe(first.memory_id);
	});

	it('a guessed-absent entity that has a row is caught by the check', async () => {
		const engine = await engines();
		const first = await engine.store({ content: 'Maria Lopez approved the Lisbon office budget' });
		// Forget the entity's row and let the index forget its mention: the next store guesses
		// that the entity has no row.
		engine.ctx.guesses.forget();
		const row = (await engine.db.memories.get(first.memory_id!))!;
		engine.ctx.guesses.learn({
			counters: { seq: 1, stamp: 1 },
			previous: new Map([['default\u0000', { id: row.id, content: row.content, timestamp: row.timestamp }]]),
		});
		engine.ctx.index.clear();
		const stored = await engine.db.entities.get('person:maria lopez');
		await engine.db.entities.put({ ...stored!, aliases: ['Maria Lopez', 'M. Lopez'] });
		await engine.store({ content: 'Maria Lopez moved the design review to Thursday' });
		expect(engine.ctx.guesses.stale).toBe(1);
		// Planned as a new entity, the row would have lost the alias: the retry kept it.
		expect(await engine.db.entities.get('person:maria lopez')).toMatchObject({ aliases: ['Maria Lopez', 'M. Lopez'] });
		expect(await mentionsStored(engine, 'person:maria lopez')).toBe(2);
	});

	it('reads back no entity row: those it remembers stand while the write stamp does, those it guessed absent are added', async () => {
		const engine = await engines();
		await engine.store({ content: 'Maria Lopez approved the Lisbon office budget' });
		// Every read of an entity row, at the IndexedDB request (Dexie's table calls and the store's own).
		const get = Object.getOwnPropertyDescriptor(IDBObjectStore.prototype, 'get')!;
		const asked: string[][] = [];
		Object.defineProperty(IDBObjectStore.prototype, 'get', {
			...get,
			value(this: IDBObjectStore, key: IDBValidKey) {
				if (this.name === 'entities') asked.push([String(key)]);
				return (get.value as (k: IDBValidKey) => IDBRequest).call(this, key);
			},
		});
		await engine.store({ content: 'Maria Lopez met Tomas Berg about the Lisbon office' });
		expect(engine.ctx.guesses).toMatchObject({ hits: 1, stale: 0 });
		// Tomas Berg's row is new: added (a row there already would fail the add), not read first.
		expect(asked.flat()).toEqual([]);
		expect(await engine.db.entities.get('person:tomas berg')).toMatchObject({ name: 'Tomas Berg', aliases: ['Tomas Berg'] });
		Object.defineProperty(IDBObjectStore.prototype, 'get', get);
		// Another write that changes an entity row moves the stamp: the next store reads again.
		const exported = await engine.exportMemories({ format: 'json' });
		const bundle = JSON.parse(exported.data);
		bundle.entities = bundle.entities.map((e: Entity) => (e.id === 'person:maria lopez' ? { ...e, aliases: ['Maria Lopez', 'M. Lopez'] } : e));
		const stamp = async () => ((await engine.db.settings.get('sys:counters'))!.value as { stamp: number }).stamp;
		const before = await stamp();
		const imported = await engine.importMemories({ format: 'json', data: JSON.stringify(bundle) });
		expect(imported).toMatchObject({ imported: 0 });
		expect(await stamp()).toBeGreaterThan(before);
		const out = await engine.store({ content: 'Maria Lopez signed the catering contract' });
		expect(engine.ctx.guesses.stale).toBe(1);
		expect(out.seq).toBe(3);
		expect(await engine.db.entities.get('person:maria lopez')).toMatchObject({ aliases: ['Maria Lopez', 'M. Lopez'] });
	});

	it('a guessed store reads the counters and nothing else it remembers: no cursor for the newest memory', async () => {
		const engine = await engines();
		await engine.store({ content: 'Maria Lopez approved the Lisbon office budget', metadata: { session_id: 's1' } });
		// Every request of the next store, at IndexedDB (Dexie's table calls and the store's own).
		const requests: string[] = [];
		const restore: (() => void)[] = [];
		for (const [proto, names] of [
			[IDBObjectStore.prototype, ['get', 'getAll', 'add', 'put', 'openCursor', 'count']],
			[IDBIndex.prototype, ['get', 'getAll', 'openCursor', 'openKeyCursor', 'count']],
		] as const) {
			for (const name of names) {
				const d = Object.getOwnPropertyDescriptor(proto, name)!;
				Object.defineProperty(proto, name, {
					...d,
					value(this: IDBObjectStore | IDBIndex, ...args: unknown[]) {
						requests.push(`${'objectStore' in this ? `${this.objectStore.name}.${this.name}` : this.name}.${name}`);
						return (d.value as (...a: unknown[]) => IDBRequest).apply(this, args);
					},
				});
				restore.push(() => Object.defineProperty(proto, name, d));
			}
		}
		try {
			await engine.store({ content: 'Maria Lopez moved the design review to Thursday', metadata: { session_id: 's1' } });
		} finally {
			for (const r of restore) r();
		}
		expect(engine.ctx.guesses).toMatchObject({ hits: 1, stale: 0 });
		expect(requests.filter((r) => r.includes('openCursor'))).toEqual([]);
		expect(requests.sort()).toEqual(['activity.add', 'memories.add', 'settings.get', 'settings.put']);
	});

	it('an imported memory’s seq makes the guessed seq taken: the store retries instead of failing', async () => {
		const engine = await engines();
		await engine.store({ content: 'Maria Lopez approved the Lisbon office budget' });
		await engine.importMemories({
			format: 'json',
			data: JSON.stringify({ memories: [{ id: 'kept-seq', seq: 2, content: 'An imported note about invoices' }] }),
		});
		const out = await engine.store({ content: 'Maria Lopez signed the catering contract' });
		expect(engine.ctx.guesses.stale).toBe(1);
		expect(out.seq).toBe(3);
		// The failed attempt was mirrored into the index before its write failed; it was taken back.
		expect(engine.ctx.index.size).toBe(await engine.db.memories.count());
	});
});

describe('WriteGuesses', () => {
	const row = (id: string, count: number): EntityRow => ({
		id,
		norm: id,
		name: id,
		type: 'person',
		aliases: [id],
		memory_count: count,
		first_seen: 'a',
		last_seen: 'b',
	});
	const turn = (id: string, content = 'we met at noon') => ({ id, content, timestamp: '2026-03-10T12:00:00.000Z' });
	const state = (over: Partial<WriteState> = {}): WriteState => ({
		counters: { seq: 3, stamp: 5 },
		previous: new Map([['s\u0000', turn('m3')]]),
		entities: new Map([['e', row('e', 2)]]),
		...over,
	});

	it('guesses only what it has seen, and an unmentioned entity as absent', () => {
		const g = new WriteGuesses();
		expect(g.guess(['s\u0000'], [], () => true)).toBeUndefined();
		g.learn({ counters: { seq: 3, stamp: 5 }, previous: new Map([['s\u0000', turn('m3')]]), entities: [row('e', 2)] });
		expect(g.guess(['t\u0000'], [], () => true)).toBeUndefined();
		expect(g.guess(['s\u0000'], ['x'], () => false)).toBeUndefined();
		expect(g.guess(['s\u0000'], ['e', 'x'], () => true)).toEqual({ ...state(), absent: new Set(['x']) });
		g.forget();
		expect(g.guess([], [], () => true)).toBeUndefined();
	});

	it('compares counters, newest memories and entity rows', () => {
		expect(sameState(state(), state())).toBe(true);
		expect(sameState(state(), state({ counters: { seq: 3, stamp: 6 } }))).toBe(false);
		expect(sameState(state(), state({ counters: { seq: 4, stamp: 5 } }))).toBe(false);
		expect(sameState(state(), state({ previous: new Map([['s\u0000', turn('m4')]]) }))).toBe(false);
		// The newest memory's words were updated since: its context would be stale.
		expect(sameState(state(), state({ previous: new Map([['s\u0000', turn('m3', 'we met at one')]]) }))).toBe(false);
		expect(sameState(state(), state({ previous: new Map([['s\u0000', undefined]]) }))).toBe(false);
		expect(sameState(state(), state({ entities: new Map([['e', row('e', 3)]]) }))).toBe(false);
		expect(
			sameState(
				state(),
				state({
					entities: new Map([
						['e', row('e', 2)],
						['x', row('x', 1)],
					]),
				}),
			),
		).toBe(false);
		expect(sameState(state({ entities: new Map() }), state({ entities: new Map() }))).toBe(true);
	});
});

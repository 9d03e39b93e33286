/**
 * store/raw.ts: requests made on the native transaction under EngramDB.write() must behave as the
 * Dexie calls they replace: in the same transaction (code after them still is), all or nothing,
 * a duplicate key a conflict, the memory rows stored as the middleware would store them.
 */
import type { DBCore, Middleware } from 'dexie';
import { IDBKeyRange, IDBObjectStore, indexedDB } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { openEngramDB, type EngramDB } from '../../../src/store/db';
import { getRow, getRows, lastInIndex, writeRows } from '../../../src/store/raw';
import { storedMemory } from '../../../src/store/db';
import type { MemoryRow, SettingRow } from '../../../src/store/rows';
import { previousInScope } from '../../../src/store/memories';
import { freshName } from '../engine/helpers';
import { memoryRow } from './memory-row';
import { NO_EMBEDDED_VECTOR } from '../../../src/store/vectors';

const opened: EngramDB[] = [];
afterEach(() => opened.splice(0).forEach((d) => d.close()));

async function open(): Promise<EngramDB> {
	const db = await openEngramDB({ name: freshName(), indexedDB, IDBKeyRange });
	opened.push(db);
	return db;
}

function memory(id: string, seq: number, scope = 'default', session?: string): MemoryRow {
	return memoryRow(id, seq, { scope, vectors: { m: new Float32Array([1, 0]) }, ...(session !== undefined && { session }) });
}

/** Counts the requests made at the IndexedDB level on `store` by `method` while `fn` runs. */
async function counting<T>(method: 'add' | 'put' | 'get', store: string, fn: () => Promise<T>): Promise<{ out: T; n: number }> {
	const d = Object.getOwnPropertyDescriptor(IDBObjectStore.prototype, method)!;
	let n = 0;
	Object.defineProperty(IDBObjectStore.prototype, method, {
		...d,
		value(this: IDBObjectStore, ...args: unknown[]) {
			if (this.name === store) n++;
			return (d.value as (...a: unknown[]) => IDBRequest).apply(this, args);
		},
	});
	try {
		return { out: await fn(), n };
	} finally {
		Object.defineProperty(IDBObjectStore.prototype, method, d);
	}
}

describe('raw requests', () => {
	it('write and read rows inside write(), which commits them with what Dexie wrote after them', async () => {
		const db = await open();
		const rows = [memory('a', 1), memory('b', 2)];
		await db.write(async () => {
			await writeRows(db, 'memories', rows, 'add', storedMemory);
			// Still in the transaction's zone: a Dexie call after the await joins it.
			await db.settings.put({ key: 'after', value: 1 });
			expect(await getRow<SettingRow>(db, 'settings', 'after')).toEqual({ key: 'after', value: 1 });
			expect((await getRows<MemoryRow>(db, 'memories', ['b', 'x', 'a'])).map((r) => r?.id)).toEqual(['b', undefined, 'a']);
		});
		const stored = await db.memories.get('a');
		expect(stored?.other_models).toEqual(['m', NO_EMBEDDED_VECTOR]);
		expect(stored?.vectors?.m).toEqual(new Float32Array([1, 0]));
		expect(await db.settings.get('after')).toEqual({ key: 'after', value: 1 });
	});

	it('are all or nothing with the rest of the transaction when the callback throws', async () => {
		const db = await open();
		await expect(
			db.write(async () => {
				await writeRows(db, 'memories', [memory('a', 1)], 'add', storedMemory);
				await db.settings.put({ key: 'k', value: 1 });
				throw new Error('changed my mind');
			}),
		).rejects.toThrow(/changed my mind/);
		expect(await db.memories.count()).toBe(0);
		expect(await db.settings.count()).toBe(0);
	});

	it('refuse a duplicate key as a conflict, and the transaction writes nothing', async () => {
		const db = await open();
		await db.write(() => writeRows(db, 'memories', [memory('a', 1)], 'add', storedMemory));
		const e = await db
			.write(async () => {
				await db.settings.put({ key: 'k', value: 1 });
				// The second row takes seq 1 again (a unique index): the first of the two must not stay.
				await writeRows(db, 'memories', [memory('b', 2), memory('c', 1)], 'add', storedMemory);
			})
			.catch((x: unknown) => x);
		expect(e).toMatchObject({ code: 'conflict' });
		expect((await db.memories.toArray()).map((m) => m.id)).toEqual(['a']);
		expect(await db.settings.count()).toBe(0);
	});

	it('go to IndexedDB once per row inside write(), through Dexie outside it', async () => {
		const db = await open();
		const inside = await counting('add', 'activity', () =>
			db.write(() => writeRows(db, 'activity', [{ at: 'x', actor: 'agent', action: 'created' as const, memory_id: 'a' }], 'add')),
		);
		expect(inside.n).toBe(1);
		await writeRows(db, 'activity', [{ at: 'y', actor: 'agent', action: 'created' as const, memory_id: 'b' }], 'add');
		expect((await db.activity.toArray()).map((r) => r.memory_id)).toEqual(['a', 'b']);
		expect(await getRow<SettingRow>(db, 'settings', 'none')).toBeUndefined();
	});

	it('find the newest memory of a scope, or of a session within a scope, as the Dexie query did', async () => {
		const db = await open();
		const rows = [memory('a', 1, 's'), memory('b', 2, 't', 'x'), memory('c', 3, 's', 'x'), memory('d', 4, 't'), memory('e', 5, 's')];
		await db.write(() => writeRows(db, 'memories', rows, 'add', storedMemory));
		const ask = (scope: string, session: string | undefined, seq: number) => previousInScope(db, scope, session, seq).then((r) => r?.id);
		const cases: [string, string | undefined, number][] = [
			['s', undefined, Infinity],
			['s', undefined, 5],
			['s', undefined, 1],
			['s', 'x', Infinity],
			['t', 'x', Infinity],
			['t', 'x', 2],
			['u', undefined, Infinity],
		];
		const outside = await Promise.all(cases.map((c) => ask(...c)));
		const inside = await db.write(async () => Promise.all(cases.map((c) => ask(...c))));
		expect(outside).toEqual(['e', 'c', undefined, 'c', 'b', undefined, undefined]);
		expect(inside).toEqual(outside);
		// lastInIndex's fallback is what runs outside: it must not be what answered inside.
		const fellBack: string[] = [];
		await db.write(() =>
			lastInIndex(db, 'memories', '[scope+seq]', ['s', -Infinity], ['s', Infinity], undefined, async () => (fellBack.push('x'), undefined)),
		);
		expect(fellBack).toEqual([]);
	});

	it('are left to Dexie once other middleware is added, so it sees every request', async () => {
		const db = await open();
		const seen: string[] = [];
		const spy: Middleware<DBCore> = {
			stack: 'dbcore',
			name: 'test-spy',
			create: (down) => ({
				...down,
				table: (name) => {
					const t = down.table(name);
					return { ...t, mutate: (req) => (seen.push(`${name}:${req.type}`), t.mutate(req)) };
				},
			}),
		};
		db.use(spy);
		db.close();
		await db.open();
		expect(db.rawRequests).toBe(false);
		await db.write(() => writeRows(db, 'memories', [memory('a', 1)], 'add', storedMemory));
		expect(seen).toEqual(['memories:add']);
		expect((await db.memories.get('a'))?.other_models).toEqual(['m', NO_EMBEDDED_VECTOR]);
	});
});

import Dexie from 'dexie';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryError } from '../../../src/core/errors';
import { contentKey } from '../../../src/store/derived';
import {
	DB_VERSION,
	EngramDB,
	openEngramDB,
	SCHEMA_V1,
	SCHEMA_V2,
	SCHEMA_V3,
	SCHEMA_V5,
	SCHEMA_V7,
	SCHEMA_V8,
	SCHEMA_V11,
	SCHEMA_V12,
	SCHEMA_V14,
} from '../../../src/store/db';
import { linksOf, linksOut, linksTouching } from '../../../src/store/associations';
import { modelCounts, NO_EMBEDDED_VECTOR, rowsWithVector, setVector, vectorCount, vectorModels, vectorRowsOf } from '../../../src/store/vectors';
import { EMBEDDED_MODEL_ID } from '../../../src/store/names';
import { DEFAULT_MODEL_ID } from '../../../src/engine/embedder/types';
import type { MemoryRow } from '../../../src/store/rows';
import { recentActivity } from '../../../src/store/activity';
import { bumpStamp, readCounters, reserveSeqs } from '../../../src/store/settings';
import { mapStoreError } from '../../../src/store/errors';
import { recordRequests } from '../../../src/store/requests';
import { freshName } from '../engine/helpers';

const opened: Dexie[] = [];
afterEach(() => opened.splice(0).forEach((d) => d.close()));

/** A database class that knows only version 1, as the first release shipped it. */
class V1Only extends Dexie {
	constructor(name: string) {
		super(name, { indexedDB, IDBKeyRange });
		this.version(1).stores(SCHEMA_V1);
	}
}

/** A database class that stops at version 3 (two counter rows). */
class V3Only extends Dexie {
	constructor(name: string) {
		super(name, { indexedDB, IDBKeyRange });
		this.version(1).stores(SCHEMA_V1);
		this.version(2).stores(SCHEMA_V2);
		this.version(3).stores(SCHEMA_V3);
	}
}

/** A database class that stops at version 4 (mentions in their own table). */
class V4Only extends V3Only {
	constructor(name: string) {
		super(name);
		this.version(4).stores(SCHEMA_V3);
	}
}

/** A database class that stops at version 5 (associations in their own table). */
class V5Only extends V4Only {
	constructor(name: string) {
		super(name);
		this.version(5).stores(SCHEMA_V5);
	}
}

/** A database created at version 7 (vectors indexed by model and by memory). */
class V7Only extends Dexie {
	constructor(name: string) {
		super(name, { indexedDB, IDBKeyRange });
		this.version(7).stores(SCHEMA_V7);
	}
}

/** A database created at version 8 (memories' links indexed backwards by `link_keys`). */
class V8Only extends Dexie {
	constructor(name: string) {
		super(name, { indexedDB, IDBKeyRange });
		this.version(8).stores(SCHEMA_V8);
	}
}

/** A database created at version 11 (no requests table). */
class V11Only extends Dexie {
	constructor(name: string) {
		super(name, { indexedDB, IDBKeyRange });
		this.version(11).stores(SCHEMA_V11);
	}
}

/** A database created at version 12 (every model of every row indexed as `vector_models`). */
class V12Only extends Dexie {
	constructor(name: string) {
		super(name, { indexedDB, IDBKeyRange });
		this.version(12).stores(SCHEMA_V12);
	}
}

/** A database created at version 14 (a batch's created entry indexed under every memory id). */
class V14Only extends Dexie {
	constructor(name: string) {
		super(name, { indexedDB, IDBKeyRange });
		this.version(14).stores(SCHEMA_V14);
	}
}

const v1Link = { from: 'm1', to: 'm1', type: 'RELATES_TO', strength: 0.5, created_at: 'x' };

const v1Memory = {
	id: 'm1',
	seq: 1,
	content: 'Standup is at nine',
	type: 'Context' as const,
	tags: ['team'],
	scope: 'default',
	importance: 0.5,
	confidence: 1,
	metadata: { conversation_id: 'c-7' },
	entities: [{ name: 'Maria', type: 'person' }],
	timestamp: '2025-01-01T00:00:00.000Z',
	updated_at: '2025-01-01T00:00:00.000Z',
	access_count: 3,
};

describe('EngramDB', () => {
	describe('schema upgrade', () => {
		it('schema upgrade from v1 keeps data and derives the v2 fields', async () => {
			const name = freshName();
			const old = new V1Only(name);
			await old.table('memories').add(v1Memory);
			await old.table('vectors').add({ model: 'engram/glove-sif-100d', memory_id: 'm1', vector: [0.6, 0.8] });
			await old
				.table('entities')
				.add({ id: 'person:maria', name: 'Maria', type: 'person', aliases: ['Maria'], memory_count: 1, first_seen: 'x', last_seen: 'x' });
			await old.table('associations').add(v1Link);
			old.close();

			const db = await openEngramDB({ name, indexedDB, IDBKeyRange });
			opened.push(db);
			expect(db.verno).toBe(DB_VERSION);
			const m = await db.memories.get('m1');
			expect(m).toMatchObject({ ...v1Memory, session: 'c-7', content_key: contentKey('Standup is at nine'), entities_given: false });
			const v = m!.vectors!['engram/glove-sif-100d'];
			expect(v).toBeInstanceOf(Float32Array);
			expect(Array.from(v)).toEqual([Math.fround(0.6), Math.fround(0.8)]);
			// The embedded model's vector alone gives the row no entry in the sparse index (v13).
			expect(m).not.toHaveProperty('vector_models');
			expect(m).not.toHaveProperty('other_models');
			expect(await modelCounts(db)).toEqual([{ model: 'engram/glove-sif-100d', count: 1 }]);
			expect(await db.entities.where('norm').equals('maria').count()).toBe(1);
			expect(await db.memories.where('[session+seq]').equals(['c-7', 1]).count()).toBe(1);
			// v5 derived `entity_ids`; v10's upgrade rewrote the row, and since v11 a write drops them.
			expect(m).not.toHaveProperty('entity_ids');
			expect(await linksOf(db, 'm1', ['m1'])).toEqual({ out: [v1Link], in: [v1Link] });
		});

		it('schema upgrade from v4 moves entity mentions onto the memory rows and drops their table', async () => {
			const name = freshName();
			const old = new V4Only(name);
			const entities = [
				{ name: 'Maria', type: 'person' },
				{ name: 'Postgres', type: 'tool' },
			];
			await old.table('memories').bulkAdd([
				{ ...v1Memory, session: 'c-7', content_key: 'k1', entities_given: false, entities },
				{ ...v1Memory, id: 'm2', seq: 2, content_key: 'k2', entities_given: true, entities: [] },
			]);
			await old.table('memoryEntities').bulkAdd([
				{ memory_id: 'm1', entity_id: 'person:maria' },
				{ memory_id: 'm1', entity_id: 'tool:postgresql' },
			]);
			old.close();
			const db = await openEngramDB({ name, indexedDB, IDBKeyRange });
			opened.push(db);
			expect(db.tables.map((t) => t.name)).not.toContain('memoryEntities');
			// The mentions stay on the rows (`entities`); since v11 nothing in IndexedDB indexes them.
			expect((await db.memories.get('m1'))!.entities).toEqual(entities);
			expect((await db.memories.get('m2'))!.entities).toEqual([]);
			expect(db.memories.schema.indexes.map((i) => i.name)).not.toContain('entity_ids');
		});
	});

	it('schema upgrade from v5 moves each association onto the memory it leaves and drops the table', async () => {
		const name = freshName();
		const old = new V5Only(name);
		const row = (id: string, seq: number) => ({ ...v1Memory, id, seq, content_key: id, entities_given: false, entity_ids: [] });
		await old.table('memories').bulkAdd([row('a', 1), row('b', 2), row('c', 3)]);
		const ab = { from: 'a', to: 'b', type: 'SIMILAR_TO', strength: 0.8, created_at: 't1' };
		const ac = { from: 'a', to: 'c', type: 'RELATES_TO', strength: 0.5, created_at: 't2', reason: 'same project' };
		const cb = { from: 'c', to: 'b', type: 'PRECEDED_BY', strength: 1, created_at: 't3' };
		const gone = { from: 'deleted', to: 'b', type: 'SIMILAR_TO', strength: 0.9, created_at: 't4' };
		await old.table('associations').bulkAdd([ab, ac, cb, gone]);
		old.close();
		const db = await openEngramDB({ name, indexedDB, IDBKeyRange });
		opened.push(db);
		expect(db.tables.map((t) => t.name)).not.toContain('associations');
		// Which memories link into one is the engine index's to say; here every memory is named.
		const all = ['a', 'b', 'c'];
		expect(await linksOf(db, 'a', all)).toEqual({ out: [ab, ac], in: [] });
		const byTime = (l: { created_at: string }[]) => [...l].sort((x, y) => x.created_at.localeCompare(y.created_at));
		const intoB = await linksOf(db, 'b', all);
		expect(intoB.out).toEqual([]);
		expect(byTime(intoB.in)).toEqual([ab, cb]);
		expect(byTime(await linksTouching(db, ['c'], all))).toEqual([ac, cb]);
		expect((await db.memories.toArray()).flatMap(linksOut)).toHaveLength(3);
	});

	/** A memory row holding a vector under each of `models`. */
	const withVectors = (id: string, seq: number, models: string[], v: number[] = [0.6, 0.8]): MemoryRow => {
		const row = { ...v1Memory, id, seq, content_key: id, entities_given: false } as MemoryRow;
		for (const model of models) setVector(row, model, v);
		return row;
	};

	it('lists the models holding vectors, each once, in key order', async () => {
		const db = await openEngramDB({ name: freshName(), indexedDB, IDBKeyRange });
		opened.push(db);
		expect(await vectorModels(db)).toEqual([]);
		await db.memories.bulkAdd(['m1', 'm2', 'm3'].map((id, i) => withVectors(id, i + 1, ['engram/glove', 'caller:2', 'Xenova/minilm'])));
		expect(await vectorModels(db)).toEqual(['Xenova/minilm', 'caller:2', 'engram/glove']);
		// A memory's vectors go with its row: deleting every memory holding one drops the model.
		await db.memories.bulkPut(
			(await db.memories.toArray()).map((r) => ({
				...r,
				vectors: { 'engram/glove': r.vectors!['engram/glove'], 'Xenova/minilm': r.vectors!['Xenova/minilm'] },
			})),
		);
		expect(await vectorModels(db)).toEqual(['Xenova/minilm', 'engram/glove']);
		await db.memories.bulkDelete(['m1', 'm2', 'm3']);
		expect(await vectorModels(db)).toEqual([]);
	});

	it('finds and counts vectors by model and by memory, on the memory rows', async () => {
		const db = await openEngramDB({ name: freshName(), indexedDB, IDBKeyRange });
		opened.push(db);
		expect(db.tables.map((t) => t.name)).not.toContain('vectors');
		// Models whose names sort next to each other and prefix one another stay apart.
		const models = ['a', 'a/b', 'ab'];
		await db.memories.bulkAdd(['m1', 'm2', 'm3'].map((id, i) => withVectors(id, i + 1, models.slice(i), [i, 1])));
		expect(await modelCounts(db)).toEqual([
			{ model: 'a', count: 1 },
			{ model: 'a/b', count: 2 },
			{ model: 'ab', count: 3 },
		]);
		expect((await rowsWithVector(db, 'a/b').toArray()).map((r) => r.id)).toEqual(['m1', 'm2']);
		const vectorsOf = async (ids: string[]) => (await db.memories.bulkGet(ids)).flatMap((r) => (r ? vectorRowsOf(r) : []));
		const of = async (ids: string[]) => (await vectorsOf(ids)).map((v) => `${v.model}:${v.memory_id}`).sort();
		expect(await of(['m2', 'm3', 'missing'])).toEqual(['a/b:m2', 'ab:m2', 'ab:m3']);
		expect(await of([])).toEqual([]);
		expect(Array.from((await vectorsOf(['m3']))[0].data)).toEqual([2, 1]);
		await db.memories.delete('m2');
		expect(await of(['m1', 'm2', 'm3'])).toEqual(['a/b:m1', 'a:m1', 'ab:m1', 'ab:m3']);
		expect(await modelCounts(db)).toEqual([
			{ model: 'a', count: 1 },
			{ model: 'a/b', count: 1 },
			{ model: 'ab', count: 2 },
		]);
	});

	it("schema upgrade from v7 drops the content-key index and moves every vector onto its memory's row (v10)", async () => {
		const name = freshName();
		const old = new V7Only(name);
		await old.open();
		const vector = (model: string, id: string, x: number) => ({ model, memory_id: id, dims: 2, data: Float32Array.from([x, 0.8]) });
		await old
			.table('memories')
			.bulkAdd(['m1', 'm2'].map((id, i) => ({ ...v1Memory, id, seq: i + 1, content_key: id, entities_given: false, entity_ids: [] })));
		// A vector whose memory is gone goes with the table.
		await old
			.table('vectors')
			.bulkAdd([
				vector('engram/glove', 'm1', 0.6),
				vector('caller:2', 'm1', 0.5),
				vector('engram/glove', 'm2', 0.4),
				vector('engram/glove', 'gone', 0.3),
			]);
		old.close();
		const db = await openEngramDB({ name, indexedDB, IDBKeyRange });
		opened.push(db);
		expect(db.verno).toBe(DB_VERSION);
		expect(db.tables.map((t) => t.name)).not.toContain('vectors');
		expect(db.memories.schema.indexes.map((i) => i.name)).not.toContain('[scope+content_key]');
		const m1 = (await db.memories.get('m1'))!;
		expect(Object.keys(m1.vectors!).sort()).toEqual(['caller:2', 'engram/glove']);
		expect(Array.from(m1.vectors!['caller:2'])).toEqual([0.5, 0.8].map(Math.fround));
		expect(await modelCounts(db)).toEqual([
			{ model: 'caller:2', count: 1 },
			{ model: 'engram/glove', count: 2 },
		]);
	});

	it('schema upgrade from v8 drops the backward link index; links stay on their rows, and a rewrite drops the stale keys', async () => {
		const name = freshName();
		const old = new V8Only(name);
		const link = { to: 'b', type: 'SIMILAR_TO', strength: 0.8, created_at: 't1' };
		const row = (id: string, seq: number, links: (typeof link)[]) => ({
			...v1Memory,
			id,
			seq,
			content_key: id,
			entities_given: false,
			entity_ids: [],
			links,
			link_keys: links.map((l) => [l.to, l.type]),
		});
		await old.table('memories').bulkAdd([row('a', 1, [link]), row('b', 2, [])]);
		old.close();
		const db = await openEngramDB({ name, indexedDB, IDBKeyRange });
		opened.push(db);
		expect(db.verno).toBe(DB_VERSION);
		expect(db.memories.schema.indexes.map((i) => i.name)).not.toContain('link_keys');
		expect(await linksOf(db, 'b', ['a'])).toEqual({ out: [], in: [{ from: 'a', ...link }] });
		await db.memories.put((await db.memories.get('a'))!);
		expect(await db.memories.get('a')).not.toHaveProperty('link_keys');
	});

	it('indexes neither tags nor entity mentions since v11, and drops a stale entity_ids when a row is rewritten', async () => {
		const db = await openEngramDB({ name: freshName(), indexedDB, IDBKeyRange });
		opened.push(db);
		expect(db.memories.schema.indexes.map((i) => i.name).sort()).toEqual(['[scope+seq]', '[session+seq]', 'other_models', 'seq']);
		const row = { ...v1Memory, content_key: 'k', entities_given: true };
		await db.memories.add({ ...row, entity_ids: ['person:maria'] });
		expect(await db.memories.get('m1')).not.toHaveProperty('entity_ids');
		await db.memories.bulkPut([{ ...row, id: 'm2', seq: 2, entity_ids: ['person:maria'] }]);
		expect(await db.memories.get('m2')).not.toHaveProperty('entity_ids');
	});

	it('schema upgrade from v11 adds the requests table (by id, indexed by time) and keeps every memory', async () => {
		const name = freshName();
		const old = new V11Only(name);
		await old.table('memories').add({ ...v1Memory, content_key: 'k', entities_given: false });
		old.close();
		const db = await openEngramDB({ name, indexedDB, IDBKeyRange });
		opened.push(db);
		expect(db.verno).toBe(DB_VERSION);
		expect(db.requests.schema.primKey.name).toBe('id');
		expect(db.requests.schema.indexes.map((i) => i.name)).toEqual(['at']);
		expect(await db.requests.count()).toBe(0);
		expect((await db.memories.get('m1'))?.content).toBe(v1Memory.content);
		await db.write(() => recordRequests(db, [{ id: 'r1', op: 'store_memory', hash: 'h', at: 1, result: [] }], 2));
		expect(await db.requests.get('r1')).toMatchObject({ op: 'store_memory', at: 1 });
	});

	it('indexes the models of a row other than the embedded one since v13, and marks a row without an embedded vector', async () => {
		expect(EMBEDDED_MODEL_ID).toBe(DEFAULT_MODEL_ID);
		const db = await openEngramDB({ name: freshName(), indexedDB, IDBKeyRange });
		opened.push(db);
		const E = EMBEDDED_MODEL_ID;
		await db.memories.bulkAdd([
			withVectors('m1', 1, [E]),
			withVectors('m2', 2, [E, 'caller:2']),
			withVectors('m3', 3, ['Xenova/minilm']),
			{ ...withVectors('m4', 4, []), vectors: undefined },
		]);
		const rows = await db.memories.bulkGet(['m1', 'm2', 'm3', 'm4']);
		expect(rows.map((r) => r?.other_models)).toEqual([undefined, ['caller:2'], ['Xenova/minilm', NO_EMBEDDED_VECTOR], [NO_EMBEDDED_VECTOR]]);
		expect(rows.map((r) => r && 'vector_models' in r)).toEqual([false, false, false, false]);
		// Only the rows holding something besides the embedded vector have index entries.
		expect(await db.memories.where('other_models').above('').primaryKeys()).toEqual(expect.arrayContaining(['m2', 'm3', 'm4']));
		expect(new Set(await db.memories.where('other_models').above('').primaryKeys()).has('m1')).toBe(false);
		expect(await modelCounts(db)).toEqual([
			{ model: 'Xenova/minilm', count: 1 },
			{ model: 'caller:2', count: 1 },
			{ model: E, count: 2 },
		]);
		expect(await vectorCount(db, E)).toBe(2);
		expect((await rowsWithVector(db, E).primaryKeys()).sort()).toEqual(['m1', 'm2']);
		expect((await rowsWithVector(db, 'caller:2').primaryKeys()).sort()).toEqual(['m2']);
		// A rewrite re-derives the field: the embedded vector added, the mark goes.
		const m3 = (await db.memories.get('m3'))!;
		setVector(m3, E, [1, 0]);
		await db.memories.put(m3);
		expect((await db.memories.get('m3'))?.other_models).toEqual(['Xenova/minilm']);
		expect(await vectorCount(db, E)).toBe(3);
		await db.memories.bulkDelete(['m1', 'm2', 'm3', 'm4']);
		expect(await vectorModels(db)).toEqual([]);
	});

	it('schema upgrade from v12 indexes only the other models, rewriting only the rows that need an entry (v13), and drops vector_models (v14)', async () => {
		const name = freshName();
		const old = new V12Only(name);
		const E = EMBEDDED_MODEL_ID;
		// As v12 stored them: `vector_models` derived by its middleware, here written out.
		const row = (id: string, seq: number, models: string[]) => ({ ...withVectors(id, seq, models), vector_models: models });
		await old
			.table('memories')
			.bulkAdd([
				row('m1', 1, [E]),
				row('m2', 2, [E, 'caller:2']),
				row('m3', 3, ['Xenova/minilm']),
				{ ...row('m4', 4, []), vectors: undefined },
				row('m5', 5, [E]),
			]);
		old.close();
		const db = await openEngramDB({ name, indexedDB, IDBKeyRange });
		opened.push(db);
		expect(db.verno).toBe(DB_VERSION);
		expect(db.memories.schema.indexes.map((i) => i.name)).not.toContain('vector_models');
		const rows = await db.memories.bulkGet(['m1', 'm2', 'm3', 'm4', 'm5']);
		expect(rows.map((r) => r?.other_models)).toEqual([undefined, ['caller:2'], ['Xenova/minilm', NO_EMBEDDED_VECTOR], [NO_EMBEDDED_VECTOR], undefined]);
		// Rows holding only the embedded vector were not rewritten: they keep the stale field.
		expect(rows.map((r) => r?.vector_models)).toEqual([[E], undefined, undefined, undefined, [E]]);
		expect(await modelCounts(db)).toEqual([
			{ model: 'Xenova/minilm', count: 1 },
			{ model: 'caller:2', count: 1 },
			{ model: E, count: 3 },
		]);
		expect(rows.map((r) => r?.content)).toEqual(Array(5).fill(v1Memory.content));
		await db.memories.put(rows[0]!);
		expect(await db.memories.get('m1')).not.toHaveProperty('vector_models');
	});

	it('schema upgrade from v12 where every row holds the embedded vector rewrites only the rows holding another model', async () => {
		const name = freshName();
		const old = new V12Only(name);
		const E = EMBEDDED_MODEL_ID;
		const row = (id: string, seq: number, models: string[]) => ({ ...withVectors(id, seq, models), vector_models: models });
		await old.table('memories').bulkAdd([row('m1', 1, [E]), row('m2', 2, [E, 'caller:2']), row('m3', 3, [E])]);
		old.close();
		const db = await openEngramDB({ name, indexedDB, IDBKeyRange });
		opened.push(db);
		const rows = await db.memories.bulkGet(['m1', 'm2', 'm3']);
		expect(rows.map((r) => [r?.other_models, r?.vector_models])).toEqual([
			[undefined, [E]],
			[['caller:2'], undefined],
			[undefined, [E]],
		]);
		expect(await modelCounts(db)).toEqual([
			{ model: 'caller:2', count: 1 },
			{ model: E, count: 3 },
		]);
	});

	it("schema upgrade from v14 indexes activity by last_seq; a batch entry written before is still found by each memory's id", async () => {
		const name = freshName();
		const old = new V14Only(name);
		await old.table('memories').bulkAdd([
			{ ...v1Memory, id: 'm1', seq: 1 },
			{ ...v1Memory, id: 'm2', seq: 2 },
		]);
		await old.table('activity').bulkAdd([
			{ at: '2026-01-01T00:00:00.000Z', actor: 'agent', action: 'created', memory_ids: ['m1', 'm2'], detail: 'batch of 2' },
			{ at: '2026-01-02T00:00:00.000Z', actor: 'you', action: 'associated', memory_id: 'm1', memory_ids: ['m2'], detail: 'RELATES_TO → m2' },
		]);
		old.close();
		const db = await openEngramDB({ name, indexedDB, IDBKeyRange });
		opened.push(db);
		expect(db.verno).toBe(DB_VERSION);
		expect(db.activity.schema.indexes.map((i) => i.name).sort()).toEqual(['last_seq', 'memory_id', 'memory_ids']);
		expect((await recentActivity(db, 10, 'm2')).map((e) => [e.action, e.memory_ids])).toEqual([
			['associated', ['m2']],
			['created', ['m1', 'm2']],
		]);
		// A batch written at v15: found by seq, read back with memory_ids.
		await db.memories.bulkAdd([
			{ ...v1Memory, id: 'm3', seq: 3, content_key: contentKey(v1Memory.content), entities_given: false },
			{ ...v1Memory, id: 'm4', seq: 4, content_key: contentKey(v1Memory.content), entities_given: false },
		]);
		await db.activity.add({
			at: '2026-01-03T00:00:00.000Z',
			actor: 'agent',
			action: 'created',
			detail: 'batch of 2',
			batch_ids: ['m3', 'm4'],
			first_seq: 3,
			last_seq: 4,
		});
		expect(await recentActivity(db, 10, 'm4')).toEqual([expect.objectContaining({ action: 'created', memory_ids: ['m3', 'm4'], detail: 'batch of 2' })]);
		expect((await recentActivity(db, 10, 'm4'))[0]).not.toHaveProperty('batch_ids');
		expect((await recentActivity(db, 10, 'm1')).map((e) => e.action)).toEqual(['associated', 'created']);
		expect((await recentActivity(db, 1)).map((e) => e.memory_ids)).toEqual([['m3', 'm4']]);
	});

	it('schema upgrade from v3 merges the seq and write-stamp rows into one counters row', async () => {
		const name = freshName();
		const old = new V3Only(name);
		await old.table('settings').bulkAdd([
			{ key: 'sys:seq', value: 41 },
			{ key: 'sys:write_stamp', value: 7 },
			{ key: 'theme', value: 'dark' },
		]);
		old.close();
		const db = await openEngramDB({ name, indexedDB, IDBKeyRange });
		opened.push(db);
		expect(await readCounters(db)).toEqual({ seq: 41, stamp: 7 });
		expect((await db.settings.toArray()).map((r) => r.key).sort()).toEqual(['sys:counters', 'theme']);
		expect(await reserveSeqs(db, 2)).toBe(42);
		expect(await bumpStamp(db)).toBe(8);
		expect(await readCounters(db)).toEqual({ seq: 43, stamp: 8 });
	});

	describe('write', () => {
		it('commits every write of the callback together', async () => {
			const db = await openEngramDB({ name: freshName(), indexedDB, IDBKeyRange });
			opened.push(db);
			await db.write(async () => {
				await db.settings.put({ key: 'a', value: 1 });
				await db.settings.put({ key: 'b', value: 2 });
			});
			expect(await db.settings.count()).toBe(2);
		});

		it("tracks no changes for Dexie's live queries: a committed write posts no storagemutated notice", async () => {
			const db = await openEngramDB({ name: freshName(), indexedDB, IDBKeyRange });
			opened.push(db);
			const notices: unknown[] = [];
			const listen = (parts: unknown) => void notices.push(parts);
			Dexie.on('storagemutated', listen);
			let plain!: Dexie;
			try {
				// Dexie fires its notice in the transaction's complete event, before write() resolves.
				await db.write(async () => {
					await db.settings.put({ key: 'a', value: 1 });
				});
				plain = new Dexie(freshName(), { indexedDB, IDBKeyRange });
				plain.version(1).stores({ t: 'k' });
				opened.push(plain);
				await plain.transaction('rw', plain.table('t'), () => plain.table('t').put({ k: 1 }));
			} finally {
				Dexie.on('storagemutated').unsubscribe(listen);
			}
			// Only the plain Dexie database (the control: all its middleware is there) posted any.
			const parts = notices.flatMap((n) => Object.keys(n as object));
			expect(parts.length).toBeGreaterThan(0);
			expect(parts.filter((p) => !p.startsWith(`idb://${plain.name}/`))).toEqual([]);
			expect(await db.settings.get('a')).toEqual({ key: 'a', value: 1 });
		});

		it('rolls back every write when the callback throws', async () => {
			const db = await openEngramDB({ name: freshName(), indexedDB, IDBKeyRange });
			opened.push(db);
			const err = await db
				.write(async () => {
					await db.settings.put({ key: 'a', value: 1 });
					throw new MemoryError('invalid_input', 'x: nope');
				})
				.catch((e: unknown) => e);
			expect(err).toBeInstanceOf(MemoryError);
			expect(await db.settings.count()).toBe(0);
		});

		it('maps a duplicate key to a conflict MemoryError', async () => {
			const db = new EngramDB({ name: freshName(), indexedDB, IDBKeyRange });
			opened.push(db);
			await db.open();
			await db.settings.add({ key: 'a', value: 1 });
			const err = await db.write(() => db.settings.add({ key: 'a', value: 2 })).catch((e: unknown) => e);
			expect(err).toMatchObject({ name: 'MemoryError', code: 'conflict' });
		});
	});

	describe('mapStoreError', () => {
		it('maps QuotaExceededError (also inside an AbortError) to quota_exceeded', () => {
			const quota = Object.assign(new Error('no space'), { name: 'QuotaExceededError' });
			expect(mapStoreError(quota)).toMatchObject({ code: 'quota_exceeded' });
			expect(mapStoreError(Object.assign(new Error('aborted'), { name: 'AbortError', inner: quota }))).toMatchObject({ code: 'quota_exceeded' });
		});

		it('maps anything else to storage_failed naming the cause', () => {
			expect(mapStoreError(Object.assign(new Error('db gone'), { name: 'DatabaseClosedError' }))).toMatchObject({
				code: 'storage_failed',
				message: 'storage: DatabaseClosedError: db gone',
			});
		});

		it('passes MemoryErrors through unchanged', () => {
			const e = new MemoryError('not_found', 'memory_id: gone');
			expect(mapStoreError(e)).toBe(e);
		});
	});
});

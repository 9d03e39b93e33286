import { IDBKeyRange, IDBObjectStore, indexedDB } from 'fake-indexeddb';
import { getVector } from '../../../src/store/vectors';
import { describe, expect, it, vi } from 'vitest';
import type { Embedder } from '../../../src/engine/embedder';
import type { ChangeEvent, Progress } from '../../../src/engine/types';
import { DB_VERSION, openEngramDB } from '../../../src/store/db';
import { trimActivity } from '../../../src/store/activity';
import { bumpStamp } from '../../../src/store/settings';
import type { SnapshotFiles } from '../../../src/store/snapshot-files';
import { readStampedSnapshot } from '../../../src/store/snapshot-reader';
import { removeOrphanFiles } from '../../../src/store/snapshots';
import { countingEmbedder, embedder, freshName, makeEngine, rejection, useEngines } from './helpers';

const fresh = useEngines();

/** A second, genuinely different model: the embedded vectors' first 50 dimensions, renormalised. */
function truncatedModel(inner: Embedder): Embedder {
	return {
		modelId: 'test/glove-first-50d',
		dims: 50,
		async embed(texts) {
			return (await inner.embed(texts)).map((v) => {
				if (!v) return null;
				const head = v.slice(0, 50);
				const n = Math.hypot(...head);
				return n > 0 ? head.map((x) => x / n) : null;
			});
		},
	};
}

const NOTES = ['The daily standup meeting starts at 9 am', 'Backups of the database run nightly at two in the morning', 'Maria Silva owns the billing service'];

const original = IDBObjectStore.prototype.get;

/** Snapshot files in memory, as OPFS would keep them; `failWrites` makes every write throw. */
function memoryFiles(opts: { failWrites?: boolean } = {}): SnapshotFiles & { files: Map<string, { bytes: Uint8Array; modified: number }> } {
	const files = new Map<string, { bytes: Uint8Array; modified: number }>();
	return {
		files,
		async write(name, bytes) {
			if (opts.failWrites) throw new DOMException('quota', 'QuotaExceededError');
			files.set(name, { bytes: bytes.slice(), modified: Date.now() });
		},
		async read(name) {
			const f = files.get(name);
			if (!f) throw new DOMException(name, 'NotFoundError');
			return f.bytes.slice();
		},
		async remove(name) {
			files.delete(name);
		},
		async list() {
			return [...files].map(([name, f]) => ({ name, modified: f.modified }));
		},
	};
}

describe('Engine', () => {
	describe('index lifecycle', () => {
		it('reopens from the persisted snapshot when nothing was written since', async () => {
			const dbName = freshName();
			const first = await makeEngine({ dbName });
			expect(first.indexOrigin).toBe('rebuilt');
			await first.store({ memories: NOTES.map((content) => ({ content })) });
			await first.close();
			const again = await fresh({ dbName });
			expect(again.indexOrigin).toBe('snapshot');
			expect(again.ctx.index.size).toBe(3);
			expect((await again.recall({ query: 'when are backups taken' })).results[0].memory.content).toBe(NOTES[1]);
		});

		it("restores from a snapshot another connection reads (the worker's helper thread), and reads it here when that fails", async () => {
			const dbName = freshName();
			const first = await makeEngine({ dbName });
			await first.store({ memories: NOTES.map((content) => ({ content })) });
			await first.close();
			let asked = 0;
			const model = (await embedder()).modelId;
			const viaHelper = await fresh({
				dbName,
				modelId: model,
				snapshotSource: () => (asked++, readStampedSnapshot(indexedDB, dbName, { active: model })),
			});
			// Asked once, for whatever model is active: the helper finds it, before the database is open.
			expect(asked).toBe(1);
			expect(viaHelper.indexOrigin).toBe('snapshot');
			expect((await viaHelper.recall({ query: 'when are backups taken' })).results[0].memory.content).toBe(NOTES[1]);
			await viaHelper.close();
			const failing = await fresh({ dbName, modelId: (await embedder()).modelId, snapshotSource: () => Promise.reject(new Error('no helper')) });
			expect(failing.indexOrigin).toBe('snapshot');
			expect(failing.ctx.index.size).toBe(3);
		});

		it('does not use a snapshot read before a later write, even when the source hands it over', async () => {
			const dbName = freshName();
			const model = (await embedder()).modelId;
			const first = await makeEngine({ dbName });
			await first.store({ memories: NOTES.map((content) => ({ content })) });
			await first.close();
			const stale = await readStampedSnapshot(indexedDB, dbName, model);
			const second = await makeEngine({ dbName });
			await second.store({ content: 'The office plants are watered on Fridays' });
			await second.close();
			const third = await fresh({ dbName, modelId: model, snapshotSource: async () => stale });
			expect(third.ctx.index.size).toBe(4);
			expect((await third.recall({ query: 'when are the plants watered' })).results[0].memory.content).toBe('The office plants are watered on Fridays');
		});

		it('reads a snapshot with the bare API without ever creating a database', async () => {
			const dbName = freshName();
			const first = await makeEngine({ dbName });
			await first.store({ content: NOTES[0] });
			await first.close();
			const read = await readStampedSnapshot(indexedDB, dbName, (await embedder()).modelId);
			expect(read.stamp).toBeGreaterThan(0);
			expect(read.snapshot?.stamp).toBe(read.stamp);
			expect(read.snapshot?.bytes).toBeInstanceOf(Uint8Array);
			expect((await readStampedSnapshot(indexedDB, dbName, 'no/such-model')).snapshot).toBeUndefined();
			// The active model's: the setting when there is one, else the fallback given.
			const model = (await embedder()).modelId;
			expect((await readStampedSnapshot(indexedDB, dbName, { active: model })).snapshot?.model).toBe(model);
			expect((await readStampedSnapshot(indexedDB, dbName, { active: 'no/such-model' })).snapshot).toBeUndefined();
			const db = await openEngramDB({ name: dbName, indexedDB, IDBKeyRange });
			await db.settings.put({ key: 'active_model', value: model });
			db.close();
			expect((await readStampedSnapshot(indexedDB, dbName, { active: 'no/such-model' })).snapshot?.model).toBe(model);
			const missing = freshName();
			await expect(readStampedSnapshot(indexedDB, missing, 'm')).rejects.toThrow(/does not exist|abort/i);
			expect((await indexedDB.databases()).map((d) => d.name)).not.toContain(missing);
		});

		it('restores the snapshot while the model loads when told which model to expect, and ignores a wrong guess', async () => {
			const dbName = freshName();
			const first = await makeEngine({ dbName });
			await first.store({ memories: NOTES.map((content) => ({ content })) });
			await first.close();
			const real = await embedder();
			let release!: () => void;
			const slow = new Promise<typeof real>((resolve) => (release = () => resolve(real)));
			const snapshotReads: string[] = [];
			const get = vi.spyOn(IDBObjectStore.prototype, 'get').mockImplementation(function (this: IDBObjectStore, key: IDBValidKey | IDBKeyRange) {
				if (this.name === 'snapshots') snapshotReads.push(String(key));
				return original.call(this, key);
			});
			const opening = fresh({ dbName, embedder: slow, modelId: real.modelId });
			// The snapshot is read while the model is still loading.
			await vi.waitFor(() => expect(snapshotReads).toEqual([real.modelId]));
			get.mockRestore();
			release();
			const again = await opening;
			expect(again.indexOrigin).toBe('snapshot');
			expect(again.ctx.index.size).toBe(3);
			const guessedWrong = await fresh({ dbName, modelId: 'someone/else' });
			expect(guessedWrong.indexOrigin).toBe('snapshot');
			expect(guessedWrong.ctx.index.modelId).toBe(real.modelId);
			expect((await guessedWrong.recall({ query: 'when are backups taken' })).results[0].memory.content).toBe(NOTES[1]);
		});

		it('rebuilds when a write happened after the snapshot, without re-embedding', async () => {
			const dbName = freshName();
			const first = await makeEngine({ dbName });
			await first.store({ memories: NOTES.map((content) => ({ content })) });
			await first.close();
			const db = await openEngramDB({ name: dbName, indexedDB, IDBKeyRange });
			await db.write(() => bumpStamp(db));
			db.close();
			const counting = countingEmbedder(await embedder());
			const again = await fresh({ dbName, embedder: counting });
			await again.whenIdle();
			expect(again.indexOrigin).toBe('rebuilt');
			expect(counting.texts).toBe(0);
			const hit = await again.nearest((await (await embedder()).embed(['who is responsible for billing']))[0]!, 1);
			expect(hit[0].id).toBe((await again.db.memories.where('seq').equals(3).first())!.id);
		});

		it('lists memories sharing a timestamp by seq (newest first), the same after a rebuild', async () => {
			const dbName = freshName();
			const first = await makeEngine({ dbName });
			// One batch: one timestamp for all, and ids whose order is not the store order.
			const ids = ['m-c', 'm-a', 'm-d', 'm-b'];
			await first.store({ memories: ids.map((id, i) => ({ id, content: `Note ${i} about the ${['budget', 'roadmap', 'hiring', 'offsite'][i]}` })) });
			const live = (await first.timeline({ limit: 10 })).memories.map((m) => m.id);
			const liveAsc = (await first.timeline({ limit: 10, order: 'asc' })).memories.map((m) => m.id);
			// Ties go by seq: newest first, or in store order ascending; a page takes the right end.
			expect(live).toEqual([...ids].reverse());
			expect(liveAsc).toEqual(ids);
			expect((await first.timeline({ limit: 2 })).memories.map((m) => m.id)).toEqual(['m-b', 'm-d']);
			expect((await first.timeline({ limit: 2, offset: 2 })).memories.map((m) => m.id)).toEqual(['m-a', 'm-c']);
			await first.close();
			const db = await openEngramDB({ name: dbName, indexedDB, IDBKeyRange });
			await db.write(() => bumpStamp(db));
			db.close();
			const again = await fresh({ dbName });
			expect(again.indexOrigin).toBe('rebuilt');
			expect((await again.timeline({ limit: 10 })).memories.map((m) => m.id)).toEqual(live);
			expect((await again.timeline({ limit: 10, order: 'asc' })).memories.map((m) => m.id)).toEqual(liveAsc);
		});

		it('persists snapshots debounced, not on every write', async () => {
			const engine = await fresh();
			const stampOf = async () => (await engine.db.snapshots.get('engram/glove-sif-100d'))!.stamp;
			const initial = await stampOf();
			for (const content of NOTES) await engine.store({ content });
			expect(await stampOf()).toBe(initial);
			await engine.flushSnapshot();
			expect(await stampOf()).toBe(initial + 3);
		});
	});

	describe('subscribe', () => {
		it('tells listeners after each committed write and stops after unsubscribe', async () => {
			const engine = await fresh();
			const events: ChangeEvent[] = [];
			const off = engine.subscribe((e) => events.push(e));
			const a = await engine.store({ content: 'First' });
			const b = await engine.store({ content: 'Second thing entirely' });
			await engine.associate({ memory1_id: a.memory_id!, memory2_id: b.memory_id! });
			await engine.store({ content: 'Bad', timestamp: 'never' }).catch(() => undefined);
			off();
			await engine.delete({ memory_id: a.memory_id! });
			expect(events).toEqual([
				{ kind: 'memories', ids: [a.memory_id] },
				{ kind: 'memories', ids: [b.memory_id] },
				{ kind: 'associations', ids: [a.memory_id, b.memory_id] },
			]);
		});

		it('a throwing listener does not fail the write', async () => {
			const engine = await fresh();
			engine.subscribe(() => {
				throw new Error('listener bug');
			});
			expect((await engine.store({ content: 'Still stored' })).success).toBe(true);
		});
	});

	describe('wipe', () => {
		it('deletes memories, links, entities, vectors and history but keeps settings', async () => {
			const engine = await fresh();
			await engine.store({ memories: NOTES.map((content) => ({ content })) });
			await engine.setSetting('theme', 'dark');
			await engine.wipe();
			const counts = await Promise.all([engine.db.memories, engine.db.entities, engine.db.activity].map((t) => t.count()));
			expect(counts).toEqual([0, 0, 0]);
			expect(engine.ctx.index.size).toBe(0);
			expect(await engine.getSetting('theme')).toBe('dark');
		});
	});

	describe('settings', () => {
		it('refuses keys reserved for the engine', async () => {
			const engine = await fresh();
			expect(await rejection(engine.setSetting('sys:seq', 0))).toMatchObject({
				code: 'invalid_input',
				message: 'key: "sys:seq" is reserved for the engine',
			});
		});

		it('a per-model threshold override takes effect at once', async () => {
			const engine = await fresh();
			await engine.setSetting('thresholds:engram/glove-sif-100d', { similar: 0.999 });
			const a = await engine.store({ content: 'The daily standup meeting starts at 9 am' });
			await engine.store({ content: 'Our team meets for standup at nine every morning' });
			expect((await engine.associationsOf(a.memory_id!)).filter((l) => l.type === 'SIMILAR_TO')).toEqual([]);
		});
	});

	describe('activity', () => {
		it('records one recalled entry per recall with its query', async () => {
			const engine = await fresh();
			await engine.store({ memories: NOTES.map((content) => ({ content })) });
			await engine.recall({ query: 'standup time' });
			const [last] = await engine.activity(1);
			expect(last).toMatchObject({ action: 'recalled', detail: expect.stringMatching(/^standup time → \d+ result/) });
		});

		it('writes recall entries together, later, and keeps them across a reopen', async () => {
			const dbName = freshName();
			const engine = await makeEngine({ dbName });
			await engine.store({ memories: NOTES.map((content) => ({ content })) });
			const before = await engine.db.activity.count();
			await engine.recall({ query: 'standup' });
			await engine.recall({ query: 'backups' });
			// Not yet written: the recall did not wait for an activity write.
			expect(await engine.db.activity.count()).toBe(before);
			await engine.close();
			const again = await fresh({ dbName });
			expect((await again.activity(2)).map((e) => e.detail)).toEqual([expect.stringMatching(/^backups → /), expect.stringMatching(/^standup → /)]);
		});

		it('keeps the log bounded to the newest entries', async () => {
			const engine = await fresh();
			for (let i = 0; i < 30; i++) await engine.logActivity({ actor: 'test', action: 'accessed', detail: `#${i}` });
			expect(await trimActivity(engine.db, 10)).toBe(0);
			const db = engine.db;
			await db.activity.bulkAdd(
				Array.from({ length: 600 }, (_, i) => ({ at: '2026-01-01T00:00:00Z', actor: 'bulk', action: 'accessed' as const, detail: `b${i}` })),
			);
			expect(await trimActivity(db, 10)).toBe(620);
			expect((await engine.activity(100)).map((e) => e.detail)).toEqual(Array.from({ length: 10 }, (_, i) => `b${599 - i}`));
		});
	});

	describe('models', () => {
		it('switches model, re-embeds in the background, keeps the old vectors and switches back without embedding', async () => {
			const base = await embedder();
			const other = countingEmbedder(truncatedModel(base));
			const engine = await fresh({ embedderFactory: async (id) => (id === other.modelId ? other : base) });
			await engine.store({ memories: NOTES.map((content) => ({ content })) });
			const progress: Progress[] = [];
			await engine.setActiveModel(other.modelId, (p) => progress.push(p));
			await engine.whenIdle();
			expect(other.texts).toBe(3);
			expect(progress.at(-1)).toMatchObject({ task: 're-embed', done: 3, total: 3 });
			const models = await engine.models();
			expect(models).toMatchObject({ active: other.modelId, dims: 50 });
			expect(models.available).toEqual(
				expect.arrayContaining([
					{ model: 'engram/glove-sif-100d', count: 3 },
					{ model: other.modelId, count: 3 },
				]),
			);
			expect((await engine.recall({ query: 'database backups at night' })).results[0].memory.content).toBe(NOTES[1]);
			await engine.setActiveModel('engram/glove-sif-100d');
			await engine.whenIdle();
			expect((await engine.models()).active).toBe('engram/glove-sif-100d');
			expect(await engine.getSetting('active_model')).toBe('engram/glove-sif-100d');
		});

		it('reports a re-embedding that fails in the activity log, as the engine', async () => {
			const base = await embedder();
			const broken: Embedder = {
				...truncatedModel(base),
				embed: async () => {
					throw new Error('the model ran out of memory');
				},
			};
			const engine = await fresh({ embedderFactory: async (id) => (id === broken.modelId ? broken : base) });
			await engine.store({ memories: NOTES.map((content) => ({ content })) });
			await engine.setActiveModel(broken.modelId);
			await engine.whenIdle();
			const failed = (await engine.activity(100)).filter((e) => e.action === 'failed');
			expect(failed).toMatchObject([
				{ actor: 'engine', detail: 're-embedding failed: embedding with test/glove-first-50d failed: the model ran out of memory' },
			]);
		});

		it('embeds, when it opens, the memories an interrupted job left without a vector', async () => {
			const dbName = freshName();
			const first = await makeEngine({ dbName });
			const out = await first.store({ memories: NOTES.map((content) => ({ content })) });
			const id = out.results[1].memory_id;
			const model = first.ctx.embedder.modelId;
			// As a model switch stopped midway leaves it: the row has no vector, and the snapshot is stale.
			await first.db.write(async () => {
				const row = (await first.db.memories.get(id))!;
				delete row.vectors![model];
				await first.db.memories.put(row);
				await bumpStamp(first.db);
			});
			await first.close();
			const again = await fresh({ dbName });
			await again.whenIdle();
			expect(await getVector(again.db, model, id)).toBeDefined();
			expect(again.ctx.index.hasVector(id)).toBe(true);
		});

		it('says whether the job runs, and a memory with no known word is left without a vector, not re-embedded forever', async () => {
			const dbName = freshName();
			const first = await makeEngine({ dbName });
			await first.store({ memories: [{ content: NOTES[0] }, { content: '🙂🙂🙂' }, { content: 'xqzv wrrpt' }] });
			await first.close();
			const again = await fresh({ dbName });
			// The job started at opening runs over both: neither gets a vector.
			await again.whenIdle();
			const models = await again.models();
			expect(models.reembedding).toBe(false);
			expect(models.available).toEqual([{ model: again.ctx.embedder.modelId, count: 1 }]);
			const base = await embedder();
			const slow = truncatedModel(base);
			let release!: () => void;
			const held = new Promise<void>((r) => (release = r));
			const switching = await fresh({
				embedderFactory: async () => ({ ...slow, embed: async (texts: string[]) => (await held, slow.embed(texts)) }),
			});
			await switching.store({ content: NOTES[1] });
			await switching.setActiveModel(slow.modelId);
			expect((await switching.models()).reembedding).toBe(true);
			release();
			await switching.whenIdle();
			expect(await switching.models()).toMatchObject({ active: slow.modelId, reembedding: false });
		});

		it('reopens with the stored active model', async () => {
			const base = await embedder();
			const other = truncatedModel(base);
			const factory = async (id: string) => (id === other.modelId ? other : base);
			const dbName = freshName();
			const first = await makeEngine({ dbName, embedderFactory: factory });
			await first.store({ content: 'Remember the milk' });
			await first.setActiveModel(other.modelId);
			await first.close();
			const again = await fresh({ dbName, embedderFactory: factory });
			expect(again.ctx.embedder.modelId).toBe(other.modelId);
		});

		it('refuses another model without a factory', async () => {
			const engine = await fresh();
			expect(await rejection(engine.setActiveModel('Xenova/all-MiniLM-L6-v2'))).toMatchObject({ code: 'invalid_input' });
		});
	});

	describe('snapshot files', () => {
		/** A database holding NOTES whose engine closed with its snapshot in a file of `disk`. */
		async function storedWithFiles() {
			const dbName = freshName();
			const disk = memoryFiles();
			const first = await makeEngine({ dbName, snapshotFiles: disk });
			await first.store({ memories: NOTES.map((content) => ({ content })) });
			await first.close();
			return { dbName, disk, name: [...disk.files.keys()][0] };
		}

		it('keeps the bytes in a file the row names, restores from it, and replaces the file on the next snapshot', async () => {
			const { dbName, disk, name } = await storedWithFiles();
			expect(disk.files.size).toBe(1);
			const db = await openEngramDB({ name: dbName, indexedDB, IDBKeyRange });
			const row = (await db.snapshots.toArray())[0];
			db.close();
			expect(row).toMatchObject({ file: name, size: disk.files.get(name)!.bytes.byteLength });
			expect(row.bytes).toBeUndefined();

			const again = await fresh({ dbName, snapshotFiles: disk });
			expect(again.indexOrigin).toBe('snapshot');
			expect((await again.health()).search_index).toEqual({ origin: 'snapshot', snapshot: 'file' });
			expect((await again.recall({ query: 'when are backups taken' })).results[0].memory.content).toBe(NOTES[1]);
			await again.store({ content: 'The office plants are watered on Fridays' });
			await again.flushSnapshot();
			// One file again: the new one, named by the row; the replaced one is gone.
			expect([...disk.files.keys()]).toHaveLength(1);
			expect(disk.files.has(name)).toBe(false);
			// The helper thread's reader finds the file too.
			const read = await readStampedSnapshot(indexedDB, dbName, (await embedder()).modelId, disk);
			expect(read.snapshot).toMatchObject({ stamp: read.stamp, place: 'file' });
			expect(read.snapshot!.bytes).toEqual(disk.files.get([...disk.files.keys()][0])!.bytes);
		});

		it('rebuilds, never restores wrongly, when the file is missing or not the size the row says', async () => {
			const { dbName, disk, name } = await storedWithFiles();
			disk.files.get(name)!.bytes = disk.files.get(name)!.bytes.subarray(0, 100);
			const truncated = await fresh({ dbName, snapshotFiles: disk });
			expect(truncated.indexOrigin).toBe('rebuilt');
			expect(truncated.ctx.index.size).toBe(3);
			await truncated.close();
			disk.files.clear();
			const missing = await fresh({ dbName, snapshotFiles: disk });
			expect(missing.indexOrigin).toBe('rebuilt');
			expect((await missing.recall({ query: 'when are backups taken' })).results[0].memory.content).toBe(NOTES[1]);
		});

		it('keeps the bytes in IndexedDB when the file cannot be written, and reads them back', async () => {
			const dbName = freshName();
			const full = memoryFiles({ failWrites: true });
			const first = await makeEngine({ dbName, snapshotFiles: full });
			await first.store({ memories: NOTES.map((content) => ({ content })) });
			expect((await first.health()).search_index).toEqual({ origin: 'rebuilt', snapshot: 'indexeddb' });
			await first.close();
			expect(full.files.size).toBe(0);
			const again = await fresh({ dbName, snapshotFiles: full });
			expect(again.indexOrigin).toBe('snapshot');
			expect((await again.health()).search_index).toEqual({ origin: 'snapshot', snapshot: 'indexeddb' });
		});

		it('removes files no row names once they are old, and every file on wipe', async () => {
			const dbName = freshName();
			const disk = memoryFiles();
			disk.files.set('stale.bin', { bytes: new Uint8Array(8), modified: Date.now() - 3_600_000 });
			disk.files.set('young.bin', { bytes: new Uint8Array(8), modified: Date.now() });
			const engine = await fresh({ dbName, snapshotFiles: disk });
			await engine.store({ content: NOTES[0] });
			await engine.flushSnapshot();
			// The stale orphan went; a young one may be another tab's, about to be named.
			expect(disk.files.has('stale.bin')).toBe(false);
			expect(disk.files.has('young.bin')).toBe(true);
			expect(disk.files.size).toBe(2);
			// Old files of a model whose row names another are gone; the one its row names stays, however old.
			const [current] = [...disk.files.keys()].filter((n) => n !== 'young.bin');
			disk.files.get(current)!.modified = Date.now() - 3_600_000;
			const model = encodeURIComponent((await embedder()).modelId).replaceAll('.', '%2E');
			disk.files.set(`${model}.1.cut-off.bin`, { bytes: new Uint8Array(8), modified: Date.now() - 3_600_000 });
			await removeOrphanFiles(engine.db, disk);
			expect([...disk.files.keys()].sort()).toEqual([current, 'young.bin'].sort());
			await engine.wipe();
			expect(disk.files.size).toBe(0);
		});
	});

	describe('health', () => {
		it('reports counts and a healthy state', async () => {
			const engine = await fresh();
			await engine.store({ memories: NOTES.map((content) => ({ content })) });
			const h = await engine.health();
			expect(h).toMatchObject({
				status: 'healthy',
				database: { version: DB_VERSION, memories: 3, entities: expect.any(Number) },
				vector_index: { model: 'engram/glove-sif-100d', vectors: 3, ready: true },
				lexical_index: { documents: 3, ready: true },
				search_index: { origin: 'rebuilt' },
				embedder: { dims: 100, ready: true },
				issues: [],
			});
		});

		it('names memories without a vector as an issue', async () => {
			const engine = await fresh();
			await engine.store({ content: 'qqqzzz xxyyzz' });
			expect((await engine.health()).issues).toEqual([expect.stringMatching(/^1 memories have no engram\/glove-sif-100d vector/)]);
		});
	});
});

/**
 * Schema upgrades in Chromium's IndexedDB: a database laid out as schema v12 left it (every
 * model of every row indexed as `vector_models`), opened by the built app. The upgrade derives
 * the sparse `other_models` index on the rows that need an entry, drops `vector_models`, and the
 * engine counts, finds and writes vectors through the new index.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentKey } from '../../src/store/derived';
import { EMBEDDED_MODEL_ID } from '../../src/store/names';
import { launchBrowser, startPreview, type Browser, type Server } from './helpers';

let server: Server;
let browser: Browser;
let page: Page;

beforeAll(async () => {
	server = await startPreview();
	browser = await launchBrowser({ offlineCapable: false });
	page = await browser.context.newPage();
});

afterAll(async () => {
	await browser?.close();
	await server?.stop();
});

/** A v12 row: `vectors` as number arrays (made Float32Array in the page), `vector_models` as v12's middleware derived it. */
function v12Row(id: string, seq: number, content: string, vectors: Record<string, number[]>) {
	return {
		id,
		seq,
		content,
		type: 'Context',
		tags: [],
		scope: 'default',
		importance: 0.5,
		confidence: 0.8,
		metadata: {},
		entities: [],
		timestamp: `2026-01-0${seq}T10:00:00.000Z`,
		updated_at: `2026-01-0${seq}T10:00:00.000Z`,
		access_count: 0,
		content_key: contentKey(content),
		entities_given: false,
		vectors,
		vector_models: Object.keys(vectors),
	};
}

/** A unit vector of `dims` with its weight on axis `at`. */
const axis = (dims: number, at: number) => Array.from({ length: dims }, (_, i) => (i === at ? 1 : 0));

/** The memories store's index names and rows, read with the bare IndexedDB API. */
function readStore(p: Page, ids: string[]) {
	return p.evaluate(async (ids) => {
		const db = await new Promise<IDBDatabase>((resolve, reject) => {
			const rq = indexedDB.open('engram');
			rq.onsuccess = () => resolve(rq.result);
			rq.onerror = () => reject(rq.error);
		});
		const os = db.transaction('memories').objectStore('memories');
		const rows = await Promise.all(
			ids.map(
				(id) =>
					new Promise<{ other_models?: string[]; vector_models?: string[] } | undefined>((resolve, reject) => {
						const rq = os.get(id);
						rq.onsuccess = () => resolve(rq.result);
						rq.onerror = () => reject(rq.error);
					}),
			),
		);
		const out = { version: db.version, indexes: [...os.indexNames].sort(), rows: rows.map((r) => ({ other: r?.other_models, stale: r?.vector_models })) };
		db.close();
		return out;
	}, ids);
}

describe('schema upgrade in Chromium', () => {
	it('a v12 database opens at v14: other_models derived on the rows that need it, vector_models gone, counts and caller vectors as before', async () => {
		const E = EMBEDDED_MODEL_ID;
		const rows = [
			v12Row('m1', 1, 'The greenhouse thermostat is set to eighteen degrees', { [E]: axis(100, 1) }),
			v12Row('m2', 2, 'Maria keeps the spare greenhouse key under the blue pot', { [E]: axis(100, 2), 'caller:3': axis(3, 0) }),
			v12Row('m3', 3, 'The greenhouse roof vents open above twenty degrees', { [E]: axis(100, 3), 'Xenova/all-MiniLM-L6-v2': axis(4, 1) }),
			v12Row('m4', 4, 'Watering the greenhouse tomatoes happens every second day', { [E]: axis(100, 4), 'caller:3': axis(3, 1) }),
			// No embedded vector: the upgrade reads every key to find it, and the engine re-embeds it.
			v12Row('m5', 5, 'The greenhouse door sticks when it rains', { 'Xenova/all-MiniLM-L6-v2': axis(4, 2) }),
		];
		// On the app's origin, without the app: lay the database out as Dexie's v12 did (IndexedDB version 120).
		await page.goto(`${server.url}/manifest.webmanifest`);
		await page.evaluate(async (rows) => {
			await new Promise<void>((resolve, reject) => {
				const rq = indexedDB.open('engram', 120);
				rq.onupgradeneeded = () => {
					const db = rq.result;
					const m = db.createObjectStore('memories', { keyPath: 'id' });
					m.createIndex('seq', 'seq', { unique: true });
					m.createIndex('[scope+seq]', ['scope', 'seq']);
					m.createIndex('[session+seq]', ['session', 'seq']);
					m.createIndex('vector_models', 'vector_models', { multiEntry: true });
					db.createObjectStore('entities', { keyPath: 'id' }).createIndex('norm', 'norm');
					const a = db.createObjectStore('activity', { keyPath: 'id', autoIncrement: true });
					a.createIndex('memory_id', 'memory_id');
					a.createIndex('memory_ids', 'memory_ids', { multiEntry: true });
					db.createObjectStore('settings', { keyPath: 'key' });
					db.createObjectStore('snapshots', { keyPath: 'model' });
					db.createObjectStore('requests', { keyPath: 'id' }).createIndex('at', 'at');
					const tx = rq.transaction!;
					for (const r of rows) {
						const vectors = Object.fromEntries(Object.entries(r.vectors).map(([k, v]) => [k, Float32Array.from(v)]));
						tx.objectStore('memories').add({ ...r, vectors });
					}
					tx.objectStore('settings').put({ key: 'sys:counters', value: { seq: rows.length, stamp: rows.length } });
					// A batch's created entry as v7–v14 wrote it: every id in the multi-entry index.
					tx.objectStore('activity').add({
						at: '2026-01-01T10:00:00.000Z',
						actor: 'agent',
						action: 'created',
						memory_ids: ['m1', 'm2'],
						detail: 'batch of 2',
					});
				};
				rq.onsuccess = () => (rq.result.close(), resolve());
				rq.onerror = () => reject(rq.error);
			});
		}, rows);
		expect((await readStore(page, ['m1'])).indexes).toContain('vector_models');

		await page.goto(server.url);
		await page.waitForFunction(() => '__engram' in globalThis, undefined, { timeout: 60_000 });
		// The engine re-embeds m5 in the background when it starts: wait until every memory has its vector.
		await page.waitForFunction(
			async () => {
				const h = await (globalThis as unknown as { __engram: { health(): Promise<{ vector_index: { vectors: number } }> } }).__engram.health();
				return h.vector_index.vectors === 5;
			},
			undefined,
			{ timeout: 60_000, polling: 200 },
		);
		type Engram = {
			health(): Promise<{ database: { version: number; memories: number }; vector_index: { vectors: number }; issues: string[] }>;
			models(): Promise<{ available: { model: string; count: number }[] }>;
			recall(i: unknown): Promise<{ results: { memory: { id: string } }[] }>;
			store(i: unknown): Promise<{ results: { memory_id: string }[] }>;
			history(id: string): Promise<{ action: string; memory_ids?: string[] }[]>;
		};
		const seen = await page.evaluate(async () => {
			const engram = (globalThis as unknown as { __engram: Engram }).__engram;
			const health = await engram.health();
			const models = await engram.models();
			// A caller's embedding is ranked against the rows holding a caller vector of its length
			// (none found would be refused: the active model has 100 dimensions, not 3).
			const byCaller = await engram.recall({ query: 'greenhouse', embedding: [1, 0, 0], limit: 5 });
			return { health, models: models.available, byCaller: byCaller.results.map((r) => r.memory.id) };
		});
		expect(seen.health.database).toMatchObject({ version: 15, memories: 5 });
		expect(seen.health.vector_index.vectors).toBe(5);
		expect(seen.health.issues).toEqual([]);
		expect(seen.models).toEqual([
			{ model: 'Xenova/all-MiniLM-L6-v2', count: 2 },
			{ model: 'caller:3', count: 2 },
			{ model: E, count: 5 },
		]);
		// m2's caller vector is the query's, m4's is orthogonal: m2 ranks first though m4 is shorter.
		expect(seen.byCaller.indexOf('m2')).toBeGreaterThanOrEqual(0);
		expect(seen.byCaller.indexOf('m2')).toBeLessThan(seen.byCaller.indexOf('m4'));

		const after = await readStore(page, ['m1', 'm2', 'm3', 'm4', 'm5']);
		expect(after.version).toBe(150);
		expect(after.indexes).toEqual(['[scope+seq]', '[session+seq]', 'other_models', 'seq']);
		// Only the rows with an entry were rewritten; m1 keeps its stale field until its next write.
		expect(after.rows).toEqual([
			{ other: undefined, stale: [E] },
			{ other: ['caller:3'], stale: undefined },
			{ other: ['Xenova/all-MiniLM-L6-v2'], stale: undefined },
			{ other: ['caller:3'], stale: undefined },
			// Marked without an embedded vector by the upgrade; the re-embedding's write re-derived it.
			{ other: ['Xenova/all-MiniLM-L6-v2'], stale: undefined },
		]);

		// New memories hold only the embedded vector: no entry; one with a caller embedding gets one.
		const stored = await page.evaluate(async () => {
			const engram = (globalThis as unknown as { __engram: Engram }).__engram;
			const out = await engram.store({
				memories: [
					{ content: 'The compost bin sits behind the greenhouse door' },
					{ content: 'Seedlings move outside after the last frost in May' },
					{ content: 'The rain barrel overflows into the herb bed', embedding: [0, 0, 1] },
				],
			});
			const health = await engram.health();
			const ids = out.results.map((r) => r.memory_id);
			// Schema v15: the old batch entry found through its ids' index, the new one by its seq range.
			const histories = await Promise.all(['m2', ids[1]].map(async (id) => (await engram.history(id)).map((e) => [e.action, e.memory_ids])));
			return { ids, vectors: health.vector_index.vectors, models: (await engram.models()).available, histories };
		});
		expect(stored.vectors).toBe(8);
		expect(stored.histories).toEqual([[['created', ['m1', 'm2']]], [['created', stored.ids]]]);
		expect(stored.models).toEqual([
			{ model: 'Xenova/all-MiniLM-L6-v2', count: 2 },
			{ model: 'caller:3', count: 3 },
			{ model: E, count: 8 },
		]);
		expect((await readStore(page, stored.ids)).rows).toEqual([
			{ other: undefined, stale: undefined },
			{ other: undefined, stale: undefined },
			{ other: ['caller:3'], stale: undefined },
		]);
	});
});

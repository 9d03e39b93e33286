/**
 * Engine write-path benchmark in Node: single-memory store latency while the store grows to N
 * (default 1000), then at that size a 500-memory batch store, get, update, delete, recall, and
 * reopening the database from the snapshot vs rebuilding the index. IndexedDB is fake-indexeddb
 * (Node has none), so absolute numbers include its overhead; the browser's IndexedDB differs.
 * Memories come from the seeded corpus generator (bench/lib/corpus.ts), embedded with the real
 * embedded model.
 *
 * Run: npx tsx bench/store-node.ts [--n 1000] [--json]
 */
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { createEmbedder } from '../src/engine/embedder';
import { createEngine, type Engine } from '../src/engine/engine';
import { nodeModelPath } from '../src/engine/node-model-path';
import { openEngramDB } from '../src/store/db';
import { bumpStamp } from '../src/store/settings';
import { Corpus } from './lib/corpus';
import { percentile, round, timeMs } from './lib/stats';

const arg = (name: string, def: number) => {
	const i = process.argv.indexOf(`--${name}`);
	return i > 0 ? Number(process.argv[i + 1]) : def;
};
const N = arg('n', 1000);
const asJson = process.argv.includes('--json');

/** p50/p90/p99 of a sample, in ms with two decimals. */
function summary(xs: number[]) {
	return { n: xs.length, p50: round(percentile(xs, 50)), p90: round(percentile(xs, 90)), p99: round(percentile(xs, 99)) };
}

async function timed<T>(xs: number[], fn: () => Promise<T>): Promise<T> {
	const t = performance.now();
	const r = await fn();
	xs.push(performance.now() - t);
	return r;
}

async function main(): Promise<void> {
	const embedder = await createEmbedder({ localModelPath: nodeModelPath() });
	const dbName = `bench-store-${Date.now()}`;
	const open = () => createEngine({ dbName, indexedDB, IDBKeyRange, embedder, snapshotDelayMs: 60_000 });
	let engine: Engine = await open();
	const corpus = new Corpus(7);
	const store: number[] = [];
	const ids: string[] = [];
	for (let i = 0; i < N; i++) {
		const out = await timed(store, () => engine.store(corpus.memory(i)));
		ids.push(out.memory_id!);
	}
	const get: number[] = [];
	const update: number[] = [];
	const recall: number[] = [];
	for (let i = 0; i < 100; i++) {
		const id = ids[(i * 37) % ids.length];
		await timed(get, () => engine.get({ memory_id: id }));
		await timed(update, () => engine.update({ memory_id: id, tags: ['bench', `t${i}`] }));
		await timed(recall, () => engine.recall({ query: corpus.queryFor(corpus.memory(N + i)), limit: 10 }));
	}
	const batchItems = Array.from({ length: 500 }, (_, i) => corpus.memory(N + 1000 + i));
	const batch = await timeMs(() => engine.store({ memories: batchItems }));
	const del: number[] = [];
	for (let i = 0; i < 50; i++) await timed(del, () => engine.delete({ memory_id: ids[i] }));
	const total = (await engine.stats({})).total_memories;
	await engine.flushSnapshot();
	await engine.close();
	const reopenSnapshot = await timeMs(async () => (engine = await open()));
	const originA = engine.indexOrigin;
	await engine.close();
	const db = await openEngramDB({ name: dbName, indexedDB, IDBKeyRange });
	await db.write(() => bumpStamp(db));
	db.close();
	const reopenRebuild = await timeMs(async () => (engine = await open()));
	const originB = engine.indexOrigin;
	await engine.close();

	const result = {
		memories_at_end: total,
		store_single: { all: summary(store), last_100: summary(store.slice(-100)) },
		store_batch_500_ms: round(batch),
		get: summary(get),
		update_tags: summary(update),
		recall: summary(recall),
		delete: summary(del),
		reopen_ms: { [originA]: round(reopenSnapshot), [originB]: round(reopenRebuild) },
		env: { node: process.version, idb: 'fake-indexeddb', model: embedder.modelId },
	};
	if (asJson) console.log(JSON.stringify(result, null, 1));
	else {
		console.log(
			`store (single) while growing to ${N}: p50 ${result.store_single.all.p50} ms, p90 ${result.store_single.all.p90}, p99 ${result.store_single.all.p99}`,
		);
		console.log(
			`store (single) at ~${N} (last 100): p50 ${result.store_single.last_100.p50} ms, p90 ${result.store_single.last_100.p90}, p99 ${result.store_single.last_100.p99}`,
		);
		console.log(`store batch of 500 at ${N}: ${result.store_batch_500_ms} ms (${round(result.store_batch_500_ms / 500)} ms/memory)`);
		console.log(
			`get p50 ${result.get.p50} ms · update p50 ${result.update_tags.p50} ms · recall p50 ${result.recall.p50} ms · delete p50 ${result.delete.p50} ms`,
		);
		console.log(`reopen at ${total}: from snapshot ${round(reopenSnapshot)} ms, rebuild ${round(reopenRebuild)} ms`);
	}
}

await main();

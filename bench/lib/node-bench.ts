/**
 * The Node half of `npm run bench`: a real Engine over fake-indexeddb with the embedded model.
 * Per size: batch import with SIMILAR_TO links (import_s), single stores into the populated
 * database, recalls of realistic queries; at the largest size also heap, stored bytes per memory
 * and cold start (a child process's boot-and-import time plus reopening the database from its
 * snapshot and answering the first recall).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { serialize } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createEmbedder, type Embedder } from '../../src/engine/embedder';
import { createEngine, type Engine } from '../../src/engine/engine';
import { nodeCategories, nodeModelPath } from '../../src/engine/node-model-path';
import { Corpus } from './corpus';
import { type EnvResult, percentile, round, type SizeResult, timeMs } from './stats';

const BATCH = 500;
const SAMPLES = 100;

/** Forces a full GC (exposing it at run time, so no node flag is needed). */
function gc(): void {
	setFlagsFromString('--expose-gc');
	(runInNewContext('gc') as () => void)();
}

/** Texts per second through the embedder on realistic memories. */
async function embedRate(embedder: Embedder, corpus: Corpus): Promise<number> {
	const texts = Array.from({ length: 2000 }, (_, i) => corpus.memory(i).content);
	await embedder.embed(texts.slice(0, 200));
	const ms = await timeMs(() => embedder.embed(texts));
	return round(texts.length / (ms / 1000), 0);
}

/** Stores `n` corpus memories in batches; returns seconds. */
async function importAll(engine: Engine, corpus: Corpus, n: number, log: (s: string) => void): Promise<number> {
	const t = performance.now();
	for (let i = 0; i < n; i += BATCH) {
		const memories = Array.from({ length: Math.min(BATCH, n - i) }, (_, j) => corpus.memory(i + j));
		await engine.store({ memories });
		if ((i / BATCH) % 20 === 19) log(`  imported ${i + BATCH}/${n} (${((performance.now() - t) / 1000).toFixed(0)} s)`);
	}
	return (performance.now() - t) / 1000;
}

/** Single-store and recall latencies into the populated engine. */
async function latencies(engine: Engine, corpus: Corpus, n: number): Promise<Omit<SizeResult, 'import_s'>> {
	const store: number[] = [];
	for (let j = 0; j < SAMPLES; j++) {
		const m = corpus.memory(n + j);
		store.push(await timeMs(() => engine.store(m)));
	}
	const recall: number[] = [];
	for (let j = 0; j < SAMPLES; j++) {
		const q = corpus.queryFor(corpus.memory(Math.floor((j * 7919) % n)));
		recall.push(await timeMs(() => engine.recall({ query: q, limit: 10 })));
	}
	return {
		store_p50_ms: round(percentile(store, 50)),
		store_p99_ms: round(percentile(store, 99)),
		recall_p50_ms: round(percentile(recall, 50)),
		recall_p99_ms: round(percentile(recall, 99)),
	};
}

/** Structured-clone bytes of every stored row (what IndexedDB persists), per memory. */
async function storedBytesPerMemory(engine: Engine): Promise<number> {
	let bytes = 0;
	for (const table of engine.ctx.db.tables) await table.each((row: unknown) => void (bytes += serialize(row).length));
	const count = await engine.ctx.db.table('memories').count();
	return round(bytes / count, 0);
}

/** Milliseconds for a fresh Node process to boot and import the engine and embedder modules. */
function childBootMs(): number {
	const child = fileURLToPath(new URL('./cold-child.ts', import.meta.url));
	const t = performance.now();
	const r = spawnSync(process.execPath, ['--import', 'tsx', child], { stdio: 'ignore' });
	if (r.status !== 0) throw new Error(`cold-child exited with ${r.status}`);
	return performance.now() - t;
}

/** Runs the Node benchmark for `sizes`; logs progress with `log`. */
export async function runNode(sizes: number[], log: (s: string) => void): Promise<EnvResult> {
	const corpus = new Corpus(42);
	const embedder = await createEmbedder({ localModelPath: nodeModelPath() });
	const out: EnvResult = { embed_per_s: await embedRate(embedder, corpus), cold_start_ms: null, heap_mb: null, idb_bytes_per_memory: null, sizes: {} };
	log(`node: embed ${out.embed_per_s}/s`);
	for (const n of sizes) {
		const indexedDB = new IDBFactory();
		const dbName = `engram-bench-${n}`;
		const engine = await createEngine({ dbName, indexedDB, IDBKeyRange, embedder, categories: nodeCategories(), snapshotDelayMs: 3_600_000 });
		log(`node: ${n} memories…`);
		const import_s = round(await importAll(engine, new Corpus(42), n, log), 1);
		const lat = await latencies(engine, corpus, n);
		out.sizes[String(n)] = { ...lat, import_s };
		log(`node: ${n}: ${JSON.stringify(out.sizes[String(n)])}`);
		if (n === Math.max(...sizes)) {
			gc();
			out.heap_mb = round(process.memoryUsage().heapUsed / 2 ** 20, 0);
			out.idb_bytes_per_memory = await storedBytesPerMemory(engine);
			await engine.close();
			const reopen = await timeMs(async () => {
				const e = await createEngine({
					dbName,
					indexedDB,
					IDBKeyRange,
					embedder: createEmbedder({ localModelPath: nodeModelPath() }),
					categories: nodeCategories(),
				});
				await e.recall({ query: corpus.queryFor(corpus.memory(1)), limit: 10 });
				log(`node: reopened from ${e.indexOrigin}`);
				await e.close();
			});
			out.cold_start_ms = round(childBootMs() + reopen, 0);
		} else await engine.close();
	}
	return out;
}

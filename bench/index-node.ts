/**
 * `npx tsx bench/index-node.ts [sizes=1000,10000,100000]`: the search index alone in Node, fed
 * like the engine feeds it (a scoped nearest() look-up per insert and its SIMILAR_TO edges, one
 * per pair as the engine writes them, plus PRECEDED_BY, so the snapshot carries the links a real index has), on realistic
 * memories embedded with the embedded model. Per size: insert cost, recall ranking p50/p99
 * (unscoped and scoped), snapshot size, snapshot and restore time. This isolates retrieval from
 * IndexedDB, whose cost the end-to-end `npm run bench` includes.
 */
import { createEmbedder } from '../src/engine/embedder';
import { nodeModelPath } from '../src/engine/node-model-path';
import { createSearchIndex, restoreSearchIndex } from '../src/engine/search/index';
import { Corpus } from './lib/corpus';
import { percentile, round } from './lib/stats';

const sizes = (process.argv[2] ?? '1000,10000,100000').split(',').map(Number);
const embedder = await createEmbedder({ localModelPath: nodeModelPath() });

for (const n of sizes) {
	const corpus = new Corpus(42);
	const index = createSearchIndex({ modelId: embedder.modelId, dims: embedder.dims });
	let insertMs = 0;
	for (let i = 0; i < n; i += 2000) {
		const mems = Array.from({ length: Math.min(2000, n - i) }, (_, j) => corpus.memory(i + j));
		const vecs = await embedder.embed(mems.map((m) => m.content));
		const t = performance.now();
		mems.forEach((m, j) => {
			const v = vecs[j];
			// SIMILAR_TO to the nearest of the scope, PRECEDED_BY to the previous memory, as on store.
			if (v)
				for (const nb of index.nearest(v, 5, { scope: m.scope }))
					index.addEdge({ from: `m${i + j}`, to: nb.id, type: 'SIMILAR_TO', strength: nb.cosine });
			if (i + j > 0) index.addEdge({ from: `m${i + j}`, to: `m${i + j - 1}`, type: 'PRECEDED_BY', strength: 1 });
			const ts = Date.parse(m.timestamp);
			index.upsert(
				{
					id: `m${i + j}`,
					seq: i + j + 1,
					scope: m.scope,
					type: m.type,
					tags: m.tags,
					timestamp: ts,
					updated_at: ts,
					importance: m.importance,
					confidence: 1,
					access_count: 0,
					entities: [],
				},
				{ content: m.content },
				v,
			);
		});
		insertMs += performance.now() - t;
	}
	const probe = new Corpus(7);
	const picks = Array.from({ length: 100 }, (_, j) => new Corpus(42).memory((j * 7919) % Math.min(n, 3000)));
	const queries = picks.map((m) => probe.queryFor(m));
	const qv = await embedder.embed(queries);
	const time = (scoped: boolean) =>
		queries.map((q, j) => {
			const t = performance.now();
			index.rank({ query: q, limit: 10, ...(scoped ? { scope: picks[j].scope } : {}) }, { vectors: [qv[j]] }, Date.now());
			return performance.now() - t;
		});
	time(false); // warm-up
	const unscoped = time(false);
	const scoped = time(true);
	let t = performance.now();
	const snap = index.snapshot();
	const snapMs = performance.now() - t;
	t = performance.now();
	restoreSearchIndex(snap);
	const restoreMs = performance.now() - t;
	console.log(
		JSON.stringify({
			size: n,
			insert_with_nearest_ms_per_memory: round(insertMs / n, 3),
			rank_p50_ms: round(percentile(unscoped, 50)),
			rank_p99_ms: round(percentile(unscoped, 99)),
			rank_scoped_p50_ms: round(percentile(scoped, 50)),
			rank_scoped_p99_ms: round(percentile(scoped, 99)),
			snapshot_mb: round(snap.length / 2 ** 20, 1),
			snapshot_ms: round(snapMs, 0),
			restore_ms: round(restoreMs, 0),
		}),
	);
}

/**
 * `npx tsx bench/ann-recall.ts [n=100000]`: the store path's nearest() at scale. Inserts `n`
 * realistic memories (embedded with the embedded model) the way store does — a scoped
 * nearest(v, 5) look-up, then the insert — and reports the total look-up time (what SIMILAR_TO
 * linking costs during an import), then the recall of nearest() against an exact scan on 200
 * fresh queries, overall and for neighbours above the SIMILAR_TO threshold (0.6).
 */
import { createEmbedder } from '../src/engine/embedder';
import { nodeModelPath } from '../src/engine/node-model-path';
import { createSearchIndex } from '../src/engine/search/index';
import { IVF } from '../src/engine/search/ivf';
import { nearestExact } from '../src/engine/search/nearest';
import type { IndexView } from '../src/engine/search/view';
import { Corpus } from './lib/corpus';
import { percentile, round } from './lib/stats';

const n = Number(process.argv[2] ?? 100_000);
const embedder = await createEmbedder({ localModelPath: nodeModelPath() });
const corpus = new Corpus(42);
const index = createSearchIndex({ modelId: embedder.modelId, dims: embedder.dims });
let lookupMs = 0;
let insertMs = 0;
for (let i = 0; i < n; i += 2000) {
	const mems = Array.from({ length: Math.min(2000, n - i) }, (_, j) => corpus.memory(i + j));
	const vecs = await embedder.embed(mems.map((m) => m.content));
	mems.forEach((m, j) => {
		const v = vecs[j];
		let t = performance.now();
		if (v) index.nearest(v, 5, { scope: m.scope });
		lookupMs += performance.now() - t;
		t = performance.now();
		index.upsert(
			{
				id: `m${i + j}`,
				seq: i + j + 1,
				scope: m.scope,
				type: m.type,
				tags: m.tags,
				timestamp: 0,
				updated_at: 0,
				importance: 0.5,
				confidence: 1,
				access_count: 0,
				entities: [],
			},
			{ content: m.content },
			v,
		);
		insertMs += performance.now() - t;
	});
}
console.log(`n=${n}: nearest look-ups while inserting ${round(lookupMs / 1000, 1)} s, inserts ${round(insertMs / 1000, 1)} s (IVF trains at ${IVF.trainAt})`);
const view = index as unknown as IndexView;
const queries = Array.from({ length: 200 }, (_, j) => corpus.memory(n + j));
const qv = await embedder.embed(queries.map((m) => m.content));
for (const scoped of [false, true]) {
	let hit = 0;
	let closeWant = 0;
	let closeGot = 0;
	const tApprox: number[] = [];
	const tExact: number[] = [];
	queries.forEach((m, j) => {
		const q = qv[j];
		if (!q) return;
		const filter = scoped ? { scope: m.scope } : undefined;
		let t = performance.now();
		const approx = index.nearest(q, 5, filter);
		tApprox.push(performance.now() - t);
		t = performance.now();
		const exact = nearestExact(view, q, 5, filter);
		tExact.push(performance.now() - t);
		const got = new Set(approx.map((h) => h.id));
		hit += exact.filter((h) => got.has(h.id)).length / exact.length;
		const close = exact.filter((h) => h.cosine >= 0.6);
		closeWant += close.length;
		closeGot += close.filter((h) => got.has(h.id)).length;
	});
	console.log(
		`${scoped ? 'scoped  ' : 'unscoped'} k=5: recall ${round(hit / tApprox.length, 3)}, of cos ≥ 0.6 ${round(closeGot / Math.max(1, closeWant), 3)}; nearest p50 ${round(percentile(tApprox, 50))} ms vs exact ${round(percentile(tExact, 50))} ms`,
	);
}

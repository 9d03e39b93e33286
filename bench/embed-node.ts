/**
 * Embedding throughput in Node: the embedded static model through the fast path (no onnxruntime) versus the same
 * model through the transformers.js feature-extraction pipeline. Prints load time, sentences/s for a batch of
 * memory-like sentences and single-query latency, each the median of several runs.
 *
 * Run: `npx tsx bench/embed-node.ts [runs=7] [sentences=2000]`
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createEmbedder, type Embedder } from '../src/engine/embedder';
import { nodeModelPath } from '../src/engine/node-model-path';

const runs = Number(process.argv[2] ?? 7);
const count = Number(process.argv[3] ?? 2000);
const fixture = JSON.parse(readFileSync(fileURLToPath(new URL('../test/fixtures/paraphrase-pairs.json', import.meta.url)), 'utf8')) as {
	paraphrase: [string, string][];
	unrelated: [string, string][];
};
const pool = [...new Set([...fixture.paraphrase.flat(), ...fixture.unrelated.flat()])];
const texts = Array.from({ length: count }, (_, i) => pool[i % pool.length]);

const median = (xs: number[]) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function measure(label: string, load: () => Promise<Embedder>) {
	const t0 = performance.now();
	const e = await load();
	const loadMs = performance.now() - t0;
	await e.embed(texts.slice(0, 100)); // warm-up (JIT, session)
	const rates: number[] = [];
	for (let r = 0; r < runs; r++) {
		const t = performance.now();
		await e.embed(texts);
		rates.push(count / ((performance.now() - t) / 1000));
	}
	const latencies: number[] = [];
	for (let r = 0; r < 200; r++) {
		const t = performance.now();
		await e.embed([pool[r % pool.length]]);
		latencies.push(performance.now() - t);
	}
	await e.dispose?.();
	return { label, loadMs, rate: median(rates), latency: median(latencies) };
}

const base = nodeModelPath();
const results = [
	await measure('fast path (no onnxruntime)', () => createEmbedder({ localModelPath: base })),
	await measure('transformers.js pipeline', () => createEmbedder({ localModelPath: base, fast: false })),
];
console.log(`engram/glove-sif-100d in Node ${process.version}, ${count} sentences × ${runs} runs (medians):`);
for (const r of results) {
	console.log(
		`  ${r.label.padEnd(28)} ${Math.round(r.rate).toString().padStart(8)} sentences/s   single query ${r.latency.toFixed(3)} ms   load ${Math.round(r.loadMs)} ms`,
	);
}
console.log(`  speed-up ×${(results[0].rate / results[1].rate).toFixed(1)} (batch), ×${(results[1].latency / results[0].latency).toFixed(1)} (single query)`);

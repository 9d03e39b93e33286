/**
 * Recall ranking over a real 100k index in Node, measured in CPU time (process.cpuUsage) as well
 * as wall time, so two builds can be compared on a loaded machine where the browser's wall-clock
 * figures swing ±50% from run to run. Restores a snapshot file, parses the category table,
 * settles the index as the app does a second after a page load, then ranks npm run bench's 100
 * recall queries (limit 10) `passes` times. Prints one JSON line: restore CPU ms, the first
 * (unsettled) ranking's ms, the median over passes of the per-query p50, and CPU ms per query.
 *
 * The snapshot: `bench/store-browser.ts --reads --keep DIR` leaves a 100k store in a Chromium
 * profile, whose index snapshot is an OPFS file there (the largest file under
 * `DIR/Default/File System/`, starting with the bytes "ENGX"); copy it out.
 *
 *   npx tsx bench/rank-snapshot.ts /tmp/engram-100k.snap [passes=5]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEmbedder } from '../src/engine/embedder';
import { nodeModelPath } from '../src/engine/node-model-path';
import { parseCategories } from '../src/engine/search/categories';
import { restoreSearchIndex } from '../src/engine/search/index';
import { ROOT } from '../test/e2e/helpers';
import { Corpus } from './lib/corpus';
import { percentile, round } from './lib/stats';

const file = process.argv[2];
if (!file) throw new Error('usage: npx tsx bench/rank-snapshot.ts <snapshot file> [passes]');
const passes = Number(process.argv[3] ?? 5);
const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;

const embedder = await createEmbedder({ localModelPath: nodeModelPath() });
const bytes = new Uint8Array(readFileSync(file));
let c0 = process.cpuUsage();
const index = restoreSearchIndex(bytes);
const restoreCpu = cpuMs(process.cpuUsage(c0));
const categories = parseCategories(readFileSync(join(ROOT, 'public/models/engram/categories.json'), 'utf8'));
// npm run bench's queries (bench/lib/browser-bench.ts), over the first 2,000 memories.
const probe = new Corpus(7);
const queries = Array.from({ length: 100 }, (_, j) => probe.queryFor(new Corpus(42).memory((j * 7919) % Math.min(index.size, 2000))));
const vectors = await embedder.embed(queries);
const now = Date.now();
const rank = (j: number) => index.rank({ query: queries[j], limit: 10 }, { vectors: [vectors[j]], categories }, now);
let t = performance.now();
rank(0);
const firstMs = performance.now() - t;
await index.settle(async () => {});
const p50s: number[] = [];
const cpus: number[] = [];
for (let p = 0; p < passes; p++) {
	const times: number[] = [];
	c0 = process.cpuUsage();
	for (let j = 0; j < queries.length; j++) {
		t = performance.now();
		rank(j);
		times.push(performance.now() - t);
	}
	cpus.push(cpuMs(process.cpuUsage(c0)) / queries.length);
	p50s.push(percentile(times, 50));
}
console.log(
	JSON.stringify({
		memories: index.size,
		restore_cpu_ms: round(restoreCpu, 0),
		first_rank_ms: round(firstMs, 1),
		rank_p50_ms: round(percentile(p50s, 50)),
		rank_cpu_ms_per_query: round(percentile(cpus, 50)),
		passes,
	}),
);

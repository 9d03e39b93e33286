/**
 * `node --expose-gc --import tsx bench/rank-builds.ts <snapshot file> <tree A> <tree B> [rounds=4]`: the
 * search index of two source trees compared in one process, in turns, over one 100k snapshot
 * (see bench/rank-snapshot.ts for where to find one), so a loaded machine slows both alike. A
 * tree is a checkout's root (`git archive <commit> src | tar -x -C DIR`, with node_modules and
 * public linked in). Per round and tree: restore CPU ms, the first ranking's CPU ms, then CPU ms
 * per ranking over 49 fresh queries before `settle()` (cold postings, as right after a page
 * load), 50 more after it, and the first 100 again (warm). Prints each figure's median over rounds.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createEmbedder } from '../src/engine/embedder';
import { nodeModelPath } from '../src/engine/node-model-path';
import { parseCategories } from '../src/engine/search/categories';
import { ROOT } from '../test/e2e/helpers';
import { Corpus } from './lib/corpus';
import { percentile, round } from './lib/stats';

const [file, a, b] = process.argv.slice(2);
if (!file || !a || !b) throw new Error('usage: node --expose-gc --import tsx bench/rank-builds.ts <snapshot file> <tree A> <tree B> [rounds]');
const rounds = Number(process.argv[5] ?? 4);
const trees = [resolve(a), resolve(b)];
type Restore = (bytes: Uint8Array) => import('../src/engine/search/types').SearchIndex;
const restores: Restore[] = await Promise.all(trees.map(async (t) => (await import(join(t, 'src/engine/search/index.ts'))).restoreSearchIndex as Restore));
const embedder = await createEmbedder({ localModelPath: nodeModelPath() });
const cpu = () => {
	const c = process.cpuUsage();
	return (c.user + c.system) / 1000;
};
const bytes = new Uint8Array(readFileSync(file));
const categories = parseCategories(readFileSync(join(ROOT, 'public/models/engram/categories.json'), 'utf8'));
// npm run bench's queries (bench/lib/browser-bench.ts), over the first 2,000 memories.
const probe = new Corpus(7);
const queries = Array.from({ length: 100 }, (_, j) => probe.queryFor(new Corpus(42).memory((j * 7919) % 2000)));
const vectors = await embedder.embed(queries);
const figures = trees.map(() => new Map<string, number[]>());
const put = (t: number, k: string, v: number) => figures[t].set(k, [...(figures[t].get(k) ?? []), v]);
for (let r = 0; r < rounds; r++)
	for (let t = 0; t < trees.length; t++) {
		(globalThis as { gc?: () => void }).gc?.();
		let c0 = cpu();
		const index = restores[t](bytes);
		put(t, 'restore', cpu() - c0);
		const rank = (j: number) => index.rank({ query: queries[j], limit: 10 }, { vectors: [vectors[j]], categories }, Date.UTC(2027, 0, 1));
		c0 = cpu();
		rank(0);
		put(t, 'first', cpu() - c0);
		c0 = cpu();
		for (let j = 1; j < 50; j++) rank(j);
		put(t, 'cold_before_settle', (cpu() - c0) / 49);
		await index.settle(async () => {});
		c0 = cpu();
		for (let j = 50; j < 100; j++) rank(j);
		put(t, 'cold_after_settle', (cpu() - c0) / 50);
		c0 = cpu();
		for (let j = 0; j < 100; j++) rank(j);
		put(t, 'warm', (cpu() - c0) / 100);
	}
trees.forEach((tree, t) =>
	console.log(JSON.stringify({ tree, rounds, ...Object.fromEntries([...figures[t]].map(([k, v]) => [`${k}_cpu_ms`, round(percentile(v, 50))])) })),
);

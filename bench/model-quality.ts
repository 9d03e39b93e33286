/**
 * The embedded model's quality figures (the same as test/unit/engine/embedder.test.ts prints) for any built model
 * folder: paraphrase AUC on test/fixtures/paraphrase-pairs.json, the gap between paraphrase and unrelated cosines, the
 * unrelated pairs' p99 (what the `similar` threshold must clear), and short-query → memory retrieval R@1 / MRR.
 *
 *   npx tsx bench/model-quality.ts [models dir]                 # default public/models
 *   npx tsx bench/model-quality.ts <models dir> <query models dir>   # queries (and each pair's second text) by another model
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { dot } from '../src/core/vector';
import { createEmbedder } from '../src/engine/embedder';
import { nodeModelPath } from '../src/engine/node-model-path';

const fixture = JSON.parse(readFileSync(join(resolve(import.meta.dirname, '..'), 'test', 'fixtures', 'paraphrase-pairs.json'), 'utf8')) as {
	paraphrase: [string, string][];
	unrelated: [string, string][];
	queries: { query: string; target: number }[];
};
const doc = await createEmbedder({ localModelPath: process.argv[2] ?? nodeModelPath() });
const query = process.argv[3] ? await createEmbedder({ localModelPath: process.argv[3] }) : doc;
const cos = async (pairs: [string, string][]) => {
	const va = await doc.embed(pairs.map((p) => p[0]));
	const vb = await query.embed(pairs.map((p) => p[1]));
	return pairs.map((_, i) => dot(va[i]!, vb[i]!));
};
const para = await cos(fixture.paraphrase);
const unrel = await cos(fixture.unrelated);
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
let wins = 0;
for (const p of para) for (const u of unrel) wins += p > u ? 1 : p === u ? 0.5 : 0;
const memories = await doc.embed(fixture.paraphrase.map((p) => p[0]));
const queries = await query.embed(fixture.queries.map((q) => q.query));
let hits = 0;
let reciprocal = 0;
fixture.queries.forEach(({ target }, i) => {
	const scores = memories.map((m) => dot(m!, queries[i]!));
	const rank = 1 + scores.filter((x) => x > scores[target]).length;
	hits += rank === 1 ? 1 : 0;
	reciprocal += 1 / rank;
});
const p99 = [...unrel].sort((a, b) => a - b)[Math.floor(unrel.length * 0.99)];
const n = fixture.queries.length;
console.log(
	`paraphrase cos ${mean(para).toFixed(3)}, unrelated ${mean(unrel).toFixed(3)} (p99 ${p99.toFixed(3)}), gap ${(mean(para) - mean(unrel)).toFixed(3)}, AUC ${(wins / (para.length * unrel.length)).toFixed(4)}; query retrieval R@1 ${(hits / n).toFixed(3)}, MRR ${(reciprocal / n).toFixed(3)}`,
);

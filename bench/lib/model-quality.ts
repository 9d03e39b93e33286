/**
 * The embedded model's quality figures over test/fixtures/paraphrase-pairs.json, computed once for
 * the embedder test (which asserts on them) and bench/model-quality.ts (which prints them for any
 * built model): paraphrase vs unrelated cosines, their AUC, and short-query → memory retrieval.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { dot } from '../../src/core/vector';
import type { Embedder } from '../../src/engine/embedder';

/** The paraphrase fixture: pairs that mean the same, pairs that don't, and queries naming a paraphrase pair's first text. */
export interface ParaphraseFixture {
	paraphrase: [string, string][];
	unrelated: [string, string][];
	queries: { query: string; target: number }[];
}

export const PARAPHRASE_FIXTURE = JSON.parse(
	readFileSync(join(resolve(import.meta.dirname, '../..'), 'test', 'fixtures', 'paraphrase-pairs.json'), 'utf8'),
) as ParaphraseFixture;

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** Cosines of each pair's texts: the first embedded by `doc`, the second by `query`. */
async function pairCosines(doc: Pick<Embedder, 'embed'>, query: Pick<Embedder, 'embed'>, pairs: [string, string][]): Promise<number[]> {
	const va = await doc.embed(pairs.map((p) => p[0]));
	const vb = await query.embed(pairs.map((p) => p[1]));
	return pairs.map((_, i) => dot(va[i]!, vb[i]!));
}

/** Paraphrase separation: mean cosines, AUC (ties count half), the unrelated pairs' median and p99, and the share of paraphrases above that median. */
export async function paraphraseFigures(doc: Pick<Embedder, 'embed'>, query = doc, f = PARAPHRASE_FIXTURE) {
	const para = await pairCosines(doc, query, f.paraphrase);
	const unrel = await pairCosines(doc, query, f.unrelated);
	let wins = 0;
	for (const p of para) for (const u of unrel) wins += p > u ? 1 : p === u ? 0.5 : 0;
	const sorted = [...unrel].sort((x, y) => x - y);
	const medianUnrelated = sorted[Math.floor(unrel.length / 2)];
	return {
		pairs: para.length,
		unrelatedPairs: unrel.length,
		meanParaphrase: mean(para),
		meanUnrelated: mean(unrel),
		auc: wins / (para.length * unrel.length),
		unrelatedP99: sorted[Math.floor(unrel.length * 0.99)],
		beatMedian: para.filter((p) => p > medianUnrelated).length / para.length,
	};
}

/** Each query against every paraphrase pair's first text: recall@1 and mean reciprocal rank of its target. */
export async function queryFigures(doc: Pick<Embedder, 'embed'>, query = doc, f = PARAPHRASE_FIXTURE) {
	const memories = await doc.embed(f.paraphrase.map((p) => p[0]));
	const queries = await query.embed(f.queries.map((q) => q.query));
	let hits = 0;
	let reciprocal = 0;
	f.queries.forEach(({ target }, i) => {
		const scores = memories.map((m) => dot(m!, queries[i]!));
		const rank = 1 + scores.filter((x) => x > scores[target]).length;
		hits += rank === 1 ? 1 : 0;
		reciprocal += 1 / rank;
	});
	return { queries: f.queries.length, memories: memories.length, recallAt1: hits / f.queries.length, mrr: reciprocal / f.queries.length };
}

/**
 * Measures the embedded model's cosine distribution to choose its SIMILAR_TO and near-duplicate
 * thresholds (src/engine/thresholds.ts): all pairs of the paraphrase fixture's sentences that are
 * NOT paraphrases (unrelated memories of one project), the paraphrase pairs, and light rewordings
 * of one sentence (what a near-duplicate looks like: case, punctuation, one word changed).
 *
 * Run: npx tsx bench/calibrate-thresholds.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEmbedder } from '../src/engine/embedder';
import { nodeModelPath } from '../src/engine/node-model-path';
import { cosine } from '../src/core/vector';

const root = join(import.meta.dirname, '..');
const fixture = JSON.parse(readFileSync(join(root, 'test/fixtures/paraphrase-pairs.json'), 'utf8')) as {
	paraphrase: [string, string][];
	unrelated: [string, string][];
};

/** Near-duplicates: the same memory stored twice with small edits. */
const REWORDINGS: [string, string][] = [
	['We decided to use PostgreSQL for the billing service', 'We decided to use PostgreSQL for the billing service.'],
	['We decided to use PostgreSQL for the billing service', 'we decided to use postgresql for our billing service'],
	['The user prefers dark mode in every editor', 'The user prefers dark mode in every code editor'],
	['Deploys to production happen every Tuesday afternoon', 'Deploys to production happen every Tuesday in the afternoon'],
	['Tests must pass before a pull request can be merged', 'All tests must pass before a pull request can be merged'],
	['Backups of the database run nightly at two in the morning', 'Backups of the database run every night at two in the morning'],
	['The API rate limit is 100 requests per minute per key', 'The API rate limit is 100 requests per minute for each key'],
	['He is allergic to peanuts', 'He is allergic to peanuts!'],
];
/** Must never be merged: one word flips the meaning. */
const CONTRASTS: [string, string][] = [
	['The feature flag is enabled in production', 'The feature flag is not enabled in production'],
	['The API rate limit is 100 requests per minute per key', 'The API rate limit is 1000 requests per minute per key'],
	['Deploys to production happen every Tuesday afternoon', 'Deploys to production happen every Thursday afternoon'],
	['The user prefers dark mode in every editor', 'The user prefers light mode in every editor'],
];

function quantile(xs: number[], q: number): number {
	const s = [...xs].sort((a, b) => a - b);
	return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

const fmt = (x: number) => x.toFixed(3);

async function main(): Promise<void> {
	const e = await createEmbedder({ localModelPath: nodeModelPath() });
	const score = async (pairs: [string, string][]) => {
		const v = await e.embed(pairs.flat());
		return pairs.map((_, i) => cosine(v[2 * i]!, v[2 * i + 1]!));
	};
	const sentences = [...new Set(fixture.paraphrase.flat().concat(fixture.unrelated.flat()))];
	const vs = await e.embed(sentences);
	const para = new Set(fixture.paraphrase.map(([a, b]) => `${a}\u0000${b}`));
	const unrelated: number[] = [];
	for (let i = 0; i < sentences.length; i++)
		for (let j = i + 1; j < sentences.length; j++) {
			if (para.has(`${sentences[i]}\u0000${sentences[j]}`) || para.has(`${sentences[j]}\u0000${sentences[i]}`)) continue;
			if (vs[i] && vs[j]) unrelated.push(cosine(vs[i]!, vs[j]!));
		}
	const paraphrase = await score(fixture.paraphrase);
	const rewording = await score(REWORDINGS);
	const contrast = await score(CONTRASTS);
	console.log(`model ${e.modelId} (${e.dims}d)`);
	console.log(
		`unrelated pairs   n=${unrelated.length}  p50 ${fmt(quantile(unrelated, 0.5))}  p95 ${fmt(quantile(unrelated, 0.95))}  p99 ${fmt(quantile(unrelated, 0.99))}  max ${fmt(Math.max(...unrelated))}`,
	);
	console.log(
		`paraphrase pairs  n=${paraphrase.length}  min ${fmt(Math.min(...paraphrase))}  p25 ${fmt(quantile(paraphrase, 0.25))}  p50 ${fmt(quantile(paraphrase, 0.5))}  max ${fmt(Math.max(...paraphrase))}`,
	);
	console.log(`rewordings        n=${rewording.length}  min ${fmt(Math.min(...rewording))}  p50 ${fmt(quantile(rewording, 0.5))}`);
	console.log(`contrasts         ${contrast.map(fmt).join(' ')}`);
}

await main();

/**
 * `npx tsx bench/sweep.ts [json-variants…]`: a development aid for the ranking — stores the dev
 * set once in the index target, then prints recall@5/@10 for each recall-option variant given
 * as JSON on the command line (e.g. '{"weights":{"semantic":0.3}}'). Used to measure choices
 * (fusion, weights), never to tune to single questions; the numbers it led to are in
 * docs/BENCHMARKS.md.
 */
import type { RecallInput } from '../src/core/schemas';
import { createEmbedder } from '../src/engine/embedder';
import { nodeModelPath } from '../src/engine/node-model-path';
import { loadDataset } from './lib/dataset';
import { indexTarget } from './lib/index-target';
import { EXPANSION } from '../src/engine/search/expand';
import { LEXICAL_TUNING } from '../src/engine/search/lexical';
import { TURNS } from '../src/engine/search/candidates';
import { recallAtK, summarise, table } from './lib/metrics';

async function main(): Promise<void> {
	const variants = process.argv.slice(2).map((s) => JSON.parse(s) as Partial<RecallInput>);
	if (variants.length === 0) variants.push({});
	const data = loadDataset();
	const target = indexTarget(await createEmbedder({ localModelPath: nodeModelPath() }));
	for (const c of data.conversations) await target.storeConversation(c);
	const rows: (string | number)[][] = [];
	for (const v of variants) {
		// `_x` overrides expansion tunables for this variant only (development aid).
		const saved = { ...EXPANSION };
		const savedLex = { ...LEXICAL_TUNING };
		const savedTurns = { ...TURNS };
		Object.assign(EXPANSION, (v as { _x?: object })._x ?? {});
		Object.assign(LEXICAL_TUNING, (v as { _l?: object })._l ?? {});
		// `_t` overrides the turn-length prior (TURNS).
		Object.assign(TURNS, (v as { _t?: object })._t ?? {});
		const outs = [];
		for (const q of data.questions) {
			const r = await target.recall({ query: q.question, scope: q.conversation, limit: 10, ...v });
			outs.push({ category: q.category, r5: recallAtK(r, q.evidence, 5), r10: recallAtK(r, q.evidence, 10) });
		}
		Object.assign(EXPANSION, saved);
		Object.assign(LEXICAL_TUNING, savedLex);
		Object.assign(TURNS, savedTurns);
		const s = summarise(outs);
		const cat = (c: string) => `${s.get(c)!.r5.toFixed(2)}/${s.get(c)!.r10.toFixed(2)}`;
		rows.push([
			JSON.stringify(v),
			s.get('overall')!.r5,
			s.get('overall')!.r10,
			cat('single-hop'),
			cat('multi-hop'),
			cat('temporal'),
			cat('open-domain'),
			cat('adversarial'),
		]);
	}
	console.log(table(['variant', 'r@5', 'r@10', 'single', 'multi', 'temporal', 'open', 'advers'], rows));
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});

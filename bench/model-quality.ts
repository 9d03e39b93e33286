/**
 * The embedded model's quality figures (the same as test/unit/engine/embedder.test.ts asserts on) for any built model
 * folder: paraphrase AUC on test/fixtures/paraphrase-pairs.json, the gap between paraphrase and unrelated cosines, the
 * unrelated pairs' p99 (what the `similar` threshold must clear), and short-query → memory retrieval R@1 / MRR.
 *
 *   npx tsx bench/model-quality.ts [models dir]                 # default public/models
 *   npx tsx bench/model-quality.ts <models dir> <query models dir>   # queries (and each pair's second text) by another model
 */
import { createEmbedder } from '../src/engine/embedder';
import { nodeModelPath } from '../src/engine/node-model-path';
import { paraphraseFigures, queryFigures } from './lib/model-quality';

const doc = await createEmbedder({ localModelPath: process.argv[2] ?? nodeModelPath() });
const query = process.argv[3] ? await createEmbedder({ localModelPath: process.argv[3] }) : doc;
const p = await paraphraseFigures(doc, query);
const q = await queryFigures(doc, query);
console.log(
	`paraphrase cos ${p.meanParaphrase.toFixed(3)}, unrelated ${p.meanUnrelated.toFixed(3)} (p99 ${p.unrelatedP99.toFixed(3)}), gap ${(p.meanParaphrase - p.meanUnrelated).toFixed(3)}, AUC ${p.auc.toFixed(4)}; query retrieval R@1 ${q.recallAt1.toFixed(3)}, MRR ${q.mrr.toFixed(3)}`,
);

/**
 * `npx tsx bench/recall-levers.ts [n]`: what issue 28's recall levers cost on the query path. One
 * search index of `n` generated memories (default 10k, bench/lib/corpus.ts, embedded by the
 * embedded model), then the same realistic recalls ranked with each lever on and off, interleaved
 * so a busy machine slows every variant alike; reports p50 / p99 rank time per variant (the
 * name-less question vector: with its name test and second embedding).
 */
import { createEmbedder } from '../src/engine/embedder';
import { nodeCategories, nodeModelPath } from '../src/engine/node-model-path';
import { CATEGORIES } from '../src/engine/search/categories';
import { COVERAGE } from '../src/engine/search/coverage';
import { ENTITY_FOCUS } from '../src/engine/search/entity-focus';
import { createSearchIndex } from '../src/engine/search/index';
import { FEEDBACK } from '../src/engine/search/rank';
import { NEIGHBOURS, wordNeighboursFor } from '../src/engine/search/neighbours';
import { NAMELESS, namelessVectors } from '../src/engine/search/nameless';
import { NAMED_TURNS } from '../src/engine/search/named-turns';
import { Corpus } from './lib/corpus';
import { percentile } from './lib/stats';

async function main(): Promise<void> {
	const n = Number(process.argv[2] ?? 10_000);
	const embedder = await createEmbedder({ localModelPath: nodeModelPath() });
	const categories = await nodeCategories();
	const corpus = new Corpus();
	const index = createSearchIndex({ modelId: embedder.modelId, dims: embedder.dims });
	for (let i = 0; i < n; i += 500) {
		const batch = Array.from({ length: Math.min(500, n - i) }, (_, k) => corpus.memory(i + k));
		const vectors = await embedder.embed(batch.map((m) => m.content));
		batch.forEach((m, k) => {
			const ts = Date.parse(m.timestamp ?? '2024-01-01T00:00:00Z');
			index.upsert(
				{
					id: `m${i + k}`,
					seq: i + k + 1,
					scope: m.scope,
					type: 'Context',
					tags: m.tags ?? [],
					timestamp: ts,
					updated_at: ts,
					importance: 0.5,
					confidence: 1,
					access_count: 0,
					entities: [],
				},
				{ content: m.content },
				vectors[k],
			);
		});
	}
	// Category questions too: the expansion only runs for "which/what X" questions; and questions
	// naming a person, which entity focus looks up in every candidate.
	const sources = Array.from({ length: 200 }, (_, j) => corpus.memory((j * 7919) % n));
	const queries = sources.map((m, j) =>
		j % 4 === 3
			? `Which sports or dishes came up in ${corpus.queryFor(m)}?`
			: j % 4 === 1
				? `What did Maya Chen say about ${corpus.queryFor(m)}?`
				: corpus.queryFor(m),
	);
	const vectors = await embedder.embed(queries);
	const scopeSizes = new Map<string, number>();
	for (let i = 0; i < n; i++) {
		const sc = corpus.memory(i).scope;
		scopeSizes.set(sc, (scopeSizes.get(sc) ?? 0) + 1);
	}
	const saved = { feedback: FEEDBACK.weight, categories: CATEGORIES.weight, coverage: COVERAGE.bonus };
	const cov = COVERAGE.bonus;
	const variants = [
		{ name: 'neither', feedback: 0, categories: 0, entities: 0, coverage: 0 },
		{ name: 'feedback', feedback: FEEDBACK.weight, categories: 0, entities: 0, coverage: 0 },
		{ name: 'categories', feedback: 0, categories: CATEGORIES.weight, entities: 0, coverage: 0 },
		{ name: 'both, − coverage', feedback: FEEDBACK.weight, categories: CATEGORIES.weight, entities: 0, coverage: 0 },
		{ name: 'both (defaults)', feedback: FEEDBACK.weight, categories: CATEGORIES.weight, entities: 0, coverage: cov },
		// Measured, off by default (entity-focus.ts).
		{ name: '+ entity focus', feedback: FEEDBACK.weight, categories: CATEGORIES.weight, entities: 0.2, coverage: cov },
	];
	// Unscoped (the whole index: feedback is skipped beyond FEEDBACK.maxMemories) and scoped to the
	// scope of the memory each query was made from.
	for (const scoped of [false, true]) {
		const times = variants.map(() => [] as number[]);
		for (let round = 0; round < 3; round++)
			queries.forEach((query, j) => {
				variants.forEach((v, i) => {
					FEEDBACK.weight = v.feedback;
					CATEGORIES.weight = v.categories;
					ENTITY_FOCUS.boost = v.entities;
					COVERAGE.bonus = v.coverage;
					const t0 = performance.now();
					index.rank({ query, limit: 10, ...(scoped && { scope: sources[j].scope }) }, { vectors: [vectors[j]], categories }, Date.now());
					times[i].push(performance.now() - t0);
				});
			});
		const sizes = scoped
			? ` (scopes of ${Math.min(...sources.map((m) => scopeSizes.get(m.scope)!))}–${Math.max(...sources.map((m) => scopeSizes.get(m.scope)!))} memories)`
			: '';
		console.log(`rank at ${n} memories, ${scoped ? 'scoped' : 'unscoped'}${sizes}, ${queries.length} queries × 3 rounds (ms):`);
		variants.forEach((v, i) =>
			console.log(`  ${v.name.padEnd(18)} p50 ${percentile(times[i], 50).toFixed(2)}  p99 ${percentile(times[i], 99).toFixed(2)}`),
		);
	}
	FEEDBACK.weight = saved.feedback;
	CATEGORIES.weight = saved.categories;
	COVERAGE.bonus = saved.coverage;
	ENTITY_FOCUS.boost = 0;
	await wordNeighbours(index, embedder, sources, scopeSizes, n);
	await nameless(index, embedder, sources, scopeSizes, n);
	await namedTurns({ index, embedder, sources, scopeSizes, n });
}

/** Questions naming the person each source memory mentions ("What did Kalomi say about …?"), from corpus seed `seed`. */
function namingQueries(sources: ReturnType<Corpus['memory']>[], seed: number): string[] {
	const corpus = new Corpus(seed);
	return sources.map((m) => `What did ${/(\S+) mentioned ticket/.exec(m.content)![1]} say about ${corpus.queryFor(m)}?`);
}

/**
 * Turns of the named person near the best hits (named-turns.ts): scoped questions naming the person
 * a memory mentions, off and on, interleaved. NAMELESS.share is set to 0 so that every capitalised
 * name passes the name test and the spread runs on every question (its worst case); the generated
 * memories are not chained into sessions, so it costs the name test and the choice of sources.
 */
async function namedTurns(at: {
	index: ReturnType<typeof createSearchIndex>;
	embedder: Awaited<ReturnType<typeof createEmbedder>>;
	sources: ReturnType<Corpus['memory']>[];
	scopeSizes: Map<string, number>;
	n: number;
}): Promise<void> {
	const { index, sources, scopeSizes, n } = at;
	const queries = namingQueries(sources, 13);
	const vectors = await at.embedder.embed(queries);
	const saved = { share: NAMELESS.share, named: NAMED_TURNS.share };
	NAMELESS.share = 0;
	const times: [number[], number[]] = [[], []];
	for (let round = 0; round < 3; round++)
		for (let j = 0; j < queries.length; j++)
			for (const on of [false, true]) {
				NAMED_TURNS.share = on ? saved.named : 0;
				const t = performance.now();
				index.rank({ query: queries[j], limit: 10, scope: sources[j].scope }, { vectors: [vectors[j]] }, Date.now());
				times[on ? 1 : 0].push(performance.now() - t);
			}
	const sizes = `scopes of ${Math.min(...sources.map((m) => scopeSizes.get(m.scope)!))}–${Math.max(...sources.map((m) => scopeSizes.get(m.scope)!))}`;
	console.log(`named turns at ${n} memories, scoped (${sizes}), every question naming a name (ms):`);
	console.log(`  off              p50 ${percentile(times[0], 50).toFixed(2)}  p99 ${percentile(times[0], 99).toFixed(2)}`);
	console.log(`  on (${saved.named})         p50 ${percentile(times[1], 50).toFixed(2)}  p99 ${percentile(times[1], 99).toFixed(2)}`);
	NAMELESS.share = saved.share;
	NAMED_TURNS.share = saved.named;
}

/**
 * The name-less question vector (nameless.ts): questions naming the person a memory mentions ("What
 * did Kalomi say about …?"), off and on, interleaved; "on" includes the name test and the second
 * embedding. The generated scopes hold no name in 10% of their memories, as a conversation's
 * speakers are, so the share is set to 0 here: every question's name is stripped (the lever's
 * worst case: a second semantic scan each time).
 */
async function nameless(
	index: ReturnType<typeof createSearchIndex>,
	embedder: Awaited<ReturnType<typeof createEmbedder>>,
	sources: ReturnType<Corpus['memory']>[],
	scopeSizes: Map<string, number>,
	n: number,
): Promise<void> {
	const queries = namingQueries(sources, 11);
	const vectors = await embedder.embed(queries);
	const saved = { ...NAMELESS };
	NAMELESS.share = 0;
	for (const scoped of [false, true]) {
		const times: [number[], number[]] = [[], []];
		let stripped = 0;
		for (let round = 0; round < 3; round++)
			for (let j = 0; j < queries.length; j++)
				for (const on of [false, true]) {
					NAMELESS.weight = on ? saved.weight : 0;
					const scope = scoped ? sources[j].scope : undefined;
					const t = performance.now();
					const aside = await namelessVectors(index, embedder, [queries[j]], scope);
					index.rank({ query: queries[j], limit: 10, ...(scope && { scope }) }, { vectors: [vectors[j]], nameless: aside }, Date.now());
					times[on ? 1 : 0].push(performance.now() - t);
					if (on && aside) stripped++;
				}
		const sizes = scoped
			? ` (scopes of ${Math.min(...sources.map((m) => scopeSizes.get(m.scope)!))}–${Math.max(...sources.map((m) => scopeSizes.get(m.scope)!))})`
			: '';
		console.log(
			`name-less question vector at ${n} memories, ${scoped ? 'scoped' : 'unscoped'}${sizes}, ${stripped} of ${3 * queries.length} stripped (ms):`,
		);
		console.log(`  off              p50 ${percentile(times[0], 50).toFixed(2)}  p99 ${percentile(times[0], 99).toFixed(2)}`);
		console.log(`  on (${saved.weight})         p50 ${percentile(times[1], 50).toFixed(2)}  p99 ${percentile(times[1], 99).toFixed(2)}`);
	}
	Object.assign(NAMELESS, saved);
}

/**
 * Word-neighbour expansion (neighbours.ts, off by default): the same memories asked as yes/no
 * questions ("Did … come up?", the only ones it expands), off and on at the measured weight,
 * interleaved; "on" includes preparing the neighbours (embedding the query's words, scanning the
 * words indexed since). The first call embeds the whole vocabulary: reported apart.
 */
async function wordNeighbours(
	index: ReturnType<typeof createSearchIndex>,
	embedder: Awaited<ReturnType<typeof createEmbedder>>,
	sources: ReturnType<Corpus['memory']>[],
	scopeSizes: Map<string, number>,
	n: number,
): Promise<void> {
	const corpus = new Corpus(7);
	const queries = sources.map((m) => `Did ${corpus.queryFor(m)} come up?`);
	const vectors = await embedder.embed(queries);
	NEIGHBOURS.weight = 0.3;
	const t0 = performance.now();
	await wordNeighboursFor(index, embedder, [queries[0]]);
	const first = performance.now() - t0;
	const vocabulary = index.vocabulary(0).length;
	for (const scoped of [false, true]) {
		const times: [number[], number[]] = [[], []];
		for (let round = 0; round < 3; round++)
			for (let j = 0; j < queries.length; j++)
				for (const on of [false, true]) {
					NEIGHBOURS.weight = on ? 0.3 : 0;
					const t = performance.now();
					const words = await wordNeighboursFor(index, embedder, [queries[j]]);
					index.rank(
						{ query: queries[j], limit: 10, ...(scoped && { scope: sources[j].scope }) },
						{ vectors: [vectors[j]], categories: undefined, words },
						Date.now(),
					);
					times[on ? 1 : 0].push(performance.now() - t);
				}
		const sizes = scoped
			? ` (scopes of ${Math.min(...sources.map((m) => scopeSizes.get(m.scope)!))}–${Math.max(...sources.map((m) => scopeSizes.get(m.scope)!))})`
			: '';
		console.log(
			`word neighbours at ${n} memories, yes/no questions, ${scoped ? 'scoped' : 'unscoped'}${sizes} (ms; first call over ${vocabulary} words: ${first.toFixed(1)}):`,
		);
		console.log(`  off              p50 ${percentile(times[0], 50).toFixed(2)}  p99 ${percentile(times[0], 99).toFixed(2)}`);
		console.log(`  on (0.3)         p50 ${percentile(times[1], 50).toFixed(2)}  p99 ${percentile(times[1], 99).toFixed(2)}`);
	}
	NEIGHBOURS.weight = 0;
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});

/**
 * `npm run eval`: retrieval quality on the LoCoMo-shaped dev set (dev.json and hard.json, each
 * conversation in the `tune` or the `check` split). Stores every conversation's turns as memories
 * (content `${speaker}: ${text}`, timestamp = session date, scope = conversation id, metadata
 * {dia_id, session, speaker}) in conversation order, then asks each question with
 * `recall({ query, scope, limit: 50 })` as the held-out benchmark does, and reports recall@5 /
 * @10 / @50 (share of gold turns found, averaged per question) per split, overall and per
 * category (and for hard.json alone), the share of knowledge updates whose newer turn ranks above
 * the one it replaces, plus an ablation table (both splits) where each ranking signal is
 * switched off through `weights`.
 *
 *   npm run eval                         # both splits, through a fresh engine (fake-indexeddb, embedded model)
 *   npm run eval -- --split tune         # or check: one split only
 *   npm run eval -- --through index      # the search index alone (fast; same feeding as the engine)
 *   npm run eval -- --through mcp        # through the MCP tools (SDK client, in-memory transport)
 *   npm run eval -- --through app --no-ablation   # the built app in Chromium, via engram-relay, as an agent calls it
 *   npm run eval -- --no-ablation --misses --data path/to/set.json
 *   npm run eval -- --turns no-session   # or plain: turns stored without the session / the speaker prefix
 *   npm run eval -- --model-path /tmp/variant/   # a model built with ENGRAM_MODEL_OUT=/tmp/variant/engram/glove-sif-100d
 *   npm run eval -- --query-model-path /tmp/variant/   # questions embedded by another model (same dims), turns by --model-path's
 *   npm run eval -- --pool 2             # every 2 conversations share one scope: a haystack twice as large
 *   npm run eval -- --split tune --pool 5 --same-pair   # one ~580-turn chat between two people (speakers renamed)
 *   npm run eval -- --weight semantic=0.4   # a recall weight every question passes (a sweep)
 *   npm run eval -- --conv conv-11,conv-12,conv-13 --split check   # only these conversations (the older held-back three)
 *   npm run eval -- --split heldback --no-ablation   # heldback.json's long conversations: measure a decided change, never tune on it
 */
import type { RecallInput } from '../src/core/schemas';
import { createEmbedder, type Embedder } from '../src/engine/embedder';
import { nodeModelPath } from '../src/engine/node-model-path';
import {
	ALL_SPLITS,
	DEV_SET,
	HARD_SET,
	HELDBACK_SET,
	loadDataset,
	poolConversations,
	setTurnFormat,
	splitOf,
	SPLITS,
	TURN_FORMATS,
	type Dataset,
	type Split,
	type TurnFormat,
} from './lib/dataset';
import { engineTarget, mcpTarget, type EvalTarget } from './lib/eval-targets';
import { indexTarget } from './lib/index-target';
import { type Outcome, recallAtK, summarise, table } from './lib/metrics';
import { TURNS } from '../src/engine/search/candidates';
import { LEXICAL_TUNING } from '../src/engine/search/lexical';
import { CATEGORIES } from '../src/engine/search/categories';
import { EXPANSION } from '../src/engine/search/expand';
import { FEEDBACK } from '../src/engine/search/rank';
import { ENTITY_FOCUS } from '../src/engine/search/entity-focus';
import { NEIGHBOURS } from '../src/engine/search/neighbours';
import { COVERAGE } from '../src/engine/search/coverage';
import { NAMELESS } from '../src/engine/search/nameless';
import { NAMED_TURNS } from '../src/engine/search/named-turns';

/**
 * Each ablation: a name, the recall options it changes and, for the conversation-turn priors
 * and the turn-context field (tunables, not weights), the TURNS and LEXICAL_TUNING values it runs
 * with — in-process targets only. Rows starting "+" switch on a lever that was measured and is
 * off by default (docs/BENCHMARKS.md says why), so a later data set can re-measure it. "BM25 only" and "dense only" are the plain retrievers: no
 * expansion (neither links nor WordNet categories nor feedback nor the name-less question vector), no priors, no turn priors, no
 * turn context.
 */
const VARIANTS: {
	name: string;
	opts: Partial<RecallInput>;
	turns?: Partial<typeof TURNS>;
	lexical?: Partial<typeof LEXICAL_TUNING>;
	categories?: Partial<typeof CATEGORIES>;
	feedback?: Partial<typeof FEEDBACK>;
	entities?: Partial<typeof ENTITY_FOCUS>;
	expansion?: Partial<typeof EXPANSION>;
	neighbours?: Partial<typeof NEIGHBOURS>;
	coverage?: Partial<typeof COVERAGE>;
	nameless?: Partial<typeof NAMELESS>;
	named?: Partial<typeof NAMED_TURNS>;
}[] = [
	{ name: 'full (defaults)', opts: {} },
	{ name: '− categories (WordNet)', opts: {}, categories: { weight: 0 } },
	{ name: 'categories: larger, not sum', opts: {}, categories: { add: 0 } },
	{ name: '− feedback (Rocchio)', opts: {}, feedback: { weight: 0 } },
	{ name: '+ entity focus (off)', opts: {}, entities: { boost: 0.2 } },
	{ name: '+ neighbour window 3 (off)', opts: {}, expansion: { neighborDecay: [1, 0.6, 0.3] } },
	{ name: '− word neighbours', opts: {}, neighbours: { weight: 0 } },
	{ name: '− coverage of expansion terms', opts: {}, coverage: { bonus: 0 } },
	{ name: '− name-less question vector', opts: {}, nameless: { weight: 0 } },
	{ name: '− named turns near the best hits', opts: {}, named: { share: 0 } },
	{ name: '+ word neighbours on every question (off)', opts: {}, neighbours: { weight: 0.3, yesNoOnly: 0, cosine: 0.45 } },
	{ name: 'fusion = rrf', opts: { fusion: 'rrf' } },
	{ name: '− turn-length prior', opts: {}, turns: { fullWords: 0 } },
	{ name: '− question-turn discount', opts: {}, turns: { question: 1 } },
	{ name: '− turn context', opts: {}, lexical: { context: 0 } },
	{ name: '− lexical', opts: { weights: { lexical: 0 } } },
	{ name: '− semantic', opts: { weights: { semantic: 0 } } },
	{ name: '− neighbor', opts: { weights: { neighbor: 0 } } },
	{ name: '− graph', opts: { weights: { graph: 0 } } },
	{ name: '− recency', opts: { weights: { recency: 0 } } },
	{ name: '− priors (imp/conf/access)', opts: { weights: { importance: 0, confidence: 0, access: 0 } } },
	{
		name: 'BM25 only',
		opts: { weights: { semantic: 0, neighbor: 0, graph: 0, recency: 0, importance: 0, confidence: 0, access: 0 } },
		turns: { fullWords: 0, question: 1 },
		lexical: { context: 0 },
		categories: { weight: 0 },
	},
	{
		name: 'dense only',
		opts: { weights: { lexical: 0, neighbor: 0, graph: 0, recency: 0, importance: 0, confidence: 0, access: 0 } },
		turns: { fullWords: 0, question: 1 },
		feedback: { weight: 0 },
		nameless: { weight: 0 },
		named: { share: 0 },
	},
];

interface Args {
	through: 'engine' | 'index' | 'mcp' | 'app';
	ablation: boolean;
	misses: boolean;
	data: string[];
	splits: Split[];
	turns: TurnFormat;
	pool: number;
	/** With --pool: every pooled conversation's speakers renamed to the pool's first pair (one long two-person chat). */
	samePair: boolean;
	/** Recall weights every question passes (--weight semantic=0.4). */
	weights?: Record<string, number>;
	/** Only these conversations (--conv conv-11,conv-12,conv-13: the held-back three alone). */
	conv?: string[];
	/** Where the models live (a variant build's folder, ENGRAM_MODEL_OUT's parent's parent); default public/models. */
	modelPath?: string;
	/** Where the model that embeds the questions lives (turns are embedded by --model-path's): a query-side-only variant. */
	queryModelPath?: string;
}

function parseArgs(argv: string[]): Args {
	const a: Args = { through: 'engine', ablation: true, misses: false, data: [], splits: [...SPLITS], turns: 'full', pool: 1, samePair: false };
	for (let i = 0; i < argv.length; i++) {
		const k = argv[i];
		if (k === '--through') a.through = argv[++i] as Args['through'];
		else if (k === '--no-ablation') a.ablation = false;
		else if (k === '--misses') a.misses = true;
		else if (k === '--conv') a.conv = argv[++i].split(',');
		else if (k === '--data') a.data.push(argv[++i]);
		else if (k === '--split') a.splits = argv[++i] === 'both' ? [...SPLITS] : [argv[i] as Split];
		else if (k === '--turns') a.turns = argv[++i] as TurnFormat;
		else if (k === '--pool') a.pool = Number(argv[++i]);
		else if (k === '--same-pair') a.samePair = true;
		else if (k === '--weight') {
			// --weight semantic=0.4: a recall weight for every question (RecallInput.weights), for a sweep.
			const [key, value] = argv[++i].split('=');
			a.weights = { ...a.weights, [key]: Number(value) };
		} else if (k === '--model-path') a.modelPath = argv[++i].replace(/\/?$/, '/');
		else if (k === '--query-model-path') a.queryModelPath = argv[++i].replace(/\/?$/, '/');
		else if (k === '--set') {
			// --set categories.weight=0.2: one tunable for a sweep (TURNS, LEXICAL_TUNING, CATEGORIES, FEEDBACK, ENTITY_FOCUS,
			// EXPANSION, NEIGHBOURS, COVERAGE, NAMELESS or NAMED_TURNS as `named`; a comma list sets an array: --set expansion.neighborDecay=1,0.6,0.3).
			const [key, value] = argv[++i].split('=');
			const [group, field] = key.split('.');
			const target = (
				{
					turns: TURNS,
					lexical: LEXICAL_TUNING,
					categories: CATEGORIES,
					feedback: FEEDBACK,
					entities: ENTITY_FOCUS,
					expansion: EXPANSION,
					neighbours: NEIGHBOURS,
					coverage: COVERAGE,
					nameless: NAMELESS,
					named: NAMED_TURNS,
				} as Record<string, Record<string, unknown>>
			)[group];
			if (!target || !(field in target)) throw new Error(`--set: unknown tunable ${key}`);
			target[field] = value.includes(',') ? value.split(',').map(Number) : Number(value);
		} else throw new Error(`unknown argument ${k}`);
	}
	if (a.data.length === 0) a.data = a.splits.includes('heldback') ? [HELDBACK_SET] : [DEV_SET, HARD_SET];
	if (!a.splits.every((x) => ALL_SPLITS.includes(x))) throw new Error('--split: must be tune, check, both or heldback');
	// The held-back split is for measuring a decided change, never for choosing one: its misses stay unread.
	if (a.misses && a.splits.includes('heldback')) throw new Error('--misses: not with --split heldback (nothing is tuned on it)');
	if (!TURN_FORMATS.includes(a.turns)) throw new Error(`--turns: must be one of ${TURN_FORMATS.join(', ')}`);
	if (!['engine', 'index', 'mcp', 'app'].includes(a.through)) throw new Error('--through: must be engine, index, mcp or app');
	return a;
}

async function makeTarget(args: Args, embedder: Embedder): Promise<EvalTarget> {
	if (args.through === 'index') return indexTarget(embedder);
	if (args.through === 'mcp') return mcpTarget(embedder);
	if (args.through === 'app') return (await import('./lib/app-target')).appTarget();
	return engineTarget(embedder);
}

/** Runs every question once with `opts`; returns outcomes (overall, and hard.json's alone) and the misses. */
async function runQuestions(target: EvalTarget, data: Dataset, opts: Partial<RecallInput>, hard: Set<string>) {
	const outcomes: Outcome[] = [];
	const hardOnes: Outcome[] = [];
	const misses: string[] = [];
	let updates = 0;
	let newerFirst = 0;
	for (const q of data.questions) {
		const ranked = await target.recall({ query: q.question, scope: q.conversation, limit: 50, ...opts });
		const o = {
			category: q.category,
			r5: recallAtK(ranked, q.evidence, 5),
			r10: recallAtK(ranked, q.evidence, 10),
			r50: recallAtK(ranked, q.evidence, 50),
		};
		outcomes.push(o);
		if (hard.has(q.conversation)) hardOnes.push(o);
		if (q.stale) {
			updates++;
			const rank = (id: string) => (ranked.indexOf(id) < 0 ? Infinity : ranked.indexOf(id));
			const best = Math.min(...q.evidence.map(rank));
			if (best < Infinity && q.stale.every((s) => rank(s) > best)) newerFirst++;
		}
		if (o.r10 < 1) misses.push(`[${q.category}] ${q.conversation} ${q.question}  gold=${q.evidence.join(',')}  got=${ranked.slice(0, 10).join(',')}`);
	}
	return { summary: summarise(outcomes), hard: summarise(hardOnes), misses, newerFirst: updates ? `${newerFirst} of ${updates}` : '–' };
}

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	let all = loadDataset(...args.data);
	if (args.conv) {
		const keep = new Set(args.conv);
		if (!all.conversations.some((c) => keep.has(c.id))) throw new Error(`--conv: no conversation ${args.conv.join(', ')} in the data`);
		all = { conversations: all.conversations.filter((c) => keep.has(c.id)), questions: all.questions.filter((q) => keep.has(q.conversation)) };
	}
	const hard = new Set(args.data.includes(HARD_SET) ? loadDataset(HARD_SET).conversations.map((c) => c.id) : []);
	setTurnFormat(args.turns);
	const docEmbedder = await createEmbedder({ localModelPath: args.modelPath ?? nodeModelPath() });
	// With --query-model-path, turns are embedded by the document model while storing and questions by the query model
	// afterwards (every store happens before the first question).
	const queryEmbedder = args.queryModelPath ? await createEmbedder({ localModelPath: args.queryModelPath }) : docEmbedder;
	if (queryEmbedder.dims !== docEmbedder.dims) throw new Error("--query-model-path: the query model must have the document model's dims");
	let storing = true;
	const embedder: Embedder = {
		modelId: docEmbedder.modelId,
		dims: docEmbedder.dims,
		path: docEmbedder.path,
		embed: (texts) => (storing ? docEmbedder : queryEmbedder).embed(texts),
	};
	if (args.queryModelPath && args.through !== 'index') throw new Error('--query-model-path: only with --through index');
	const target = await makeTarget(args, embedder);
	const sets = args.splits.map((split) => ({ split, data: poolConversations(splitOf(all, split), args.pool, args.samePair) }));
	const t0 = performance.now();
	for (const { data } of sets) for (const conv of data.conversations) await target.storeConversation(conv);
	storing = false;
	const turns = all.conversations.reduce((n, c) => n + c.sessions.reduce((m, s) => m + s.turns.length, 0), 0);
	console.log(
		`eval: ${args.data.join(' + ')}, splits ${args.splits.join(' + ')}, through ${target.name}, model ${embedder.modelId}${args.queryModelPath ? ` (questions: ${args.queryModelPath})` : ''}, turns ${args.turns}${args.pool > 1 ? `, ${args.pool} conversations per scope${args.samePair ? ' (one speaker pair)' : ''}` : ''}`,
	);
	console.log(`stored ${turns} turns in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
	const base = new Map<Split, { r5: number; r10: number }>();
	for (const { split, data } of sets) {
		const full = await runQuestions(target, data, args.weights ? { weights: args.weights } : {}, hard);
		base.set(split, full.summary.get('overall')!);
		const cats = [...full.summary.keys()];
		const cell = (s: ReturnType<typeof summarise>, c: string, f: 'r5' | 'r10' | 'r50') => (s.has(c) ? s.get(c)![f] : '–');
		console.log(
			`split ${split}: ${data.conversations.length} conversations, ${data.questions.length} questions; knowledge updates with the newer turn first: ${full.newerFirst}`,
		);
		console.log(
			table(
				['category', 'n', 'recall@5', 'recall@10', 'recall@50', 'hard n', 'hard @5', 'hard @10', 'hard @50'],
				cats.map((c) => [
					c,
					String(full.summary.get(c)!.n),
					full.summary.get(c)!.r5,
					full.summary.get(c)!.r10,
					full.summary.get(c)!.r50,
					String(full.hard.get(c)?.n ?? 0),
					cell(full.hard, c, 'r5'),
					cell(full.hard, c, 'r10'),
					cell(full.hard, c, 'r50'),
				]),
			),
		);
		if (args.misses) console.log(`\nmisses (recall@10 < 1):\n${full.misses.join('\n')}`);
		console.log('');
	}
	if (args.ablation) {
		const rows: (string | number)[][] = [];
		for (const v of VARIANTS) {
			if (
				(v.turns || v.lexical || v.categories || v.feedback || v.entities || v.expansion || v.neighbours || v.coverage || v.nameless || v.named) &&
				target.name !== 'engine' &&
				target.name !== 'index'
			)
				continue;
			const row: (string | number)[] = [v.name];
			for (const { split, data } of sets) {
				const tunables = [
					[TURNS, v.turns],
					[LEXICAL_TUNING, v.lexical],
					[CATEGORIES, v.categories],
					[FEEDBACK, v.feedback],
					[ENTITY_FOCUS, v.entities],
					[EXPANSION, v.expansion],
					[NEIGHBOURS, v.neighbours],
					[COVERAGE, v.coverage],
					[NAMELESS, v.nameless],
					[NAMED_TURNS, v.named],
				] as [Record<string, unknown>, object | undefined][];
				const saved = tunables.map(([t]) => ({ ...t }));
				for (const [t, set] of tunables) Object.assign(t, set ?? {});
				const s = (await runQuestions(target, data, v.opts, hard)).summary;
				tunables.forEach(([t], i) => Object.assign(t, saved[i]));
				const o = s.get('overall')!;
				const b = base.get(split)!;
				row.push(o.r5, o.r10, signed(o.r5 - b.r5), signed(o.r10 - b.r10));
			}
			rows.push(row);
		}
		const head = ['variant', ...sets.flatMap(({ split }) => [`${split} @5`, `${split} @10`, 'Δ@5', 'Δ@10'])];
		console.log(`ablation (overall):\n${table(head, rows)}`);
	}
	await target.close();
}

const signed = (x: number) => (x >= 0 ? '+' : '') + x.toFixed(3);

main().catch((e) => {
	console.error(e);
	process.exit(1);
});

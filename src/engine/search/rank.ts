/**
 * recall_memory's ranking over the index: filters → direct retrieval (lexical + semantic) →
 * fusion → neighbour and graph expansion → current-only redirection → priors and boosts →
 * sort, min_score, coverage of expansion terms (coverage.ts) and pagination. Every hit reports
 * its components; its score is `combine(components, weights)` from core/scoring.ts.
 */
import { MemoryError } from '../../core/errors';
import type { RecallInput, ScoreComponents } from '../../core/schemas';
import {
	accessScore,
	combine,
	DEFAULT_HALF_LIFE_DAYS,
	FUSION,
	type FusionMode,
	recencyDecay,
	resolveWeights,
	rrfScore,
	type Weights,
} from '../../core/scoring';
import { processTerm, tokenize } from '../../core/text';
import { CATEGORIES, expandCategories, type CategoryTable } from './categories';
import {
	addExpansion,
	addLexical,
	addSemantic,
	candidateFor,
	isStrong,
	POOL,
	scopeCollection,
	scoreSemantic,
	substance,
	type Candidate,
	type SemanticQuery,
} from './candidates';
import { nameMonthTerms, queryDateWords } from './date-words';
import { focusOf, namedEntities } from './entity-focus';
import { COVERAGE, coverExpansion } from './coverage';
import { commonNames, NAMELESS } from './nameless';
import { NAMED_TURNS, spreadToNamedTurns } from './named-turns';
import { NEIGHBOURS, neighbourWords, type WordNeighbours } from './neighbours';
import { redirectToCurrent, spreadOverGraph, spreadToNeighbors } from './expand';
import { compileFilter } from './filters';
import { TopKBy } from './top-k';
import type { QueryVectors, RankedHit, RankedPage } from './types';
import { normalize } from './vector-store';
import type { IndexView } from './view';

/** Everything one recall needs, resolved once. */
interface RankContext {
	view: IndexView;
	input: RecallInput;
	now: number;
	w: Weights;
	fusion: FusionMode;
	halfLife: number;
	phrasings: string[];
	vectors: Float32Array[];
	/** The phrasings' vectors without the scope's everyday names (nameless.ts). */
	nameless: Float32Array[];
	/** Query vectors with their baselines (filled by retrieval). */
	semantic: SemanticQuery[];
	/** Slots accepted by every filter except validity. */
	accept: (slot: number) => boolean;
	/** True when `accept` accepts every slot (scans then skip it). */
	acceptAll: boolean;
	valid: (slot: number) => boolean;
	/** The memory_id of a "more like this" recall, never returned itself. */
	seedSlot?: number;
	/** WordNet's category table, when loaded. */
	categories?: CategoryTable;
	/** The static model's word neighbours among indexed words (neighbours.ts), when given. */
	words?: WordNeighbours;
	/** The processed terms of each entity the query names (entity-focus.ts). */
	named: string[][];
}

const DEFAULT_LIMIT = 10;

/** Ranks the index for `input`; see SearchIndex.rank. */
export function rankIndex(view: IndexView, input: RecallInput, qv: QueryVectors, now: number): RankedPage {
	// No page reaches past the last memory, so offset and limit never size a pool beyond the index:
	// recall_memory({ offset: 1e12 }) sized its candidate arrays by it and failed with "Invalid typed
	// array length" (offset 1e8 would have asked for gigabytes).
	const n = Math.max(1, view.count);
	input = { ...input, offset: Math.min(input.offset ?? 0, n), limit: Math.min(input.limit ?? DEFAULT_LIMIT, n) };
	const ctx = buildContext(view, input, qv, now);
	const relevanceAsked = ctx.phrasings.length > 0 || ctx.vectors.length > 0;
	const lexicalOnly = ctx.phrasings.length > 0 && ctx.vectors.length === 0 && input.memory_id === undefined;
	if (!relevanceAsked) return { ...listPage(ctx), lexical_only: false };
	const cands = retrieve(ctx);
	return { ...pageOf(ctx, cands), lexical_only: lexicalOnly };
}

/** Resolves weights, filters, phrasings and query vectors. */
function buildContext(view: IndexView, input: RecallInput, qv: QueryVectors, now: number): RankContext {
	const filter = compileFilter(input, now);
	const seedSlot = input.memory_id === undefined ? undefined : resolveSeed(view, input.memory_id);
	const acceptAll = !filter.active && seedSlot === undefined;
	// One pass over the metadata into a mask: scans then test a byte, not a chain of closures.
	const mask = acceptAll ? null : new Uint8Array(view.count);
	if (mask) for (let s = 0; s < view.count; s++) mask[s] = s !== seedSlot && filter.base(view.metas[s]) ? 1 : 0;
	const base = mask ? (slot: number) => mask[slot] === 1 : () => true;
	const valid = (slot: number) => filter.valid(view.metas[slot]);
	const phrasings = [input.query, ...(input.queries ?? [])].filter((q): q is string => typeof q === 'string' && q.trim().length > 0);
	return {
		view,
		input,
		now,
		w: resolveWeights(input.weights),
		fusion: input.fusion ?? FUSION,
		halfLife: input.recency_half_life_days ?? DEFAULT_HALF_LIFE_DAYS,
		phrasings,
		vectors: queryVectors(view, input, qv, seedSlot),
		nameless: (qv.nameless ?? []).flatMap((v) => {
			const n = v.length === view.dims ? normalize(v) : null;
			return n ? [n] : [];
		}),
		semantic: [],
		accept: base,
		acceptAll,
		valid,
		seedSlot,
		categories: qv.categories,
		words: qv.words,
		named: namedEntities(phrasings),
	};
}

/** The slot of a memory_id (string id or integer seq), or a not_found MemoryError. */
function resolveSeed(view: IndexView, ref: string | number): number {
	const id = typeof ref === 'number' ? view.seqToId.get(ref) : ref;
	const slot = id === undefined ? undefined : view.slotOf.get(id);
	if (slot === undefined) throw new MemoryError('not_found', `memory_id: no memory with id ${JSON.stringify(ref)}`);
	return slot;
}

/** Unit query vectors: the engine's, the caller's `embedding`, and the seed memory's own. */
function queryVectors(view: IndexView, input: RecallInput, qv: QueryVectors, seedSlot?: number): Float32Array[] {
	const out: Float32Array[] = [];
	for (const v of qv.vectors) {
		const n = v && v.length === view.dims ? normalize(v) : null;
		if (n) out.push(n);
	}
	if (input.embedding) {
		if (input.embedding.length !== view.dims)
			throw new MemoryError('invalid_input', `embedding: must have ${view.dims} dimensions (the active model's), got ${input.embedding.length}`);
		const n = normalize(input.embedding);
		if (n) out.push(n);
	}
	if (seedSlot !== undefined) {
		const v = view.vectors.get(seedSlot);
		if (v) out.push(v);
	}
	return out;
}

/** Direct retrieval, fusion and expansion: the candidate map with components filled in. */
function retrieve(ctx: RankContext): Map<number, Candidate> {
	const { view, input, w } = ctx;
	const accept = ctx.acceptAll ? undefined : ctx.accept;
	const cands = new Map<number, Candidate>();
	const k = Math.max(POOL.semantic, 3 * ((input.offset ?? 0) + (input.limit ?? DEFAULT_LIMIT)));
	if (w.lexical > 0 || w.semantic === 0) {
		// Time phrases also search as the canonical date tokens memories index ("May 2023" → m202305).
		const lexical = ctx.phrasings.map((q) => `${q} ${queryDateWords(q, ctx.now)}`.trim());
		// "What crafts has June taken up?": a month word that is a name must not match every June memory's date words.
		const names = new Set(ctx.phrasings.flatMap((q) => [...nameMonthTerms(q, ctx.now)]));
		addLexical(view, lexical, accept, cands, input.scope, names.size > 0 ? names : undefined);
		// The coverage stage (coverage.ts) reads which expansion terms each memory matched.
		const record = COVERAGE.bonus > 0;
		if (ctx.categories)
			for (const q of ctx.phrasings) addExpansion(view, expandCategories(ctx.categories, q), CATEGORIES.weight, accept, cands, input.scope, record);
		if (ctx.words && NEIGHBOURS.weight > 0) {
			const within = input.scope === undefined ? undefined : scopeCollection(view, input.scope);
			const holds = (term: string) => view.lexical.holdsTerm(term, within);
			const most = NEIGHBOURS.maxShare * (within ? within.size : view.count);
			const common = (term: string) => NEIGHBOURS.maxShare < 1 && view.lexical.contentFrequency(term, within, most + 1) > most;
			for (const q of ctx.phrasings) addExpansion(view, neighbourWords(ctx.words, q, holds, common), NEIGHBOURS.weight, accept, cands, input.scope);
		}
	}
	if (w.semantic > 0) ctx.semantic = addSemantic(view, ctx.vectors, k, accept, cands);
	// The question without its speakers' names (nameless.ts): its nearest memories join, its score is blended in.
	if (w.semantic > 0 && NAMELESS.weight > 0 && ctx.vectors.length > 0 && ctx.nameless.length > 0)
		ctx.semantic = [...ctx.semantic, ...addSemantic(view, ctx.nameless, k, accept, cands).map((sq) => ({ ...sq, blend: NAMELESS.weight }))];
	const searched = input.scope === undefined ? view.count : view.scopeSize(input.scope);
	if (w.semantic > 0 && FEEDBACK.weight > 0 && ctx.vectors.length > 0 && searched <= FEEDBACK.maxMemories) feedback(ctx, cands, k);
	for (const id of input.priority_ids ?? []) {
		const slot = view.slotOf.get(id);
		if (slot !== undefined && ctx.accept(slot)) candidateFor(cands, slot, true);
	}
	const rel = (c: Candidate) => relevance(ctx, c);
	if (w.neighbor > 0) spreadToNeighbors(view, cands, rel, ctx.accept);
	// Turns of the person the question names, a few turns from the strongest candidates (named-turns.ts).
	if (w.neighbor > 0 && NAMED_TURNS.share > 0 && input.scope !== undefined) {
		const within = scopeCollection(view, input.scope);
		const most = NAMELESS.share * within.size;
		const common = (term: string) => view.lexical.contentFrequency(term, within, most + 1) > most;
		const names = [...new Set(ctx.phrasings.flatMap((q) => commonNames(q, common)))];
		spreadToNamedTurns(view, cands, rel, ctx.accept, names);
	}
	if (w.graph > 0)
		spreadOverGraph(view, cands, rel, ctx.accept, {
			relations: input.expand_relations !== false,
			entities: input.expand_entities !== false,
		});
	if (input.current_only) redirectToCurrent(view, cands, rel, ctx.accept, ctx.valid);
	return cands;
}

/** Tunables of pseudo-relevance feedback (the eval's ablation sets weight to 0). */
export const FEEDBACK = {
	/** Strongest direct candidates whose vectors make the feedback vector. */
	top: 5,
	/** Share of the top hits' mean direction added to each query vector (Rocchio's β). */
	beta: 0.5,
	/** Share of a feedback match's rescaled score it counts for (0 = off). */
	weight: 0.3,
	/**
	 * Most memories a recall may search (its scope's size, or the whole index) for feedback to run:
	 * the second scan costs as much as the first (+40% of a 10k unscoped recall's ranking), so it
	 * runs where it is cheap — a conversation's or a project's scope — and is skipped beyond.
	 */
	maxMemories: 5_000,
};

/**
 * Pseudo-relevance feedback (Rocchio): each query vector moved towards the mean of the strongest
 * candidates' vectors searches once more, its matches counting for FEEDBACK.weight. A question
 * whose evidence shares none of its words may share the words of turns near its best hits.
 */
function feedback(ctx: RankContext, cands: Map<number, Candidate>, k: number): void {
	const { view } = ctx;
	const direct = [...cands.values()].filter((c) => c.direct);
	const rel = new Map(direct.map((c) => [c, relevance(ctx, c)]));
	direct.sort((a, b) => rel.get(b)! - rel.get(a)!);
	const sum = new Float32Array(view.dims);
	let n = 0;
	for (const c of direct.slice(0, FEEDBACK.top)) {
		const v = view.vectors.get(c.slot);
		if (!v) continue;
		for (let i = 0; i < v.length; i++) sum[i] += v[i];
		n++;
	}
	const centroid = n > 0 ? normalize(sum) : null;
	if (!centroid) return;
	const moved = ctx.vectors.flatMap((q) => {
		const m = new Float32Array(q.length);
		for (let i = 0; i < q.length; i++) m[i] = q[i] + FEEDBACK.beta * centroid[i];
		const u = normalize(m);
		return u ? [u] : [];
	});
	const extra = addSemantic(view, moved, k, ctx.acceptAll ? undefined : ctx.accept, cands);
	ctx.semantic = [...ctx.semantic, ...extra.map((sq) => ({ ...sq, weight: FEEDBACK.weight }))];
	// Semantic scores computed for ranking the feedback's sources are stale now.
	for (const c of cands.values()) c.sem = NaN;
}

/**
 * Lexical and semantic components of a candidate under the fusion mode, both scaled by the
 * candidate's substance (1 except for short conversation turns; see candidates.ts) and its entity
 * focus (1 unless entity focus is on and the query names someone the memory does not; see
 * entity-focus.ts).
 */
function fused(ctx: RankContext, c: Candidate): { lexical: number; semantic: number } {
	if (Number.isNaN(c.sem)) scoreSemantic(ctx.view, c, ctx.semantic);
	if (Number.isNaN(c.focus)) c.focus = focusOf(ctx.view, c.slot, ctx.named);
	const s = substance(ctx.view, c) * c.focus;
	if (ctx.fusion === 'rrf')
		return {
			lexical: c.lexRank === Infinity ? 0 : s * rrfScore(c.lexRank),
			semantic: c.semRank === Infinity ? 0 : s * rrfScore(c.semRank),
		};
	return { lexical: s * c.lex, semantic: s * c.sem };
}

/** Fused relevance in [0, 1]: what neighbours and linked memories inherit a share of. */
function relevance(ctx: RankContext, c: Candidate): number {
	const { lexical, semantic } = fused(ctx, c);
	const wl = ctx.w.lexical;
	const ws = ctx.vectors.length > 0 ? ctx.w.semantic : 0;
	return wl + ws > 0 ? (wl * lexical + ws * semantic) / (wl + ws) : 0;
}

/** Every component of a memory at `slot`, given its retrieval-derived parts. */
function components(ctx: RankContext, slot: number, c?: Candidate): ScoreComponents {
	const m = ctx.view.metas[slot];
	const f = c ? fused(ctx, c) : { lexical: 0, semantic: 0 };
	return {
		lexical: f.lexical,
		semantic: f.semantic,
		recency: recencyDecay(ctx.now - m.timestamp, ctx.halfLife),
		importance: m.importance,
		confidence: m.confidence,
		access: accessScore(m.access_count),
		tags: boostOf(ctx, slot),
		graph: c ? Math.min(1, c.graph) : 0,
		neighbor: c ? Math.min(1, c.neighbor) : 0,
	};
}

/** Context boosts: share of context_tags carried, context_types, priority_ids. */
function boostOf(ctx: RankContext, slot: number): number {
	const { input } = ctx;
	const m = ctx.view.metas[slot];
	let b = 0;
	if (input.priority_ids?.includes(m.id)) b = 1;
	if (input.context_types?.includes(m.type as never)) b = Math.max(b, 1);
	const ct = input.context_tags;
	if (ct && ct.length > 0) {
		const tags = new Set(m.tags.map((t) => t.toLowerCase()));
		const hit = ct.filter((t) => tags.has(t.toLowerCase())).length;
		b = Math.max(b, hit / ct.length);
	}
	return b;
}

/** A ranked hit for a candidate. */
function hitOf(ctx: RankContext, c: Candidate): RankedHit {
	const comps = components(ctx, c.slot, c);
	const hit: RankedHit = {
		id: ctx.view.metas[c.slot].id,
		score: combine(comps, ctx.w),
		components: comps,
		match: c.direct ? 'direct' : 'expanded',
		// Filled in for the returned page only (pageOf): most candidates are never shown.
		matched_terms: [],
		// fused() above scored the candidate's semantic part, which isStrong reads.
		strength: isStrong(c) ? 'strong' : 'weak',
	};
	if (!c.direct && c.via !== undefined) hit.via = c.via;
	else if (hit.strength === 'weak') {
		// A weak hit found directly (the semantic pool takes every memory of a small store) still
		// owes most of its score to a link or a neighbour: name the one that gave more.
		const viaOf = ctx.w.neighbor * comps.neighbor >= ctx.w.graph * comps.graph ? c.neighborVia : c.graphVia;
		if (viaOf !== undefined && comps.neighbor + comps.graph > 0) hit.via = viaOf;
	}
	return hit;
}

/** The caller's words with their processed forms, in query order (once per recall). */
function queryWords(phrasings: string[]): [word: string, processed: string][] {
	const out: [string, string][] = [];
	for (const q of phrasings)
		for (const t of tokenize(q)) {
			const p = processTerm(t);
			if (p !== null) out.push([t, p]);
		}
	return out;
}

/** The caller's own words whose processed form a hit matched, in query order, unique. */
function matchedTerms(words: [string, string][], terms: Set<string>): string[] {
	if (terms.size === 0) return [];
	const out = new Set<string>();
	for (const [t, p] of words) if (terms.has(p)) out.add(t);
	return [...out];
}

/** Sorts, applies min_score and pagination. */
function pageOf(ctx: RankContext, cands: Map<number, Candidate>): Omit<RankedPage, 'lexical_only'> {
	const minScore = ctx.input.min_score ?? 0;
	const hits: RankedHit[] = [];
	const candOf = new Map<RankedHit, Candidate>();
	let matched = 0;
	for (const c of cands.values()) {
		if (c.slot === ctx.seedSlot) continue;
		const h = hitOf(ctx, c);
		if (h.score < minScore) continue;
		hits.push(h);
		candOf.set(h, c);
		if (h.strength === 'strong') matched++;
	}
	hits.sort(comparator(ctx));
	// Coverage (coverage.ts) re-ranks the first COVERAGE.depth; min_score has already applied to the first ranking's scores.
	if (COVERAGE.bonus > 0 && ctx.w.lexical > 0 && (ctx.input.sort ?? 'score') === 'score') {
		const raised = coverExpansion(
			ctx.view,
			hits.slice(0, COVERAGE.depth).map((h) => candOf.get(h)!),
		);
		for (const i of raised) {
			const c = candOf.get(hits[i])!;
			const before = hits[i].strength;
			hits[i] = hitOf(ctx, c);
			candOf.set(hits[i], c);
			// A raised hit can become a strong match: the count of strong matches follows it.
			if (before !== 'strong' && hits[i].strength === 'strong') matched++;
		}
		// Scores only rose, and only among the first COVERAGE.depth: the rest stay below them, in order.
		if (raised.length > 0) hits.splice(0, COVERAGE.depth, ...hits.slice(0, COVERAGE.depth).sort(comparator(ctx)));
	}
	const offset = ctx.input.offset ?? 0;
	const limit = ctx.input.limit ?? DEFAULT_LIMIT;
	const page = hits.slice(offset, offset + limit);
	const words = queryWords(ctx.phrasings);
	for (const h of page) h.matched_terms = matchedTerms(words, candOf.get(h)!.terms);
	return { hits: page, total: hits.length, matched };
}

/** The order of `sort` (score by default; ties newest first, then by seq). */
function comparator(ctx: RankContext): (a: RankedHit, b: RankedHit) => number {
	const meta = (h: RankedHit) => ctx.view.metas[ctx.view.slotOf.get(h.id)!];
	const newer = (a: RankedHit, b: RankedHit) => meta(b).timestamp - meta(a).timestamp || meta(b).seq - meta(a).seq;
	switch (ctx.input.sort ?? 'score') {
		case 'time_desc':
			return newer;
		case 'time_asc':
			return (a, b) => -newer(a, b);
		case 'updated_desc':
			return (a, b) => meta(b).updated_at - meta(a).updated_at || newer(a, b);
		case 'updated_asc':
			return (a, b) => meta(a).updated_at - meta(b).updated_at || -newer(a, b);
		default:
			return (a, b) => b.score - a.score || newer(a, b);
	}
}

/** The sort key of a slot for listing without a query (larger first). */
function listKey(ctx: RankContext, slot: number, score: number): number {
	const m = ctx.view.metas[slot];
	switch (ctx.input.sort ?? 'score') {
		case 'time_desc':
			return m.timestamp;
		case 'time_asc':
			return -m.timestamp;
		case 'updated_desc':
			return m.updated_at;
		case 'updated_asc':
			return -m.updated_at;
		default:
			return score;
	}
}

/**
 * No query, no vector: every memory passing the filters, scored by priors and boosts only, kept
 * in a bounded heap so listing 100k memories allocates one page, not 100k hits.
 */
function listPage(ctx: RankContext): Omit<RankedPage, 'lexical_only'> {
	const offset = ctx.input.offset ?? 0;
	const limit = ctx.input.limit ?? DEFAULT_LIMIT;
	const minScore = ctx.input.min_score ?? 0;
	const keys = new Float64Array(ctx.view.count);
	const metas = ctx.view.metas;
	// Equal keys (a batch shares one timestamp) rank by seq: newest first, or oldest first for an
	// ascending sort, as the comparator orders ranked hits.
	const asc = ctx.input.sort === 'time_asc' || ctx.input.sort === 'updated_asc';
	const top = new TopKBy(
		offset + limit,
		(a, b) => keys[a] > keys[b] || (keys[a] === keys[b] && (asc ? metas[a].seq < metas[b].seq : metas[a].seq > metas[b].seq)),
	);
	let total = 0;
	// Sorted by time, a memory's score only filters, and below min_score > 0 alone: every weight and
	// every other component is ≥ 0. So only the page's hits are scored (the UI's timeline, at 100k
	// memories, spent most of its time scoring memories it never showed).
	const byTime = (ctx.input.sort ?? 'score') !== 'score' && minScore <= 0 && Object.values(ctx.w).every((x) => x >= 0);
	for (let slot = 0; slot < ctx.view.count; slot++) {
		if (!ctx.accept(slot) || (ctx.input.current_only && !ctx.valid(slot))) continue;
		const m = metas[slot];
		const score = byTime && m.importance >= 0 && m.confidence >= 0 ? 0 : combine(components(ctx, slot), ctx.w);
		if (score < minScore) continue;
		total++;
		keys[slot] = listKey(ctx, slot, score);
		top.push(slot);
	}
	const hits = top
		.sorted()
		.slice(offset)
		.map((slot) => {
			const comps = components(ctx, slot);
			return {
				id: ctx.view.metas[slot].id,
				score: combine(comps, ctx.w),
				components: comps,
				match: 'direct' as const,
				matched_terms: [],
				strength: 'strong' as const,
			};
		});
	// Without a query every memory passing the filters is what was asked for.
	return { hits, total, matched: total };
}

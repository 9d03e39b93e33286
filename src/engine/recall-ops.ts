/**
 * recall_memory: validates, resolves `time_query`, embeds the query phrasings in one call, lets
 * the search index rank, then loads only the final page from IndexedDB, puts a newer value of
 * the same thing above an older one (newer-first.ts) and bounds each content's size.
 * A caller `embedding` is matched against vectors callers stored with the same dimensions
 * (`caller:<dims>`); when none exist and the dimensions equal the active model's, it is used as
 * an active-model query vector.
 */
import { MemoryError } from '../core/errors';
import { RecallInputSchema, toIso, type RecallInput, type RecallOutput } from '../core/schemas';
import { combine, resolveWeights } from '../core/scoring';
import { inclusiveDateEnd, parseTimeQuery } from '../core/time';
import { cosine, normalize } from '../core/vector';
import { callerModel, embedTexts, type EngineContext } from './context';
import { toMemory, truncate } from './doc';
import type { QueryVectors, RankedHit, RankedPage } from './search/types';
import { wordNeighboursFor } from './search/neighbours';
import { namelessVectors } from './search/nameless';
import { newerFirst } from './newer-first';
import { reads } from './read-gate';
import { parseInput } from './validate';
import { modelsOf, rowsWithVector } from '../store/vectors';

/** Default cap on each result's content, so a recall never floods an agent's context. */
export const DEFAULT_MAX_CONTENT_CHARS = 2000;
const DEFAULT_LIMIT = 10;
/** How many caller-embedding matches join the candidates. */
const CALLER_POOL = 100;
/** Cosine from which a caller-embedding match counts as strong (its model is unknown: a paraphrase's level). */
const CALLER_STRONG = 0.6;

/** Recalls memories; see the module comment. */
export function recallMemories(ctx: EngineContext, input: RecallInput, actor = 'agent'): Promise<RecallOutput> {
	// Counted as a read in flight: the snapshot's encoding waits for it between its steps.
	return reads.run(() => recall(ctx, input, actor));
}

async function recall(ctx: EngineContext, input: RecallInput, actor: string): Promise<RecallOutput> {
	const p = parseInput(RecallInputSchema, input);
	const now = ctx.now();
	const { rankInput, window } = resolveTime(p, now);
	const phrasings = [p.query, ...(p.queries ?? [])].filter((q): q is string => !!q && q.trim() !== '');
	const vectors = await embedTexts(ctx, phrasings);
	// Word-neighbour expansion (search/neighbours.ts; undefined while it is off).
	const words = await wordNeighboursFor(ctx.index, ctx.embedder, phrasings);
	// The question without its speakers' names, blended into the semantic score (search/nameless.ts).
	const nameless = await namelessVectors(ctx.index, ctx.embedder, phrasings, p.scope);
	const caller = p.embedding ? await callerMatches(ctx, p.embedding) : undefined;
	if (caller) delete rankInput.embedding;
	const query = { vectors, categories: ctx.categories, words, nameless };
	const page = caller ? rankWithCaller(ctx, rankInput, query, now, caller) : ctx.index.rank(rankInput, query, now);
	const out = await loadPage(ctx, page, p);
	if (window) out.time_window = window;
	if (phrasings.length || p.memory_id !== undefined) logRecall(ctx, actor, p, out.count);
	return out;
}

/** Turns time_query into start/end (explicit start/end win), or refuses a phrase it cannot read. */
function resolveTime(input: RecallInput, now: number): { rankInput: RecallInput; window?: { start?: string; end?: string } } {
	const p: RecallInput = input.end === undefined ? input : { ...input, end: inclusiveDateEnd(input.end) };
	const rankInput: RecallInput = { ...p };
	if (p.time_query === undefined || p.time_query.trim() === '') {
		const window = p.start || p.end ? { ...(p.start && { start: toIso(p.start) }), ...(p.end && { end: toIso(p.end) }) } : undefined;
		return { rankInput, window };
	}
	const w = parseTimeQuery(p.time_query, now);
	if (!w)
		throw new MemoryError(
			'invalid_input',
			`time_query: ${JSON.stringify(p.time_query)} is not a time range I can read; try "today", "yesterday", "last week", "last 30 days", "in March 2024" or give start/end`,
		);
	rankInput.start = p.start ?? w.start;
	rankInput.end = p.end ?? w.end;
	delete rankInput.time_query;
	return { rankInput, window: { ...(rankInput.start && { start: toIso(rankInput.start) }), ...(rankInput.end && { end: toIso(rankInput.end) }) } };
}

/**
 * Cosines of the caller's embedding to every memory holding a caller vector of the same
 * dimensions, best first; undefined when no such vectors exist (the index then handles it).
 */
async function callerMatches(ctx: EngineContext, embedding: number[]): Promise<Map<string, number> | undefined> {
	const q = normalize(embedding);
	if (!q) throw new MemoryError('invalid_input', 'embedding: must not be all zeros');
	const model = callerModel(q.length);
	const rows = await rowsWithVector(ctx.db, model).toArray();
	if (rows.length === 0) {
		if (q.length === ctx.embedder.dims) return undefined;
		throw new MemoryError(
			'invalid_input',
			`embedding: no memory holds a caller embedding of ${q.length} dimensions and the active model (${ctx.embedder.modelId}) has ${ctx.embedder.dims}`,
		);
	}
	const scored = rows.map((r) => [r.id, cosine(q, r.vectors![model])] as const).sort((a, b) => b[1] - a[1]);
	return new Map(scored.slice(0, CALLER_POOL));
}

/**
 * Ranks with caller-vector matches as candidates: the index ranks them (filters, priors, graph)
 * as priority ids, then their semantic component becomes the caller cosine, the priority boost
 * given only to pull them in is removed again, and the page is re-sorted and cut.
 */
function rankWithCaller(ctx: EngineContext, p: RecallInput, query: QueryVectors, now: number, caller: Map<string, number>): RankedPage {
	const offset = p.offset ?? 0;
	const limit = p.limit ?? DEFAULT_LIMIT;
	const own = new Set(p.priority_ids ?? []);
	const wide: RecallInput = { ...p, offset: 0, limit: offset + limit + CALLER_POOL, priority_ids: [...own, ...caller.keys()].slice(0, 50 + CALLER_POOL) };
	const page = ctx.index.rank(wide, query, now);
	const w = resolveWeights(p.weights);
	const hits: RankedHit[] = page.hits.map((h) => {
		const cos = caller.get(h.id);
		if (cos === undefined) return h;
		const components = { ...h.components, semantic: Math.max(h.components.semantic, Math.max(0, cos)) };
		if (!own.has(h.id) && h.components.tags === 1 && !hasContextBoost(p)) components.tags = 0;
		const strength = h.strength === 'strong' || cos >= CALLER_STRONG ? 'strong' : 'weak';
		return { ...h, components, score: combine(components, w), match: 'direct' as const, strength };
	});
	const kept = hits.filter((h) => p.min_score === undefined || h.score >= p.min_score);
	if ((p.sort ?? 'score') === 'score') kept.sort((a, b) => b.score - a.score);
	const matched = Math.max(page.matched, kept.filter((h) => h.strength === 'strong').length);
	return { ...page, hits: kept.slice(offset, offset + limit), total: Math.max(page.total, kept.length), matched, lexical_only: false };
}

function hasContextBoost(p: RecallInput): boolean {
	return (p.context_tags?.length ?? 0) > 0 || (p.context_types?.length ?? 0) > 0;
}

/** Loads the page's memories (one bulk read) and bounds each content. */
async function loadPage(ctx: EngineContext, page: RankedPage, p: RecallInput): Promise<RecallOutput> {
	const ids = page.hits.map((h) => h.id);
	// One read transaction: separate requests would each open one, and every queued transaction
	// delays the next write's (measured: 20–80 ms per store in Chromium while the UI refreshed).
	// Over the one table it reads, so it never waits for the previous recall's activity entry.
	const rows = await ctx.db.read(() => ctx.db.memories.bulkGet(ids), [ctx.db.memories]);
	const max = p.max_content_chars ?? DEFAULT_MAX_CONTENT_CHARS;
	const entries = page.hits.map((h, i) => ({ hit: h, row: rows[i], newerThan: undefined as string[] | undefined }));
	if ((p.sort ?? 'score') === 'score') newerFirst(entries, ctx.embedder.modelId, ctx.thresholds.similar);
	const results: RecallOutput['results'] = [];
	entries.forEach(({ hit: h, row, newerThan }) => {
		if (!row) return;
		const memory = toMemory(row, modelsOf(row));
		const cut = truncate(memory.content, max);
		memory.content = cut.text;
		const r: RecallOutput['results'][number] = {
			memory,
			score: h.score,
			components: h.components,
			match: h.match,
			matched_terms: h.matched_terms,
			strength: h.strength,
		};
		if (h.via !== undefined) r.via = h.via;
		if (newerThan) r.newer_than = newerThan;
		if (cut.truncated) r.content_truncated = true;
		results.push(r);
	});
	const offset = p.offset ?? 0;
	const hasMore = offset + page.hits.length < page.total;
	const out: RecallOutput = { results, count: results.length, matched: page.matched, has_more: hasMore };
	if (hasMore) out.next_offset = offset + page.hits.length;
	if (page.lexical_only) out.lexical_only = true;
	if (page.time_window) out.time_window = page.time_window;
	return out;
}

/** One 'recalled' activity entry per call (not per memory), written later with others (deferred-log.ts). */
function logRecall(ctx: EngineContext, actor: string, p: RecallInput, count: number): void {
	const what = p.query ?? p.queries?.join(' | ') ?? `like ${String(p.memory_id)}`;
	ctx.log.add({ at: new Date(ctx.now()).toISOString(), actor, action: 'recalled', detail: `${truncate(what, 200).text} → ${count} result(s)` });
}

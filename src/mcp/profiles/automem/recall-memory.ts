/** recall_memory: AutoMem's id fetch, tag enumeration and ranked modes over Engram's recall. */
import { round3 } from '../../../core/numbers';
import { LIMITS, type Memory, type RecallInput, type RecallResult } from '../../../core/schemas';
import type { EngineApi } from '../../../engine/types';
import { READ_ONLY } from '../../annotations';
import { defineTool } from '../../tool-definition';
import { renderRecall } from './recall-render';
import { RecallArgs, RecallOut, type RecallItem } from './recall-schemas';

/** Characters of content the text, items and detailed formats show. */
const PREVIEW = 700;
/** AutoMem's response budget in characters: results past it are dropped and counted. */
const BUDGET = 80_000;

export const recallMemory = defineTool({
	name: 'recall_memory',
	config: {
		title: 'Recall Memory',
		description: `Recall memories in one of three modes, chosen by the parameters you pass.

Mode 1 — ID fetch: memory_id returns that one memory in full (all other parameters ignored).
Mode 2 — Tag enumeration: tags + exhaustive: true lists every memory carrying any of the tags, page by page (limit ≤ 200, offset, has_more); not ranked. tag_match "prefix" and tag_mode "all" are rejected in this mode.
Mode 3 — Ranked retrieval (default): hybrid search over meaning, keywords, tags, recency, importance and graph links. Returns current memories only unless current_only: false or state_mode: "history".

When to use ranked: at conversation start (context on the project), before decisions (past decisions on the topic), when debugging (similar past errors), for multi-hop questions (expand_entities). Use enumeration to count or walk every memory under a tag. Do not use it to store or change memories (store_memory, update_memory).

Output format: text (default), items (one block per memory), detailed (adds type, confidence, relations), json (every field, full content). text/items/detailed show a 700-character preview; fetch a full record with memory_id. The whole response stays under ~80k characters; dropped results are reported in truncation.

Examples:
recall_memory({ query: "database architecture decisions", tags: ["my-project"], limit: 5 })
recall_memory({ memory_id: "abc123" })
recall_memory({ tags: ["benchmark-test"], exhaustive: true, limit: 50 })
recall_memory({ query: "auth", exclude_tags: ["deprecated"] })
recall_memory({ query: "What is Sarah's sister's job?", expand_entities: true })`,
		inputSchema: RecallArgs,
		outputSchema: RecallOut,
		annotations: READ_ONLY,
	},
	run: (input, engine, ctx) => (input.memory_id ? fetchOne(engine, input, ctx.actor) : rankedOrEnumerated(engine, input, ctx.actor)),
	render: renderRecall,
});

async function fetchOne(engine: EngineApi, a: RecallArgs, actor?: string): Promise<RecallOut> {
	const out = await engine.get({ memory_id: a.memory_id!, related_limit: 5 }, { actor });
	const rels = out.related_memories.map((r) => ({
		type: r.relation,
		memory_id: r.id,
		strength: r.similarity,
		direction: r.direction,
	}));
	return {
		count: 1,
		mode: 'id_fetch',
		results: [{ ...item(out.memory, 1, 'id_fetch', 'json', undefined), relations: rels }],
	};
}

async function rankedOrEnumerated(engine: EngineApi, a: RecallArgs, actor?: string): Promise<RecallOut> {
	const enumerate = a.exhaustive === true;
	const limit = a.limit ?? 5;
	const out = await engine.recall(enumerate ? enumeration(a, limit) : ranked(a, limit), { actor });
	const format = a.format ?? 'text';
	const items = out.results.map((r) => item(r.memory, r.score, r.match === 'direct' ? 'hybrid' : r.via?.includes(':') ? 'entity' : 'relation', format, r));
	const mode = enumerate ? 'enumeration' : 'ranked';
	const base: RecallOut = {
		count: items.length,
		mode,
		results: items,
		...(enumerate ? { has_more: out.has_more, limit, offset: a.offset ?? 0 } : { query: a.query, sort: a.sort ?? 'score', state_mode: stateMode(a) }),
	};
	return budget(base, format);
}

function enumeration(a: RecallArgs, limit: number): RecallInput {
	return {
		tags: a.tags,
		tag_mode: 'any',
		tag_match: 'exact',
		limit,
		offset: a.offset,
		sort: 'time_desc',
		max_content_chars: LIMITS.contentChars,
	};
}

function stateMode(a: RecallArgs): 'current' | 'history' {
	return a.state_mode ?? (a.current_only === false ? 'history' : 'current');
}

function ranked(a: RecallArgs, limit: number): RecallInput {
	const weights = a.recency_bias === 'off' ? { recency: 0 } : a.recency_bias === 'on' ? { recency: 2 } : undefined;
	return {
		query: a.query,
		queries: a.queries,
		embedding: a.embedding,
		limit,
		offset: a.offset,
		time_query: a.time_query,
		start: a.start,
		end: a.end,
		tags: a.tags,
		tag_mode: a.tag_mode,
		tag_match: a.tag_match,
		exclude_tags: a.exclude_tags,
		expand_entities: a.expand_entities,
		expand_relations: a.expand_relations,
		current_only: stateMode(a) === 'current',
		min_score: a.min_score,
		sort: a.sort,
		context_tags: a.context_tags,
		context_types: a.context_types,
		priority_ids: a.priority_ids,
		weights,
		max_content_chars: LIMITS.contentChars,
	};
}

function item(m: Memory, score: number, matchType: string, format: string, r?: RecallResult): RecallItem {
	const full = format === 'json' || matchType === 'id_fetch';
	const cut = !full && m.content.length > PREVIEW;
	const base: RecallItem = {
		memory_id: m.id,
		content: cut ? `${m.content.slice(0, PREVIEW)}…` : m.content,
		...(m.summary ? { summary: m.summary } : {}),
		...(cut ? { content_truncated: true, content_chars: m.content.length } : {}),
		tags: m.tags,
		importance: m.importance,
		final_score: round3(score),
		match_type: matchType,
		created_at: m.timestamp,
		updated_at: m.updated_at,
	};
	if (format !== 'detailed' && !full) return base;
	return {
		...base,
		type: m.type,
		confidence: m.confidence,
		...(m.last_accessed ? { last_accessed: m.last_accessed } : {}),
		metadata: m.metadata,
		...(m.t_valid ? { t_valid: m.t_valid } : {}),
		...(m.t_invalid ? { t_invalid: m.t_invalid } : {}),
		...(r && full ? { score_components: r.components } : {}),
	};
}

/** Keeps results while the response stays under AutoMem's ~80k-character budget (first always kept). */
function budget(out: RecallOut, format: string): RecallOut {
	let used = 2000;
	const kept: RecallItem[] = [];
	for (const it of out.results) {
		const cost = JSON.stringify(it).length * (format === 'json' ? 2 : 1.3);
		if (kept.length > 0 && used + cost > BUDGET) break;
		kept.push(it);
		used += cost;
	}
	const omitted = out.results.length - kept.length;
	return omitted
		? {
				...out,
				results: kept,
				count: kept.length,
				truncation: { applied: true, omitted_results: omitted, reason: 'response_char_budget' },
			}
		: out;
}

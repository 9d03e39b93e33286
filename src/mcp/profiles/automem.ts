/**
 * The AutoMem profile (mcp-automem, seeds 000 and 001): store_memory (2000-character hard limit,
 * supersede mode, batch), recall_memory (id fetch, tag enumeration or ranked, with AutoMem's
 * `format` text|items|detailed|json and its output shape), associate_memories, update_memory,
 * delete_memory and check_database_health, with AutoMem's argument names and messages.
 */
import { z } from 'zod';
import { MemoryError } from '../../core/errors';
import {
	AssociateInputSchema,
	AssociateOutputSchema,
	LIMITS,
	MemoryRefSchema,
	StoreItemShape,
	TagsSchema,
	UpdateFieldsSchema,
	type Memory,
	type RecallInput,
	type RecallResult,
} from '../../core/schemas';
import type { EngineApi } from '../../engine/types';
import { associateMemories as nativeAssociate } from '../tools/associate-memories';
import { defineTool, READ_ONLY } from '../tool-definition';
import type { Profile } from './profile';

/** AutoMem refuses content over this many characters. */
export const AUTOMEM_CONTENT_LIMIT = 2000;
const PREVIEW = 700;
const BUDGET = 80_000;

// ---------------------------------------------------------------- store_memory

const content = z
	.string()
	.min(1)
	.max(AUTOMEM_CONTENT_LIMIT, {
		message: `content exceeds AutoMem's hard limit of ${AUTOMEM_CONTENT_LIMIT} characters; split it into smaller, focused memories`,
	})
	.describe('The memory (150–300 chars ideal, 2000 max): context, reasoning and outcome');

const ITEM_FIELDS = [
	'tags',
	'importance',
	'embedding',
	'metadata',
	'timestamp',
	'type',
	'confidence',
	'id',
	't_valid',
	't_invalid',
	'updated_at',
	'last_accessed',
] as const;
const itemShape = {
	content,
	...Object.fromEntries(ITEM_FIELDS.map((k) => [k, StoreItemShape[k]])),
} as { content: typeof content } & Pick<typeof StoreItemShape, (typeof ITEM_FIELDS)[number]>;
const optionalItem = Object.fromEntries(
	Object.entries(itemShape).map(([k, v]) => [k, v.optional()]),
) as { [K in keyof typeof itemShape]: z.ZodOptional<(typeof itemShape)[K]> };

const StoreArgs = z
	.object({
		...optionalItem,
		supersedes_memory_id: MemoryRefSchema.optional().describe(
			'Single mode: an existing memory this one replaces (marked invalid, linked old → new)',
		),
		supersede_relation: z
			.enum(['INVALIDATED_BY', 'EVOLVED_INTO'])
			.optional()
			.describe('Link from old to new (INVALIDATED_BY)'),
		supersede_reason: z.string().max(2000).optional(),
		memories: z
			.array(z.object(itemShape))
			.min(1)
			.max(LIMITS.batch)
			.optional()
			.describe('Batch mode (XOR with content): up to 500 memories'),
	})
	.superRefine((v, ctx) => {
		if (v.memories === undefined && v.content === undefined)
			ctx.addIssue({
				code: 'custom',
				path: ['content'],
				message: 'content is required (or give memories[])',
			});
		if (v.memories !== undefined && v.content !== undefined)
			ctx.addIssue({
				code: 'custom',
				path: ['memories'],
				message: 'memories cannot be combined with top-level content',
			});
	});

const storeMemory = defineTool({
	name: 'store_memory',
	config: {
		title: 'Store Memory',
		description: `Store memory in one of two modes — single (top-level content) or batch (memories: [...], up to 500).

Single: content plus optional tags, importance, metadata, type, confidence, embedding, timestamp, t_valid, t_invalid. Supersede/correct: add supersedes_memory_id; the old memory is marked invalid (t_invalid = now) and linked old → new with INVALIDATED_BY (default) or EVOLVED_INTO. Batch: memories: [{ content, tags?, importance?, metadata?, timestamp?, type?, confidence? }, …] in one transaction.

Content: target 150–300 characters (one meaningful paragraph); hard limit 2000 (rejected). Format: "Brief title. Context and details. Impact/outcome."

When to use: after a decision (the reasoning and outcome), a discovered pattern, a bug fix (root cause and solution), a learned preference. Do not use it to correct a memory in place (update_memory) or to link memories (associate_memories). Near-duplicates of an existing memory return that memory's id instead of a copy.

Examples:
store_memory({ content: "Chose PostgreSQL over MongoDB for user service. Need ACID for transactions.", tags: ["architecture", "database"], importance: 0.9 })
store_memory({ content: "User prefers early returns over nested conditionals.", tags: ["code-style"], importance: 0.7 })
store_memory({ content: "User now prefers SQLite for small local tools.", supersedes_memory_id: "old-id", supersede_reason: "Correction from user" })`,
		inputSchema: StoreArgs,
		outputSchema: z.object({
			memory_id: z
				.string()
				.optional()
				.describe('Single mode: id of the stored memory (use for associations)'),
			memory_ids: z.array(z.string()).optional().describe('Batch mode: ids of the stored memories'),
			superseded_memory_id: z.string().optional(),
			association_created: z.boolean().optional(),
			stored: z.number().int().optional().describe('Batch mode: number stored'),
			message: z.string(),
		}),
		annotations: {
			readOnlyHint: false,
			idempotentHint: false,
			destructiveHint: false,
			openWorldHint: false,
		},
	},
	run: async (input, engine, ctx) => {
		const out = await engine.store(input, ctx);
		if (input.memories) {
			const ids = out.results.map((r) => r.duplicate_of ?? r.memory_id);
			return { stored: out.stored_count, memory_ids: ids, message: out.message };
		}
		const r = out.results[0];
		const dup =
			r.status === 'duplicate'
				? ` Near-duplicate of existing memory ${r.duplicate_of} (similarity ${r.similarity?.toFixed(2)}); not stored again.`
				: '';
		const superseded =
			input.supersedes_memory_id !== undefined && r.status === 'stored'
				? await engine.resolveId(input.supersedes_memory_id)
				: undefined;
		return {
			memory_id: r.duplicate_of ?? r.memory_id,
			message: `${out.message}${dup}`,
			...(superseded ? { superseded_memory_id: superseded, association_created: true } : {}),
		};
	},
	render: (out) => {
		if (out.memory_ids) {
			const ids =
				out.memory_ids.length > 10
					? `${out.memory_ids.slice(0, 10).join(', ')}, …(+${out.memory_ids.length - 10})`
					: out.memory_ids.join(', ');
			return `Stored ${out.stored} memories.${ids ? `\nIDs: ${ids}` : ''}\nMessage: ${out.message}`;
		}
		const sup = out.superseded_memory_id
			? `\nSuperseded memory ID: ${out.superseded_memory_id}\nAssociation created: yes`
			: '';
		return `Memory stored successfully!\n\nMemory ID: ${out.memory_id}${sup}\nMessage: ${out.message}`;
	},
});

// ---------------------------------------------------------------- recall_memory

const RecallArgs = z
	.object({
		memory_id: z
			.string()
			.min(1)
			.max(200)
			.optional()
			.describe('MODE id fetch: fetch this one memory; every other parameter is ignored'),
		exhaustive: z
			.boolean()
			.optional()
			.describe('MODE tag enumeration: with tags, list every match page by page (not ranked)'),
		query: z
			.string()
			.max(LIMITS.queryChars)
			.optional()
			.describe("Semantic search query (natural language): what you're looking for"),
		queries: z
			.array(z.string().min(1).max(LIMITS.queryChars))
			.max(LIMITS.queries)
			.optional()
			.describe('Several queries; results de-duplicated'),
		embedding: StoreItemShape.embedding.optional(),
		limit: z.number().int().min(1).max(200).optional().describe('Max memories (default 5)'),
		offset: z.number().int().min(0).optional(),
		time_query: z
			.string()
			.max(200)
			.optional()
			.describe('"today", "yesterday", "last week", "last 30 days"'),
		start: z.string().optional().describe('ISO lower bound'),
		end: z.string().optional().describe('ISO upper bound'),
		tags: TagsSchema.optional().describe(
			'Filter by tags; use the project name as first tag for scoping',
		),
		tag_mode: z.enum(['any', 'all']).optional(),
		tag_match: z.enum(['exact', 'prefix']).optional(),
		exclude_tags: TagsSchema.optional(),
		expand_entities: z.boolean().optional().describe('Multi-hop via entities in the seed results'),
		expand_relations: z
			.boolean()
			.optional()
			.describe('Follow graph relationships from seed results'),
		current_only: z
			.boolean()
			.optional()
			.describe('Ranked mode: only current memories (default true)'),
		state_mode: z
			.enum(['current', 'history'])
			.optional()
			.describe('history also returns superseded memories'),
		recency_bias: z.enum(['auto', 'on', 'off']).optional(),
		min_score: z.number().min(0).max(1).optional(),
		context_tags: TagsSchema.optional().describe('Tags to boost'),
		context_types: z.array(StoreItemShape.type.unwrap()).optional().describe('Types to boost'),
		priority_ids: z.array(z.string().min(1).max(200)).max(50).optional(),
		sort: z.enum(['score', 'time_desc', 'time_asc', 'updated_desc', 'updated_asc']).optional(),
		format: z
			.enum(['text', 'items', 'detailed', 'json'])
			.optional()
			.describe('text (default), items, detailed, json'),
	})
	.superRefine((v, ctx) => {
		if (v.exhaustive && !v.tags?.length)
			ctx.addIssue({
				code: 'custom',
				path: ['tags'],
				message: 'exhaustive: true requires non-empty tags',
			});
		if (v.exhaustive && v.tag_match === 'prefix')
			ctx.addIssue({
				code: 'custom',
				path: ['tag_match'],
				message: 'tag_match "prefix" is not allowed with exhaustive: true',
			});
		if (v.exhaustive && v.tag_mode === 'all')
			ctx.addIssue({
				code: 'custom',
				path: ['tag_mode'],
				message: 'tag_mode "all" is not allowed with exhaustive: true',
			});
	});
type RecallArgs = z.infer<typeof RecallArgs>;

const RecallItem = z.object({
	memory_id: z.string(),
	content: z.string(),
	summary: z.string().optional(),
	content_truncated: z.boolean().optional(),
	content_chars: z.number().int().optional(),
	tags: z.array(z.string()),
	importance: z.number(),
	final_score: z.number(),
	match_type: z.string(),
	created_at: z.string(),
	updated_at: z.string(),
	type: z.string().optional(),
	confidence: z.number().optional(),
	last_accessed: z.string().optional(),
	metadata: z.record(z.string(), z.unknown()).optional(),
	t_valid: z.string().optional(),
	t_invalid: z.string().optional(),
	score_components: z.record(z.string(), z.number()).optional(),
	relations: z
		.array(
			z.object({
				type: z.string(),
				memory_id: z.string(),
				strength: z.number(),
				direction: z.string(),
			}),
		)
		.optional(),
});
type RecallItem = z.infer<typeof RecallItem>;

const RecallOut = z.object({
	count: z.number().int(),
	mode: z.enum(['ranked', 'enumeration', 'id_fetch']),
	results: z.array(RecallItem),
	has_more: z.boolean().optional(),
	limit: z.number().int().optional(),
	offset: z.number().int().optional(),
	query: z.string().optional(),
	sort: z.string().optional(),
	state_mode: z.enum(['current', 'history']).optional(),
	truncation: z
		.object({ applied: z.boolean(), omitted_results: z.number().int(), reason: z.string() })
		.optional(),
});
type RecallOut = z.infer<typeof RecallOut>;

const recallMemory = defineTool({
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
	run: (input, engine, ctx) =>
		input.memory_id
			? fetchOne(engine, input, ctx.actor)
			: rankedOrEnumerated(engine, input, ctx.actor),
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

async function rankedOrEnumerated(
	engine: EngineApi,
	a: RecallArgs,
	actor?: string,
): Promise<RecallOut> {
	const enumerate = a.exhaustive === true;
	const limit = a.limit ?? 5;
	const out = await engine.recall(enumerate ? enumeration(a, limit) : ranked(a, limit), { actor });
	const format = a.format ?? 'text';
	const items = out.results.map((r) =>
		item(
			r.memory,
			r.score,
			r.match === 'direct' ? 'hybrid' : r.via?.includes(':') ? 'entity' : 'relation',
			format,
			r,
		),
	);
	const mode = enumerate ? 'enumeration' : 'ranked';
	const base: RecallOut = {
		count: items.length,
		mode,
		results: items,
		...(enumerate
			? { has_more: out.has_more, limit, offset: a.offset ?? 0 }
			: { query: a.query, sort: a.sort ?? 'score', state_mode: stateMode(a) }),
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
	const weights =
		a.recency_bias === 'off'
			? { recency: 0 }
			: a.recency_bias === 'on'
				? { recency: 2 }
				: undefined;
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

function item(
	m: Memory,
	score: number,
	matchType: string,
	format: string,
	r?: RecallResult,
): RecallItem {
	const full = format === 'json' || matchType === 'id_fetch';
	const cut = !full && m.content.length > PREVIEW;
	const base: RecallItem = {
		memory_id: m.id,
		content: cut ? `${m.content.slice(0, PREVIEW)}…` : m.content,
		...(m.summary ? { summary: m.summary } : {}),
		...(cut ? { content_truncated: true, content_chars: m.content.length } : {}),
		tags: m.tags,
		importance: m.importance,
		final_score: Math.round(score * 1000) / 1000,
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

function renderRecall(out: RecallOut, input: RecallArgs): string | string[] {
	const format = input.format ?? 'text';
	if (format === 'json') return JSON.stringify(out, null, 2);
	if (out.results.length === 0) return 'No memories found matching your query.';
	const trailer = recallTrailer(out);
	if (format === 'items')
		return [
			...out.results.map((r) => `[${r.memory_id}] ${r.content}`),
			...(trailer ? [trailer] : []),
		];
	const blocks = out.results.map((r, i) =>
		format === 'detailed' ? detailedBlock(r) : textBlock(r, i),
	);
	const page =
		out.mode === 'enumeration'
			? ` (enumeration page: offset ${out.offset}, limit ${out.limit}${out.has_more ? ' — more pages available' : ''})`
			: '';
	return `Found ${out.results.length} memories${page}:\n\n${blocks.join('\n\n')}${trailer ? `\n\n${trailer}` : ''}`;
}

function recallTrailer(out: RecallOut): string {
	const parts: string[] = [];
	if (out.truncation)
		parts.push(`Response budget: ${out.truncation.omitted_results} results omitted.`);
	if (out.results.some((r) => r.content_truncated))
		parts.push(
			'Some content previews truncated — fetch full records with recall_memory({ memory_id: "<id>" }).',
		);
	return parts.length ? `[${parts.join(' ')}]` : '';
}

function textBlock(r: RecallItem, i: number): string {
	const tags = r.tags.length ? ` [${r.tags.join(', ')}]` : '';
	return `${i + 1}. ${r.content}${tags} (importance: ${r.importance}) score=${r.final_score.toFixed(3)} [${r.match_type}]\n   ID: ${r.memory_id}\n   Created: ${r.created_at}  Updated: ${r.updated_at}`;
}

function detailedBlock(r: RecallItem): string {
	const lines = [
		r.content,
		`  ID: ${r.memory_id}`,
		`  Type: ${r.type}`,
		`  Created: ${r.created_at}`,
		`  Updated: ${r.updated_at}`,
	];
	if (r.last_accessed) lines.push(`  Accessed: ${r.last_accessed}`);
	lines.push(
		`  Importance: ${r.importance.toFixed(3)}`,
		`  Confidence: ${(r.confidence ?? 0).toFixed(3)}`,
	);
	if (r.tags.length) lines.push(`  Tags: ${r.tags.join(', ')}`);
	lines.push(`  Score: ${r.final_score.toFixed(3)}`, `  Match: ${r.match_type}`);
	return lines.join('\n');
}

// ---------------------------------------------------------------- associate, update, delete, health

const associateMemories = defineTool({
	...nativeAssociate,
	config: {
		...nativeAssociate.config,
		title: 'Associate Memories',
		description: `Create typed relationships between memories. This builds a knowledge graph that improves recall by surfacing related context. Supports single-pair mode or batch mode with associations[] (max 500). Idempotent: the same (memory1_id, memory2_id, type) updates the existing link.

When to use: after storing a new memory, to link it to related existing memories; when a bug fix relates to an original feature implementation; when a new decision updates or invalidates a previous one; to connect patterns with their concrete examples. Do not use it to replace an outdated memory (store_memory with supersedes_memory_id marks the old one invalid and links both in one step).

Authorable relationship types:
RELATES_TO: general relationship (default) · LEADS_TO: causal (A caused B) · OCCURRED_BEFORE: temporal ordering · PREFERS_OVER: chosen alternative · EXEMPLIFIES: concrete example of a pattern · CONTRADICTS: conflicts with another memory · REINFORCES: strengthens another memory's validity · INVALIDATED_BY: superseded by another memory · EVOLVED_INTO: updated version of a concept · DERIVED_FROM: implementation of a decision/pattern · PART_OF: component of a larger effort.
Relation-specific fields: reason (PREFERS_OVER, CONTRADICTS, INVALIDATED_BY, EVOLVED_INTO), context (PREFERS_OVER, PART_OF), role (PART_OF), confidence (EXEMPLIFIES, EVOLVED_INTO, DERIVED_FROM), resolution (CONTRADICTS), observations (REINFORCES), pattern_type (EXEMPLIFIES), transformation (DERIVED_FROM), timestamp (INVALIDATED_BY).
SIMILAR_TO, PRECEDED_BY, EXPLAINS, SHARES_THEME, PARALLEL_CONTEXT and DISCOVERED may appear in recall results but are not valid inputs here.

Examples:
associate_memories({ memory1_id: "bug-fix-123", memory2_id: "feature-456", type: "RELATES_TO", strength: 0.9 })
associate_memories({ memory1_id: "new-decision", memory2_id: "old-decision", type: "EVOLVED_INTO", strength: 0.8 })
associate_memories({ associations: [{ memory1_id: "a", memory2_id: "b", type: "RELATES_TO", strength: 0.8 }] })`,
		inputSchema: AssociateInputSchema,
		outputSchema: AssociateOutputSchema,
	},
	render: (out) => {
		const batch =
			out.succeeded.length + out.failed.length > 1
				? `\n\nCreated: ${out.created_count + out.updated_count}\nFailed: ${out.failed_count}`
				: '';
		return `${out.success ? 'Association created successfully!' : 'Association completed with failures.'}\n\nMessage: ${out.message}${batch}`;
	},
});

const UPDATE_FIELDS = [
	'memory_id',
	'content',
	'tags',
	'importance',
	'metadata',
	'timestamp',
	't_valid',
	't_invalid',
	'updated_at',
	'last_accessed',
	'type',
	'confidence',
] as const;

const updateMemory = defineTool({
	name: 'update_memory',
	config: {
		title: 'Update Memory',
		description: `Update an existing memory's content, tags, importance, or metadata. Use this to correct or enhance memories rather than storing duplicates.

When to use: to correct inaccurate information; to add tags that were forgotten (tags replaces the list, so send the full list); to adjust importance based on new understanding; to add metadata after the fact (merged with existing). Do not use it when a fact changed over time: store the new one with store_memory's supersedes_memory_id so the old one stays as history. To remove a memory, use delete_memory.

Examples:
update_memory({ memory_id: "8f3a2c1e-5b7d-4e9a-a1c3-2d4f6b8e0a91", importance: 0.95 }) // Increase importance
update_memory({ memory_id: "8f3a2c1e-5b7d-4e9a-a1c3-2d4f6b8e0a91", tags: ["project-x", "critical", "auth"] }) // Add tags
update_memory({ memory_id: "8f3a2c1e-5b7d-4e9a-a1c3-2d4f6b8e0a91", content: "Updated: PostgreSQL chosen for ACID + team expertise" })`,
		inputSchema: UpdateFieldsSchema.pick(
			Object.fromEntries(UPDATE_FIELDS.map((k) => [k, true])) as {
				[K in (typeof UPDATE_FIELDS)[number]]: true;
			},
		),
		outputSchema: z.object({ memory_id: z.string(), message: z.string() }),
		annotations: {
			readOnlyHint: false,
			idempotentHint: true,
			destructiveHint: false,
			openWorldHint: false,
		},
	},
	run: async (input, engine, ctx) => {
		const out = await engine.update(input, ctx);
		return { memory_id: out.memory_id, message: `Memory ${out.memory_id} updated successfully!` };
	},
	render: (out) => out.message,
});

const deleteMemory = defineTool({
	name: 'delete_memory',
	config: {
		title: 'Delete Memory',
		description: `Delete a memory by ID (memory_id) or bulk-delete by tag (tags). Use sparingly — consider update_memory instead.

Mode 1 — Single: memory_id deletes one memory, its embedding and its links.
Mode 2 — Bulk by tag: tags deletes ALL memories carrying ANY of the tags (exact, case-insensitive). There is no dry run; check first with recall_memory({ tags, exhaustive: true }).

When to use: a memory is wrong and cannot be corrected, or is a duplicate (mode 1); cleanup of test data or a deprecated tag namespace (mode 2). Do not use it for outdated facts: supersede them with store_memory's supersedes_memory_id.

Examples: delete_memory({ memory_id: "abc123" }) · delete_memory({ tags: ["benchmark-test"] })`,
		inputSchema: z
			.object({
				memory_id: MemoryRefSchema.optional().describe('Single-delete mode (XOR with tags)'),
				tags: TagsSchema.min(1)
					.optional()
					.describe('Bulk-delete mode (XOR with memory_id): every memory with any of these tags'),
			})
			.superRefine((v, ctx) => {
				if ((v.memory_id === undefined) === (v.tags === undefined))
					ctx.addIssue({
						code: 'custom',
						path: ['memory_id'],
						message: 'give exactly one of memory_id or tags',
					});
			}),
		outputSchema: z.object({
			memory_id: z.string().optional(),
			deleted_count: z.number().int().optional(),
			tags: z.array(z.string()).optional(),
			message: z.string(),
		}),
		annotations: {
			readOnlyHint: false,
			idempotentHint: false,
			destructiveHint: true,
			openWorldHint: false,
		},
	},
	run: async (input, engine, ctx) => {
		if (input.tags) {
			const out = await engine.delete({ tags: input.tags, tag_mode: 'any' }, ctx);
			const n = out.deleted_count;
			return {
				deleted_count: n,
				tags: input.tags,
				message: `Bulk delete complete: removed ${n} memor${n === 1 ? 'y' : 'ies'} matching tag(s) ${input.tags.join(', ')}.`,
			};
		}
		const out = await engine.delete({ memory_id: input.memory_id! }, ctx);
		if (out.deleted_count === 0)
			throw new MemoryError(
				'not_found',
				`memory_id: no memory with id ${JSON.stringify(input.memory_id)}`,
			);
		return {
			memory_id: out.deleted_ids[0],
			message: `Memory ${out.deleted_ids[0]} deleted successfully!`,
		};
	},
	render: (out) => out.message,
});

const checkDatabaseHealth = defineTool({
	name: 'check_database_health',
	config: {
		title: 'Check Database Health',
		description: `Check the health of the memory service and its stores (IndexedDB records, vector and keyword indexes, embedding model), with counts.

When to use: before a session to verify memory is available; when memory operations fail unexpectedly; to check storage statistics. Do not use it to search memories (recall_memory).

Example: check_database_health({})`,
		inputSchema: z.object({}),
		outputSchema: z.object({
			status: z.enum(['healthy', 'degraded', 'error']),
			backend: z.string(),
			statistics: z.record(z.string(), z.unknown()),
			error: z.string().optional(),
		}),
		annotations: READ_ONLY,
	},
	run: async (_input, engine) => {
		const h = await engine.health();
		return {
			status: h.status,
			backend: 'engram',
			statistics: {
				memory_count: h.database.memories,
				vector_count: h.vector_index.vectors,
				association_count: h.database.associations,
				entity_count: h.database.entities,
				vector_dimensions: h.embedder.dims,
				embedding_model: h.embedder.model,
				keyword_index_documents: h.lexical_index.documents,
				sync_status: h.vector_index.vectors === h.database.memories ? 'in_sync' : 'vectors_pending',
				storage: h.storage,
				timestamp: new Date().toISOString(),
			},
			...(h.issues.length ? { error: h.issues.join('; ') } : {}),
		};
	},
	render: (out) => {
		const s = out.statistics;
		const emoji = out.status === 'healthy' ? '✅' : out.status === 'degraded' ? '⚠️' : '❌';
		return `${emoji} Memory Health Status\n\nStatus: ${out.status}\nBackend: ${out.backend}\nMemory count: ${s.memory_count}\nVector count: ${s.vector_count}\nSync status: ${s.sync_status}\nTimestamp: ${s.timestamp}${out.error ? `\nError: ${out.error}` : ''}`;
	},
});

export const automemProfile: Profile = {
	name: 'automem',
	instructions:
		"AutoMem-compatible long-term memory (graph + vector), kept in the user's browser by Engram. Use recall_memory to retrieve context (session start, before decisions, when debugging), store_memory to persist decisions, patterns, preferences and fixes, and associate_memories to link related memories. update_memory edits a memory in place, delete_memory removes one by id or bulk-deletes by tag, check_database_health verifies the stores.",
	tools: [
		storeMemory,
		recallMemory,
		associateMemories,
		updateMemory,
		deleteMemory,
		checkDatabaseHealth,
	],
};

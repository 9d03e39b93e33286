/** recall_memory's arguments and results, in AutoMem's names and shapes. */
import { z } from 'zod';
import { LIMITS, StoreItemShape, TagsSchema } from '../../../core/schemas';

/** recall_memory's arguments: the mode follows from which are given. */
export const RecallArgs = z
	.object({
		memory_id: z.string().min(1).max(200).optional().describe('MODE id fetch: fetch this one memory; every other parameter is ignored'),
		exhaustive: z.boolean().optional().describe('MODE tag enumeration: with tags, list every match page by page (not ranked)'),
		query: z.string().max(LIMITS.queryChars).optional().describe("Semantic search query (natural language): what you're looking for"),
		queries: z.array(z.string().min(1).max(LIMITS.queryChars)).max(LIMITS.queries).optional().describe('Several queries; results de-duplicated'),
		embedding: StoreItemShape.embedding.optional(),
		limit: z.number().int().min(1).max(200).optional().describe('Max memories (default 5)'),
		offset: z.number().int().min(0).optional(),
		time_query: z.string().max(200).optional().describe('"today", "yesterday", "last week", "last 30 days"'),
		start: z.string().optional().describe('ISO lower bound'),
		end: z.string().optional().describe('ISO upper bound'),
		tags: TagsSchema.optional().describe('Filter by tags; use the project name as first tag for scoping'),
		tag_mode: z.enum(['any', 'all']).optional(),
		tag_match: z.enum(['exact', 'prefix']).optional(),
		exclude_tags: TagsSchema.optional(),
		expand_entities: z.boolean().optional().describe('Multi-hop via entities in the seed results'),
		expand_relations: z.boolean().optional().describe('Follow graph relationships from seed results'),
		current_only: z.boolean().optional().describe('Ranked mode: only current memories (default true)'),
		state_mode: z.enum(['current', 'history']).optional().describe('history also returns superseded memories'),
		recency_bias: z.enum(['auto', 'on', 'off']).optional(),
		min_score: z.number().min(0).max(1).optional(),
		context_tags: TagsSchema.optional().describe('Tags to boost'),
		context_types: z.array(StoreItemShape.type.unwrap()).optional().describe('Types to boost'),
		priority_ids: z.array(z.string().min(1).max(200)).max(50).optional(),
		sort: z.enum(['score', 'time_desc', 'time_asc', 'updated_desc', 'updated_asc']).optional(),
		format: z.enum(['text', 'items', 'detailed', 'json']).optional().describe('text (default), items, detailed, json'),
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
export type RecallArgs = z.infer<typeof RecallArgs>;

/** One memory of a recall result, in AutoMem's field names. */
export const RecallItem = z.object({
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
export type RecallItem = z.infer<typeof RecallItem>;

/** recall_memory's result. */
export const RecallOut = z.object({
	count: z.number().int(),
	mode: z.enum(['ranked', 'enumeration', 'id_fetch']),
	results: z.array(RecallItem),
	has_more: z.boolean().optional(),
	limit: z.number().int().optional(),
	offset: z.number().int().optional(),
	query: z.string().optional(),
	sort: z.string().optional(),
	state_mode: z.enum(['current', 'history']).optional(),
	truncation: z.object({ applied: z.boolean(), omitted_results: z.number().int(), reason: z.string() }).optional(),
});
export type RecallOut = z.infer<typeof RecallOut>;

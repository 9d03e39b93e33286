/**
 * recall_memory: its weights, input, per-result score components and output.
 */
import { z } from 'zod';
import { MemorySchema } from './memory';
import { EmbeddingSchema, IsoDateSchema, LIMITS, MemoryRefSchema, MemoryTypeSchema, startBeforeEnd, TagsSchema, wellFormedInput } from './primitives';

// ---------------------------------------------------------------- recall

/** Ranking weights; every recall result reports each component so a person can see why. */
export const RecallWeightsSchema = z
	.object({
		lexical: z.number().min(0).max(10),
		semantic: z.number().min(0).max(10),
		recency: z.number().min(0).max(10),
		importance: z.number().min(0).max(10),
		confidence: z.number().min(0).max(10),
		access: z.number().min(0).max(10),
		tags: z.number().min(0).max(10),
		graph: z.number().min(0).max(10),
		neighbor: z.number().min(0).max(10),
	})
	.partial()
	.describe('Override default ranking weights');
export type RecallWeights = z.infer<typeof RecallWeightsSchema>;

export const RecallInputSchema = wellFormedInput(
	z
		.object({
			query: z.string().max(LIMITS.queryChars).optional().describe('What to look for (natural language)'),
			queries: z.array(z.string().min(1).max(LIMITS.queryChars)).max(LIMITS.queries).optional().describe('Several phrasings; results merged'),
			memory_id: MemoryRefSchema.optional().describe('Find memories like this one'),
			embedding: EmbeddingSchema.optional(),
			limit: z.number().int().min(1).max(LIMITS.recallLimit).optional().describe('Max results (10)'),
			offset: z.number().int().min(0).optional(),
			time_query: z.string().max(200).optional().describe('Natural time range: "last week", "yesterday", "in March 2024", "last 30 days"'),
			start: IsoDateSchema.optional().describe('Only memories at or after this time'),
			end: IsoDateSchema.optional().describe('Only memories before this time (a date alone includes that day)'),
			tags: TagsSchema.optional().describe('Filter by tags'),
			tag_mode: z.enum(['any', 'all']).optional(),
			tag_match: z.enum(['exact', 'prefix']).optional(),
			exclude_tags: TagsSchema.optional(),
			types: z.array(MemoryTypeSchema).optional(),
			scope: z.string().min(1).max(200).optional().describe('Only this scope'),
			source: z.string().max(200).optional(),
			current_only: z.boolean().optional().describe('Skip invalidated memories; follow EVOLVED_INTO/INVALIDATED_BY to the newest'),
			min_score: z.number().min(0).optional(),
			sort: z.enum(['score', 'time_desc', 'time_asc', 'updated_desc', 'updated_asc']).optional(),
			weights: RecallWeightsSchema.optional(),
			fusion: z.enum(['score', 'rrf']).optional().describe('How lexical and semantic relevance combine: normalised scores (default) or reciprocal rank'),
			recency_half_life_days: z.number().positive().max(36500).optional(),
			expand_relations: z.boolean().optional().describe('Let linked memories surface (true)'),
			expand_entities: z.boolean().optional().describe('Let memories sharing entities surface (true)'),
			context_tags: TagsSchema.optional().describe('Boost (not filter) memories with these tags'),
			context_types: z.array(MemoryTypeSchema).optional().describe('Boost these types'),
			priority_ids: z.array(MemoryRefSchema).max(50).optional().describe('Boost these memories'),
			max_content_chars: z.number().int().min(0).max(LIMITS.contentChars).optional().describe('Truncate each content to this many chars (2000)'),
		})
		.superRefine(startBeforeEnd),
);
export type RecallInput = z.infer<typeof RecallInputSchema>;

export const ScoreComponentsSchema = z.object({
	lexical: z.number(),
	semantic: z.number(),
	recency: z.number(),
	importance: z.number(),
	confidence: z.number(),
	access: z.number(),
	tags: z.number(),
	graph: z.number(),
	neighbor: z.number(),
});
export type ScoreComponents = z.infer<typeof ScoreComponentsSchema>;

export const RecallResultSchema = z.object({
	memory: MemorySchema,
	score: z.number(),
	components: ScoreComponentsSchema,
	match: z.enum(['direct', 'expanded']).describe('direct hit, or surfaced through a link/entity'),
	via: z.string().optional().describe('For expanded or weak hits: the memory or entity it came through'),
	matched_terms: z.array(z.string()),
	content_truncated: z.boolean().optional(),
	newer_than: z
		.array(z.string())
		.optional()
		.describe('Older results this one may update (another number, name or negation of the same thing): it was ranked above them'),
	strength: z
		.enum(['strong', 'weak'])
		.optional()
		.describe('strong: its words or a clearly close meaning matched; weak: faint meaning, a link or priors only'),
});
export type RecallResult = z.infer<typeof RecallResultSchema>;

export const RecallOutputSchema = z.object({
	results: z.array(RecallResultSchema),
	count: z.number().int(),
	matched: z.number().int().optional().describe('Strong matches over all pages (count is this page)'),
	has_more: z.boolean(),
	next_offset: z.number().int().optional(),
	time_window: z.object({ start: z.string().optional(), end: z.string().optional() }).optional(),
	lexical_only: z.boolean().optional().describe('True when no vector could be made for the query'),
});
export type RecallOutput = z.infer<typeof RecallOutputSchema>;

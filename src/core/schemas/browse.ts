/**
 * Browsing without a query: timeline, find by entity, stats, trending and health.
 */
import { z } from 'zod';
import { EntitySchema } from './memory';
import { IsoDateSchema, LIMITS, MemoryTypeSchema, startBeforeEnd, TagsSchema, wellFormedInput } from './primitives';

// ---------------------------------------------------------------- browsing

/** A compact memory for lists (timeline, entity pages). */
export const MemoryBriefSchema = z.object({
	id: z.string(),
	seq: z.number().int(),
	content: z.string(),
	summary: z.string().optional(),
	type: MemoryTypeSchema,
	tags: z.array(z.string()),
	scope: z.string(),
	source: z.string().optional(),
	importance: z.number(),
	timestamp: z.string(),
	t_invalid: z.string().optional(),
});
export type MemoryBrief = z.infer<typeof MemoryBriefSchema>;

export const TimelineInputSchema = wellFormedInput(
	z
		.object({
			scope: z.string().min(1).max(200).optional(),
			start: IsoDateSchema.optional(),
			end: IsoDateSchema.optional().describe('Only memories before this time (a date alone includes that day)'),
			time_query: z.string().max(200).optional().describe('e.g. "last week"'),
			types: z.array(MemoryTypeSchema).optional(),
			tags: TagsSchema.optional(),
			tag_mode: z.enum(['any', 'all']).optional().describe('Any (default) or all of tags'),
			exclude_tags: TagsSchema.optional().describe('Skip memories with any of these tags'),
			order: z.enum(['asc', 'desc']).optional().describe('Time order (desc)'),
			limit: z.number().int().min(1).max(200).optional().describe('Max memories (20)'),
			offset: z.number().int().min(0).optional(),
			max_content_chars: z.number().int().min(0).max(LIMITS.contentChars).optional(),
		})
		.superRefine(startBeforeEnd),
);
export type TimelineInput = z.infer<typeof TimelineInputSchema>;
export const TimelineOutputSchema = z.object({
	memories: z.array(MemoryBriefSchema),
	count: z.number().int(),
	total: z.number().int(),
	has_more: z.boolean(),
	next_offset: z.number().int().optional(),
});
export type TimelineOutput = z.infer<typeof TimelineOutputSchema>;

export const FindByEntityInputSchema = wellFormedInput(
	z
		.object({
			entity: z.string().min(1).max(LIMITS.entityNameChars).describe('Entity name or id'),
			entity_type: z.string().max(50).optional(),
			scope: z.string().min(1).max(200).optional(),
			start: IsoDateSchema.optional().describe('Only memories from this time'),
			end: IsoDateSchema.optional().describe('Only memories before this time (a date alone includes that day)'),
			time_query: z.string().max(200).optional().describe('e.g. "last week"'),
			limit: z.number().int().min(1).max(200).optional(),
			offset: z.number().int().min(0).optional(),
			max_content_chars: z.number().int().min(0).max(LIMITS.contentChars).optional(),
		})
		.superRefine(startBeforeEnd),
);
export type FindByEntityInput = z.infer<typeof FindByEntityInputSchema>;
export const FindByEntityOutputSchema = z.object({
	entity: EntitySchema.nullable(),
	matches: z.array(EntitySchema).describe('Other entities with a similar name'),
	memories: z.array(MemoryBriefSchema),
	count: z.number().int(),
	has_more: z.boolean(),
	next_offset: z.number().int().optional(),
});
export type FindByEntityOutput = z.infer<typeof FindByEntityOutputSchema>;

export const StatsInputSchema = wellFormedInput(
	z.object({
		scope: z.string().min(1).max(200).optional(),
		tags: TagsSchema.optional(),
		source: z.string().max(200).optional(),
	}),
);
export type StatsInput = z.infer<typeof StatsInputSchema>;
export const StatsOutputSchema = z.object({
	total_memories: z.number().int(),
	current_memories: z.number().int(),
	by_type: z.record(z.string(), z.number().int()),
	by_scope: z.record(z.string(), z.number().int()),
	by_source: z.record(z.string(), z.number().int()),
	total_associations: z.number().int(),
	by_association_type: z.record(z.string(), z.number().int()),
	total_entities: z.number().int(),
	top_entities: z.array(z.object({ id: z.string(), name: z.string(), type: z.string(), count: z.number().int() })),
	top_tags: z.array(z.object({ tag: z.string(), count: z.number().int() })),
	oldest: z.string().optional(),
	newest: z.string().optional(),
	embedding_models: z.array(z.object({ model: z.string(), count: z.number().int() })),
	active_model: z.string(),
	/** Sync across devices (docs/SYNC.md): on/off, state, when last in step with the server, changes waiting. */
	sync: z
		.object({
			on: z.boolean(),
			status: z.enum(['synced', 'syncing', 'offline', 'paused', 'error', 'off']),
			last_synced: z.string().optional(),
			pending: z.number().int(),
			error: z.string().optional(),
		})
		.optional(),
});
export type StatsOutput = z.infer<typeof StatsOutputSchema>;

export const TrendingInputSchema = wellFormedInput(
	z.object({
		days: z.number().min(1).max(3650).optional().describe('Window in days (30)'),
		limit: z.number().int().min(1).max(100).optional().describe('Max labels (10)'),
		scope: z.string().min(1).max(200).optional(),
	}),
);
export type TrendingInput = z.infer<typeof TrendingInputSchema>;
export const TrendingOutputSchema = z.object({
	labels: z.array(
		z.object({
			label: z.string(),
			count: z.number().int(),
			score: z.number().describe('count × 0.9^days since last seen'),
			last_seen: z.string(),
		}),
	),
});
export type TrendingOutput = z.infer<typeof TrendingOutputSchema>;

export const HealthOutputSchema = z.object({
	status: z.enum(['healthy', 'degraded']),
	database: z.object({ name: z.string(), version: z.number(), memories: z.number().int(), associations: z.number().int(), entities: z.number().int() }),
	vector_index: z.object({ model: z.string(), vectors: z.number().int(), ready: z.boolean() }),
	lexical_index: z.object({ documents: z.number().int(), ready: z.boolean() }),
	/** How the in-memory index was made at open, and where its persisted snapshot is kept. */
	search_index: z.object({ origin: z.enum(['snapshot', 'rebuilt']), snapshot: z.enum(['file', 'indexeddb']).optional() }).optional(),
	embedder: z.object({ model: z.string(), dims: z.number().int(), ready: z.boolean() }),
	storage: z.object({ usage: z.number().optional(), quota: z.number().optional(), persisted: z.boolean().optional() }),
	issues: z.array(z.string()),
});
export type HealthOutput = z.infer<typeof HealthOutputSchema>;

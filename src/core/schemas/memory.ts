/**
 * The data model (memory, association, entity rows as every read returns them) and the
 * single-memory operations: store, get, update, delete.
 */
import { z } from 'zod';
import {
	AssociationTypeSchema,
	EmbeddingSchema,
	EntityRefSchema,
	ImportanceInputSchema,
	IsoDateSchema,
	LIMITS,
	NewMemoryIdSchema,
	MemoryRefSchema,
	MemoryTypeSchema,
	MetadataSchema,
	BLANK,
	nonBlank,
	TagsSchema,
	UnitSchema,
	wellFormedInput,
} from './primitives';

/** A stored memory, as every read returns it. Dates are ISO 8601 UTC strings. */
export const MemorySchema = z.object({
	id: z.string(),
	seq: z.number().int(),
	content: z.string(),
	summary: z.string().optional(),
	type: MemoryTypeSchema,
	tags: z.array(z.string()),
	source: z.string().optional(),
	scope: z.string(),
	importance: z.number(),
	confidence: z.number(),
	metadata: z.record(z.string(), z.unknown()),
	entities: z.array(EntityRefSchema),
	timestamp: z.string(),
	updated_at: z.string(),
	last_accessed: z.string().optional(),
	access_count: z.number().int(),
	t_valid: z.string().optional(),
	t_invalid: z.string().optional(),
	embedding_tables: z.array(z.string()).describe('Models holding a vector for this memory'),
});
export type Memory = z.infer<typeof MemorySchema>;

/** Relation-specific association fields (seed 000). */
export const AssociationFieldsShape = {
	reason: z.string().max(2000).optional().describe('For PREFERS_OVER, CONTRADICTS, INVALIDATED_BY, EVOLVED_INTO'),
	context: z.string().max(2000).optional().describe('For PREFERS_OVER, PART_OF'),
	role: z.string().max(200).optional().describe('For PART_OF'),
	confidence: UnitSchema.optional().describe('For EXEMPLIFIES, EVOLVED_INTO, DERIVED_FROM'),
	resolution: z.string().max(2000).optional().describe('For CONTRADICTS'),
	observations: z.array(z.string().max(2000)).max(50).optional().describe('For REINFORCES'),
	pattern_type: z.string().max(200).optional().describe('For EXEMPLIFIES'),
	transformation: z.string().max(2000).optional().describe('For DERIVED_FROM'),
	timestamp: IsoDateSchema.optional().describe('For INVALIDATED_BY'),
};

/** A stored association. `from`/`to` are memory ids. */
export const AssociationSchema = z.object({
	from: z.string(),
	to: z.string(),
	type: AssociationTypeSchema,
	strength: z.number(),
	...AssociationFieldsShape,
	timestamp: z.string().optional(),
	created_at: z.string(),
	updated_at: z.string().optional(),
});
export type Association = z.infer<typeof AssociationSchema>;

/** A stored entity: normalised name + type, with how many memories mention it. */
export const EntitySchema = z.object({
	id: z.string().describe('Stable entity id, `type:normalised-name`'),
	name: z.string(),
	type: z.string(),
	aliases: z.array(z.string()),
	memory_count: z.number().int(),
	first_seen: z.string(),
	last_seen: z.string(),
});
export type Entity = z.infer<typeof EntitySchema>;

/** Who made a call: shown in a memory's history and the activity log. */
export const CallContextSchema = z.object({
	actor: z.string().max(200).optional(),
});
export type CallContext = z.infer<typeof CallContextSchema>;

// ---------------------------------------------------------------- store

/** One memory to store. */
export const StoreItemShape = {
	content: z
		.string()
		.min(1, BLANK)
		.max(LIMITS.contentChars)
		.refine(nonBlank, { message: 'must not be blank' })
		.describe(`The memory text (≤ ${LIMITS.contentChars} chars)`),
	summary: z.string().max(LIMITS.summaryChars).optional().describe('One-line summary'),
	type: MemoryTypeSchema.optional(),
	tags: TagsSchema.optional().describe('Tags (labels)'),
	source: z.string().max(200).optional().describe('Where it came from (agent, app, file)'),
	scope: z.string().min(1).max(200).optional().describe('Project or namespace; default "default"'),
	importance: ImportanceInputSchema.optional(),
	confidence: UnitSchema.optional().describe('0–1'),
	metadata: MetadataSchema.optional(),
	entities: z.array(EntityRefSchema).max(LIMITS.entities).optional().describe('Entities it mentions; extracted automatically when omitted'),
	timestamp: IsoDateSchema.optional().describe('When it happened (default now)'),
	t_valid: IsoDateSchema.optional().describe('Valid from'),
	t_invalid: IsoDateSchema.optional().describe('Valid until / superseded at'),
	updated_at: IsoDateSchema.optional(),
	last_accessed: IsoDateSchema.optional(),
	id: NewMemoryIdSchema.optional().describe('Your own id (default: a new UUID)'),
	embedding: EmbeddingSchema.optional(),
	supersedes_memory_id: MemoryRefSchema.optional().describe('An older memory this one replaces (marked invalid and linked)'),
	supersede_relation: z.enum(['INVALIDATED_BY', 'EVOLVED_INTO']).optional(),
	supersede_reason: z.string().max(2000).optional(),
	force: z.boolean().optional().describe('Store even if a near-duplicate exists'),
};
export const StoreItemSchema = z.object(StoreItemShape);
export type StoreItem = z.infer<typeof StoreItemSchema>;

/** A client's idempotency key for a write (store, update, delete, associate, unlink). */
export const RequestIdSchema = z
	.string()
	.min(1)
	.max(200)
	.describe(
		'Idempotency key, e.g. a UUID per intended write: a resend with the same request_id and arguments is not applied again and returns the original result (replayed: true); reuse with other arguments is a conflict',
	);
/** Set on the output of a write whose request_id was applied before: nothing was written again. */
export const ReplayedSchema = z.literal(true).optional().describe('True: this request_id was applied before; the original result, nothing written again');

const storeSingleShape = Object.fromEntries(Object.entries(StoreItemShape).map(([k, v]) => [k, v.optional()])) as {
	[K in keyof typeof StoreItemShape]: z.ZodOptional<(typeof StoreItemShape)[K]>;
};

/** store_memory input: one memory at top level, or `memories[]` (≤ 500), never both. */
export const StoreInputSchema = wellFormedInput(
	z
		.object({
			...storeSingleShape,
			memories: z
				.array(StoreItemSchema)
				.min(1)
				.max(LIMITS.batch)
				.optional()
				.describe(`Batch mode: up to ${LIMITS.batch} memories, stored in one transaction`),
			request_id: RequestIdSchema.optional(),
		})
		.superRefine((v, ctx) => {
			if (v.memories === undefined && v.content === undefined)
				ctx.addIssue({ code: 'custom', path: ['content'], message: 'is required (or give memories[])' });
			if (v.memories !== undefined && v.content !== undefined)
				ctx.addIssue({
					code: 'custom',
					path: ['memories'],
					message: 'cannot be combined with top-level content',
				});
		}),
);
export type StoreInput = z.infer<typeof StoreInputSchema>;

export const StoreResultSchema = z.object({
	index: z.number().int(),
	memory_id: z.string(),
	seq: z.number().int(),
	status: z.enum(['stored', 'duplicate']),
	duplicate_of: z.string().optional(),
	/** Stored although it nearly repeats this memory: the caller gave an id, so wants a distinct record. */
	near_duplicate_of: z.string().optional(),
	similarity: z.number().optional(),
	entities: z.array(EntityRefSchema).optional(),
	possible_update_of: z
		.array(z.string())
		.optional()
		.describe('Similar memories of the scope it may replace (another number, name or negation); supersede them if so'),
	merged_tags: z.array(z.string()).optional().describe('Duplicate: its tags added to the memory it repeats'),
	merged_metadata: z.array(z.string()).optional().describe('Duplicate: its metadata keys added to the memory it repeats'),
	unmerged: z.array(z.string()).optional().describe('Duplicate: what it brought that was not added, and why'),
});
export const StoreOutputSchema = z.object({
	success: z.boolean(),
	message: z.string(),
	memory_id: z.string().optional().describe('Single mode: the id stored (or the duplicate)'),
	seq: z.number().int().optional(),
	duplicate_of: z.string().optional(),
	results: z.array(StoreResultSchema),
	stored_count: z.number().int(),
	duplicate_count: z.number().int(),
	replayed: ReplayedSchema,
});
export type StoreOutput = z.infer<typeof StoreOutputSchema>;

// ---------------------------------------------------------------- get

export const GetInputSchema = wellFormedInput(
	z.object({
		memory_id: MemoryRefSchema,
		related_limit: z.number().int().min(0).max(50).optional().describe('Max related memories (10)'),
		track_access: z.boolean().optional().describe('Count this read as an access (true)'),
	}),
);
export type GetInput = z.infer<typeof GetInputSchema>;

export const RelatedMemorySchema = z.object({
	id: z.string(),
	seq: z.number().int(),
	similarity: z.number().describe('0–1'),
	relation: AssociationTypeSchema,
	direction: z.enum(['out', 'in']),
	snippet: z.string(),
	source: z.string().optional(),
});
export const GetOutputSchema = z.object({
	memory: MemorySchema,
	age: z.string().describe('Human-readable age, e.g. "4 days ago"'),
	related_memories: z.array(RelatedMemorySchema),
	associations: z.array(AssociationSchema).describe('Authored associations in and out'),
});
export type GetOutput = z.infer<typeof GetOutputSchema>;

// ---------------------------------------------------------------- update

/** update_memory's fields without the whole-input rule, for profiles that pick from them. */
export const UpdateFieldsSchema = z.object({
	memory_id: MemoryRefSchema,
	content: StoreItemShape.content.optional().describe('New content (replaces; re-embedded)'),
	summary: z.string().max(LIMITS.summaryChars).optional(),
	tags: TagsSchema.optional().describe('New tags (replaces existing)'),
	tags_add: TagsSchema.optional().describe(
		'Tags to add to the ones the memory has now, in one write (exact duplicates skipped; applied after tags_remove); not with tags',
	),
	tags_remove: TagsSchema.optional().describe('Tags to take off, matched case-insensitively (absent ones are ignored); not with tags'),
	type: MemoryTypeSchema.optional(),
	importance: ImportanceInputSchema.optional(),
	confidence: UnitSchema.optional(),
	metadata: MetadataSchema.optional().describe('Merged into existing metadata; null values delete keys'),
	entities: z.array(EntityRefSchema).max(LIMITS.entities).optional().describe('Replaces entities'),
	source: z.string().max(200).optional(),
	scope: z.string().min(1).max(200).optional(),
	timestamp: IsoDateSchema.optional().describe('Override creation time'),
	t_valid: IsoDateSchema.nullable().optional().describe('Valid from (null clears)'),
	t_invalid: IsoDateSchema.nullable().optional().describe('Valid until (null clears)'),
	updated_at: IsoDateSchema.optional(),
	last_accessed: IsoDateSchema.optional(),
	embedding: EmbeddingSchema.optional(),
	request_id: RequestIdSchema.optional(),
});
/**
 * update_memory's input. tags_add / tags_remove edit the tags the memory has when the update's
 * transaction runs (so concurrent edits all land); tags replaces them all, so not both.
 */
export const UpdateInputSchema = wellFormedInput(
	UpdateFieldsSchema.superRefine((v, ctx) => {
		if (v.tags === undefined) return;
		for (const f of ['tags_add', 'tags_remove'] as const)
			if (v[f] !== undefined) ctx.addIssue({ code: 'custom', path: [f], message: 'cannot be combined with tags (tags replaces the whole list)' });
	}),
);
export type UpdateInput = z.infer<typeof UpdateInputSchema>;

export const UpdateOutputSchema = z.object({
	success: z.boolean(),
	message: z.string(),
	memory_id: z.string(),
	seq: z.number().int(),
	changed: z.array(z.string()).describe('Fields that changed'),
	re_embedded: z.boolean(),
	tags: z.array(z.string()).optional().describe("Given for tags_add/tags_remove: the memory's tags after the edit"),
	replayed: ReplayedSchema,
});
export type UpdateOutput = z.infer<typeof UpdateOutputSchema>;

// ---------------------------------------------------------------- delete

export const DeleteInputSchema = wellFormedInput(
	z
		.object({
			memory_id: MemoryRefSchema.optional().describe('Delete this memory'),
			memory_ids: z.array(MemoryRefSchema).min(1).max(LIMITS.batch).optional(),
			tags: TagsSchema.min(1).optional().describe('Bulk: delete memories with these tags'),
			tag_mode: z.enum(['any', 'all']).optional().describe('For tags: any (default) or all'),
			scope: z.string().min(1).max(200).optional().describe('For tags: only in this scope'),
			request_id: RequestIdSchema.optional(),
		})
		.superRefine((v, ctx) => {
			const n = [v.memory_id, v.memory_ids, v.tags].filter((x) => x !== undefined).length;
			if (n !== 1)
				ctx.addIssue({
					code: 'custom',
					path: ['memory_id'],
					message: 'give exactly one of memory_id, memory_ids or tags',
				});
		}),
);
export type DeleteInput = z.infer<typeof DeleteInputSchema>;

export const DeleteOutputSchema = z.object({
	success: z.boolean(),
	message: z.string(),
	deleted_count: z.number().int(),
	deleted_ids: z.array(z.string()).describe('Up to 500 of the deleted ids'),
	associations_removed: z.number().int(),
	not_found: z.array(z.string()).optional().describe('Requested ids that matched no memory'),
	replayed: ReplayedSchema,
	request_recorded: z.literal(false).optional().describe('Storage full: the request_id is held in this tab and recorded once there is room'),
});
export type DeleteOutput = z.infer<typeof DeleteOutputSchema>;

/**
 * The zod schemas of Engram's data model and of every engine operation. One source of truth:
 * the engine validates its inputs with them, the native MCP tools expose them as input/output
 * schemas, and the UI uses them for its forms. Field descriptions are short because agents pay
 * for every token of a tool's schema.
 */
import { z } from 'zod';
import { illFormedRule, inspect, loneSurrogateAt } from './well-formed';

/** Memory types: AutoMem's seven plus codomyrmex's three and `knowledge`. */
export const MEMORY_TYPES = [
	'Decision',
	'Pattern',
	'Preference',
	'Style',
	'Habit',
	'Insight',
	'Context',
	'episodic',
	'semantic',
	'procedural',
	'knowledge',
] as const;
export const MemoryTypeSchema = z.enum(MEMORY_TYPES).describe('Memory type');
export type MemoryType = z.infer<typeof MemoryTypeSchema>;

/** Association types an agent or person may create (seed 000). */
export const AUTHORABLE_ASSOCIATION_TYPES = [
	'RELATES_TO',
	'LEADS_TO',
	'OCCURRED_BEFORE',
	'PREFERS_OVER',
	'EXEMPLIFIES',
	'CONTRADICTS',
	'REINFORCES',
	'INVALIDATED_BY',
	'EVOLVED_INTO',
	'DERIVED_FROM',
	'PART_OF',
] as const;
/** Association types Engram creates itself; readable, never authorable. */
export const SYSTEM_ASSOCIATION_TYPES = [
	'SIMILAR_TO',
	'PRECEDED_BY',
	'EXPLAINS',
	'SHARES_THEME',
	'PARALLEL_CONTEXT',
	'DISCOVERED',
] as const;
export const AuthorableAssociationTypeSchema = z
	.enum(AUTHORABLE_ASSOCIATION_TYPES)
	.describe('Relationship type');
export const AssociationTypeSchema = z.enum([
	...AUTHORABLE_ASSOCIATION_TYPES,
	...SYSTEM_ASSOCIATION_TYPES,
]);
export type AuthorableAssociationType = z.infer<typeof AuthorableAssociationTypeSchema>;
export type AssociationType = z.infer<typeof AssociationTypeSchema>;

/** Named importance levels (codomyrmex) and the 0–1 value each maps to. */
export const IMPORTANCE_LEVELS = { LOW: 0.25, MEDIUM: 0.5, HIGH: 0.75, CRITICAL: 1 } as const;
export type ImportanceLevel = keyof typeof IMPORTANCE_LEVELS;

/** Hard limits; every one is enforced by a schema below and named in its error. */
export const LIMITS = {
	contentChars: 50_000,
	summaryChars: 500,
	batch: 500,
	tags: 64,
	tagChars: 100,
	entities: 100,
	entityNameChars: 200,
	idChars: 200,
	queryChars: 2_000,
	queries: 10,
	embeddingDims: 4_096,
	metadataBytes: 32_768,
	metadataDepth: 20,
	recallLimit: 200,
	importChars: 20_000_000,
} as const;

const nonBlank = (s: string) => s.trim().length > 0;

/**
 * A string made of well-formed UTF-16: a lone surrogate is refused with its position. Every
 * string an agent or an import hands in goes through this rule (here per field, and through
 * `wellFormedInput` for whole inputs), so no stored text can make `encodeURIComponent` or a
 * TextEncoder-based consumer throw later.
 */
export const WellFormedStringSchema = z.string().superRefine((s, ctx) => {
	const at = loneSurrogateAt(s);
	// `continue: false` ends the checks above it too, so the whole-input walk does not say it twice.
	if (at >= 0) ctx.addIssue({ code: 'custom', message: illFormedRule(at), continue: false });
});

/**
 * Adds the whole-input rule to an input schema: every string and key at any depth must be
 * well-formed, each issue naming its path and position. The walk is iterative (core/well-formed),
 * so a deep value cannot overflow it. Marks the schema so server.ts does not add it twice.
 */
export function wellFormedInput<S extends z.ZodType>(schema: S, skipKeys: ReadonlySet<string> = REF_KEYS): S {
	const checked = schema.superRefine((v, ctx) => {
		for (const i of inspect(v, { maxIssues: 10, skipKeys })) ctx.addIssue({ code: 'custom', path: i.path, message: i.message });
	}) as unknown as S;
	WELL_FORMED_CHECKED.add(checked);
	return checked;
}
/**
 * Fields that name a stored memory rather than hand in text to keep. They are looked up, never
 * stored anew, so they are exempt: a row an older version stored with an ill-formed id must
 * still be readable and deletable by that id.
 */
const REF_KEYS: ReadonlySet<string> = new Set(['memory_id', 'memory_ids', 'memory1_id', 'memory2_id', 'supersedes_memory_id', 'anchor_event_id', 'priority_ids', 'event_id', 'prev_event_id']);
/** Schemas already carrying the whole-input rule (server.ts adds it to every other tool). */
export const WELL_FORMED_CHECKED = new WeakSet<z.ZodType>();

const ISO_DATE =
	/^([+-]\d{6}|\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/** The rule a date string breaks, or undefined when it is an ISO 8601 date or date-time. */
function isoDateProblem(s: string): string | undefined {
	const m = ISO_DATE.exec(s);
	const rule = 'must be an ISO 8601 date or date-time, e.g. 2024-03-01 or 2024-03-01T09:30:00Z';
	if (!m) return rule;
	const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
	const days = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !leap(year) ? 1 : 0);
	if (month < 1 || month > 12 || day < 1 || day > days) return `${rule} (no such day)`;
	if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return `${rule} (no such time)`;
	if (!Number.isFinite(Date.parse(s))) return `${rule} (out of range)`;
	return undefined;
}
const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/**
 * An ISO 8601 date (`2024-03-01`) or date-time (`2024-03-01T09:30`, seconds, fractions and a
 * `Z`/`±hh:mm` offset optional; a space may stand for the T). Anything else is refused with the
 * rule, not guessed at: Date.parse once read "1" as 2001-01-01.
 */
export const IsoDateSchema = z.string().min(1).superRefine((s, ctx) => {
	const problem = isoDateProblem(s);
	if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** A number in [0, 1]; NaN and ±Infinity are refused. */
export const UnitSchema = z.number().min(0).max(1);

export const MemoryIdSchema = WellFormedStringSchema.min(1)
	.max(LIMITS.idChars)
	.refine(nonBlank, { message: 'must not be blank' })
	.describe('Memory id (string)');
/**
 * A memory reference in the native tools and the engine: its string id, matched exactly. A
 * numeric-looking string ("7") is an id like any other and never falls back to the memory with
 * that `seq`: a retried delete must not hit another memory (issue 23). Integer seqs are
 * addressed only by the profiles whose seed speaks them (memory-mcp), typed as numbers there.
 */
export const MemoryRefSchema = z
	.string()
	.min(1)
	.max(LIMITS.idChars)
	.refine(nonBlank, { message: 'must not be blank' })
	.describe('Memory id (string, exact)');
export type MemoryRef = z.infer<typeof MemoryRefSchema>;

export const TagSchema = WellFormedStringSchema.min(1)
	.max(LIMITS.tagChars)
	.refine(nonBlank, { message: 'must not be blank' });
export const TagsSchema = z.array(TagSchema).max(LIMITS.tags);

export const EntityRefSchema = z.object({
	name: z
		.string()
		.min(1)
		.max(LIMITS.entityNameChars)
		.refine(nonBlank, { message: 'must not be blank' })
		.describe('Entity name'),
	type: z
		.string()
		.min(1)
		.max(50)
		.describe('person, project, tool, place, organisation, concept, file, url, tag, …'),
});
export type EntityRef = z.infer<typeof EntityRefSchema>;

/**
 * Free-form metadata: a JSON object at most LIMITS.metadataDepth levels deep and
 * LIMITS.metadataBytes serialised, with well-formed strings and keys and no `__proto__` key
 * (zod and JSON round trips drop it silently, so it is refused and named instead). Checked on the
 * raw value (zod would already have dropped `__proto__`), by an iterative walk first: only a value
 * that passed the depth rule is handed to JSON.stringify, so deep nesting cannot overflow the stack.
 */
export const MetadataSchema = z.preprocess(
	(raw, ctx) => {
		if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
		const issues = inspect(raw, { maxDepth: LIMITS.metadataDepth, noProtoKeys: true, maxIssues: 10 });
		for (const i of issues) ctx.addIssue({ code: 'custom', path: i.path, message: i.message, input: raw });
		if (issues.length === 0 && JSON.stringify(raw).length > LIMITS.metadataBytes)
			ctx.addIssue({ code: 'custom', message: `must serialise to at most ${LIMITS.metadataBytes} bytes`, input: raw });
		return raw;
	},
	z.record(z.string(), z.unknown()),
);

export const EmbeddingSchema = z
	.array(z.number())
	.min(1)
	.max(LIMITS.embeddingDims)
	.describe('Caller-computed embedding vector');

export const ImportanceInputSchema = z
	.union([UnitSchema, z.enum(['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'])])
	.describe('0–1, or LOW/MEDIUM/HIGH/CRITICAL');

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
	reason: z
		.string()
		.max(2000)
		.optional()
		.describe('For PREFERS_OVER, CONTRADICTS, INVALIDATED_BY, EVOLVED_INTO'),
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
		.min(1)
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
	entities: z
		.array(EntityRefSchema)
		.max(LIMITS.entities)
		.optional()
		.describe('Entities it mentions; extracted automatically when omitted'),
	timestamp: IsoDateSchema.optional().describe('When it happened (default now)'),
	t_valid: IsoDateSchema.optional().describe('Valid from'),
	t_invalid: IsoDateSchema.optional().describe('Valid until / superseded at'),
	updated_at: IsoDateSchema.optional(),
	last_accessed: IsoDateSchema.optional(),
	id: MemoryIdSchema.optional().describe('Your own id (default: a new UUID)'),
	embedding: EmbeddingSchema.optional(),
	supersedes_memory_id: MemoryRefSchema.optional().describe(
		'An older memory this one replaces (marked invalid and linked)',
	),
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

const storeSingleShape = Object.fromEntries(
	Object.entries(StoreItemShape).map(([k, v]) => [k, v.optional()]),
) as { [K in keyof typeof StoreItemShape]: z.ZodOptional<(typeof StoreItemShape)[K]> };

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
		})
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
export const UpdateInputSchema = wellFormedInput(UpdateFieldsSchema);
export type UpdateInput = z.infer<typeof UpdateInputSchema>;

export const UpdateOutputSchema = z.object({
	success: z.boolean(),
	message: z.string(),
	memory_id: z.string(),
	seq: z.number().int(),
	changed: z.array(z.string()).describe('Fields that changed'),
	re_embedded: z.boolean(),
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
		})
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
	request_recorded: z
		.literal(false)
		.optional()
		.describe('Storage full: the request_id is held in this tab and recorded once there is room'),
});
export type DeleteOutput = z.infer<typeof DeleteOutputSchema>;

// ---------------------------------------------------------------- associate

export const AssociateItemShape = {
	memory1_id: MemoryRefSchema.describe('Source memory id'),
	memory2_id: MemoryRefSchema.describe('Target memory id'),
	type: AuthorableAssociationTypeSchema.optional().describe('Relationship type (RELATES_TO)'),
	strength: UnitSchema.optional().describe(
		'0.9+ direct causation, 0.7–0.9 strong, 0.5–0.7 moderate (0.5)',
	),
	...AssociationFieldsShape,
};
export const AssociateItemSchema = z.object(AssociateItemShape);
export type AssociateItem = z.infer<typeof AssociateItemSchema>;

/** associate_memories input: one pair at top level, or `associations[]` (≤ 500), never both. */
export const AssociateInputSchema = wellFormedInput(
	z
		.object({
			...Object.fromEntries(Object.entries(AssociateItemShape).map(([k, v]) => [k, v.optional()])),
			associations: z
				.array(AssociateItemSchema)
				.min(1)
				.max(LIMITS.batch)
				.optional()
				.describe(`Batch mode: up to ${LIMITS.batch}; each item fails or succeeds on its own`),
			request_id: RequestIdSchema.optional(),
		} as { [K in keyof typeof AssociateItemShape]: z.ZodOptional<(typeof AssociateItemShape)[K]> } & {
			associations: z.ZodOptional<z.ZodArray<typeof AssociateItemSchema>>;
			request_id: z.ZodOptional<typeof RequestIdSchema>;
		})
		.superRefine((v, ctx) => {
			const single = v.memory1_id !== undefined || v.memory2_id !== undefined;
			if (v.associations !== undefined && single)
				ctx.addIssue({
					code: 'custom',
					path: ['associations'],
					message: 'cannot be combined with top-level memory1_id/memory2_id',
				});
			if (v.associations === undefined) {
				if (v.memory1_id === undefined)
					ctx.addIssue({ code: 'custom', path: ['memory1_id'], message: 'is required (or give associations[])' });
				if (v.memory2_id === undefined)
					ctx.addIssue({ code: 'custom', path: ['memory2_id'], message: 'is required' });
			}
		})
);
export type AssociateInput = z.infer<typeof AssociateInputSchema>;

export const AssociateOutputSchema = z.object({
	success: z.boolean().describe('True when every requested association was created or updated'),
	message: z.string(),
	created_count: z.number().int(),
	updated_count: z.number().int(),
	failed_count: z.number().int(),
	succeeded: z.array(
		z.object({
			index: z.number().int(),
			memory1_id: z.string(),
			memory2_id: z.string(),
			type: AuthorableAssociationTypeSchema,
			strength: z.number(),
			status: z.enum(['created', 'updated']),
		}),
	),
	failed: z.array(
		z.object({
			index: z.number().int(),
			memory1_id: z.unknown(),
			memory2_id: z.unknown(),
			code: z.string(),
			error: z.string(),
		}),
	),
	replayed: ReplayedSchema,
});
export type AssociateOutput = z.infer<typeof AssociateOutputSchema>;

/** unlink_memories input: the links from memory1 to memory2 to remove (every type when none is given). */
export const UnlinkInputSchema = z.object({
	memory1_id: MemoryRefSchema.describe('Source memory id (the link leaves it)'),
	memory2_id: MemoryRefSchema.describe('Target memory id'),
	type: AssociationTypeSchema.optional().describe('Only this link type (default: every link from memory1 to memory2)'),
	request_id: RequestIdSchema.optional(),
});
export type UnlinkInput = z.infer<typeof UnlinkInputSchema>;

export const UnlinkOutputSchema = z.object({
	success: z.boolean(),
	message: z.string(),
	removed_count: z.number().int(),
	removed: z.array(
		z.object({ memory1_id: z.string(), memory2_id: z.string(), type: AssociationTypeSchema, strength: z.number() }),
	),
	replayed: ReplayedSchema,
});
export type UnlinkOutput = z.infer<typeof UnlinkOutputSchema>;

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
	z.object({
		query: z.string().max(LIMITS.queryChars).optional().describe('What to look for (natural language)'),
		queries: z
			.array(z.string().min(1).max(LIMITS.queryChars))
			.max(LIMITS.queries)
			.optional()
			.describe('Several phrasings; results merged'),
		memory_id: MemoryRefSchema.optional().describe('Find memories like this one'),
		embedding: EmbeddingSchema.optional(),
		limit: z.number().int().min(1).max(LIMITS.recallLimit).optional().describe('Max results (10)'),
		offset: z.number().int().min(0).optional(),
		time_query: z
			.string()
			.max(200)
			.optional()
			.describe('Natural time range: "last week", "yesterday", "in March 2024", "last 30 days"'),
		start: IsoDateSchema.optional().describe('Only memories at or after this time'),
		end: IsoDateSchema.optional().describe('Only memories before this time'),
		tags: TagsSchema.optional().describe('Filter by tags'),
		tag_mode: z.enum(['any', 'all']).optional(),
		tag_match: z.enum(['exact', 'prefix']).optional(),
		exclude_tags: TagsSchema.optional(),
		types: z.array(MemoryTypeSchema).optional(),
		scope: z.string().min(1).max(200).optional().describe('Only this scope'),
		source: z.string().max(200).optional(),
		current_only: z
			.boolean()
			.optional()
			.describe('Skip invalidated memories; follow EVOLVED_INTO/INVALIDATED_BY to the newest'),
		min_score: z.number().min(0).optional(),
		sort: z.enum(['score', 'time_desc', 'time_asc', 'updated_desc', 'updated_asc']).optional(),
		weights: RecallWeightsSchema.optional(),
		fusion: z
			.enum(['score', 'rrf'])
			.optional()
			.describe('How lexical and semantic relevance combine: normalised scores (default) or reciprocal rank'),
		recency_half_life_days: z.number().positive().max(36500).optional(),
		expand_relations: z.boolean().optional().describe('Let linked memories surface (true)'),
		expand_entities: z.boolean().optional().describe('Let memories sharing entities surface (true)'),
		context_tags: TagsSchema.optional().describe('Boost (not filter) memories with these tags'),
		context_types: z.array(MemoryTypeSchema).optional().describe('Boost these types'),
		priority_ids: z.array(MemoryRefSchema).max(50).optional().describe('Boost these memories'),
		max_content_chars: z
			.number()
			.int()
			.min(0)
			.max(LIMITS.contentChars)
			.optional()
			.describe('Truncate each content to this many chars (2000)'),
	}),
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
	z.object({
		scope: z.string().min(1).max(200).optional(),
		start: IsoDateSchema.optional(),
		end: IsoDateSchema.optional(),
		time_query: z.string().max(200).optional().describe('e.g. "last week"'),
		types: z.array(MemoryTypeSchema).optional(),
		tags: TagsSchema.optional(),
		tag_mode: z.enum(['any', 'all']).optional().describe('Any (default) or all of tags'),
		exclude_tags: TagsSchema.optional().describe('Skip memories with any of these tags'),
		order: z.enum(['asc', 'desc']).optional().describe('Time order (desc)'),
		limit: z.number().int().min(1).max(200).optional().describe('Max memories (20)'),
		offset: z.number().int().min(0).optional(),
		max_content_chars: z.number().int().min(0).max(LIMITS.contentChars).optional(),
	}),
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
	z.object({
		entity: z.string().min(1).max(LIMITS.entityNameChars).describe('Entity name or id'),
		entity_type: z.string().max(50).optional(),
		scope: z.string().min(1).max(200).optional(),
		limit: z.number().int().min(1).max(200).optional(),
		offset: z.number().int().min(0).optional(),
		max_content_chars: z.number().int().min(0).max(LIMITS.contentChars).optional(),
	}),
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
	search_index: z
		.object({ origin: z.enum(['snapshot', 'rebuilt']), snapshot: z.enum(['file', 'indexeddb']).optional() })
		.optional(),
	embedder: z.object({ model: z.string(), dims: z.number().int(), ready: z.boolean() }),
	storage: z.object({ usage: z.number().optional(), quota: z.number().optional(), persisted: z.boolean().optional() }),
	issues: z.array(z.string()),
});
export type HealthOutput = z.infer<typeof HealthOutputSchema>;

// ---------------------------------------------------------------- export / import

export const ExportInputSchema = wellFormedInput(
	z.object({
		format: z.enum(['json', 'jsonl', 'markdown']).optional().describe('json (default), jsonl or markdown'),
		scope: z.string().min(1).max(200).optional(),
		tags: TagsSchema.optional(),
		include_vectors: z.boolean().optional().describe('Include embedding vectors (false)'),
		limit: z.number().int().min(1).max(100_000).optional(),
		offset: z.number().int().min(0).optional(),
	}),
);
export type ExportInput = z.infer<typeof ExportInputSchema>;
export const ExportOutputSchema = z.object({
	format: z.enum(['json', 'jsonl', 'markdown']),
	data: z.string(),
	memory_count: z.number().int(),
	association_count: z.number().int(),
	entity_count: z.number().int(),
	has_more: z.boolean(),
	next_offset: z.number().int().optional(),
});
export type ExportOutput = z.infer<typeof ExportOutputSchema>;

// An import's `data` is checked record by record instead (import-formats.ts `check`): a file with one
// ill-formed record imports the others and names that record's line, rather than refusing them all.
export const ImportInputSchema = wellFormedInput(
	z.object({
		data: z.string().min(1).max(LIMITS.importChars).describe('The export text'),
		format: z
			.enum(['json', 'jsonl', 'markdown', 'server-memory-jsonl', 'mem0-json', 'auto'])
			.optional()
			.describe('auto (default) detects by content: JSON/JSONL (Engram or plain {"content", "tags", ...} records), mem0 JSON, Markdown, or server-memory JSONL'),
		on_conflict: z
			.enum(['skip', 'replace'])
			.optional()
			.describe('When an id already exists: skip (default) or replace'),
		scope: z.string().min(1).max(200).optional().describe('Put imported memories in this scope'),
	}),
	new Set(['data']),
);
export type ImportInput = z.infer<typeof ImportInputSchema>;
export const ImportOutputSchema = z.object({
	success: z.boolean(),
	message: z.string(),
	imported: z.number().int(),
	replaced: z.number().int(),
	skipped: z.number().int(),
	associations: z.number().int(),
	entities: z.number().int(),
	refused: z.number().int().describe('Records refused; `errors` lists the first 50 by line'),
	errors: z.array(z.object({ line: z.number().int().optional(), error: z.string() })).max(50),
	not_imported: z
		.array(z.object({ line: z.number().int().optional(), text: z.string() }))
		.max(50)
		.optional()
		.describe('Text that is not a memory (a Markdown rule, an empty heading, a link to no note), first 50 by line'),
});
export type ImportOutput = z.infer<typeof ImportOutputSchema>;

/** Normalises an importance input (0–1 or a level name) to 0–1. */
export function importanceValue(v: number | ImportanceLevel): number {
	return typeof v === 'number' ? v : IMPORTANCE_LEVELS[v];
}

/** Normalises any accepted date string to ISO 8601 UTC with milliseconds. */
export function toIso(s: string): string {
	return new Date(Date.parse(s)).toISOString();
}

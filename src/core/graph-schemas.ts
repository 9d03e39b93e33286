/**
 * Zod schemas of the two graph operations, find_memory_connections (the entity–event walk of
 * seed 002) and query_memory_graph (the read-only pattern language of core/graph-query.ts).
 * Shared by the native and AiAkiv tools and the UI, like core/schemas.ts.
 */
import { z } from 'zod';
import { IsoDateSchema, LIMITS, MemoryRefSchema, wellFormedInput } from './schemas';

/** The walks find_memory_connections can take (seed 002). */
export const CONNECTION_RELATIONS = ['similar', 'before', 'after', 'evolution', 'contrast', 'explore'] as const;
export type ConnectionRelation = (typeof CONNECTION_RELATIONS)[number];

/** Server caps: top_n is clamped to this, and the clamp is reported in `truncations`. */
export const CONNECTION_LIMITS = {
	topN: 25,
	defaultTopN: 8,
	entry: 5,
	sentenceChars: 1000,
} as const;

const needsTimeBasis = (r: ConnectionRelation) => r === 'before' || r === 'after';

/** find_memory_connections input; the cross-field rules of seed 002 are enforced here. */
export const ConnectionsInputSchema = wellFormedInput(
	z
		.object({
			sentence: z
				.string()
				.min(1)
				.max(CONNECTION_LIMITS.sentenceChars)
				.optional()
				.describe('One complete sentence, not keywords. Required except for explore, which forbids it'),
			anchor_entity_id: z
				.string()
				.min(1)
				.max(LIMITS.entityNameChars + 60)
				.optional()
				.describe('Entity id (or name) to walk from instead of a vector entry. Required for explore'),
			relation: z.enum(CONNECTION_RELATIONS).optional().describe('similar (default, time-stratified), before, after, evolution, contrast, explore'),
			reference_time: IsoDateSchema.optional().describe('ISO 8601 basis for before/after'),
			anchor_event_id: MemoryRefSchema.optional().describe('Memory id (event) basis for before/after'),
			top_n: z
				.number()
				.int()
				.min(1)
				.optional()
				.describe(`Max candidates per round (${CONNECTION_LIMITS.defaultTopN}; capped at ${CONNECTION_LIMITS.topN})`),
			expansion_rounds: z
				.number()
				.int()
				.min(1)
				.max(2)
				.optional()
				.describe('1 (default) or 2: round 2 re-expands from round-1 picks through unused bridges'),
			scope: z.string().min(1).max(200).optional().describe('Only this scope (default: all scopes)'),
		})
		.superRefine((v, ctx) => {
			const relation = v.relation ?? 'similar';
			const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
			if (relation === 'explore') {
				if (v.sentence !== undefined) issue('sentence', 'sentence is forbidden for relation "explore"');
				if (v.anchor_entity_id === undefined) issue('anchor_entity_id', 'anchor_entity_id is required for relation "explore"');
			} else if (v.sentence === undefined || v.sentence.trim() === '') {
				issue('sentence', `sentence is required for relation "${relation}" (only explore may omit it)`);
			}
			if (needsTimeBasis(relation)) {
				const given = Number(v.reference_time !== undefined) + Number(v.anchor_event_id !== undefined);
				if (given !== 1)
					issue(
						given === 0 ? 'reference_time' : 'anchor_event_id',
						`relation "${relation}" needs exactly one of reference_time or anchor_event_id` +
							(given === 0 ? ' (there is no implicit "now")' : ', not both'),
					);
			} else {
				if (v.reference_time !== undefined) issue('reference_time', `reference_time only applies to relation "before" or "after", not "${relation}"`);
				if (v.anchor_event_id !== undefined)
					issue('anchor_event_id', `anchor_event_id only applies to relation "before" or "after", not "${relation}"`);
			}
		}),
);
export type ConnectionsInput = z.infer<typeof ConnectionsInputSchema>;

export const ConnectionCandidateSchema = z.object({
	event_id: z.string().describe('Memory id; feeds get_memory'),
	seq: z.number().int(),
	summary: z.string().describe('Stored summary, or the start of the content'),
	path: z.array(z.string()).describe('From an entry memory to this one: memory ids alternating with the entity id or link type between them'),
	bridge_entity_id: z.string().nullable().describe('The shared entity this came through (null for a link)'),
	cosine: z.number().nullable().describe('Cosine to the sentence (null for explore)'),
	cosine_percentile: z.number().nullable().describe('Share of memories in scope less similar to the sentence, 0–100'),
	timestamp: z.string(),
	round: z.number().int().describe('1 or 2'),
	score: z.number().describe('Walk score used for ranking'),
});
export type ConnectionCandidate = z.infer<typeof ConnectionCandidateSchema>;

export const ConnectionsOutputSchema = z.object({
	relation: z.enum(CONNECTION_RELATIONS),
	candidates: z.array(ConnectionCandidateSchema),
	grounding: z.enum(['grounded', 'weak', 'absent', 'exploration']),
	grounding_basis: z.string().describe('Why the grounding is what it is, in one line'),
	bridges: z.array(
		z.object({
			entity_id: z.string(),
			name: z.string(),
			type: z.string(),
			memory_count: z.number().int(),
			rarity: z.number().describe('Inverse document frequency of the entity'),
			round: z.number().int(),
			candidates: z.number().int().describe('Candidates reached through it'),
		}),
	),
	entry: z.array(
		z.object({
			event_id: z.string(),
			summary: z.string(),
			cosine: z.number().nullable(),
			via: z.enum(['vector', 'lexical', 'anchor_entity', 'anchor_event']),
		}),
	),
	searched_scope: z.object({
		scope: z.string().describe('"*" for every scope'),
		memories: z.number().int().describe('Memories with a vector in that scope'),
		time_window: z.object({ before: z.string().optional(), after: z.string().optional() }).optional(),
	}),
	truncations: z.array(z.string()).describe('Every cap that cut the walk or the output'),
});
export type ConnectionsOutput = z.infer<typeof ConnectionsOutputSchema>;

// ---------------------------------------------------------------- query_memory_graph

/** Bounds of one graph query; reaching any of them is reported, never silent. */
export const GRAPH_LIMITS = {
	defaultLimit: 20,
	maxLimit: 200,
	startK: 5,
	maxStartK: 200,
	scan: 1000,
	fanout: 200,
	rows: 5000,
	hops: 3,
	/** Node patterns in one query (START's included): unconnected ones multiply rows. */
	nodes: 12,
	/** Milliseconds of matching one query may take (by the engine's clock); then partial. */
	workMs: 2000,
	queryChars: 4000,
} as const;

const ParamValueSchema = z.union([
	z.string().max(LIMITS.queryChars),
	z.number(),
	z.boolean(),
	z.null(),
	z.array(z.union([z.string().max(LIMITS.queryChars), z.number()])).max(200),
]);

export const GraphQueryInputSchema = wellFormedInput(
	z.object({
		query: z.string().min(1).max(GRAPH_LIMITS.queryChars).describe('The pattern query (see the tool description)'),
		params: z.record(z.string(), ParamValueSchema).optional().describe('Values for $name placeholders'),
	}),
);
export type GraphQueryInput = z.infer<typeof GraphQueryInputSchema>;
export type GraphParamValue = z.infer<typeof ParamValueSchema>;

export const GraphQueryOutputSchema = z.object({
	columns: z.array(z.string()),
	rows: z.array(z.record(z.string(), z.unknown())),
	count: z.number().int(),
	has_more: z.boolean().describe('More rows exist past SKIP+LIMIT'),
	next_skip: z.number().int().optional(),
	truncated: z.boolean().describe('Rows or values were cut to fit the output bounds'),
	partial: z.boolean().describe('A scan or fan-out cap was hit: rows may be missing'),
	notes: z.array(z.string()),
});
export type GraphQueryOutput = z.infer<typeof GraphQueryOutputSchema>;

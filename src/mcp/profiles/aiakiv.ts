/**
 * The AiAkiv profile (seed 002 and PEERS.md): "event" vocabulary over Engram's memories —
 * save_memory (summary + content + entities, chained by prev_event_id, or one `payload`),
 * search_memory, get_memory_content, find_memory_connections, query_memory_graph,
 * list_memory_timeline and find_memories_by_entity. Where AiAkiv's argument names are not
 * public (search_memory's mode/top_k, get_memory_content's event_id) the descriptions say so.
 */
import { z } from 'zod';
import { MemoryError } from '../../core/errors';
import {
	EntityRefSchema,
	IsoDateSchema,
	LIMITS,
	MemoryRefSchema,
	TagsSchema,
	type Memory,
	type MemoryBrief,
} from '../../core/schemas';
import type { EngineApi } from '../../engine/types';
import { fitContents, oneLine } from '../render';
import { defineTool, READ_ONLY, type AnyToolDefinition } from '../tool-definition';
import { findMemoryConnections } from '../tools/find-memory-connections';
import { queryMemoryGraph } from '../tools/query-memory-graph';
import type { Profile } from './profile';

/** Markers other tools leave when they cut text; saving such text would store damage invisibly. */
const TRUNCATION_MARKERS = [
	/…?\s*\d+\s+tokens?\s+truncated\s*…?/i,
	/<response clipped>/i,
	/\[truncated\]/i,
	/\[\.\.\.truncated[^\]]*\]/i,
];

const EventItemSchema = z.object({
	summary: z
		.string()
		.min(1)
		.max(LIMITS.summaryChars)
		.describe(
			'One or two sentences with the words a future question would use (≤ 500; search ranks on it)',
		),
	content: z
		.string()
		.min(1)
		.max(LIMITS.contentChars)
		.describe('The full text (≤ 50,000); put it last'),
	entities: z
		.array(EntityRefSchema)
		.max(LIMITS.entities)
		.optional()
		.describe('[{name, type}]: one canonical spelling per entity'),
	tags: TagsSchema.optional(),
	prev_event_id: MemoryRefSchema.optional().describe(
		'The previous event of this thread; links it to this one',
	),
	allow_truncation_marker: z
		.boolean()
		.optional()
		.describe('Save even though content holds a truncation marker'),
});
type EventItem = z.infer<typeof EventItemSchema>;

const SaveArgs = z
	.object({
		...EventItemSchema.partial().shape,
		payload: z
			.union([z.string().max(LIMITS.contentChars + 10_000), z.record(z.string(), z.unknown())])
			.optional()
			.describe(
				'Recovery path: the whole call as one JSON string or object; other arguments are then ignored',
			),
	})
	.superRefine((v, ctx) => {
		if (v.payload !== undefined) return;
		if (v.summary === undefined)
			ctx.addIssue({
				code: 'custom',
				path: ['summary'],
				message: 'summary is required (or give payload)',
			});
		if (v.content === undefined)
			ctx.addIssue({
				code: 'custom',
				path: ['content'],
				message: 'content is required (or give payload)',
			});
	});

/** The event to save: the arguments, or `payload` parsed and checked with the same rules. */
function eventOf(input: z.infer<typeof SaveArgs>): EventItem {
	if (input.payload === undefined) return input as EventItem;
	let raw: unknown = input.payload;
	if (typeof raw === 'string') {
		try {
			raw = JSON.parse(raw);
		} catch (e) {
			throw new MemoryError('invalid_input', `payload: not valid JSON (${(e as Error).message})`);
		}
	}
	const parsed = EventItemSchema.safeParse(raw);
	if (!parsed.success) {
		const i = parsed.error.issues[0];
		throw new MemoryError('invalid_input', `payload.${i.path.join('.') || '(root)'}: ${i.message}`);
	}
	return parsed.data;
}

const saveMemory = defineTool({
	name: 'save_memory',
	config: {
		title: 'Save memory',
		description: `Save one event: a summary (the retrieval surface: search ranks on it), the full content, the entities it involves and tags. Chain a long record or a thread by passing the previous event_id as prev_event_id. Returns the new event_id.

Use it when the user asks to remember something, or after a decision or finding worth keeping. Do not use it to look something up (search_memory). Write the summary with the words a future question would use, keep identifiers verbatim and name the actor; give each entity one canonical spelling. A summary over 500 characters means the event covers too much: split it. Content holding a truncation marker ("[truncated]", "<response clipped>", "…N tokens truncated…") is refused: re-read the source in full. If arguments arrive merged or empty, send the whole call as payload.

Example: save_memory({ summary: "Mina chose PostgreSQL over MongoDB for the billing service (ACID needed).", entities: [{ name: "PostgreSQL", type: "tool" }, { name: "Mina", type: "person" }], tags: ["billing"], content: "…" })`,
		inputSchema: SaveArgs,
		outputSchema: z.object({
			event_id: z.string(),
			status: z.enum(['saved', 'duplicate']),
			duplicate_of: z.string().optional(),
			entities: z.array(EntityRefSchema),
			prev_event_id: z.string().optional(),
		}),
		annotations: {
			readOnlyHint: false,
			idempotentHint: false,
			destructiveHint: false,
			openWorldHint: false,
		},
	},
	run: async (input, engine, ctx) => {
		const ev = eventOf(input);
		const marker = ev.allow_truncation_marker
			? undefined
			: TRUNCATION_MARKERS.find((re) => re.test(ev.content));
		if (marker)
			throw new MemoryError(
				'invalid_input',
				`content: truncation_marker_detected (${ev.content.match(marker)![0].trim()}); re-read the source in full and save again, or pass allow_truncation_marker: true if the marker is part of what you mean to record`,
			);
		const prev =
			ev.prev_event_id === undefined ? undefined : await engine.resolveId(ev.prev_event_id);
		if (ev.prev_event_id !== undefined && !prev)
			throw new MemoryError(
				'not_found',
				`prev_event_id: no event with id ${JSON.stringify(ev.prev_event_id)}`,
			);
		const out = await engine.store(
			{ summary: ev.summary, content: ev.content, entities: ev.entities, tags: ev.tags },
			ctx,
		);
		const r = out.results[0];
		const id = r.duplicate_of ?? r.memory_id;
		if (prev && prev !== id)
			await engine.associate(
				{
					memory1_id: prev,
					memory2_id: id,
					type: 'OCCURRED_BEFORE',
					strength: 1,
					reason: 'prev_event_id',
				},
				ctx,
			);
		return {
			event_id: id,
			status: r.status === 'duplicate' ? ('duplicate' as const) : ('saved' as const),
			...(r.duplicate_of ? { duplicate_of: r.duplicate_of } : {}),
			entities: r.entities ?? ev.entities ?? [],
			...(prev ? { prev_event_id: prev } : {}),
		};
	},
	render: (out) =>
		`${out.status === 'duplicate' ? `Not saved again: near-duplicate of event ${out.duplicate_of}.` : `Saved event ${out.event_id}.`}${out.entities.length ? ` Entities: ${out.entities.map((e) => `${e.name} (${e.type})`).join(', ')}.` : ''}${out.prev_event_id ? ` Follows ${out.prev_event_id}.` : ''}`,
});

const EventHit = z.object({
	event_id: z.string(),
	summary: z.string(),
	snippet: z.string(),
	score: z.number(),
	timestamp: z.string(),
	tags: z.array(z.string()),
	entities: z.array(z.string()),
});

function summaryOf(m: Pick<Memory, 'summary' | 'content'>): string {
	return oneLine(m.summary ?? m.content, 300);
}

const searchMemory = defineTool({
	name: 'search_memory',
	config: {
		title: 'Search memory',
		description: `Search events for a question and return the closest ones, ranked: {results: [{event_id, summary, snippet, score, timestamp, tags, entities}]}. mode: hybrid (default: meaning + keywords + recency), semantic (meaning only) or keyword; top_k results (5, ≤ 50). (AiAkiv's exact argument names for this tool are not public; these follow its older search tool.)

Use it first for any question about the past. Do not use it to walk what the hits connect to (find_memory_connections) or to match an explicit pattern (query_memory_graph). Open a hit's full text with get_memory_content.

Example: search_memory({ query: "which database did billing choose and why?", top_k: 5 })`,
		inputSchema: z.object({
			query: z.string().min(1).max(LIMITS.queryChars).describe('A complete sentence works best'),
			mode: z
				.enum(['hybrid', 'semantic', 'keyword'])
				.optional()
				.describe('hybrid (default), semantic or keyword'),
			top_k: z.number().int().min(1).max(50).optional().describe('Number of results (5)'),
		}),
		outputSchema: z.object({
			results: z.array(EventHit),
			count: z.number().int(),
			mode: z.string(),
		}),
		annotations: READ_ONLY,
	},
	run: async (input, engine, ctx) => {
		const mode = input.mode ?? 'hybrid';
		const weights =
			mode === 'semantic' ? { lexical: 0 } : mode === 'keyword' ? { semantic: 0 } : undefined;
		const out = await engine.recall(
			{ query: input.query, limit: input.top_k ?? 5, weights, max_content_chars: 400 },
			ctx,
		);
		const results = out.results.map((r) => ({
			event_id: r.memory.id,
			summary: summaryOf(r.memory),
			snippet: r.memory.content,
			score: Math.round(r.score * 1000) / 1000,
			timestamp: r.memory.timestamp,
			tags: r.memory.tags,
			entities: r.memory.entities.map((e) => e.name),
		}));
		return { results, count: results.length, mode };
	},
	render: (out) =>
		out.results.length
			? out.results
					.map(
						(r, i) =>
							`${i + 1}. ${r.event_id} (${r.score}) ${r.timestamp.slice(0, 10)} — ${r.summary}`,
					)
					.join('\n')
			: 'No events matched.',
});

/** Previous and next events of a thread, from OCCURRED_BEFORE and PRECEDED_BY links. */
async function neighbours(
	engine: EngineApi,
	id: string,
): Promise<{ prev: string[]; next: string[] }> {
	const prev: string[] = [];
	const next: string[] = [];
	for (const a of await engine.associationsOf(id)) {
		if (
			(a.type === 'OCCURRED_BEFORE' && a.to === id) ||
			(a.type === 'PRECEDED_BY' && a.from === id)
		)
			prev.push(a.from === id ? a.to : a.from);
		if (
			(a.type === 'OCCURRED_BEFORE' && a.from === id) ||
			(a.type === 'PRECEDED_BY' && a.to === id)
		)
			next.push(a.from === id ? a.to : a.from);
	}
	return { prev, next };
}

const getMemoryContent = defineTool({
	name: 'get_memory_content',
	config: {
		title: 'Get memory content',
		description: `Open one event in full by event_id: summary, full content, entities, tags, timestamp, and the previous and next events of its thread. (AiAkiv's argument name here is not public; event_id follows its event vocabulary.)

Use it after search_memory, find_memory_connections or query_memory_graph returned an event_id you need to read. Do not use it to search.

Example: get_memory_content({ event_id: "8f3a2c1e-5b7d-4e9a-a1c3-2d4f6b8e0a91" })`,
		inputSchema: z.object({ event_id: MemoryRefSchema.describe('The event id') }),
		outputSchema: z.object({
			event_id: z.string(),
			summary: z.string().optional(),
			content: z.string(),
			entities: z.array(EntityRefSchema),
			tags: z.array(z.string()),
			timestamp: z.string(),
			prev_event_ids: z.array(z.string()),
			next_event_ids: z.array(z.string()),
		}),
		annotations: READ_ONLY,
	},
	run: async (input, engine, ctx) => {
		const { memory: m } = await engine.get({ memory_id: input.event_id, related_limit: 0 }, ctx);
		const { prev, next } = await neighbours(engine, m.id);
		return {
			event_id: m.id,
			...(m.summary ? { summary: m.summary } : {}),
			content: m.content,
			entities: m.entities,
			tags: m.tags,
			timestamp: m.timestamp,
			prev_event_ids: prev,
			next_event_ids: next,
		};
	},
	render: (out) =>
		`${out.event_id} ${out.timestamp}${out.summary ? `\n${out.summary}` : ''}\n\n${out.content}`,
});

const EventBrief = z.object({
	event_id: z.string(),
	summary: z.string(),
	timestamp: z.string(),
	tags: z.array(z.string()),
});
const brief = (m: MemoryBrief) => ({
	event_id: m.id,
	summary: summaryOf(m),
	timestamp: m.timestamp,
	tags: m.tags,
});
const renderEvents = (out: {
	events: z.infer<typeof EventBrief>[];
	has_more: boolean;
	next_offset?: number;
}) =>
	out.events.length
		? `${out.events.map((e) => `${e.timestamp.slice(0, 16).replace('T', ' ')} ${e.event_id} — ${e.summary}`).join('\n')}${out.has_more ? `\nMore: offset ${out.next_offset}` : ''}`
		: 'No events.';

/** Entity chronologies read at most this many events (then `truncated`). */
const ENTITY_SCAN = 2000;

const listMemoryTimeline = defineTool({
	name: 'list_memory_timeline',
	config: {
		title: 'List memory timeline',
		description: `Events in time order (oldest first unless order: "desc"), windowed by start/end or time_query ("last week", "in March 2024"); with entity, one entity's full chronology. Paged by limit (20, ≤ 200) and offset.

Use it for "what happened when" and for how one entity developed over time. Do not use it for a topic question (search_memory); for a few stratified picks of how a topic evolved, find_memory_connections with relation "evolution" is shorter.

Examples: list_memory_timeline({ entity: "PostgreSQL" }) · list_memory_timeline({ time_query: "last week" })`,
		inputSchema: z.object({
			entity: z
				.string()
				.min(1)
				.max(LIMITS.entityNameChars)
				.optional()
				.describe('Entity name or id: its chronology'),
			start: IsoDateSchema.optional(),
			end: IsoDateSchema.optional(),
			time_query: z.string().max(200).optional(),
			order: z.enum(['asc', 'desc']).optional().describe('asc (default) or desc'),
			limit: z.number().int().min(1).max(200).optional(),
			offset: z.number().int().min(0).optional(),
		}),
		outputSchema: z.object({
			events: z.array(EventBrief),
			total: z.number().int(),
			has_more: z.boolean(),
			next_offset: z.number().int().optional(),
			truncated: z.boolean().optional(),
		}),
		annotations: READ_ONLY,
	},
	run: async (input, engine) => {
		const order = input.order ?? 'asc';
		if (!input.entity) {
			const out = await engine.timeline({
				start: input.start,
				end: input.end,
				time_query: input.time_query,
				order,
				limit: input.limit ?? 20,
				offset: input.offset,
				max_content_chars: 300,
			});
			return {
				events: out.memories.map(brief),
				total: out.total,
				has_more: out.has_more,
				...(out.next_offset !== undefined ? { next_offset: out.next_offset } : {}),
			};
		}
		return entityChronology(
			engine,
			input.entity,
			order,
			input.limit ?? 20,
			input.offset ?? 0,
			input.start,
			input.end,
		);
	},
	render: renderEvents,
});

async function entityChronology(
	engine: EngineApi,
	entity: string,
	order: 'asc' | 'desc',
	limit: number,
	offset: number,
	start?: string,
	end?: string,
) {
	const all: MemoryBrief[] = [];
	let truncated = false;
	for (let off = 0; ;) {
		const page = await engine.findByEntity({
			entity,
			limit: 200,
			offset: off,
			max_content_chars: 300,
		});
		if (!page.entity)
			throw new MemoryError(
				'not_found',
				`entity: no entity ${JSON.stringify(entity)}${
					page.matches.length
						? `; similar: ${page.matches
								.slice(0, 5)
								.map((e) => e.name)
								.join(', ')}`
						: ''
				}`,
			);
		all.push(...page.memories);
		if (!page.has_more) break;
		off = page.next_offset ?? off + page.memories.length;
		if (all.length >= ENTITY_SCAN) {
			truncated = true;
			break;
		}
	}
	const inWindow = all.filter(
		(m) =>
			(!start || m.timestamp >= new Date(start).toISOString()) &&
			(!end || m.timestamp < new Date(end).toISOString()),
	);
	inWindow.sort((a, b) =>
		order === 'asc'
			? a.timestamp.localeCompare(b.timestamp)
			: b.timestamp.localeCompare(a.timestamp),
	);
	const page = inWindow.slice(offset, offset + limit);
	const more = inWindow.length > offset + limit;
	return {
		events: page.map(brief),
		total: inWindow.length,
		has_more: more,
		...(more ? { next_offset: offset + limit } : {}),
		...(truncated ? { truncated } : {}),
	};
}

const findMemoriesByEntity = defineTool({
	name: 'find_memories_by_entity',
	config: {
		title: 'Find memories by entity',
		description: `Events linked to one entity, newest first, found by exact name or id, with the entity's record and similarly spelled entities (the stored spelling to use elsewhere).

Use it when the user names a person, project, tool or place. Do not use it for a topic question (search_memory) or for what is connected to the entity through others (find_memory_connections with relation "explore").

Example: find_memories_by_entity({ entity: "Redis", limit: 50 })`,
		inputSchema: z.object({
			entity: z.string().min(1).max(LIMITS.entityNameChars).describe('Entity name or id'),
			limit: z.number().int().min(1).max(200).optional(),
			offset: z.number().int().min(0).optional(),
		}),
		outputSchema: z.object({
			entity: z
				.object({
					id: z.string(),
					name: z.string(),
					type: z.string(),
					event_count: z.number().int(),
				})
				.nullable(),
			similar_entities: z.array(
				z.object({ id: z.string(), name: z.string(), event_count: z.number().int() }),
			),
			events: z.array(EventBrief),
			has_more: z.boolean(),
			next_offset: z.number().int().optional(),
		}),
		annotations: READ_ONLY,
	},
	run: async (input, engine) => {
		const out = await engine.findByEntity({
			entity: input.entity,
			limit: input.limit ?? 20,
			offset: input.offset,
			max_content_chars: 300,
		});
		fitContents(
			out.memories,
			(m) => m.content,
			(m, s) => (m.content = s),
		);
		const e = out.entity;
		return {
			entity: e ? { id: e.id, name: e.name, type: e.type, event_count: e.memory_count } : null,
			similar_entities: out.matches.map((m) => ({
				id: m.id,
				name: m.name,
				event_count: m.memory_count,
			})),
			events: out.memories.map(brief),
			has_more: out.has_more,
			...(out.next_offset !== undefined ? { next_offset: out.next_offset } : {}),
		};
	},
	render: (out) =>
		out.entity
			? `${out.entity.name} (${out.entity.id}): ${out.entity.event_count} events\n${renderEvents(out)}`
			: `No entity by that name.${out.similar_entities.length ? ` Similar: ${out.similar_entities.map((e) => e.name).join(', ')}` : ''}`,
});

/** A native tool whose description names AiAkiv's siblings instead of Engram's. */
function withAiakivSiblings(tool: AnyToolDefinition): AnyToolDefinition {
	const description = tool.config.description
		.replace(/\brecall_memory\b/g, 'search_memory')
		.replace(/\bget_memory\b/g, 'get_memory_content');
	return { ...tool, config: { ...tool.config, description } };
}

export const aiakivProfile: Profile = {
	name: 'aiakiv',
	instructions:
		'AiAkiv-compatible memory of events, kept in the browser by Engram. save_memory stores an event (the summary is what search ranks on); search_memory answers questions; get_memory_content opens an event; find_memory_connections walks to events linked through shared entities; query_memory_graph matches explicit patterns; list_memory_timeline and find_memories_by_entity browse.',
	tools: [
		saveMemory,
		searchMemory,
		getMemoryContent,
		withAiakivSiblings(findMemoryConnections),
		withAiakivSiblings(queryMemoryGraph),
		listMemoryTimeline,
		findMemoriesByEntity,
	],
};

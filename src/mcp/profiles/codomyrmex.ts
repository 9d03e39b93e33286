/**
 * The codomyrmex profile (seed 003): memory_put, memory_get, memory_search, returning exactly
 * codomyrmex's memory dict (importance 1–4, created_at/last_accessed as epoch seconds). Unlike
 * codomyrmex's own MCP tools, which start a fresh in-memory store per call, these persist.
 * Non-object results are wrapped as `{ result }` in structuredContent, as Python MCP servers do;
 * the text is the bare JSON value.
 */
import { z } from 'zod';
import { isMemoryError } from '../../core/errors';
import type { Memory } from '../../core/schemas';
import type { EngineApi } from '../../engine/types';
import { fitContents } from '../render';
import { defineTool, READ_ONLY } from '../tool-definition';
import type { Profile } from './profile';

const LEVELS = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
const TYPES = ['episodic', 'semantic', 'procedural'] as const;
/** Recency half-scale of codomyrmex's score: exp(−age / 3600 s). */
const RECENCY_SECONDS = 3600;

/** codomyrmex's memory dict. */
export const CodomyrmexMemorySchema = z.object({
	id: z.string(),
	content: z.string(),
	memory_type: z.string().describe('episodic, semantic or procedural'),
	importance: z.number().int().describe('1 LOW, 2 MEDIUM, 3 HIGH, 4 CRITICAL'),
	metadata: z.record(z.string(), z.unknown()),
	tags: z.array(z.string()),
	created_at: z.number().describe('Epoch seconds'),
	access_count: z.number().int(),
	last_accessed: z.number().describe('Epoch seconds; 0.0 when never read'),
});
export type CodomyrmexMemory = z.infer<typeof CodomyrmexMemorySchema>;

/** An Engram memory as codomyrmex's dict. */
export function toCodomyrmex(m: Memory): CodomyrmexMemory {
	return {
		id: m.id,
		content: m.content,
		memory_type: m.type,
		importance: Math.min(4, Math.max(1, Math.round(m.importance * 4))),
		metadata: m.metadata,
		tags: m.tags,
		created_at: Date.parse(m.timestamp) / 1000,
		access_count: m.access_count,
		last_accessed: m.last_accessed ? Date.parse(m.last_accessed) / 1000 : 0.0,
	};
}

const json = (v: unknown) => JSON.stringify(v, null, 2);

const memoryPut = defineTool({
	name: 'memory_put',
	config: {
		title: 'memory_put',
		description: `Store a new memory entry with content, optional type, and importance. Returns the created memory as a dict: {id, content, memory_type, importance (1–4), metadata, tags, created_at (epoch seconds), access_count, last_accessed}.

Use it to remember a fact (semantic), an event (episodic) or a how-to (procedural). Do not use it to look something up (memory_search) or to re-read a memory (memory_get). Memories persist across calls and sessions; storing text that nearly equals an existing memory returns that memory instead of a copy.

Example: memory_put(content="The project deadline is March 1st", memory_type="episodic", importance="HIGH")`,
		inputSchema: z.object({
			content: z.string().min(1).max(50_000).describe('Text content of the memory'),
			memory_type: z.enum(TYPES).optional().describe('episodic (default), semantic or procedural'),
			importance: z
				.string()
				.transform((s) => s.toUpperCase())
				.pipe(z.enum(LEVELS))
				.optional()
				.describe('LOW, MEDIUM (default), HIGH or CRITICAL; case-insensitive'),
		}),
		outputSchema: CodomyrmexMemorySchema,
		annotations: {
			readOnlyHint: false,
			idempotentHint: false,
			destructiveHint: false,
			openWorldHint: false,
		},
	},
	run: async (input, engine, ctx) => {
		const out = await engine.store(
			{
				content: input.content,
				type: input.memory_type ?? 'episodic',
				importance: input.importance ?? 'MEDIUM',
			},
			ctx,
		);
		const [m] = await engine.getMemories([out.results[0].duplicate_of ?? out.results[0].memory_id]);
		return toCodomyrmex(m!);
	},
	render: json,
});

const memoryGet = defineTool({
	name: 'memory_get',
	config: {
		title: 'memory_get',
		description: `Retrieve a memory by its ID. Returns the memory dict (same format as memory_put's), or null if there is none; each read increments access_count and sets last_accessed.

Use it when you hold an id from memory_put or memory_search. Do not use it to search by text (memory_search).

Example: memory_get(memory_id="550e8400-e29b-41d4-a716-446655440000")`,
		inputSchema: z.object({
			memory_id: z.string().min(1).max(200).describe('ID of the memory to retrieve'),
		}),
		outputSchema: z.object({ result: CodomyrmexMemorySchema.nullable() }),
		annotations: READ_ONLY,
	},
	run: async (input, engine, ctx) => ({
		result: await getOrNull(engine, input.memory_id, ctx.actor),
	}),
	render: (out) => JSON.stringify(out.result, null, 2),
});

async function getOrNull(
	engine: EngineApi,
	id: string,
	actor?: string,
): Promise<CodomyrmexMemory | null> {
	try {
		const out = await engine.get({ memory_id: id, related_limit: 0 }, { actor });
		return toCodomyrmex(out.memory);
	} catch (e) {
		if (isMemoryError(e) && e.code === 'not_found') return null;
		throw e;
	}
}

const SearchHitSchema = z.object({
	memory: CodomyrmexMemorySchema,
	relevance: z.number(),
	combined_score: z.number(),
});

const memorySearch = defineTool({
	name: 'memory_search',
	config: {
		title: 'memory_search',
		description: `Search stored memories by a text query and return ranked results: [{memory, relevance, combined_score}], sorted by combined_score = 0.5·relevance + 0.3·recency + 0.2·(importance/4), where recency = exp(−age/3600 s) and relevance (0–1) blends keyword and meaning match. Very long contents are shortened so one answer stays under ~200k characters.

Use it to find memories about a topic. Do not use it when you already have the id (memory_get).

Example: memory_search(query="project deadline", k=3)`,
		inputSchema: z.object({
			query: z.string().min(1).max(2000).describe('Text query for relevance scoring'),
			k: z
				.number()
				.int()
				.min(1)
				.max(100)
				.optional()
				.describe('Maximum results to return (default 5)'),
		}),
		outputSchema: z.object({ result: z.array(SearchHitSchema) }),
		annotations: READ_ONLY,
	},
	run: async (input, engine, ctx) => ({
		result: await search(engine, input.query, input.k ?? 5, ctx.actor),
	}),
	render: (out) => JSON.stringify(out.result, null, 2),
});

/** Ranks a wider recall page by codomyrmex's combined score and keeps the top k. */
async function search(
	engine: EngineApi,
	query: string,
	k: number,
	actor?: string,
): Promise<z.infer<typeof SearchHitSchema>[]> {
	const out = await engine.recall(
		{ query, limit: Math.min(200, Math.max(4 * k, 20)), max_content_chars: 50_000 },
		{ actor },
	);
	const now = Date.now() / 1000;
	const hits = out.results.map((r) => {
		const relevance = out.lexical_only
			? r.components.lexical
			: (r.components.lexical + r.components.semantic) / 2;
		const memory = toCodomyrmex(r.memory);
		const recency = Math.exp(-Math.max(0, now - memory.created_at) / RECENCY_SECONDS);
		const combined = 0.5 * relevance + 0.3 * recency + 0.2 * (memory.importance / 4);
		return { memory, relevance: round4(relevance), combined_score: round4(combined) };
	});
	const top = hits.sort((a, b) => b.combined_score - a.combined_score).slice(0, k);
	fitContents(
		top,
		(h) => h.memory.content,
		(h, s) => (h.memory.content = s),
	);
	return top;
}

function round4(x: number): number {
	return Math.round(x * 10_000) / 10_000;
}

export const codomyrmexProfile: Profile = {
	name: 'codomyrmex',
	instructions:
		'Agentic memory: memory_put stores a memory, memory_get reads one by id, memory_search ranks memories for a query. Memories persist across calls.',
	tools: [memoryPut, memoryGet, memorySearch],
};

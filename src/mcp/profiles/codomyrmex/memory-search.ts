/** memory_search: memories ranked by codomyrmex's combined score. */
import { z } from 'zod';
import { round4 } from '../../../core/numbers';
import type { EngineApi } from '../../../engine/types';
import { READ_ONLY } from '../../annotations';
import { json, pyInt } from '../../profile-helpers';
import { fitContents } from '../../render';
import { defineTool } from '../../tool-definition';
import { CodomyrmexMemorySchema, toCodomyrmex } from './memory-dict';

/** Recency half-scale of codomyrmex's score: exp(−age / 3600 s). */
const RECENCY_SECONDS = 3600;

const SearchHitSchema = z.object({
	memory: CodomyrmexMemorySchema,
	relevance: z.number(),
	combined_score: z.number(),
});

export const memorySearch = defineTool({
	name: 'memory_search',
	config: {
		title: 'memory_search',
		description: `Search stored memories by a text query and return ranked results: [{memory, relevance, combined_score}], sorted by combined_score = 0.5·relevance + 0.3·recency + 0.2·(importance/4), where recency = exp(−age/3600 s) and relevance (0–1) blends keyword and meaning match. Very long contents are shortened so one answer stays under ~200k characters.

Use it to find memories about a topic. Do not use it when you already have the id (memory_get).

Example: memory_search(query="project deadline", k=3)`,
		inputSchema: z.object({
			query: z.string().min(1).max(2000).describe('Text query for relevance scoring'),
			k: pyInt(z.number().int().min(1).max(100)).optional().describe('Maximum results to return (default 5)'),
		}),
		outputSchema: z.object({ result: z.array(SearchHitSchema) }),
		annotations: READ_ONLY,
	},
	run: async (input, engine, ctx) => ({
		result: await search(engine, input.query, input.k ?? 5, ctx.actor),
	}),
	render: (out) => json(out.result),
});

/** Ranks a wider recall page by codomyrmex's combined score and keeps the top k. */
async function search(engine: EngineApi, query: string, k: number, actor?: string): Promise<z.infer<typeof SearchHitSchema>[]> {
	const out = await engine.recall({ query, limit: Math.min(200, Math.max(4 * k, 20)), max_content_chars: 50_000 }, { actor });
	const now = Date.now() / 1000;
	const hits = out.results.map((r) => {
		const relevance = out.lexical_only ? r.components.lexical : (r.components.lexical + r.components.semantic) / 2;
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

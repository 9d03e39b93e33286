/** search_memory: ranked events for a question (hybrid, semantic or keyword). */
import { z } from 'zod';
import { round3 } from '../../../core/numbers';
import { LIMITS } from '../../../core/schemas';
import { READ_ONLY } from '../../annotations';
import { defineTool } from '../../tool-definition';
import { summaryOf } from './events';

const EventHit = z.object({
	event_id: z.string(),
	summary: z.string(),
	snippet: z.string(),
	score: z.number(),
	timestamp: z.string(),
	tags: z.array(z.string()),
	entities: z.array(z.string()),
});

export const searchMemory = defineTool({
	name: 'search_memory',
	config: {
		title: 'Search memory',
		description: `Search events for a question and return the closest ones, ranked: {results: [{event_id, summary, snippet, score, timestamp, tags, entities}]}. mode: hybrid (default: meaning + keywords + recency), semantic (meaning only) or keyword; top_k results (5, ≤ 50). (AiAkiv's exact argument names for this tool are not public; these follow its older search tool.)

Use it first for any question about the past. Do not use it to walk what the hits connect to (find_memory_connections) or to match an explicit pattern (query_memory_graph). Open a hit's full text with get_memory_content.

Example: search_memory({ query: "which database did billing choose and why?", top_k: 5 })`,
		inputSchema: z.object({
			query: z.string().min(1).max(LIMITS.queryChars).describe('A complete sentence works best'),
			mode: z.enum(['hybrid', 'semantic', 'keyword']).optional().describe('hybrid (default), semantic or keyword'),
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
		const weights = mode === 'semantic' ? { lexical: 0 } : mode === 'keyword' ? { semantic: 0 } : undefined;
		const out = await engine.recall({ query: input.query, limit: input.top_k ?? 5, weights, max_content_chars: 400 }, ctx);
		const results = out.results.map((r) => ({
			event_id: r.memory.id,
			summary: summaryOf(r.memory),
			snippet: r.memory.content,
			score: round3(r.score),
			timestamp: r.memory.timestamp,
			tags: r.memory.tags,
			entities: r.memory.entities.map((e) => e.name),
		}));
		return { results, count: results.length, mode };
	},
	render: (out) =>
		out.results.length
			? out.results.map((r, i) => `${i + 1}. ${r.event_id} (${r.score}) ${r.timestamp.slice(0, 10)} — ${r.summary}`).join('\n')
			: 'No events matched.',
});

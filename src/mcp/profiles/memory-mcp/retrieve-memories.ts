/** retrieve_memories: semantic or most-recent listing with fuzzy label and source filters. */
import { z } from 'zod';
import type { EngineApi } from '../../../engine/types';
import { READ_ONLY } from '../../annotations';
import { json, pyInt } from '../../profile-helpers';
import { fitContents } from '../../render';
import { defineTool } from '../../tool-definition';
import { LabelsArg, SourceArg } from './args';
import { isFiltering, makeFilter, matches, scan, type Filter } from './filters';
import { McpMemorySchema, Shaper, type McpMemory } from './memory-dict';
import { isoOrder } from '../../../core/time';

export const retrieveMemories = defineTool({
	name: 'retrieve_memories',
	config: {
		title: 'Retrieve stored memories',
		description: `Retrieve memories with flexible filtering; all parameters are optional. With a query: ranked by cosine similarity to it (newest first on ties), each with similarity "83%". Without one: the most recent. labels filter fuzzily (comma-separated, any match; "!wine" excludes), source likewise.

Use it to find memories on a topic or under labels. Do not use it when you have an id (get_memory), or to count (memory_stats).

Examples: retrieve_memories(query="authentication decision") · retrieve_memories(labels="beer, !wine", num_results=10)`,
		inputSchema: z.object({
			query: z.string().max(2000).optional().describe('Text for semantic search'),
			labels: LabelsArg.optional(),
			source: SourceArg.optional(),
			num_results: pyInt(z.number().int().min(1).max(100)).optional().describe('Number of results (default 5)'),
		}),
		outputSchema: z.object({
			current_embedding: z.string().optional(),
			memories: z.array(McpMemorySchema),
			count: z.number().int(),
		}),
		annotations: READ_ONLY,
	},
	run: async (input, engine) => {
		const f = makeFilter(input.labels, input.source);
		const n = input.num_results ?? 5;
		const shaper = new Shaper(engine);
		const query = input.query?.trim();
		const memories = query ? await semantic(engine, shaper, query, f, n) : await recent(engine, shaper, f, n);
		fitContents(
			memories,
			(m) => m.content,
			(m, s) => (m.content = s),
		);
		return {
			...(query ? { current_embedding: (await engine.models()).active } : {}),
			memories,
			count: memories.length,
		};
	},
	render: json,
});

async function semantic(engine: EngineApi, shaper: Shaper, query: string, f: Filter, n: number): Promise<McpMemory[]> {
	const vec = await engine.embed(query);
	if (!vec) {
		// No known word for the model: fall back to keywords, as Engram's recall does.
		const hits = await engine.recall({ query, limit: 200, max_content_chars: 50_000 });
		const kept = hits.results.filter((h) => matches(h.memory, f)).slice(0, n);
		return Promise.all(kept.map((h) => shaper.memory(h.memory, 0, true)));
	}
	const near = await engine.nearest(vec, Math.min(2000, isFiltering(f) ? Math.max(200, n * 20) : n * 2));
	const mems = await engine.getMemories(near.map((x) => x.id));
	const picked = near.flatMap((x, i) => (mems[i] && matches(mems[i]!, f) ? [{ m: mems[i]!, cos: x.cosine }] : []));
	picked.sort((a, b) => b.cos - a.cos || isoOrder(b.m.timestamp, a.m.timestamp));
	return Promise.all(picked.slice(0, n).map((p) => shaper.memory(p.m, p.cos, true)));
}

async function recent(engine: EngineApi, shaper: Shaper, f: Filter, n: number): Promise<McpMemory[]> {
	const { hits } = await scan(engine, f, n);
	const mems = await engine.getMemories(hits.map((h) => h.id));
	return Promise.all(mems.flatMap((m) => (m ? [shaper.memory(m)] : [])));
}

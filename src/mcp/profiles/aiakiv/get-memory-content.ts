/** get_memory_content: one event in full, with the previous and next events of its thread. */
import { z } from 'zod';
import { EntityRefSchema, MemoryRefSchema } from '../../../core/schemas';
import type { EngineApi } from '../../../engine/types';
import { READ_ONLY } from '../../annotations';
import { defineTool } from '../../tool-definition';

/** Previous and next events of a thread, from OCCURRED_BEFORE and PRECEDED_BY links. */
async function neighbours(engine: EngineApi, id: string): Promise<{ prev: string[]; next: string[] }> {
	const prev: string[] = [];
	const next: string[] = [];
	for (const a of await engine.associationsOf(id)) {
		if ((a.type === 'OCCURRED_BEFORE' && a.to === id) || (a.type === 'PRECEDED_BY' && a.from === id)) prev.push(a.from === id ? a.to : a.from);
		if ((a.type === 'OCCURRED_BEFORE' && a.from === id) || (a.type === 'PRECEDED_BY' && a.to === id)) next.push(a.from === id ? a.to : a.from);
	}
	return { prev, next };
}

export const getMemoryContent = defineTool({
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
	render: (out) => `${out.event_id} ${out.timestamp}${out.summary ? `\n${out.summary}` : ''}\n\n${out.content}`,
});

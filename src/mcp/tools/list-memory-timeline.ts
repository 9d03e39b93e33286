/** list_memory_timeline: memories in time order, windowed and paged. */
import { TimelineInputSchema, TimelineOutputSchema } from '../../core/schemas';
import { fitContents, renderTimeline } from '../render';
import { defineTool, READ_ONLY } from '../tool-definition';

export const listMemoryTimeline = defineTool({
	name: 'list_memory_timeline',
	config: {
		title: 'List memory timeline',
		description: `List memories in time order (newest first unless order: "asc"), within a window given by time_query ("today", "last week", "in March 2024", "last 30 days") or start/end, filtered by scope, types and tags. Paged: limit (20, ≤ 200) and offset, with total and has_more.

Use it for "what happened when", a recap of a period, or to review what was added recently. Do not use it to find memories about a topic (recall_memory) or about one entity (find_memories_by_entity).

Examples: list_memory_timeline({ time_query: "last week", order: "asc" }) · list_memory_timeline({ scope: "project-x", types: ["Decision"], limit: 50 })`,
		inputSchema: TimelineInputSchema,
		outputSchema: TimelineOutputSchema,
		annotations: READ_ONLY,
	},
	run: async (input, engine) => {
		const out = await engine.timeline(input);
		fitContents(
			out.memories,
			(m) => m.content,
			(m, s) => (m.content = s),
		);
		return out;
	},
	render: renderTimeline,
});

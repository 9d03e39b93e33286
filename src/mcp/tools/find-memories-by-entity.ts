/** find_memories_by_entity: the memories that mention one entity. */
import { FindByEntityInputSchema, FindByEntityOutputSchema } from '../../core/schemas';
import { fitContents, renderByEntity } from '../render';
import { defineTool, READ_ONLY } from '../tool-definition';

export const findMemoriesByEntity = defineTool({
	name: 'find_memories_by_entity',
	config: {
		title: 'Find memories by entity',
		description: `List the memories that mention one entity (a person, project, tool, place, organisation, file, …), found by its name or id, newest first (start, end or time_query such as "last month" narrow it to a window), with the entity's record (type, memory count, first and last seen) and other entities with similar names.

Use it when the user names a specific thing: "everything about PostgreSQL", "what do we know about Sarah". Do not use it for free-text topics (recall_memory), nor for what is linked to the entity through other entities (find_memory_connections with relation "explore", or query_memory_graph).

Examples: find_memories_by_entity({ entity: "PostgreSQL" }) · find_memories_by_entity({ entity: "person:sarah", limit: 50 })`,
		inputSchema: FindByEntityInputSchema,
		outputSchema: FindByEntityOutputSchema,
		annotations: READ_ONLY,
	},
	run: async (input, engine) => {
		const out = await engine.findByEntity(input);
		fitContents(
			out.memories,
			(m) => m.content,
			(m, s) => (m.content = s),
		);
		return out;
	},
	render: renderByEntity,
});

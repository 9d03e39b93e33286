/** memory_stats: counts over the store. */
import { StatsInputSchema, StatsOutputSchema } from '../../core/schemas';
import { renderStats } from '../render';
import { defineTool, READ_ONLY } from '../tool-definition';

export const memoryStats = defineTool({
	name: 'memory_stats',
	config: {
		title: 'Memory statistics',
		description: `Counts of the memory store: memories (current and superseded), by type, scope and source; links by type; entities; top tags and entities; oldest and newest; embedding models. scope, tags or source narrow the counts.

Use it for an overview, or to size a scope or tag before a bulk action. Do not use it to find memories (recall_memory) or to check that storage works (check_database_health).

Examples: memory_stats({}) · memory_stats({ scope: "project-x" })`,
		inputSchema: StatsInputSchema,
		outputSchema: StatsOutputSchema,
		annotations: READ_ONLY,
	},
	run: (input, engine) => engine.stats(input),
	render: renderStats,
});

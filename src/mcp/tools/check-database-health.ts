/** check_database_health: storage, indexes and embedder status. */
import { z } from 'zod';
import { HealthOutputSchema } from '../../core/schemas';
import { renderHealth } from '../render';
import { defineTool, READ_ONLY } from '../tool-definition';

export const checkDatabaseHealth = defineTool({
	name: 'check_database_health',
	config: {
		title: 'Check database health',
		description: `Check that Engram's storage (IndexedDB), search indexes and embedding model work, with counts and any issues found (status healthy or degraded).

Use it when memory tools fail or return nothing unexpectedly, or at session start to confirm memory is available. Do not use it for content statistics (memory_stats).

Example: check_database_health({})`,
		inputSchema: z.object({}),
		outputSchema: HealthOutputSchema,
		annotations: READ_ONLY,
	},
	run: (_input, engine) => engine.health(),
	render: renderHealth,
});

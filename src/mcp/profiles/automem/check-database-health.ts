/** check_database_health: Engram's health in AutoMem's shape. */
import { z } from 'zod';
import { READ_ONLY } from '../../annotations';
import { defineTool } from '../../tool-definition';

export const checkDatabaseHealth = defineTool({
	name: 'check_database_health',
	config: {
		title: 'Check Database Health',
		description: `Check the health of the memory service and its stores (IndexedDB records, vector and keyword indexes, embedding model), with counts.

When to use: before a session to verify memory is available; when memory operations fail unexpectedly; to check storage statistics. Do not use it to search memories (recall_memory).

Example: check_database_health({})`,
		inputSchema: z.object({}),
		outputSchema: z.object({
			status: z.enum(['healthy', 'degraded', 'error']),
			backend: z.string(),
			statistics: z.record(z.string(), z.unknown()),
			error: z.string().optional(),
		}),
		annotations: READ_ONLY,
	},
	run: async (_input, engine) => {
		const h = await engine.health();
		return {
			status: h.status,
			backend: 'engram',
			statistics: {
				memory_count: h.database.memories,
				vector_count: h.vector_index.vectors,
				association_count: h.database.associations,
				entity_count: h.database.entities,
				vector_dimensions: h.embedder.dims,
				embedding_model: h.embedder.model,
				keyword_index_documents: h.lexical_index.documents,
				sync_status: h.vector_index.vectors === h.database.memories ? 'in_sync' : 'vectors_pending',
				storage: h.storage,
				timestamp: new Date().toISOString(),
			},
			...(h.issues.length ? { error: h.issues.join('; ') } : {}),
		};
	},
	render: (out) => {
		const s = out.statistics;
		const emoji = out.status === 'healthy' ? '✅' : out.status === 'degraded' ? '⚠️' : '❌';
		return `${emoji} Memory Health Status\n\nStatus: ${out.status}\nBackend: ${out.backend}\nMemory count: ${s.memory_count}\nVector count: ${s.vector_count}\nSync status: ${s.sync_status}\nTimestamp: ${s.timestamp}${out.error ? `\nError: ${out.error}` : ''}`;
	},
});

/** get_memory: one memory by its integer id, with its related memories. */
import { z } from 'zod';
import { READ_ONLY } from '../../annotations';
import { json } from '../../profile-helpers';
import { defineTool } from '../../tool-definition';
import { IdSchema } from './args';
import { bySeq, McpMemorySchema, Shaper } from './memory-dict';

export const getMemory = defineTool({
	name: 'get_memory',
	config: {
		title: 'Get specific memory by ID',
		description: `Direct retrieval by integer ID — no search, no scoring. Returns the complete record: content, labels, source, time ("4 days ago"), related_memories [{id, similarity "83%", source, shared_labels}] (the bidirectional related-memory graph built at store time), and meta {timestamp, namespace, embedding_tables}.

Use it to open a memory surfaced by retrieve_memories, and to follow related_memories one hop at a time with zero embedding cost. Do not use it to search (retrieve_memories).

Examples: get_memory(memory_id=42) · then get_memory(memory_id=38) for a related one`,
		inputSchema: z.object({ memory_id: IdSchema }),
		outputSchema: McpMemorySchema,
		annotations: READ_ONLY,
	},
	run: async (input, engine) => new Shaper(engine).memory(await bySeq(engine, input.memory_id)),
	render: json,
});

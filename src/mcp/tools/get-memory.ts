/** get_memory: one memory in full, with related memories and links; counts an access. */
import { z } from 'zod';
import { GetInputSchema, GetOutputSchema } from '../../core/schemas';
import { renderGet } from '../render';
import { READ_ONLY } from '../annotations';
import { defineTool } from '../tool-definition';

/** A hub memory can carry thousands of links; the rest are counted, not listed. */
const MAX_ASSOCIATIONS = 200;

const GetMemoryOutputSchema = GetOutputSchema.extend({
	associations_total: z.number().int().optional().describe('Set when associations was cut to 200'),
});

export const getMemory = defineTool({
	name: 'get_memory',
	config: {
		title: 'Get memory',
		description: `Read one memory in full by its id (or integer seq): content, summary, tags, type, entities, importance, validity window, human age ("4 days ago"), which embedding models hold a vector for it (embedding_tables), its authored links, and its most related memories with similarity.

Use it to open a memory that recall_memory, a graph tool or the user pointed to, and to follow related_memories one hop at a time without a new search. Do not use it to search (recall_memory). It counts one access (access_count, last_accessed; track_access: false skips that); nothing else changes.

Examples: get_memory({ memory_id: "8f3a2c1e-5b7d-4e9a-a1c3-2d4f6b8e0a91" }) · get_memory({ memory_id: "8f3a2c1e-5b7d-4e9a-a1c3-2d4f6b8e0a91", related_limit: 5 })`,
		inputSchema: GetInputSchema,
		outputSchema: GetMemoryOutputSchema,
		annotations: READ_ONLY,
	},
	run: async (input, engine, ctx) => {
		const out = await engine.get(input, ctx);
		if (out.associations.length <= MAX_ASSOCIATIONS) return out;
		return {
			...out,
			associations: out.associations.slice(0, MAX_ASSOCIATIONS),
			associations_total: out.associations.length,
		};
	},
	render: renderGet,
});

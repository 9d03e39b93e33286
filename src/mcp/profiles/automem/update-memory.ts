/** update_memory: AutoMem's fields of an in-place edit. */
import { z } from 'zod';
import { UpdateFieldsSchema } from '../../../core/schemas';
import { IDEMPOTENT_WRITE } from '../../annotations';
import { defineTool } from '../../tool-definition';

const UPDATE_FIELDS = [
	'memory_id',
	'content',
	'tags',
	'importance',
	'metadata',
	'timestamp',
	't_valid',
	't_invalid',
	'updated_at',
	'last_accessed',
	'type',
	'confidence',
] as const;

export const updateMemory = defineTool({
	name: 'update_memory',
	config: {
		title: 'Update Memory',
		description: `Update an existing memory's content, tags, importance, or metadata. Use this to correct or enhance memories rather than storing duplicates.

When to use: to correct inaccurate information; to add tags that were forgotten (tags replaces the list, so send the full list); to adjust importance based on new understanding; to add metadata after the fact (merged with existing). Do not use it when a fact changed over time: store the new one with store_memory's supersedes_memory_id so the old one stays as history. To remove a memory, use delete_memory.

Examples:
update_memory({ memory_id: "8f3a2c1e-5b7d-4e9a-a1c3-2d4f6b8e0a91", importance: 0.95 }) // Increase importance
update_memory({ memory_id: "8f3a2c1e-5b7d-4e9a-a1c3-2d4f6b8e0a91", tags: ["project-x", "critical", "auth"] }) // Add tags
update_memory({ memory_id: "8f3a2c1e-5b7d-4e9a-a1c3-2d4f6b8e0a91", content: "Updated: PostgreSQL chosen for ACID + team expertise" })`,
		inputSchema: UpdateFieldsSchema.pick(
			Object.fromEntries(UPDATE_FIELDS.map((k) => [k, true])) as {
				[K in (typeof UPDATE_FIELDS)[number]]: true;
			},
		),
		outputSchema: z.object({ memory_id: z.string(), message: z.string() }),
		annotations: IDEMPOTENT_WRITE,
	},
	run: async (input, engine, ctx) => {
		const out = await engine.update(input, ctx);
		return { memory_id: out.memory_id, message: `Memory ${out.memory_id} updated successfully!` };
	},
	render: (out) => out.message,
});

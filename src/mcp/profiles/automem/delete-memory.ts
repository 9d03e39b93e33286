/** delete_memory: one memory by id, or every memory with any of the tags. */
import { z } from 'zod';
import { MemoryError } from '../../../core/errors';
import { MemoryRefSchema, TagsSchema } from '../../../core/schemas';
import { DESTRUCTIVE_WRITE } from '../../annotations';
import { defineTool } from '../../tool-definition';

export const deleteMemory = defineTool({
	name: 'delete_memory',
	config: {
		title: 'Delete Memory',
		description: `Delete a memory by ID (memory_id) or bulk-delete by tag (tags). Use sparingly — consider update_memory instead.

Mode 1 — Single: memory_id deletes one memory, its embedding and its links.
Mode 2 — Bulk by tag: tags deletes ALL memories carrying ANY of the tags (exact, case-insensitive). There is no dry run; check first with recall_memory({ tags, exhaustive: true }).

When to use: a memory is wrong and cannot be corrected, or is a duplicate (mode 1); cleanup of test data or a deprecated tag namespace (mode 2). Do not use it for outdated facts: supersede them with store_memory's supersedes_memory_id.

Examples: delete_memory({ memory_id: "abc123" }) · delete_memory({ tags: ["benchmark-test"] })`,
		inputSchema: z
			.object({
				memory_id: MemoryRefSchema.optional().describe('Single-delete mode (XOR with tags)'),
				tags: TagsSchema.min(1).optional().describe('Bulk-delete mode (XOR with memory_id): every memory with any of these tags'),
			})
			.superRefine((v, ctx) => {
				if ((v.memory_id === undefined) === (v.tags === undefined))
					ctx.addIssue({
						code: 'custom',
						path: ['memory_id'],
						message: 'give exactly one of memory_id or tags',
					});
			}),
		outputSchema: z.object({
			memory_id: z.string().optional(),
			deleted_count: z.number().int().optional(),
			tags: z.array(z.string()).optional(),
			message: z.string(),
		}),
		annotations: DESTRUCTIVE_WRITE,
	},
	run: async (input, engine, ctx) => {
		if (input.tags) {
			const out = await engine.delete({ tags: input.tags, tag_mode: 'any' }, ctx);
			const n = out.deleted_count;
			return {
				deleted_count: n,
				tags: input.tags,
				message: `Bulk delete complete: removed ${n} memor${n === 1 ? 'y' : 'ies'} matching tag(s) ${input.tags.join(', ')}.`,
			};
		}
		const out = await engine.delete({ memory_id: input.memory_id! }, ctx);
		if (out.deleted_count === 0) throw new MemoryError('not_found', `memory_id: no memory with id ${JSON.stringify(input.memory_id)}`);
		return {
			memory_id: out.deleted_ids[0],
			message: `Memory ${out.deleted_ids[0]} deleted successfully!`,
		};
	},
	render: (out) => out.message,
});

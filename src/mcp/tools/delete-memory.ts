/** delete_memory: by id, by ids, or by tags; links to deleted memories go too. */
import { DeleteInputSchema, DeleteOutputSchema } from '../../core/schemas';
import { renderDelete } from '../render';
import { DESTRUCTIVE_WRITE } from '../annotations';
import { defineTool } from '../tool-definition';

export const deleteMemory = defineTool({
	name: 'delete_memory',
	config: {
		title: 'Delete memory',
		description: `Permanently delete memories: one by memory_id, several by memory_ids[], or every memory carrying tags (tag_mode any|all, optionally only in scope). Every link to and from them is removed too. There is no undo and no dry run.

Use it for wrong, duplicate or test data the user wants gone. Do not use it for facts that became outdated: store the new one with store_memory's supersedes_memory_id (history kept) or set t_invalid with update_memory. Before deleting by tags, look at what matches with recall_memory({ tags, limit: 200 }) or memory_stats({ tags }).

Pass request_id so a resend after a lost answer reports the original result (replayed: true) instead of not_found.

Examples: delete_memory({ memory_id: "8f3a2c1e-5b7d-4e9a-a1c3-2d4f6b8e0a91" }) · delete_memory({ tags: ["benchmark-test"] })`,
		inputSchema: DeleteInputSchema,
		outputSchema: DeleteOutputSchema,
		annotations: DESTRUCTIVE_WRITE,
	},
	run: (input, engine, ctx) => engine.delete(input, ctx),
	render: renderDelete,
});

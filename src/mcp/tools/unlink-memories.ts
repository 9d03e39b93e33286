/** unlink_memories: removes the links from one memory to another (one type, or every type). */
import { UnlinkInputSchema, UnlinkOutputSchema } from '../../core/schemas';
import { DESTRUCTIVE_WRITE } from '../annotations';
import { defineTool } from '../tool-definition';

export const unlinkMemories = defineTool({
	name: 'unlink_memories',
	config: {
		title: 'Unlink memories',
		description: `Remove the link from memory1 to memory2: only the given type, or every link between them in that direction when type is omitted. Both memories stay. A link that is not there is a not_found error.

Use it when a link made with associate_memories was wrong or no longer holds. Links run one way: to remove B → A, swap the ids (get_memory lists a memory's links in both directions). Do not use it to retire an outdated memory (store_memory with supersedes_memory_id keeps the history) or to delete one (delete_memory).

Examples: unlink_memories({ memory1_id: "bug-fix-123", memory2_id: "feature-456", type: "RELATES_TO" }) · unlink_memories({ memory1_id: "a", memory2_id: "b" })`,
		inputSchema: UnlinkInputSchema,
		outputSchema: UnlinkOutputSchema,
		annotations: DESTRUCTIVE_WRITE,
	},
	run: (input, engine, ctx) => engine.deleteAssociation(input, ctx),
	render: (out) => [out.message, ...out.removed.map((r) => `  ${r.memory1_id} -${r.type} ${r.strength}-> ${r.memory2_id} (removed)`)].join('\n'),
});

/** update_memory: correct or enrich a memory in place. */
import { UpdateInputSchema, UpdateOutputSchema } from '../../core/schemas';
import { renderUpdate } from '../render';
import { IDEMPOTENT_DESTRUCTIVE_WRITE } from '../annotations';
import { defineTool } from '../tool-definition';

export const updateMemory = defineTool({
	name: 'update_memory',
	config: {
		title: 'Update memory',
		description: `Correct or enrich an existing memory in place: replace its content (re-embedded), tags or entities; add or remove single tags (tags_add / tags_remove: applied to the tags it has at that moment, so edits by others are kept); set type, importance, confidence, source, scope or its validity window (t_valid/t_invalid; null clears); merge metadata (a null value deletes that key).

Use it when a memory is wrong, incomplete, mis-tagged or mis-weighted, rather than storing a duplicate. Do not use it when the world changed and the old memory was true at its time: store the new fact with store_memory's supersedes_memory_id so the history stays. Links are added with associate_memories.

Examples:
update_memory({ memory_id: "8f3a2c1e-5b7d-4e9a-a1c3-2d4f6b8e0a91", importance: 0.95 })
update_memory({ memory_id: "8f3a2c1e-5b7d-4e9a-a1c3-2d4f6b8e0a91", tags: ["project-x", "critical", "auth"] })
update_memory({ memory_id: "8f3a2c1e-5b7d-4e9a-a1c3-2d4f6b8e0a91", tags_add: ["done"], tags_remove: ["todo"] })
update_memory({ memory_id: "8f3a2c1e-5b7d-4e9a-a1c3-2d4f6b8e0a91", content: "Updated: PostgreSQL chosen for ACID + team expertise", metadata: { reviewed: true } })`,
		inputSchema: UpdateInputSchema,
		outputSchema: UpdateOutputSchema,
		annotations: IDEMPOTENT_DESTRUCTIVE_WRITE,
	},
	run: (input, engine, ctx) => engine.update(input, ctx),
	render: renderUpdate,
});

/** delete_memory: delete one memory by its integer id. */
import { z } from 'zod';
import { isMemoryError, MemoryError } from '../../../core/errors';
import { IDEMPOTENT_DESTRUCTIVE_WRITE } from '../../annotations';
import { json } from '../../profile-helpers';
import { defineTool } from '../../tool-definition';
import { IdSchema } from './args';
import { bySeq } from './memory-dict';

export const deleteMemory = defineTool({
	name: 'delete_memory',
	config: {
		title: 'Delete memory by ID',
		description: `Delete one memory by its integer ID; its related-memory links are removed from the other side too. Returns {success, message}.

Use it for wrong or unwanted memories. Do not use it to change labels (del_labels, replace_labels).

Example: delete_memory(memory_id=42)`,
		inputSchema: z.object({ memory_id: IdSchema }),
		outputSchema: z.object({ success: z.boolean(), message: z.string() }),
		annotations: IDEMPOTENT_DESTRUCTIVE_WRITE,
	},
	run: async (input, engine, ctx) => {
		const m = await bySeq(engine, input.memory_id);
		// A retried delete racing the first can find the memory gone between the lookup and the
		// delete: say so with the integer id the agent gave, not the engine's internal one.
		const out = await engine.delete({ memory_id: m.id }, ctx).catch((e: unknown) => {
			if (isMemoryError(e) && e.code === 'not_found') return { deleted_count: 0 };
			throw e;
		});
		if (out.deleted_count === 0) throw new MemoryError('not_found', `memory_id: ❌ Memory #${input.memory_id} not found`);
		return { success: true, message: `✅ Memory #${input.memory_id} deleted successfully` };
	},
	render: json,
});

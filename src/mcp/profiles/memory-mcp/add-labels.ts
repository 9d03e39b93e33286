/** add_labels: add labels to a memory, keeping the ones it has. */
import { z } from 'zod';
import { IDEMPOTENT_WRITE } from '../../annotations';
import { json } from '../../profile-helpers';
import { defineTool } from '../../tool-definition';
import { IdSchema, LabelResultSchema, LabelsInput, relabel, requireLabels } from './args';

export const addLabels = defineTool({
	name: 'add_labels',
	config: {
		title: 'Add labels to a memory',
		description: `Add labels to an existing memory, keeping the ones it has (exact duplicates skipped). Returns {success, message, labels}.

Use it to categorise a memory further. Do not use it to swap a label for another (replace_labels does that in one step).

Example: add_labels(memory_id=42, labels="beer, belgian")`,
		inputSchema: z.object({ memory_id: IdSchema, labels: LabelsInput }),
		outputSchema: LabelResultSchema,
		annotations: IDEMPOTENT_WRITE,
	},
	run: async (input, engine, ctx) => {
		const { labels } = await relabel(engine, input.memory_id, { tags_add: requireLabels(input.labels, 'labels') }, ctx.actor);
		return { success: true, message: `✅ Labels added to memory #${input.memory_id}`, labels };
	},
	render: json,
});

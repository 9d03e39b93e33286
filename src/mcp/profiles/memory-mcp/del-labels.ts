/** del_labels: remove labels from a memory. */
import { z } from 'zod';
import { IDEMPOTENT_DESTRUCTIVE_WRITE } from '../../annotations';
import { json } from '../../profile-helpers';
import { defineTool } from '../../tool-definition';
import { IdSchema, LabelResultSchema, LabelsInput, relabel, requireLabels } from './args';

export const delLabels = defineTool({
	name: 'del_labels',
	config: {
		title: 'Remove labels from a memory',
		description: `Remove specific labels from an existing memory (case-insensitive match; labels it does not have are ignored). Returns {success, message, labels}.

Use it to drop wrong or stale labels. Do not use it to rename a label (replace_labels).

Example: del_labels(memory_id=42, labels="draft")`,
		inputSchema: z.object({ memory_id: IdSchema, labels: LabelsInput }),
		outputSchema: LabelResultSchema,
		annotations: IDEMPOTENT_DESTRUCTIVE_WRITE,
	},
	run: async (input, engine, ctx) => {
		const { labels } = await relabel(engine, input.memory_id, { tags_remove: requireLabels(input.labels, 'labels') }, ctx.actor);
		return { success: true, message: `✅ Labels removed from memory #${input.memory_id}`, labels };
	},
	render: json,
});

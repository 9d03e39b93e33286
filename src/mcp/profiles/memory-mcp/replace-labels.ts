/** replace_labels: swap labels for others in one write. */
import { z } from 'zod';
import { IDEMPOTENT_WRITE } from '../../annotations';
import { json } from '../../profile-helpers';
import { defineTool } from '../../tool-definition';
import { IdSchema, LabelResultSchema, LabelsInput, relabel, requireLabels } from './args';

export const replaceLabels = defineTool({
	name: 'replace_labels',
	config: {
		title: 'Replace labels on a memory',
		description: `Replace one or more labels with one or more new ones in a single write, so a label state change (e.g. "todo" → "done") never shows half-done. target is matched case-insensitively; new keeps its case. Returns {success, message, labels}.

Use it for status transitions and renames. Do not use it just to add (add_labels) or remove (del_labels).

Example: replace_labels(memory_id=42, target="todo", new="done")`,
		inputSchema: z.object({
			memory_id: IdSchema,
			target: LabelsInput.describe('Label(s) to remove, comma-separated'),
			new: LabelsInput.describe('Label(s) to add in their place, comma-separated'),
		}),
		outputSchema: LabelResultSchema,
		annotations: IDEMPOTENT_WRITE,
	},
	run: async (input, engine, ctx) => {
		const edit = { tags_remove: requireLabels(input.target, 'target'), tags_add: requireLabels(input.new, 'new') };
		const labels = await relabel(engine, input.memory_id, edit, ctx.actor, { tags_add: 'new', tags_remove: 'target' });
		return { success: true, message: `✅ Labels replaced on memory #${input.memory_id}`, labels };
	},
	render: json,
});

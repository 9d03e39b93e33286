/** replace_labels: swap labels for others in one write. */
import { z } from 'zod';
import { isMemoryError, MemoryError } from '../../../core/errors';
import { IDEMPOTENT_WRITE } from '../../annotations';
import { json } from '../../profile-helpers';
import { defineTool } from '../../tool-definition';
import { IdSchema, LabelResultSchema, LabelsInput, relabel, requireLabels } from './args';

export const replaceLabels = defineTool({
	name: 'replace_labels',
	config: {
		title: 'Replace labels on a memory',
		description: `Replace one or more labels with one or more new ones in a single write, so a label state change (e.g. "todo" → "done") never shows half-done. target is matched case-insensitively; new keeps its case. Returns {success, message, labels}.

When the memory has none of the target labels, nothing changes and the call fails (use add_labels to add); when it already has none of them and all of new (a retried call), it succeeds and changes nothing. Target labels it lacks are ignored when it has another.

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
		const names = { tags_add: 'new', tags_remove: 'target' };
		const { labels, changed } = await relabel(engine, input.memory_id, edit, ctx.actor, names, true).catch((e: unknown) => {
			if (isMemoryError(e) && e.code === 'not_found' && e.message.startsWith('target:'))
				throw new MemoryError('not_found', `${e.message}. To add labels without replacing one, use add_labels`, e.data);
			throw e;
		});
		const done = edit.tags_remove.some((t) => labels.some((l) => l.toLowerCase() === t.toLowerCase()));
		const message =
			changed || done
				? `✅ Labels replaced on memory #${input.memory_id}`
				: `✅ Labels already replaced on memory #${input.memory_id} (it has none of the target labels and all of the new ones): nothing changed`;
		return { success: true, message, labels };
	},
	render: json,
});

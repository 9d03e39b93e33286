/**
 * The activity log's entry: who did what to which memory, when. A core schema because three
 * layers share it: the store keeps it as a row (store/rows.ts `ActivityRow`), the engine writes
 * and reads it, and the UI shows it as a memory's history.
 */
import { z } from 'zod';

/** What an activity entry records. */
export const ACTIVITY_ACTIONS = [
	'created',
	'updated',
	'accessed',
	'deleted',
	'associated',
	'unlinked',
	'recalled',
	'imported',
	'restored',
	/** Background work the engine does on its own failed (engine/background.ts). */
	'failed',
] as const;

/** One field's value before and after an update (absent = the field was unset). */
export const FieldChangeSchema = z.object({
	from: z.unknown().optional().describe('Value before'),
	to: z.unknown().optional().describe('Value after'),
});
export type FieldChange = z.infer<typeof FieldChangeSchema>;

/** One entry of a memory's history / the activity log. */
export const ActivityEntrySchema = z.object({
	id: z.number().int().optional().describe('Row id, assigned by the store'),
	at: z.string().describe('When (ISO 8601 UTC)'),
	actor: z.string().describe('Who: "you", or the agent or client'),
	action: z.enum(ACTIVITY_ACTIONS).describe('What was done'),
	memory_id: z.string().optional().describe('The memory it is about'),
	/**
	 * The memories of an entry about several (a batch store writes one `created` entry); a link's
	 * entry names its other end here, so both memories' histories show it.
	 */
	memory_ids: z.array(z.string()).optional().describe('The memories of an entry about several'),
	detail: z.string().optional().describe('Free text'),
	changes: z.record(z.string(), FieldChangeSchema).optional().describe('`updated`: each changed field, before and after'),
	link: z
		.object({ from: z.string(), to: z.string(), type: z.string() })
		.optional()
		.describe('`associated` / `unlinked`: the link, so a history can name both ends'),
});
export type ActivityEntry = z.infer<typeof ActivityEntrySchema>;

/**
 * Export and import.
 */
import { z } from 'zod';
import { LIMITS, TagsSchema, wellFormedInput } from './primitives';

// ---------------------------------------------------------------- export / import

export const ExportInputSchema = wellFormedInput(
	z.object({
		format: z.enum(['json', 'jsonl', 'markdown']).optional().describe('json (default), jsonl or markdown'),
		scope: z.string().min(1).max(200).optional(),
		tags: TagsSchema.optional(),
		include_vectors: z.boolean().optional().describe('Include embedding vectors (false)'),
		limit: z.number().int().min(1).max(100_000).optional(),
		offset: z.number().int().min(0).optional(),
		after_seq: z
			.number()
			.int()
			.min(0)
			.optional()
			.describe('Page on after this seq (next_after_seq): unlike offset, memories deleted or added meanwhile shift nothing'),
	}),
);
export type ExportInput = z.infer<typeof ExportInputSchema>;
export const ExportOutputSchema = z.object({
	format: z.enum(['json', 'jsonl', 'markdown']),
	data: z.string(),
	memory_count: z.number().int(),
	association_count: z.number().int(),
	entity_count: z.number().int(),
	has_more: z.boolean(),
	next_offset: z.number().int().optional(),
	next_after_seq: z.number().int().optional().describe('Pass as after_seq for the next page'),
});
export type ExportOutput = z.infer<typeof ExportOutputSchema>;

// An import's `data` is checked record by record instead (import-formats.ts `check`): a file with one
// ill-formed record imports the others and names that record's line, rather than refusing them all.
export const ImportInputSchema = wellFormedInput(
	z.object({
		data: z.string().min(1).max(LIMITS.importChars).describe('The export text'),
		format: z
			.enum(['json', 'jsonl', 'markdown', 'server-memory-jsonl', 'mem0-json', 'chat-json', 'auto'])
			.optional()
			.describe(
				'auto (default) detects by content: JSON/JSONL (Engram or plain {"content", "tags", ...} records), mem0 JSON, a ChatGPT or Claude conversations.json (chat-json: one memory per message), Markdown, or server-memory JSONL',
			),
		on_conflict: z.enum(['skip', 'replace']).optional().describe('When an id already exists: skip (default) or replace'),
		scope: z.string().min(1).max(200).optional().describe('Put imported memories in this scope'),
	}),
	new Set(['data']),
);
export type ImportInput = z.infer<typeof ImportInputSchema>;
export const ImportOutputSchema = z.object({
	success: z.boolean(),
	message: z.string(),
	imported: z.number().int(),
	replaced: z.number().int(),
	skipped: z.number().int(),
	associations: z.number().int(),
	entities: z.number().int(),
	kept_differing: z
		.number()
		.int()
		.optional()
		.describe('Of the skipped, how many differ from the stored memory with their id (each is listed in not_imported)'),
	refused: z.number().int().describe('Records refused; `errors` lists the first 50 by line'),
	errors: z.array(z.object({ line: z.number().int().optional(), error: z.string() })).max(50),
	not_imported: z
		.array(z.object({ line: z.number().int().optional(), text: z.string() }))
		.max(50)
		.optional()
		.describe('Text that is not a memory (a Markdown rule, an empty heading, a link to no note), first 50 by line'),
});
export type ImportOutput = z.infer<typeof ImportOutputSchema>;

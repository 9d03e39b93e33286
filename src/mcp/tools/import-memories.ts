/** import_memories: load an export (or server-memory JSONL) in one transaction. */
import { ImportInputSchema, ImportOutputSchema } from '../../core/schemas';
import { renderImport } from '../render';
import { IDEMPOTENT_DESTRUCTIVE_WRITE } from '../annotations';
import { defineTool } from '../tool-definition';

export const importMemories = defineTool({
	name: 'import_memories',
	config: {
		title: 'Import memories',
		description: `Import memories, links and entities from text: Engram's own json, jsonl or markdown export, or the JSONL file of @modelcontextprotocol/server-memory (format "auto" detects which). Memories whose id already exists are skipped (on_conflict "skip", default) or overwritten ("replace"); scope puts everything into one scope. A record without an id gets one from its scope, text, tags, time and type, so resending the same data adds no copies (a record repeated within the data is kept each time). Lines that cannot be read are reported in errors with their line number.

Use it when the user hands you an export or a file from another memory tool. Do not use it to add a few new memories (store_memory, which also links and de-duplicates them), nor to restore single fields (update_memory).

Example: import_memories({ data: "<the jsonl text>", format: "jsonl", scope: "imported" })`,
		inputSchema: ImportInputSchema,
		outputSchema: ImportOutputSchema,
		annotations: IDEMPOTENT_DESTRUCTIVE_WRITE,
	},
	run: (input, engine, ctx) => engine.importMemories(input, ctx),
	render: renderImport,
});

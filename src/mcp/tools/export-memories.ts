/** export_memories: a page of the store as text, at most EXPORT_CAP characters per call. */
import { ExportInputSchema, ExportOutputSchema, type ExportInput, type ExportOutput } from '../../core/schemas';
import type { EngineApi } from '../../engine/types';
import { renderExport } from '../render';
import { defineTool, READ_ONLY } from '../tool-definition';

/** Most characters of export data one call returns (~1 MB); the rest is paged. */
export const EXPORT_CAP = 1_000_000;
const DEFAULT_PAGE = 1000;

export const exportMemories = defineTool({
	name: 'export_memories',
	config: {
		title: 'Export memories',
		description: `Export memories with their links and entities as text: json (default), jsonl or markdown, optionally only a scope or tags, with embedding vectors if include_vectors. One page per call, at most ~1 MB: when has_more is true, call again with after_seq: next_after_seq until it is false (offset: next_offset also pages, but skips a memory when one is deleted between the calls). import_memories reads the json and jsonl forms back.

Use it when the user asks for a backup, a file to keep, or to move memories to another tool. Do not use it to read or search memories (recall_memory, list_memory_timeline): exports are large and cost context.

Examples: export_memories({ format: "markdown", scope: "project-x" }) · export_memories({ format: "jsonl", after_seq: 1000 })`,
		inputSchema: ExportInputSchema,
		outputSchema: ExportOutputSchema,
		annotations: READ_ONLY,
	},
	run: (input, engine) => exportPage(engine, input),
	render: renderExport,
});

/** Exports one page, shrinking it until its data fits EXPORT_CAP (a memory is at most ~130 KB). */
export async function exportPage(engine: EngineApi, input: ExportInput): Promise<ExportOutput> {
	let limit = input.limit ?? DEFAULT_PAGE;
	for (;;) {
		const out = await engine.exportMemories({ ...input, limit });
		if (out.data.length <= EXPORT_CAP || limit === 1) return out;
		// Aim a little under the cap from the measured size per memory, then check again.
		limit = Math.max(1, Math.min(limit - 1, Math.floor((limit * EXPORT_CAP * 0.9) / out.data.length)));
	}
}

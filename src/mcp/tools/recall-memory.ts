/** recall_memory: hybrid, explainable ranking with filters; output bounded in size. */
import { RecallInputSchema, RecallOutputSchema, type RecallOutput } from '../../core/schemas';
import { compactMetadata, countWithinBudget, fitContents, renderRecall } from '../render';
import { READ_ONLY } from '../annotations';
import { defineTool } from '../tool-definition';

export const recallMemory = defineTool({
	name: 'recall_memory',
	config: {
		title: 'Recall memories',
		description: `Find the memories relevant to a question or topic. Hybrid ranking of keyword match (BM25), meaning (embeddings), recency, importance, confidence, access and links, with every score component in the result so you can see why each one ranked.

Use it at the start of a task, before a decision, or whenever past context might matter. Do not use it to open one memory you have an id for (get_memory), to list by time (list_memory_timeline) or by entity (find_memories_by_entity), or to find what results connect to through shared entities (find_memory_connections).

Filters: tags (tag_mode any|all, tag_match exact|prefix, exclude_tags), types, scope, source, time (time_query such as "last week" or "in March 2024", or start/end), current_only (skip superseded memories and follow EVOLVED_INTO/INVALIDATED_BY to the newest), min_score. sort: score or time_desc/time_asc. Paging: limit (10, ≤ 200) and offset; has_more and next_offset tell you when to page. Contents are cut to max_content_chars (2000); get_memory has the full text.

Examples:
recall_memory({ query: "which database did we pick for the user service, and why?" })
recall_memory({ query: "auth bugs", tags: ["my-project"], time_query: "last month", current_only: true })
recall_memory({ queries: ["deployment checklist", "release process"], limit: 5 })`,
		inputSchema: RecallInputSchema,
		outputSchema: RecallOutputSchema,
		annotations: READ_ONLY,
	},
	run: async (input, engine, ctx) => boundRecall(await engine.recall(input, ctx), input.offset ?? 0),
	render: renderRecall,
});

/** Cuts contents, large metadata and, last, trailing results so the output stays ~1 MB at most. */
export function boundRecall(out: RecallOutput, offset: number): RecallOutput {
	fitContents(
		out.results,
		(r) => r.memory.content,
		(r, s) => {
			r.memory.content = s;
			r.content_truncated = true;
		},
	);
	for (const r of out.results) r.memory.metadata = compactMetadata(r.memory.metadata);
	const keep = countWithinBudget(out.results);
	if (keep === out.results.length) return out;
	return {
		...out,
		results: out.results.slice(0, keep),
		has_more: true,
		next_offset: offset + keep,
	};
}

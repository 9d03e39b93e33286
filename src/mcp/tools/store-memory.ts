/** store_memory: save one memory or a batch of up to 500 in one transaction. */
import { StoreInputSchema, StoreOutputSchema } from '../../core/schemas';
import { renderStore } from '../render';
import { ADDITIVE_WRITE } from '../annotations';
import { defineTool } from '../tool-definition';

export const storeMemory = defineTool({
	name: 'store_memory',
	config: {
		title: 'Store memory',
		description: `Save something worth remembering across sessions: a decision and its reason, a user preference, a pattern, a fix, a fact about a person or project. One memory per call (top-level content plus tags, type, importance, …), or up to 500 as memories[] in one transaction.

Use it after a decision, a discovery, a correction or a stated preference. Do not use it to change a memory that exists: use update_memory, or pass supersedes_memory_id to replace an outdated one while keeping its history. Near-duplicates of an existing memory are not stored twice: the result carries status "duplicate" and the existing id (force: true stores anyway); tags and metadata keys it brings that the memory lacks are added to it (merged_tags, merged_metadata).

On store Engram extracts entities (or takes yours), links the memory to similar ones (SIMILAR_TO) and to the previous one in its scope (PRECEDED_BY). Add typed links with associate_memories.

Pass request_id (a new UUID per intended store) so a resend after a lost answer is not stored twice: the resend returns the original result with replayed: true.

Write one idea per memory, 1–3 sentences with the why; tag with the project; importance 0.9+ for decisions that must not be lost (LOW/MEDIUM/HIGH/CRITICAL also accepted).

Examples:
store_memory({ content: "Chose PostgreSQL over MongoDB for the user service: we need ACID transactions.", tags: ["user-service", "database"], type: "Decision", importance: 0.9 })
store_memory({ content: "User now prefers SQLite for small local tools.", supersedes_memory_id: "8f3a2c1e-…", supersede_relation: "EVOLVED_INTO" })
store_memory({ memories: [{ content: "…" }, { content: "…", tags: ["import"] }] })`,
		inputSchema: StoreInputSchema,
		outputSchema: StoreOutputSchema,
		annotations: ADDITIVE_WRITE,
	},
	run: (input, engine, ctx) => engine.store(input, ctx),
	render: renderStore,
});

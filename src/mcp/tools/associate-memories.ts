/** associate_memories: typed links between memories, single or batch with partial-failure report. */
import { AssociateInputSchema, AssociateOutputSchema } from '../../core/schemas';
import { renderAssociate } from '../render';
import { IDEMPOTENT_WRITE } from '../annotations';
import { defineTool } from '../tool-definition';

export const associateMemories = defineTool({
	name: 'associate_memories',
	config: {
		title: 'Associate memories',
		description: `Link two memories with a typed relationship, or up to 500 pairs in associations[]. Links make recall surface related context and let the graph tools walk from one memory to the next. Idempotent: the same (memory1_id, memory2_id, type) updates the existing link.

Use it after storing a memory that relates to an earlier one: a fix to the feature it fixes, a decision to the one it replaces, a pattern to its examples. Do not use it to replace an outdated memory in one step (store_memory with supersedes_memory_id does that and marks the old one invalid), or to find links (get_memory, find_memory_connections).

Types (memory1 → memory2):
RELATES_TO general (default) · LEADS_TO caused · OCCURRED_BEFORE earlier in time · PREFERS_OVER chosen over (reason, context) · EXEMPLIFIES is an example of (pattern_type, confidence) · CONTRADICTS conflicts with (reason, resolution) · REINFORCES supports (observations) · INVALIDATED_BY superseded by (reason, timestamp) · EVOLVED_INTO newer version is (reason, confidence) · DERIVED_FROM implements (transformation, confidence) · PART_OF component of (role, context).
SIMILAR_TO, PRECEDED_BY, EXPLAINS, SHARES_THEME, PARALLEL_CONTEXT and DISCOVERED are made by Engram: they appear in results but are not valid here.
strength: 0.9+ direct causation, 0.7–0.9 strong, 0.5–0.7 moderate (default 0.5).

In batch mode each pair succeeds or fails on its own: success is false when any failed, and failed[] says which and why.

Examples:
associate_memories({ memory1_id: "bug-fix-123", memory2_id: "feature-456", type: "RELATES_TO", strength: 0.9 })
associate_memories({ memory1_id: "old-decision", memory2_id: "new-decision", type: "EVOLVED_INTO", strength: 0.8, reason: "moved to managed Postgres" })
associate_memories({ associations: [{ memory1_id: "a", memory2_id: "b", type: "PART_OF", strength: 0.7, role: "migration step" }] })`,
		inputSchema: AssociateInputSchema,
		outputSchema: AssociateOutputSchema,
		annotations: IDEMPOTENT_WRITE,
	},
	run: (input, engine, ctx) => engine.associate(input, ctx),
	render: renderAssociate,
});

/** associate_memories: Engram's tool with AutoMem's description and text. */
import { AssociateInputSchema, AssociateOutputSchema } from '../../../core/schemas';
import { defineTool } from '../../tool-definition';
import { associateMemories as nativeAssociate } from '../../tools/associate-memories';

export const associateMemories = defineTool({
	...nativeAssociate,
	config: {
		...nativeAssociate.config,
		title: 'Associate Memories',
		description: `Create typed relationships between memories. This builds a knowledge graph that improves recall by surfacing related context. Supports single-pair mode or batch mode with associations[] (max 500). Idempotent: the same (memory1_id, memory2_id, type) updates the existing link.

When to use: after storing a new memory, to link it to related existing memories; when a bug fix relates to an original feature implementation; when a new decision updates or invalidates a previous one; to connect patterns with their concrete examples. Do not use it to replace an outdated memory (store_memory with supersedes_memory_id marks the old one invalid and links both in one step).

Authorable relationship types:
RELATES_TO: general relationship (default) · LEADS_TO: causal (A caused B) · OCCURRED_BEFORE: temporal ordering · PREFERS_OVER: chosen alternative · EXEMPLIFIES: concrete example of a pattern · CONTRADICTS: conflicts with another memory · REINFORCES: strengthens another memory's validity · INVALIDATED_BY: superseded by another memory · EVOLVED_INTO: updated version of a concept · DERIVED_FROM: implementation of a decision/pattern · PART_OF: component of a larger effort.
Relation-specific fields: reason (PREFERS_OVER, CONTRADICTS, INVALIDATED_BY, EVOLVED_INTO), context (PREFERS_OVER, PART_OF), role (PART_OF), confidence (EXEMPLIFIES, EVOLVED_INTO, DERIVED_FROM), resolution (CONTRADICTS), observations (REINFORCES), pattern_type (EXEMPLIFIES), transformation (DERIVED_FROM), timestamp (INVALIDATED_BY).
SIMILAR_TO, PRECEDED_BY, EXPLAINS, SHARES_THEME, PARALLEL_CONTEXT and DISCOVERED may appear in recall results but are not valid inputs here.

Examples:
associate_memories({ memory1_id: "bug-fix-123", memory2_id: "feature-456", type: "RELATES_TO", strength: 0.9 })
associate_memories({ memory1_id: "new-decision", memory2_id: "old-decision", type: "EVOLVED_INTO", strength: 0.8 })
associate_memories({ associations: [{ memory1_id: "a", memory2_id: "b", type: "RELATES_TO", strength: 0.8 }] })`,
		inputSchema: AssociateInputSchema,
		outputSchema: AssociateOutputSchema,
	},
	render: (out) => {
		const batch = out.succeeded.length + out.failed.length > 1 ? `\n\nCreated: ${out.created_count + out.updated_count}\nFailed: ${out.failed_count}` : '';
		return `${out.success ? 'Association created successfully!' : 'Association completed with failures.'}\n\nMessage: ${out.message}${batch}`;
	},
});

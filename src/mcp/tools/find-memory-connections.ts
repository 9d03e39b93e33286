/** find_memory_connections: the entity–memory graph walk of seed 002, run in the engine (engine/graph/connections.ts). */
import { ConnectionsInputSchema, ConnectionsOutputSchema } from '../../core/graph-schemas';
import { renderConnections } from '../render';
import { defineTool, READ_ONLY } from '../tool-definition';

export const FIND_CONNECTIONS_DESCRIPTION = `Walk the entity–memory graph outward from what a sentence finds, one or two hops.

Search returns the closest memories; this returns memories connected to them through shared entities (people, projects, tools, places…) that the ranking left outside the top hits, each candidate carrying its bridge entity, path, and evidence (cosine to the sentence and its percentile in scope).

Use this when the user asks what is linked to something that a ranked search did not surface. Do not use it for a direct answer to a question; use recall_memory for that. Do not use it when the request states a pattern to match; use query_memory_graph for that.

Read-only. Candidates are unverified pointers, not established facts.

Args:
  sentence: One complete sentence, not keywords. Required for every relation except explore, which forbids it.
  anchor_entity_id: An entity id (or its exact name) to walk from instead of a vector entry; this path does not depend on the ranking. Required for relation "explore".
  relation: similar (default, time-stratified: picks spread over the candidates' time span), before, after, evolution, contrast, or explore. before and after require exactly one of reference_time or anchor_event_id; there is no implicit "now". evolution follows EVOLVED_INTO / INVALIDATED_BY links and time order: first sighting, biggest shifts, latest. contrast returns candidates sharing entities but lower in cosine, narrowed by cosine without judging opposition, which the reader does. explore needs anchor_entity_id, forbids sentence, and returns grounding "exploration".
  reference_time: ISO 8601 basis for before and after.
  anchor_event_id: Memory id basis for before and after.
  top_n: Max candidates per round (8; server-capped at 25).
  expansion_rounds: 1 (default) or 2. Round 2 re-expands from the round-1 picks through bridges not used in round 1, reaching things two structural steps away, so a 2-round call can return up to twice top_n in total. Each candidate carries its round.
  scope: Walk one scope only (default all).

Returns {candidates: [{event_id, summary, path, bridge_entity_id, cosine, cosine_percentile, timestamp, round}], grounding, grounding_basis, bridges, entry, searched_scope, truncations}. grounding is grounded, weak, absent, or exploration; absent means no neighbourhood exists for this sentence in scope, an honest empty rather than a failure. event_id feeds get_memory.

Example: find_memory_connections({ sentence: "We moved the session cache from Redis to Postgres.", expansion_rounds: 2 })`;

export const findMemoryConnections = defineTool({
	name: 'find_memory_connections',
	config: {
		title: 'Find memory connections',
		description: FIND_CONNECTIONS_DESCRIPTION,
		inputSchema: ConnectionsInputSchema,
		outputSchema: ConnectionsOutputSchema,
		annotations: READ_ONLY,
	},
	run: (input, engine) => engine.findConnections(input),
	render: renderConnections,
});

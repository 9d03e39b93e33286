/** query_memory_graph: the read-only pattern language of core/graph-query.ts, run in the engine (engine/graph/query.ts). */
import { GraphQueryInputSchema, GraphQueryOutputSchema } from '../../core/graph-schemas';
import { renderGraphQuery } from '../render';
import { defineTool, READ_ONLY } from '../tool-definition';

export const QUERY_GRAPH_DESCRIPTION = `Run a read-only pattern query over the memory graph: memories (label Memory, alias Event), entities (Entity), tags (Tag) and the links between them, in a small subset of Cypher plus a START clause. Results are bounded and never cut silently: has_more (page on with SKIP next_skip), truncated (output cut to fit), partial (a scan or fan-out cap was hit, so rows may be missing), and notes say why.

Use it when the request states a structure to match: "decisions that mention PostgreSQL", "memories sharing two entities with this one", "what came next after X", "which entities co-occur with Redis". Do not use it for a plain question (recall_memory) or an open "what is linked to this" (find_memory_connections).

Grammar:
  [START a = events(text: $q | entity: "name" | tag: "t" | ids: [...], k: 5, scope: "s")]
  [MATCH (a:Memory {tag: "auth", type: "Decision"})-[r:TYPE {min: 0.8}]->(b) [, another path]]
  [WHERE conditions: = <> < <= > >= CONTAINS STARTS WITH ENDS WITH IN IS NULL, AND OR NOT]
  RETURN [DISTINCT] a, b.summary, r.strength, count(DISTINCT b) AS n [ORDER BY n DESC] [SKIP 20] [LIMIT 20, max 200]
Relationships:
  stored links RELATES_TO … PART_OF, SIMILAR_TO, PRECEDED_BY (any when untyped; {min: strength}; -[:T*1..3]-> for hops)
  MENTIONS Memory→Entity (alias PARTICIPATED_IN); TAGGED Memory→Tag (alias MEMBER_OF)
  SHARES {min: 2, min_w} memories sharing entities: s.count, s.weight (rarity-weighted), s.via
  SIMILAR {k: 10, min} nearest in meaning: r.cos; FAR {max: 0.5} cosine below max, both ends already bound
  NEXT Memory→Memory: what came next in the thread (PRECEDED_BY reversed, OCCURRED_BEFORE); n.hops
Properties: Memory id, seq, content, summary, type, tags, scope, source, importance, confidence, timestamp, t_invalid, current, entities, score (cosine to START text); Entity id, name, type, memory_count; Tag name. Text comparisons ignore case. Pass user text as params ($q), not inline. cos(a, b) is the cosine of two memories.

Examples:
  MATCH (e:Entity {name: "PostgreSQL"})<-[:MENTIONS]-(m) WHERE m.type = "Decision" RETURN m ORDER BY m.timestamp DESC LIMIT 10
  MATCH (m:Memory {tag: "auth"})-[r:SIMILAR_TO {min: 0.8}]->(n) RETURN m.id, n, r.strength LIMIT 10
  START a = events(text: $q, k: 5) MATCH (a)-[s:SHARES {min: 2}]-(b) RETURN b, s.count, s.via ORDER BY s.weight DESC LIMIT 10  with params {"q": "the cache outage"}
  START a = events(ids: [$id]) MATCH (a)-[n:NEXT*1..3]->(b) RETURN b.id, b.summary, n.hops ORDER BY n.hops`;

export const queryMemoryGraph = defineTool({
	name: 'query_memory_graph',
	config: {
		title: 'Query memory graph',
		description: QUERY_GRAPH_DESCRIPTION,
		inputSchema: GraphQueryInputSchema,
		outputSchema: GraphQueryOutputSchema,
		annotations: READ_ONLY,
	},
	run: (input, engine) => engine.queryGraph(input),
	render: renderGraphQuery,
});

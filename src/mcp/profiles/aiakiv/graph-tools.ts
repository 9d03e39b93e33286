/** find_memory_connections and query_memory_graph: Engram's tools, naming AiAkiv's sibling tools. */
import type { AnyToolDefinition } from '../../tool-definition';
import { findMemoryConnections as nativeFindMemoryConnections } from '../../tools/find-memory-connections';
import { queryMemoryGraph as nativeQueryMemoryGraph } from '../../tools/query-memory-graph';

/** A native tool whose description names AiAkiv's siblings instead of Engram's. */
function withAiakivSiblings(tool: AnyToolDefinition): AnyToolDefinition {
	const description = tool.config.description.replace(/\brecall_memory\b/g, 'search_memory').replace(/\bget_memory\b/g, 'get_memory_content');
	return { ...tool, config: { ...tool.config, description } };
}

/**
 * The native graph tools in AiAkiv's vocabulary. The only place this profile reaches the graph
 * code: re-point these two imports should the graph tools move.
 */
export const findMemoryConnections = withAiakivSiblings(nativeFindMemoryConnections);
export const queryMemoryGraph = withAiakivSiblings(nativeQueryMemoryGraph);

/**
 * The Memory MCP profile (SymbioMind memory-mcp-ce, seed 004): integer ids (Engram's `seq`),
 * labels as comma-separated strings with fuzzy matching and `!` exclusion, human ages, related
 * memories with percentage similarity, and its dict-shaped results. Engram's SIMILAR_TO links
 * play memory-mcp's store-time "related" map (bidirectional, cleaned on delete by the engine).
 */
import type { Profile } from '../profile';
import { addLabels } from './add-labels';
import { delLabels } from './del-labels';
import { deleteMemory } from './delete-memory';
import { getMemory } from './get-memory';
import { memoryStats } from './memory-stats';
import { randomMemory } from './random-memory';
import { replaceLabels } from './replace-labels';
import { retrieveMemories } from './retrieve-memories';
import { storeMemory } from './store-memory';
import { trendingLabels } from './trending-labels';

export { matches, normalizeLabels, parseLabelFilter } from './filters';
export { timeAgo } from './memory-dict';

export const memoryMcpProfile: Profile = {
	name: 'memory-mcp',
	instructions:
		'Memory storage and retrieval with semantic search. store_memory returns an integer id; retrieve_memories searches (labels are comma-separated, fuzzy, ! excludes); get_memory opens one with its related memories.',
	tools: [storeMemory, retrieveMemories, getMemory, deleteMemory, randomMemory, memoryStats, trendingLabels, addLabels, delLabels, replaceLabels],
};

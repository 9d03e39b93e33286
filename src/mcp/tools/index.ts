/** The native tool set, in the order tools/list shows it (most used first). */
import type { AnyToolDefinition } from '../tool-definition';
import { associateMemories } from './associate-memories';
import { checkDatabaseHealth } from './check-database-health';
import { deleteMemory } from './delete-memory';
import { exportMemories } from './export-memories';
import { findMemoriesByEntity } from './find-memories-by-entity';
import { findMemoryConnections } from './find-memory-connections';
import { getMemory } from './get-memory';
import { importMemories } from './import-memories';
import { listMemoryTimeline } from './list-memory-timeline';
import { memoryStats } from './memory-stats';
import { queryMemoryGraph } from './query-memory-graph';
import { recallMemory } from './recall-memory';
import { storeMemory } from './store-memory';
import { trendingLabels } from './trending-labels';
import { unlinkMemories } from './unlink-memories';
import { updateMemory } from './update-memory';

export {
	associateMemories,
	checkDatabaseHealth,
	deleteMemory,
	exportMemories,
	findMemoriesByEntity,
	findMemoryConnections,
	getMemory,
	importMemories,
	listMemoryTimeline,
	memoryStats,
	queryMemoryGraph,
	recallMemory,
	storeMemory,
	trendingLabels,
	unlinkMemories,
	updateMemory,
};

/** Every native tool. */
export const NATIVE_TOOLS: readonly AnyToolDefinition[] = [
	storeMemory,
	recallMemory,
	getMemory,
	updateMemory,
	deleteMemory,
	associateMemories,
	unlinkMemories,
	findMemoryConnections,
	queryMemoryGraph,
	listMemoryTimeline,
	findMemoriesByEntity,
	memoryStats,
	trendingLabels,
	exportMemories,
	importMemories,
	checkDatabaseHealth,
];

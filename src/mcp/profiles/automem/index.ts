/**
 * The AutoMem profile (mcp-automem, seeds 000 and 001): store_memory (2000-character hard limit,
 * supersede mode, batch), recall_memory (id fetch, tag enumeration or ranked, with AutoMem's
 * `format` text|items|detailed|json and its output shape), associate_memories, update_memory,
 * delete_memory and check_database_health, with AutoMem's argument names and messages.
 */
import type { Profile } from '../profile';
import { associateMemories } from './associate-memories';
import { checkDatabaseHealth } from './check-database-health';
import { deleteMemory } from './delete-memory';
import { recallMemory } from './recall-memory';
import { storeMemory } from './store-memory';
import { updateMemory } from './update-memory';

export { AUTOMEM_CONTENT_LIMIT } from './store-memory';

export const automemProfile: Profile = {
	name: 'automem',
	instructions:
		"AutoMem-compatible long-term memory (graph + vector), kept in the user's browser by Engram. Use recall_memory to retrieve context (session start, before decisions, when debugging), store_memory to persist decisions, patterns, preferences and fixes, and associate_memories to link related memories. update_memory edits a memory in place, delete_memory removes one by id or bulk-deletes by tag, check_database_health verifies the stores.",
	tools: [storeMemory, recallMemory, associateMemories, updateMemory, deleteMemory, checkDatabaseHealth],
};

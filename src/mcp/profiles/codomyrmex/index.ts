/**
 * The codomyrmex profile (seed 003): memory_put, memory_get, memory_search, returning exactly
 * codomyrmex's memory dict (importance 1–4, created_at/last_accessed as epoch seconds). Unlike
 * codomyrmex's own MCP tools, which start a fresh in-memory store per call, these persist.
 * Non-object results are wrapped as `{ result }` in structuredContent, as Python MCP servers do;
 * the text is the bare JSON value.
 */
import type { Profile } from '../profile';
import { memoryGet } from './memory-get';
import { memoryPut } from './memory-put';
import { memorySearch } from './memory-search';

export { CodomyrmexMemorySchema, toCodomyrmex, type CodomyrmexMemory } from './memory-dict';

export const codomyrmexProfile: Profile = {
	name: 'codomyrmex',
	instructions:
		'Agentic memory: memory_put stores a memory, memory_get reads one by id, memory_search ranks memories for a query. Memories persist across calls.',
	tools: [memoryPut, memoryGet, memorySearch],
};

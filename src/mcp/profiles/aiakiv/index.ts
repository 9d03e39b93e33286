/**
 * The AiAkiv profile (seed 002 and PEERS.md): "event" vocabulary over Engram's memories —
 * save_memory (summary + content + entities, chained by prev_event_id, or one `payload`),
 * search_memory, get_memory_content, find_memory_connections, query_memory_graph,
 * list_memory_timeline and find_memories_by_entity. Where AiAkiv's argument names are not
 * public (search_memory's mode/top_k, get_memory_content's event_id) the descriptions say so.
 */
import type { Profile } from '../profile';
import { findMemoriesByEntity } from './find-memories-by-entity';
import { getMemoryContent } from './get-memory-content';
import { findMemoryConnections, queryMemoryGraph } from './graph-tools';
import { listMemoryTimeline } from './list-memory-timeline';
import { saveMemory } from './save-memory';
import { searchMemory } from './search-memory';

export const aiakivProfile: Profile = {
	name: 'aiakiv',
	instructions:
		'AiAkiv-compatible memory of events, kept in the browser by Engram. save_memory stores an event (the summary is what search ranks on); search_memory answers questions; get_memory_content opens an event; find_memory_connections walks to events linked through shared entities; query_memory_graph matches explicit patterns; list_memory_timeline and find_memories_by_entity browse.',
	tools: [saveMemory, searchMemory, getMemoryContent, findMemoryConnections, queryMemoryGraph, listMemoryTimeline, findMemoriesByEntity],
};

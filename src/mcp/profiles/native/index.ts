/** The native profile: Engram's full tool set (one file per tool in src/mcp/tools/). */
import { NATIVE_TOOLS } from '../../tools/index';
import type { Profile } from '../profile';

export const nativeProfile: Profile = {
	name: 'native',
	instructions:
		"Engram is the user's long-term memory, stored in their browser. recall_memory before answering from past context; store_memory after decisions, discoveries and stated preferences (one idea each); update_memory to correct, associate_memories to link. get_memory opens one memory; list_memory_timeline and find_memories_by_entity browse; find_memory_connections walks what a search did not surface; query_memory_graph matches explicit patterns.",
	tools: NATIVE_TOOLS,
};

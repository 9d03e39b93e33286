/** What a profile is: the tool list one connection sees, and the instructions it gets on initialize. */
import type { AnyToolDefinition } from '../tool-definition';

/** One face of Engram; a connection picks one by name. */
export interface Profile {
	name: string;
	instructions: string;
	tools: readonly AnyToolDefinition[];
}

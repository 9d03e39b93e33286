/**
 * The MCP annotations Engram's tools declare, one constant per kind of tool, so a tool says what
 * it is by name instead of repeating four hints. openWorldHint is false everywhere: no tool
 * reaches the network.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/** Only reads; the same call gives the same answer. */
export const READ_ONLY: ToolAnnotations = {
	readOnlyHint: true,
	idempotentHint: true,
	destructiveHint: false,
	openWorldHint: false,
};

/** Only reads, but each call may answer differently (a random pick). */
export const READ_ONLY_VARYING: ToolAnnotations = {
	readOnlyHint: true,
	idempotentHint: false,
	destructiveHint: false,
	openWorldHint: false,
};

/** Adds data and loses none; a repeat adds again (a store). */
export const ADDITIVE_WRITE: ToolAnnotations = {
	readOnlyHint: false,
	idempotentHint: false,
	destructiveHint: false,
	openWorldHint: false,
};

/** Adds or sets data and loses none; a repeat changes nothing more (a link, a label). */
export const IDEMPOTENT_WRITE: ToolAnnotations = {
	readOnlyHint: false,
	idempotentHint: true,
	destructiveHint: false,
	openWorldHint: false,
};

/** May remove data; a repeat is not a no-op (it fails or removes more). */
export const DESTRUCTIVE_WRITE: ToolAnnotations = {
	readOnlyHint: false,
	idempotentHint: false,
	destructiveHint: true,
	openWorldHint: false,
};

/** May overwrite or remove data; a repeat changes nothing more. */
export const IDEMPOTENT_DESTRUCTIVE_WRITE: ToolAnnotations = {
	readOnlyHint: false,
	idempotentHint: true,
	destructiveHint: true,
	openWorldHint: false,
};

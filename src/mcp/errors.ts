/**
 * The MCP boundary's one error translation (STYLE §4): a MemoryError becomes an `isError`
 * tool result whose text is `code: message`, so an agent sees what to fix; anything else is
 * rethrown for the SDK, which turns it into an `isError` result with its message. Protocol
 * errors (unknown tool, arguments failing the input schema) never reach here.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isMemoryError } from '../core/errors';

/** Renders a MemoryError as an isError result; rethrows every other error unchanged. */
export function toolError(e: unknown): CallToolResult {
	if (!isMemoryError(e)) throw e;
	return { isError: true, content: [{ type: 'text', text: `${e.code}: ${e.message}` }] };
}

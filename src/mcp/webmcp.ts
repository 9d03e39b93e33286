/**
 * WebMCP: where the browser (or a polyfill such as @mcp-b/global) offers `document.modelContext`
 * (or the older `navigator.modelContext`), Engram registers its native tools there too, so an
 * agent built into the browser can use them without any MCP client.
 *
 * The tools are not re-implemented: each registered `execute` calls the same tool on an in-page
 * McpServer through an SDK Client, so validation, error rendering and activity logging are the
 * ones every other connection gets. Registration ends when the signal aborts.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';

/** A WebMCP tool descriptor, as `registerTool` takes it. */
export interface WebMcpTool {
	name: string;
	title?: string;
	description: string;
	inputSchema?: Record<string, unknown>;
	annotations?: { readOnlyHint?: boolean; untrustedContentHint?: boolean };
	execute(input: Record<string, unknown>): Promise<CallToolResult>;
}

/** The part of `ModelContext` Engram uses (the draft's, and older polyfills' return values). */
export interface ModelContextLike {
	registerTool(tool: WebMcpTool, options?: { signal?: AbortSignal }): unknown;
}

/** The page's model context, if the browser or a polyfill provides one. */
export function findModelContext(doc: unknown = globalThis.document, nav: unknown = globalThis.navigator): ModelContextLike | undefined {
	for (const holder of [doc, nav]) {
		const mc = (holder as { modelContext?: ModelContextLike } | undefined)?.modelContext;
		if (mc && typeof mc.registerTool === 'function') return mc;
	}
	return undefined;
}

/** Every tool the client's server lists, following pagination. */
async function listAllTools(client: Client): Promise<Tool[]> {
	const tools: Tool[] = [];
	let cursor: string | undefined;
	do {
		const page = await client.listTools(cursor ? { cursor } : {});
		tools.push(...page.tools);
		cursor = page.nextCursor;
	} while (cursor);
	return tools;
}

/** The WebMCP descriptor of one MCP tool, executing through `client`. */
export function toWebMcpTool(tool: Tool, client: Client): WebMcpTool {
	const readOnly = tool.annotations?.readOnlyHint === true;
	return {
		name: tool.name,
		title: tool.title ?? tool.annotations?.title,
		description: tool.description ?? tool.name,
		inputSchema: tool.inputSchema as Record<string, unknown>,
		// Memory text was written by agents: reads return content an agent should not obey.
		annotations: { readOnlyHint: readOnly, ...(readOnly ? { untrustedContentHint: true } : {}) },
		execute: async (input) => (await client.callTool({ name: tool.name, arguments: input ?? {} })) as CallToolResult,
	};
}

/**
 * Registers every tool of `client`'s server on `modelContext` until `signal` aborts. Returns the
 * names registered; a tool the context refuses is reported to `onError` and skipped.
 */
export async function registerWebMcpTools(
	modelContext: ModelContextLike,
	client: Client,
	signal: AbortSignal,
	onError: (e: Error) => void = () => {},
): Promise<string[]> {
	const registered: string[] = [];
	for (const tool of await listAllTools(client)) {
		if (signal.aborted) break;
		try {
			const handle = await modelContext.registerTool(toWebMcpTool(tool, client), { signal });
			// Pre-2026 drafts and polyfills returned { unregister } instead of honouring the signal.
			const unregister = (handle as { unregister?: () => void } | undefined)?.unregister;
			if (typeof unregister === 'function') signal.addEventListener('abort', () => unregister.call(handle), { once: true });
			registered.push(tool.name);
		} catch (e) {
			onError(new Error(`WebMCP refused tool ${tool.name}: ${(e as Error).message}`));
		}
	}
	return registered;
}

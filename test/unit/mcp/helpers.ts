/**
 * Shared set-up for the MCP tests: a real Engine (fake-indexeddb + the embedded model, via the
 * engine tests' helpers) served by createMemoryServer and reached through the SDK's real Client
 * over InMemoryTransport, so input/output validation and isError mapping run as in production.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { EngineApi } from '../../../src/engine/types';
import { createMemoryServer, type MemoryServerOptions, type ProfileName } from '../../../src/mcp/server';

export { Clock, embedder, makeEngine } from '../engine/helpers';

/** A connected client/server pair over one engine. */
export interface Connection {
	client: Client;
	call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
	close(): Promise<void>;
}

/** Connects a real SDK Client to a new server for `profile`. */
export async function connect(engine: EngineApi, profile: ProfileName = 'native', opts?: MemoryServerOptions): Promise<Connection> {
	const server = createMemoryServer(engine, profile, opts);
	const client = new Client({ name: 'vitest', version: '1.0.0' });
	const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
	await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
	return {
		client,
		call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
		close: async () => {
			await client.close();
			await server.close();
		},
	};
}

/** The text of a result's first content block. */
export function text(r: CallToolResult): string {
	const c = r.content[0];
	if (c?.type !== 'text') throw new Error(`expected a text block, got ${JSON.stringify(r.content)}`);
	return c.text;
}

/** The structured content of a successful result; fails loudly on an error result. */
export function data<T = Record<string, unknown>>(r: CallToolResult): T {
	if (r.isError) throw new Error(`tool returned an error: ${text(r)}`);
	if (!r.structuredContent) throw new Error('tool returned no structuredContent');
	return r.structuredContent as T;
}

/** The text of an error result; fails when the call succeeded. */
export function errorText(r: CallToolResult): string {
	if (!r.isError) throw new Error(`expected an error result, got ${JSON.stringify(r.structuredContent ?? r.content).slice(0, 300)}`);
	return text(r);
}

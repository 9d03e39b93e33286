/** WebMCP registration against model contexts of the current draft and of older polyfills. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { findModelContext, registerWebMcpTools, type ModelContextLike } from '../../../src/mcp/webmcp';

async function connected(): Promise<Client> {
	const server = new McpServer({ name: 't', version: '1' });
	server.registerTool(
		'echo',
		{
			title: 'Echo',
			description: 'Echoes',
			inputSchema: { text: z.string() },
			annotations: { readOnlyHint: true },
		},
		async ({ text }) => ({ content: [{ type: 'text', text }] }),
	);
	server.registerTool('shout', { description: 'Shouts', inputSchema: { text: z.string() } }, async ({ text }) => ({
		content: [{ type: 'text', text: text.toUpperCase() }],
	}));
	const client = new Client({ name: 'c', version: '1' });
	const [a, b] = InMemoryTransport.createLinkedPair();
	await Promise.all([server.connect(b), client.connect(a)]);
	return client;
}

describe('findModelContext', () => {
	it('prefers document.modelContext, falls back to navigator.modelContext, else undefined', () => {
		const a: ModelContextLike = { registerTool() {} };
		const b: ModelContextLike = { registerTool() {} };
		expect(findModelContext({ modelContext: a }, { modelContext: b })).toBe(a);
		expect(findModelContext({}, { modelContext: b })).toBe(b);
		expect(findModelContext({}, {})).toBeUndefined();
		expect(findModelContext(undefined, { modelContext: {} })).toBeUndefined();
	});
});

describe('registerWebMcpTools', () => {
	it('unregisters through the returned handle of older polyfills when the signal aborts', async () => {
		const live = new Set<string>();
		const mc: ModelContextLike = {
			registerTool(tool) {
				live.add(tool.name);
				return { unregister: () => live.delete(tool.name) };
			},
		};
		const abort = new AbortController();
		expect(await registerWebMcpTools(mc, await connected(), abort.signal)).toEqual(['echo', 'shout']);
		expect([...live]).toEqual(['echo', 'shout']);
		abort.abort();
		expect(live.size).toBe(0);
	});

	it('skips a tool the context refuses, reporting why, and registers the rest', async () => {
		const names: string[] = [];
		const errors: string[] = [];
		const mc: ModelContextLike = {
			async registerTool(tool) {
				if (tool.name === 'echo') throw new Error('InvalidStateError: duplicate name');
				names.push(tool.name);
			},
		};
		expect(await registerWebMcpTools(mc, await connected(), new AbortController().signal, (e) => errors.push(e.message))).toEqual(['shout']);
		expect(errors).toEqual(['WebMCP refused tool echo: InvalidStateError: duplicate name']);
	});

	it('passes title and description, and executes through the MCP client', async () => {
		let echo: Parameters<ModelContextLike['registerTool']>[0] | undefined;
		const mc: ModelContextLike = { registerTool: (t) => void (t.name === 'echo' && (echo = t)) };
		await registerWebMcpTools(mc, await connected(), new AbortController().signal);
		expect(echo).toMatchObject({
			name: 'echo',
			title: 'Echo',
			description: 'Echoes',
			annotations: { readOnlyHint: true, untrustedContentHint: true },
		});
		expect(await echo!.execute({ text: 'hi' })).toEqual({
			content: [{ type: 'text', text: 'hi' }],
		});
	});
});

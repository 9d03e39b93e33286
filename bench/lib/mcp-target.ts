/**
 * The eval's MCP path (`npm run eval -- --through mcp`): the same fresh Engine as `engine`, but
 * every store and recall goes through a real SDK Client, createMemoryServer (native profile) and
 * InMemoryTransport, so the figures include argument validation, the tools' output bounding and
 * the protocol round trip.
 */
import { categoryTable } from './categories';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RecallOutput } from '../../src/core/schemas';
import type { Embedder } from '../../src/engine/embedder';
import { createMemoryServer } from '../../src/mcp/server';
import { type Conversation, turnMemory } from './dataset';
import type { EvalTarget } from './eval-targets';

/** A fresh engine behind a connected MCP client. */
export async function mcpTarget(embedder: Embedder): Promise<EvalTarget> {
	const { indexedDB, IDBKeyRange } = await import('fake-indexeddb');
	const { createEngine } = await import('../../src/engine/engine');
	const engine = await createEngine({
		dbName: `engram-eval-mcp-${process.pid}-${Date.now()}`,
		indexedDB,
		IDBKeyRange,
		embedder,
		categories: categoryTable(),
		snapshotDelayMs: 3_600_000,
	});
	const server = createMemoryServer(engine, 'native', { actor: 'eval' });
	const client = new Client({ name: 'engram-eval', version: '1.0.0' });
	const [a, b] = InMemoryTransport.createLinkedPair();
	await Promise.all([server.connect(b), client.connect(a)]);
	const call = async (name: string, args: Record<string, unknown>) => {
		const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
		if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
		return r.structuredContent;
	};
	return {
		name: 'mcp',
		async storeConversation(conv: Conversation) {
			const memories = conv.sessions.flatMap((s) => s.turns.map((t) => ({ ...turnMemory(conv, s, t), force: true })));
			for (let i = 0; i < memories.length; i += 500) await call('store_memory', { memories: memories.slice(i, i + 500) });
		},
		async recall(input) {
			const out = (await call('recall_memory', input)) as RecallOutput;
			return out.results.map((r) => String(r.memory.metadata.dia_id));
		},
		async close() {
			await client.close();
			await server.close();
			await engine.close();
		},
	};
}

/**
 * The eval exactly as an agent meets Engram (`npm run eval -- --through app`): the built app in
 * headless Chromium (its worker, real IndexedDB, the embedded model it serves itself), paired
 * with the real `engram-relay` bin, which an MCP SDK client spawns over stdio as a desktop client
 * does. Every store is `store_memory` with `memories[]` in conversation order and every question
 * one `recall_memory` with query, scope and limit.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RecallOutput } from '../../src/core/schemas';
import { type Conversation, turnMemory } from './dataset';
import type { EvalTarget } from './eval-targets';
import { pairedApp } from './paired-app';

/** The app in Chromium behind the relay, with a connected desktop client. */
export async function appTarget(): Promise<EvalTarget> {
	const { desk, close } = await pairedApp({ clientName: 'engram-eval', what: '--through app' });
	const call = async (name: string, args: Record<string, unknown>) => {
		const r = (await desk.client.callTool({ name, arguments: args })) as CallToolResult;
		if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
		return r.structuredContent;
	};
	return {
		name: 'app (Chromium + engram-relay + MCP client)',
		async storeConversation(conv: Conversation) {
			const memories = conv.sessions.flatMap((s) => s.turns.map((t) => turnMemory(conv, s, t)));
			for (let i = 0; i < memories.length; i += 500) await call('store_memory', { memories: memories.slice(i, i + 500) });
		},
		async recall(input) {
			const out = (await call('recall_memory', input)) as RecallOutput;
			return out.results.map((r) => String(r.memory.metadata.dia_id));
		},
		close,
	};
}

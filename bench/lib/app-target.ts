/**
 * The eval exactly as an agent meets Engram (`npm run eval -- --through app`): the built app in
 * headless Chromium (its worker, real IndexedDB, the embedded model it serves itself), paired
 * with the real `engram-relay` bin, which an MCP SDK client spawns over stdio as a desktop client
 * does. Every store is `store_memory` with `memories[]` in conversation order and every question
 * one `recall_memory` with query, scope and limit.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RecallOutput } from '../../src/core/schemas';
import { freePort, launchBrowser, ROOT, startPreview } from '../../test/e2e/helpers';
import { newToken, relayHome, spawnRelayClient } from '../../test/unit/relay/helpers';
import { type Conversation, turnMemory } from './dataset';
import type { EvalTarget } from './eval-targets';

/** The app in Chromium behind the relay, with a connected desktop client. */
export async function appTarget(): Promise<EvalTarget> {
	if (!existsSync(join(ROOT, 'dist', 'index.html'))) throw new Error('--through app: build the app first (npm run build)');
	const server = await startPreview();
	const browser = await launchBrowser();
	const home = relayHome();
	const port = await freePort();
	const token = newToken();
	const desk = await spawnRelayClient(['--port', String(port), '--token', token, '--app-url', server.url], { ENGRAM_RELAY_HOME: home.dir }, 'engram-eval');
	const close = async () => {
		await desk.close().catch(() => {});
		await browser.close();
		await server.stop();
		home.remove();
	};
	try {
		const page = await browser.context.newPage();
		await page.goto(`${server.url}/#relay=ws://127.0.0.1:${port}&token=${token}`);
		// Paired once the relay lists the tab's tools.
		for (let i = 0; ; i++) {
			const tools = await desk.client.listTools().catch(() => ({ tools: [] }));
			if (tools.tools.some((t) => t.name === 'recall_memory')) break;
			if (i > 600) throw new Error(`the tab did not pair with the relay:\n${desk.log()}`);
			await new Promise((r) => setTimeout(r, 100));
		}
	} catch (e) {
		await close();
		throw e;
	}
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

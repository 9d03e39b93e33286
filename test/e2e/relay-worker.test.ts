/**
 * The relay served from the engine worker (src/mcp/relay-host.ts): a desktop client's calls
 * through the real engram-relay are answered while the page's main thread is stuck in a busy
 * loop, and the page still shows the relay's state, its agents and their calls. Then what a
 * person does with the pairing, as before: a wrong token, a relay restart, a second tab taking
 * the relay over and the first taking it back, unpairing.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newToken, relayHome, spawnRelayClient, waitFor, type StdioRelayClient } from '../unit/relay/helpers';
import { hostReady, openPairingLink } from './bridges-support';
import { freePort, launchBrowser, startPreview, type Browser, type Server } from './helpers';

interface Host {
	relay(): { url?: string; connection?: { status: string; sessions: number; reason?: string; last_error?: string } };
	connections(): { id: string; kind: string; via: string; client?: { name: string } }[];
	calls(): { tool: string; agent: string; ok: boolean }[];
	pairRelay(url: string, token: string): Promise<void>;
	unpairRelay(): Promise<void>;
	reconnectRelay(): void;
	disconnect(id: string): Promise<void>;
}

let server: Server;
let browser: Browser;
let page: Page;
let port: number;
const token = newToken();
const home = relayHome();
const env = { ENGRAM_RELAY_HOME: home.dir };
let desk: StdioRelayClient;
const extra: StdioRelayClient[] = [];

type G = { engramMcpHost: Host };
const relayOf = (p: Page) => p.evaluate(() => (globalThis as unknown as G).engramMcpHost.relay());
const status = async (p: Page) => (await relayOf(p)).connection?.status;
const relayConnections = (p: Page) => p.evaluate(() => (globalThis as unknown as G).engramMcpHost.connections().filter((c) => c.kind === 'relay'));
const pair = (p: Page, url: string, t: string) => p.evaluate(([u, k]) => (globalThis as unknown as G).engramMcpHost.pairRelay(u, k), [url, t] as const);
const recalls = (c: StdioRelayClient) => c.client.callTool({ name: 'recall_memory', arguments: { query: 'busy' } });
const relayArgs = () => ['--port', String(port), '--token', token, '--app-url', server.url];

beforeAll(async () => {
	server = await startPreview();
	browser = await launchBrowser();
	port = await freePort();
	desk = await spawnRelayClient(relayArgs(), env, 'worker-desktop');
	page = await browser.context.newPage();
	await openPairingLink(page, `${server.url}/#relay=ws://127.0.0.1:${port}&token=${token}`);
	await waitFor(async () => expect(await status(page)).toBe('connected'), 60_000);
	await waitFor(async () => expect((await desk.client.listTools()).tools.map((t) => t.name)).toContain('store_memory'), 30_000);
});

afterAll(async () => {
	for (const c of [desk, ...extra]) await c?.close().catch(() => {});
	await browser?.close();
	await server?.stop();
	home.remove();
});

describe('the relay served from the engine worker', () => {
	it("answers store_memory while the page's main thread is stuck in a busy loop", async () => {
		// Warm the session's server first: the busy window must only hold calls.
		expect((await desk.client.callTool({ name: 'recall_memory', arguments: { query: 'warm up' } })).isError).toBeFalsy();
		const BUSY_MS = 3_000;
		const busy = page.evaluate((ms) => {
			const start = Date.now();
			while (Date.now() - start < ms) {
				// Chromium's main thread does nothing else until this returns.
			}
			return { start, end: Date.now() };
		}, BUSY_MS);
		let done = false;
		void busy.finally(() => (done = true));
		const calls: { sent: number; answered: number; text: string }[] = [];
		for (let i = 0; !done; i++) {
			const sent = Date.now();
			const content = `Busy-loop note ${i}: the worker answers while the page is busy.`;
			const r = await desk.client.callTool({ name: 'store_memory', arguments: { content } });
			expect(r.isError).toBeFalsy();
			calls.push({ sent, answered: Date.now(), text: content });
		}
		const window = await busy;
		const inside = calls.filter((c) => c.sent >= window.start && c.answered <= window.end);
		// Served on the main thread, every call sent in the window would be answered after it.
		expect(inside.length, `calls ${JSON.stringify(calls)} vs busy window ${JSON.stringify(window)}`).toBeGreaterThanOrEqual(3);
		// The newest note ranks first among equals (recency): it was stored, not just answered.
		const recalled = await desk.client.callTool({ name: 'recall_memory', arguments: { query: 'busy-loop note worker answers', limit: 3 } });
		const contents = (recalled.structuredContent as { results: { memory: { content: string } }[] }).results.map((r) => r.memory.content);
		expect(contents).toContain(calls.at(-1)!.text);
	});

	it('shows the relay, its agent and the calls on the page', async () => {
		const stores = () =>
			page.evaluate(
				() =>
					(globalThis as unknown as G).engramMcpHost
						.calls()
						.filter((c) => c.tool === 'store_memory' && c.agent === 'worker-desktop (relay/stdio)' && c.ok).length,
			);
		await expect.poll(stores).toBeGreaterThanOrEqual(3);
		expect((await relayConnections(page)).map((c) => [c.client?.name, c.via])).toEqual([['worker-desktop', 'stdio']]);
		expect(await relayOf(page)).toMatchObject({ url: `ws://127.0.0.1:${port}`, connection: { status: 'connected', sessions: 1 } });
	});

	it('disconnects an agent from the page', async () => {
		await hostReady(page);
		await expect.poll(() => status(page), { timeout: 30_000 }).toBe('connected');
		await waitFor(async () => expect(await relayConnections(page)).toHaveLength(1));
		const [{ id }] = await relayConnections(page);
		await page.evaluate((i) => (globalThis as unknown as G).engramMcpHost.disconnect(i), id);
		expect(await relayConnections(page)).toEqual([]);
		// Reconnecting re-opens the relay's sessions.
		await page.reload();
		await hostReady(page);
		await expect.poll(() => status(page), { timeout: 30_000 }).toBe('connected');
		await waitFor(async () => expect((await recalls(desk)).isError).toBeFalsy(), 30_000);
	});

	it('reports a wrong token, and comes back when paired again', async () => {
		await pair(page, `ws://127.0.0.1:${port}`, 'wrong-token-0123456789abcdef');
		await expect.poll(async () => (await relayOf(page)).connection?.reason, { timeout: 30_000 }).toBe('wrong_token');
		await pair(page, `ws://127.0.0.1:${port}`, token);
		await expect.poll(() => status(page), { timeout: 30_000 }).toBe('connected');
	});

	it('reconnects after the relay restarts', async () => {
		await desk.close();
		await expect.poll(() => status(page), { timeout: 30_000 }).toBe('retrying');
		desk = await spawnRelayClient(relayArgs(), env, 'worker-desktop');
		await expect.poll(() => status(page), { timeout: 30_000 }).toBe('connected');
		await waitFor(async () => expect((await recalls(desk)).isError).toBeFalsy(), 30_000);
	});

	it('lets a second tab take the relay over, and the first take it back', async () => {
		const second = await browser.context.newPage();
		await second.goto(server.url);
		await hostReady(second);
		await expect.poll(() => status(second), { timeout: 30_000 }).toBe('connected');
		await expect.poll(() => status(page), { timeout: 30_000 }).toBe('superseded');
		await waitFor(async () => expect((await recalls(desk)).isError).toBeFalsy(), 30_000);
		await page.evaluate(() => (globalThis as unknown as G).engramMcpHost.reconnectRelay());
		await expect.poll(() => status(page), { timeout: 30_000 }).toBe('connected');
		await expect.poll(() => status(second), { timeout: 30_000 }).toBe('superseded');
		await second.close();
	});

	it('unpairs: the relay then says no tab is paired', async () => {
		await page.evaluate(() => (globalThis as unknown as G).engramMcpHost.unpairRelay());
		expect(await relayOf(page)).toEqual({});
		await waitFor(async () => {
			await expect(desk.client.callTool({ name: 'recall_memory', arguments: { query: 'x' } })).rejects.toThrow('Engram is not connected');
		}, 30_000);
	});
});

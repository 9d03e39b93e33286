/**
 * startMcpHost with its real parts: the real engine and createMemoryServer, MCP-B's client
 * transports over fake windows, and a recording WebMCP model context. The browser versions of
 * these paths are in test/e2e/postmessage.test.ts and test/e2e/relay.test.ts.
 */
import { IframeParentTransport, TabClientTransport } from '@mcp-b/transports';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Engine } from '../../../src/engine/engine';
import { startMcpHost, type McpHost, type McpHostOptions } from '../../../src/mcp/host';
import { RELAY_PAIRING_KEY } from '../../../src/mcp/relay-pairing';
import type { WebSocketConstructor } from '../../../src/mcp/transports/relay-client';
import type { ModelContextLike, WebMcpTool } from '../../../src/mcp/webmcp';
import { makeEngine } from '../engine/helpers';
import { FakeWindow, eventually, flush } from './transports/fake-window';

const APP = 'http://127.0.0.1:4173';
const OTHER = 'http://localhost:5173';
const TOKEN = 'pairing-token-0123456789';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
	for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(win: FakeWindow, opts: McpHostOptions = {}): Promise<{ engine: Engine; host: McpHost }> {
	const engine = await makeEngine();
	const host = await startMcpHost(engine, {
		window: win as never,
		modelContext: null,
		WebSocket: WebSocket as unknown as WebSocketConstructor,
		...opts,
	});
	cleanups.push(async () => {
		await host.stop();
		await engine.close();
	});
	return { engine, host };
}

function client(name: string, capabilities: Record<string, unknown> = {}): Client {
	const c = new Client({ name, version: '1.0' }, { capabilities });
	cleanups.push(() => c.close());
	return c;
}

describe('startMcpHost', () => {
	describe('postMessage', () => {
		it('serves a same-origin MCP-B client the native tools, and logs its tool calls', async () => {
			const app = new FakeWindow(APP);
			cleanups.push(app.installAsGlobal());
			const { engine, host } = await setup(app);
			const c = client('in-page-agent');
			await c.connect(new TabClientTransport({ targetOrigin: APP }) as unknown as Transport);
			expect((await c.listTools()).tools.map((t) => t.name)).toContain('find_memory_connections');
			const stored = (await c.callTool({
				name: 'store_memory',
				arguments: { content: 'The user prefers dark mode in every editor.' },
			})) as CallToolResult;
			expect(stored.isError).toBeFalsy();
			const bad = (await c.callTool({
				name: 'store_memory',
				arguments: { content: '' },
			})) as CallToolResult;
			expect(bad.isError).toBe(true);

			expect(host.connections()).toEqual([
				expect.objectContaining({
					kind: 'postMessage',
					via: 'same-window',
					origin: APP,
					client: { name: 'in-page-agent', version: '1.0' },
					profile: 'native',
					calls: 2,
					errors: 1,
				}),
			]);
			const [failed, ok] = host.calls();
			expect(ok).toMatchObject({
				tool: 'store_memory',
				ok: true,
				agent: `in-page-agent (postMessage from ${APP})`,
			});
			expect(failed).toMatchObject({
				tool: 'store_memory',
				ok: false,
				error: expect.stringContaining('content'),
			});
			// Each call has its own id (the Connections screen keys its rows by it).
			expect([ok.id, failed.id]).toEqual([`${host.connections()[0].id}:1`, `${host.connections()[0].id}:2`]);
			await eventually(async () => {
				const log = await engine.activity(50);
				const entry = log.find((a) => a.actor === `in-page-agent (postMessage from ${APP})` && a.detail?.startsWith('store_memory ok'));
				expect(entry).toMatchObject({
					action: 'created',
					detail: expect.stringMatching(/^store_memory ok in \d+ ms \(profile native\)$/),
				});
			});
		});

		it('gives a client the profile it asks for in its initialize capabilities', async () => {
			const app = new FakeWindow(APP);
			cleanups.push(app.installAsGlobal());
			const { host } = await setup(app);
			const c = client('codomyrmex-agent', { experimental: { engram: { profile: 'codomyrmex' } } });
			await c.connect(new TabClientTransport({ targetOrigin: APP }) as unknown as Transport);
			expect((await c.listTools()).tools.map((t) => t.name).sort()).toEqual(['memory_get', 'memory_put', 'memory_search']);
			expect(host.connections()[0]!.profile).toBe('codomyrmex');
		});

		it('keeps another origin out until approved in the page, then serves it; revoking shuts it out again', async () => {
			const parent = new FakeWindow(OTHER);
			const app = new FakeWindow(APP, parent);
			cleanups.push(parent.installAsGlobal());
			const { engine, host } = await setup(app);
			let changes = 0;
			host.subscribe(() => void changes++);
			const iframe = { contentWindow: app.seenFrom(parent) } as unknown as HTMLIFrameElement;
			const transport = new IframeParentTransport({ iframe, targetOrigin: APP });
			const c = client('embedding-agent');
			const connecting = c.connect(transport as unknown as Transport);
			await eventually(() => expect(host.snapshot().pending_origins.map((r) => [r.origin, r.via])).toEqual([[OTHER, 'parent']]));
			expect(parent.received).toEqual([]);
			expect(changes).toBeGreaterThan(0);

			await host.origins.approve(OTHER, { profile: 'aiakiv' });
			await connecting;
			expect((await c.listTools()).tools.map((t) => t.name)).toContain('save_memory');
			expect(host.snapshot()).toMatchObject({
				pending_origins: [],
				approved_origins: [{ origin: OTHER, profile: 'aiakiv' }],
			});
			expect(host.connections()).toEqual([
				expect.objectContaining({
					kind: 'postMessage',
					via: 'parent',
					origin: OTHER,
					profile: 'aiakiv',
				}),
			]);
			expect(await engine.getSetting('approved_origins')).toEqual([expect.objectContaining({ origin: OTHER })]);

			let closed = false;
			const onclose = transport.onclose;
			transport.onclose = () => {
				onclose?.();
				closed = true;
			};
			await host.origins.revoke(OTHER);
			await eventually(() => expect(closed).toBe(true));
			expect(host.connections()).toEqual([]);
			const again = new IframeParentTransport({ iframe, targetOrigin: APP });
			await again.start();
			await eventually(() => expect(host.snapshot().pending_origins.map((r) => r.origin)).toEqual([OTHER]));
			await again.close();
		});

		it('gives an approved origin its approved profile, whatever its client asks for', async () => {
			const parent = new FakeWindow(OTHER);
			const app = new FakeWindow(APP, parent);
			cleanups.push(parent.installAsGlobal());
			const { host } = await setup(app);
			await host.origins.approve(OTHER, { profile: 'codomyrmex' });
			const iframe = { contentWindow: app.seenFrom(parent) } as unknown as HTMLIFrameElement;
			const c = client('greedy-agent', { experimental: { engram: { profile: 'native' } } });
			await c.connect(new IframeParentTransport({ iframe, targetOrigin: APP }) as unknown as Transport);
			expect((await c.listTools()).tools.map((t) => t.name).sort()).toEqual(['memory_get', 'memory_put', 'memory_search']);
			expect(host.connections()[0]!.profile).toBe('codomyrmex');
		});

		it('revoking in one tab closes the origin’s connections in the other tabs', async () => {
			const parent = new FakeWindow(OTHER);
			const tabB = new FakeWindow(APP, parent);
			const tabA = new FakeWindow(APP);
			cleanups.push(parent.installAsGlobal());
			const name = `origins-${Math.random()}`;
			const channels = [new BroadcastChannel(name), new BroadcastChannel(name)];
			cleanups.push(() => channels.forEach((ch) => ch.close()));
			const { engine, host: b } = await setup(tabB, { originsChannel: channels[1] as never });
			const a = await startMcpHost(engine, {
				window: tabA as never,
				modelContext: null,
				relay: false,
				originsChannel: channels[0] as never,
			});
			cleanups.push(() => a.stop());
			await a.origins.approve(OTHER, { profile: 'native' });
			await eventually(() => expect(b.origins.isAllowed(OTHER)).toBe(true));

			const iframe = { contentWindow: tabB.seenFrom(parent) } as unknown as HTMLIFrameElement;
			const transport = new IframeParentTransport({ iframe, targetOrigin: APP });
			const c = client('embedding-agent');
			await c.connect(transport as unknown as Transport);
			expect(b.connections()).toHaveLength(1);
			let closed = false;
			const onclose = transport.onclose;
			transport.onclose = () => {
				onclose?.();
				closed = true;
			};
			await a.origins.revoke(OTHER);
			await eventually(() => expect(closed).toBe(true));
			expect(b.connections()).toEqual([]);
			expect(b.origins.isAllowed(OTHER)).toBe(false);
		});

		it('stops serving, telling clients, when stopped', async () => {
			const app = new FakeWindow(APP);
			cleanups.push(app.installAsGlobal());
			const { host } = await setup(app);
			const transport = new TabClientTransport({ targetOrigin: APP });
			let closed = false;
			const c = client('agent');
			await c.connect(transport as unknown as Transport);
			const onclose = transport.onclose;
			transport.onclose = () => {
				onclose?.();
				closed = true;
			};
			await host.stop();
			await eventually(() => expect(closed).toBe(true));
		});
	});

	describe('relay pairing', () => {
		it('asks before pairing from a loopback link in the address: nothing stored until accepted, and no token in the state', async () => {
			const app = new FakeWindow(APP);
			app.location.hash = `#relay=ws://127.0.0.1:9&token=${TOKEN}`;
			const { engine, host } = await setup(app, { relayBackoff: { initialMs: 1000, maxMs: 1000 } });
			expect(app.location.hash).toBe('');
			expect(host.relay()).toEqual({
				url: undefined,
				paired_at: undefined,
				connection: undefined,
				error: undefined,
				offer: { url: 'ws://127.0.0.1:9', same_address: false },
			});
			expect(JSON.stringify(host.relay())).not.toContain(TOKEN);
			expect(await engine.getSetting(RELAY_PAIRING_KEY)).toBeUndefined();

			await host.acceptRelayLink();
			expect(host.relay()).toMatchObject({
				url: 'ws://127.0.0.1:9',
				paired_at: expect.any(String),
				connection: { status: expect.any(String) },
			});
			expect(host.relay()).not.toHaveProperty('offer');
			expect(JSON.stringify(host.relay())).not.toContain(TOKEN);
			expect(await engine.getSetting(RELAY_PAIRING_KEY)).toEqual({
				url: 'ws://127.0.0.1:9',
				token: TOKEN,
				paired_at: expect.any(String),
			});
		});

		it('leaves the app unpaired when the person cancels a link, at start or on a hash change', async () => {
			const app = new FakeWindow(APP);
			app.location.hash = `#relay=ws://127.0.0.1:9&token=${TOKEN}`;
			const { engine, host } = await setup(app, { relayBackoff: { initialMs: 1000, maxMs: 1000 } });
			host.declineRelayLink();
			await flush();
			expect(host.relay()).toEqual({ url: undefined, paired_at: undefined, connection: undefined, error: undefined });
			app.location.hash = `#relay=ws://127.0.0.1:8&token=${TOKEN}`;
			app.dispatchEvent(new Event('hashchange'));
			await eventually(() => expect(host.relay().offer).toEqual({ url: 'ws://127.0.0.1:8', same_address: false }));
			expect(host.relay().url).toBeUndefined();
			host.declineRelayLink();
			await flush();
			expect(host.relay().offer).toBeUndefined();
			expect(await engine.getSetting(RELAY_PAIRING_KEY)).toBeUndefined();
		});

		it('ignores a pairing link in the query string (only the hash is read)', async () => {
			const app = new FakeWindow(APP);
			app.location.search = `?relay=ws://127.0.0.1:9&token=${TOKEN}`;
			const { engine, host } = await setup(app, { postMessage: false });
			expect(host.relay()).toEqual({ url: undefined, paired_at: undefined, connection: undefined, error: undefined });
			expect(await engine.getSetting(RELAY_PAIRING_KEY)).toBeUndefined();
		});

		it('refuses a pairing link in an app framed by another page, offering nothing', async () => {
			const outer = new FakeWindow(OTHER);
			const app = new FakeWindow(APP, outer);
			app.location.hash = `#relay=ws://127.0.0.1:9&token=${TOKEN}`;
			const { engine, host } = await setup(app, { postMessage: false });
			expect(app.location.hash).toBe('');
			expect(host.relay()).toEqual({
				url: undefined,
				paired_at: undefined,
				connection: undefined,
				error: 'pairing links work only when Engram is open in its own tab, not inside another page: open the link in a new tab, or pair on the Connections screen',
			});
			app.location.hash = `#relay=ws://127.0.0.1:9&token=${TOKEN}`;
			app.dispatchEvent(new Event('hashchange'));
			await flush();
			expect(app.location.hash).toBe('');
			expect(host.relay().offer).toBeUndefined();
			expect(await engine.getSetting(RELAY_PAIRING_KEY)).toBeUndefined();
		});

		it('refuses a link pointing at another host, storing nothing', async () => {
			const app = new FakeWindow(APP);
			app.location.hash = `#relay=ws://relay.attacker.example:17373&token=${TOKEN}`;
			const { engine, host } = await setup(app);
			expect(app.location.hash).toBe('');
			expect(host.relay()).toEqual({
				url: undefined,
				paired_at: undefined,
				connection: undefined,
				error: 'relay host "relay.attacker.example" is refused: the relay must run on this machine (127.0.0.1, localhost or [::1])',
			});
			expect(await engine.getSetting(RELAY_PAIRING_KEY)).toBeUndefined();
			await expect(host.pairRelay('ws://10.0.0.2:17373', TOKEN)).rejects.toThrow('relay host "10.0.0.2" is refused');
		});

		it('reconnects to the remembered relay on the next start, and forgets it when unpaired', async () => {
			const app = new FakeWindow(APP);
			const { engine, host } = await setup(app, { relayBackoff: { initialMs: 1000, maxMs: 1000 } });
			await host.pairRelay('ws://localhost:9', TOKEN);
			await host.stop();
			const again = await startMcpHost(engine, {
				window: app as never,
				modelContext: null,
				postMessage: false,
				WebSocket: WebSocket as unknown as WebSocketConstructor,
			});
			cleanups.push(() => again.stop());
			expect(again.relay().url).toBe('ws://localhost:9');
			await again.unpairRelay();
			expect(again.relay()).toEqual({
				url: undefined,
				paired_at: undefined,
				connection: undefined,
				error: undefined,
			});
			expect(await engine.getSetting(RELAY_PAIRING_KEY)).toBe(null);
		});
	});

	describe('relay pairing links', () => {
		const NEW_TOKEN = 'attacker-token-0123456789';
		const NEW_LINK = `#relay=ws://127.0.0.1:1&token=${NEW_TOKEN}`;
		const backoff = { relayBackoff: { initialMs: 1000, maxMs: 1000 } };

		it('asks before a link replaces the pairing: nothing is stored until accepted, and "keep" keeps it', async () => {
			const app = new FakeWindow(APP);
			const { engine, host } = await setup(app, backoff);
			await host.pairRelay('ws://localhost:9', TOKEN);
			const before = await engine.getSetting(RELAY_PAIRING_KEY);

			app.location.hash = NEW_LINK;
			app.dispatchEvent(new Event('hashchange'));
			await eventually(() =>
				expect(host.relay().offer).toEqual({
					url: 'ws://127.0.0.1:1',
					replaces: 'ws://localhost:9',
					replaces_paired_at: expect.any(String),
					same_address: false,
				}),
			);
			expect(app.location.hash).toBe('');
			expect(JSON.stringify(host.relay())).not.toContain(NEW_TOKEN);
			expect(host.relay().url).toBe('ws://localhost:9');
			expect(host.relay().connection?.url).toBe('ws://localhost:9');
			expect(await engine.getSetting(RELAY_PAIRING_KEY)).toEqual(before);

			host.declineRelayLink();
			expect(host.relay().offer).toBeUndefined();
			expect(host.relay().url).toBe('ws://localhost:9');
			expect(await engine.getSetting(RELAY_PAIRING_KEY)).toEqual(before);

			app.location.hash = NEW_LINK;
			app.dispatchEvent(new Event('hashchange'));
			await eventually(() => expect(host.relay().offer?.url).toBe('ws://127.0.0.1:1'));
			await host.acceptRelayLink();
			expect(host.relay().url).toBe('ws://127.0.0.1:1');
			expect(host.relay().offer).toBeUndefined();
			expect(await engine.getSetting(RELAY_PAIRING_KEY)).toEqual({
				url: 'ws://127.0.0.1:1',
				token: NEW_TOKEN,
				paired_at: expect.any(String),
			});
		});

		it('asks too when the page opens at a link while a pairing is remembered', async () => {
			const app = new FakeWindow(APP);
			const { engine, host } = await setup(app, backoff);
			await host.pairRelay('ws://localhost:9', TOKEN);
			await host.stop();
			const before = await engine.getSetting(RELAY_PAIRING_KEY);
			app.location.hash = NEW_LINK;
			const again = await startMcpHost(engine, {
				window: app as never,
				modelContext: null,
				postMessage: false,
				WebSocket: WebSocket as unknown as WebSocketConstructor,
				...backoff,
			});
			cleanups.push(() => again.stop());
			expect(app.location.hash).toBe('');
			expect(again.relay()).toMatchObject({
				url: 'ws://localhost:9',
				offer: { url: 'ws://127.0.0.1:1', replaces: 'ws://localhost:9' },
			});
			expect(await engine.getSetting(RELAY_PAIRING_KEY)).toEqual(before);
		});

		it('does not ask when the link is the current pairing', async () => {
			const app = new FakeWindow(APP);
			const { host } = await setup(app, backoff);
			await host.pairRelay('ws://127.0.0.1:9', TOKEN);
			app.location.hash = `#relay=ws://127.0.0.1:9&token=${TOKEN}`;
			app.dispatchEvent(new Event('hashchange'));
			await flush();
			expect(app.location.hash).toBe('');
			expect(host.relay().offer).toBeUndefined();
		});
	});

	describe('WebMCP', () => {
		/** A model context that records registrations and honours the abort signal. */
		function recordingContext() {
			const tools = new Map<string, WebMcpTool>();
			const mc: ModelContextLike = {
				registerTool(tool, options) {
					if (tools.has(tool.name)) throw new Error(`duplicate ${tool.name}`);
					tools.set(tool.name, tool);
					options?.signal?.addEventListener('abort', () => tools.delete(tool.name));
				},
			};
			return { mc, tools };
		}

		it('registers the native tools with JSON Schemas, runs them through the server, and unregisters on stop', async () => {
			const { mc, tools } = recordingContext();
			const { host } = await setup(new FakeWindow(APP), { modelContext: mc, postMessage: false });
			expect(host.webmcp().available).toBe(true);
			expect(host.webmcp().tools).toEqual([...tools.keys()]);
			expect(tools.has('recall_memory')).toBe(true);
			const store = tools.get('store_memory')!;
			expect(store.inputSchema).toMatchObject({
				type: 'object',
				properties: expect.objectContaining({ content: expect.any(Object) }),
			});
			expect(tools.get('recall_memory')!.annotations).toEqual({
				readOnlyHint: true,
				untrustedContentHint: true,
			});
			expect(store.annotations).toEqual({ readOnlyHint: false });

			const res = await store.execute({ content: 'WebMCP agents can store memories too.' });
			expect(res.isError).toBeFalsy();
			const found = await tools.get('recall_memory')!.execute({ query: 'WebMCP agents' });
			expect(JSON.stringify(found.structuredContent)).toContain('WebMCP agents can store memories too.');
			expect(host.connections()).toEqual([
				expect.objectContaining({
					kind: 'webmcp',
					client: { name: 'WebMCP agent', version: '1' },
					calls: 2,
				}),
			]);

			await host.stop();
			expect(tools.size).toBe(0);
		});

		it('registers nothing where there is no model context', async () => {
			const { host } = await setup(new FakeWindow(APP), { postMessage: false });
			await flush();
			expect(host.webmcp()).toEqual({ available: false, tools: [] });
		});
	});
});

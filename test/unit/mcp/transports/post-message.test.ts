/**
 * The postMessage server transport against the real MCP-B client transports (@mcp-b/transports
 * 5.x) and the real SDK Client, over fake windows that keep postMessage's origin semantics.
 */
import { IframeParentTransport, TabClientTransport } from '@mcp-b/transports';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PostMessageListener, type HostWindow, type PostMessagePeer, type PostMessageServerTransport } from '../../../../src/mcp/transports/post-message';
import { MAX_IN_FLIGHT } from '../../../../src/mcp/transports/relay-protocol';
import { FakeWindow, eventually, flush } from './fake-window';

const APP = 'http://127.0.0.1:4173';
const OTHER = 'http://localhost:5173';

/** A real McpServer with one tool, standing in for createMemoryServer. */
function testServer(): McpServer {
	const server = new McpServer({ name: 'test', version: '1' });
	server.registerTool('echo', { description: 'echo', inputSchema: { text: z.string() }, outputSchema: { text: z.string() } }, async ({ text }) => ({
		content: [{ type: 'text', text }],
		structuredContent: { text },
	}));
	return server;
}

interface Harness {
	listener: PostMessageListener;
	allowed: Set<string>;
	blocked: PostMessagePeer[];
	connections: { transport: PostMessageServerTransport; first: unknown; server: McpServer }[];
	errors: Error[];
}

function listen(win: FakeWindow): Harness {
	const h: Harness = {
		allowed: new Set([win.location.origin]),
		blocked: [],
		connections: [],
		errors: [],
		listener: undefined!,
	};
	h.listener = new PostMessageListener({
		window: win as unknown as HostWindow,
		isAllowed: (o) => h.allowed.has(o),
		onBlocked: (peer) => h.blocked.push(peer),
		onConnection: (transport, first) => {
			const server = testServer();
			transport.onerror = (e) => h.errors.push(e);
			h.connections.push({ transport, first, server });
			void server.connect(transport);
		},
	});
	h.listener.start();
	return h;
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
	for (const c of cleanups.splice(0).reverse()) await c();
});

/** An SDK client on `transport` (MCP-B's transports are typed against the v2 SDK). */
function client(name = 'mcp-b-client'): Client {
	const c = new Client({ name, version: '1' });
	cleanups.push(() => c.close());
	return c;
}

describe('PostMessageListener', () => {
	describe('with TabClientTransport in the same window', () => {
		it('lists and calls tools', async () => {
			const app = new FakeWindow(APP);
			cleanups.push(app.installAsGlobal());
			const h = listen(app);
			cleanups.push(() => h.listener.stop());
			const c = client();
			await c.connect(new TabClientTransport({ targetOrigin: APP }) as unknown as Transport);
			const tools = await c.listTools();
			expect(tools.tools.map((t) => t.name)).toEqual(['echo']);
			const res = await c.callTool({ name: 'echo', arguments: { text: 'hello' } });
			expect(res.structuredContent).toEqual({ text: 'hello' });
			expect(h.connections).toHaveLength(1);
			expect(h.connections[0]!.transport.peer).toEqual({
				kind: 'same-window',
				origin: APP,
				channel: 'mcp-default',
			});
		});

		it('answers an unknown method (MCP-B clients probe server/discover) with -32601', async () => {
			const app = new FakeWindow(APP);
			cleanups.push(app.installAsGlobal());
			const h = listen(app);
			cleanups.push(() => h.listener.stop());
			const c = client();
			await c.connect(new TabClientTransport({ targetOrigin: APP }) as unknown as Transport);
			await expect(c.request({ method: 'server/discover' }, z.object({}))).rejects.toMatchObject({
				code: -32601,
			});
		});

		it('proceeds when the client started before the server (the server announces itself)', async () => {
			const app = new FakeWindow(APP);
			cleanups.push(app.installAsGlobal());
			const c = client();
			const connecting = c.connect(new TabClientTransport({ targetOrigin: APP }) as unknown as Transport);
			await flush();
			const h = listen(app);
			cleanups.push(() => h.listener.stop());
			await connecting;
			expect((await c.listTools()).tools).toHaveLength(1);
		});

		it('gives a client that initializes again a fresh server and closes the old one', async () => {
			const app = new FakeWindow(APP);
			cleanups.push(app.installAsGlobal());
			const h = listen(app);
			cleanups.push(() => h.listener.stop());
			const first = new TabClientTransport({ targetOrigin: APP });
			const c1 = client('one');
			await c1.connect(first as unknown as Transport);
			await c1.close();
			const c2 = client('two');
			await c2.connect(new TabClientTransport({ targetOrigin: APP }) as unknown as Transport);
			expect((await c2.listTools()).tools).toHaveLength(1);
			expect(h.connections).toHaveLength(2);
			expect(h.connections[0]!.transport.closed).toBe(true);
			expect(h.listener.transports()).toEqual([h.connections[1]!.transport]);
		});
	});

	describe('with IframeParentTransport in an embedding page of another origin', () => {
		function embed() {
			const parent = new FakeWindow(OTHER);
			const app = new FakeWindow(APP, parent);
			cleanups.push(parent.installAsGlobal());
			const h = listen(app);
			cleanups.push(() => h.listener.stop());
			const iframe = { contentWindow: app.seenFrom(parent) } as unknown as HTMLIFrameElement;
			return { parent, app, h, iframe };
		}

		it('sends nothing at all to an unapproved origin and reports the attempt', async () => {
			const { parent, h, iframe } = embed();
			const transport = new IframeParentTransport({ iframe, targetOrigin: APP });
			await transport.start();
			// A client that skips the handshake gets no answer either.
			app_post(iframe, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
			await flush(100);
			expect(parent.received).toEqual([]);
			expect(h.blocked.map((b) => b.origin)).toEqual([OTHER, OTHER]);
			expect(h.blocked[0]).toEqual({ kind: 'parent', origin: OTHER, channel: 'mcp-iframe' });
			expect(h.connections).toEqual([]);
			await transport.close();
		});

		it('lets a waiting client in once its origin is approved, and closes it when revoked', async () => {
			const { h, iframe } = embed();
			const transport = new IframeParentTransport({ iframe, targetOrigin: APP });
			let closed = false;
			const c = client();
			const connecting = c.connect(transport as unknown as Transport);
			transport.onclose = chain(transport.onclose, () => (closed = true));
			await flush(100);
			expect(h.connections).toEqual([]);

			h.allowed.add(OTHER);
			h.listener.admit(OTHER);
			await connecting;
			const res = await c.callTool({
				name: 'echo',
				arguments: { text: 'from the embedding page' },
			});
			expect(res.structuredContent).toEqual({ text: 'from the embedding page' });
			expect(h.connections[0]!.transport.peer).toEqual({
				kind: 'parent',
				origin: OTHER,
				channel: 'mcp-iframe',
			});

			h.allowed.delete(OTHER);
			await h.listener.evict(OTHER);
			await eventually(() => expect(closed).toBe(true));
			expect(h.listener.transports()).toEqual([]);
		});
	});

	describe('with a client in another window posting on the tab channel', () => {
		it('answers only that window, addressed to its exact origin', async () => {
			const app = new FakeWindow(APP);
			const popup = new FakeWindow(OTHER);
			const bystander = new FakeWindow('http://127.0.0.1:9999');
			const h = listen(app);
			cleanups.push(() => h.listener.stop());
			h.allowed.add(OTHER);
			const appFromPopup = app.seenFrom(popup);
			appFromPopup.postMessage(envelope('mcp-check-ready'), APP);
			appFromPopup.postMessage(envelope({ jsonrpc: '2.0', id: 7, method: 'ping' }), APP);
			await eventually(() =>
				expect(popup.received.map((r) => (r.data as { payload: unknown }).payload)).toEqual([
					'mcp-server-ready',
					{ jsonrpc: '2.0', id: 7, result: {} },
				]),
			);
			expect(popup.received.every((r) => r.origin === APP)).toBe(true);
			expect(bystander.received).toEqual([]);
			expect(h.connections[0]!.transport.peer.kind).toBe('window');
		});

		it('drops a malformed JSON-RPC payload, reports it, and keeps serving', async () => {
			const app = new FakeWindow(APP);
			const popup = new FakeWindow(OTHER);
			const h = listen(app);
			cleanups.push(() => h.listener.stop());
			h.allowed.add(OTHER);
			const appFromPopup = app.seenFrom(popup);
			appFromPopup.postMessage(envelope({ jsonrpc: '2.0', id: 1, method: 'ping' }), APP);
			appFromPopup.postMessage(envelope({ jsonrpc: '1.0', nonsense: true }), APP);
			appFromPopup.postMessage(envelope({ jsonrpc: '2.0', id: 2, method: 'ping' }), APP);
			await eventually(() => expect(popup.received).toHaveLength(2));
			expect(h.errors.map((e) => e.message)).toEqual([expect.stringMatching(/^invalid JSON-RPC message from http:\/\/localhost:5173/)]);
		});

		it('answers a request the SDK cannot read (params a string, _meta a number) instead of leaving it unanswered', async () => {
			const app = new FakeWindow(APP);
			const popup = new FakeWindow(OTHER);
			const h = listen(app);
			cleanups.push(() => h.listener.stop());
			h.allowed.add(OTHER);
			const appFromPopup = app.seenFrom(popup);
			appFromPopup.postMessage(envelope({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: 'echo' }), APP);
			appFromPopup.postMessage(envelope({ jsonrpc: '2.0', id: 'b', method: 'tools/list', params: { _meta: 5 } }), APP);
			appFromPopup.postMessage(envelope({ jsonrpc: '2.0', method: 'notifications/x', params: 'no answer' }), APP);
			appFromPopup.postMessage(envelope({ jsonrpc: '2.0', id: 3, method: 'ping' }), APP);
			await eventually(() => expect(popup.received).toHaveLength(3));
			const payloads = popup.received.map((r) => (r.data as { payload: { id: unknown; error?: { code: number; message: string } } }).payload);
			expect(payloads[0]).toMatchObject({
				id: 1,
				error: { code: -32600, message: expect.stringMatching(/^Invalid Request: params: .*expected object/) },
			});
			expect(payloads[1]).toMatchObject({ id: 'b', error: { code: -32600, message: expect.stringMatching(/^Invalid Request: params\._meta: /) } });
			expect(payloads[2]).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
		});

		it(`refuses a client’s requests beyond ${MAX_IN_FLIGHT} waiting for answers, at once, and serves it again once answered`, async () => {
			const app = new FakeWindow(APP);
			const popup = new FakeWindow(OTHER);
			let release!: () => void;
			const gate = new Promise<void>((r) => (release = r));
			const listener = new PostMessageListener({
				window: app as unknown as HostWindow,
				isAllowed: (o) => o === APP || o === OTHER,
				onConnection: (transport) => {
					const server = new McpServer({ name: 'test', version: '1' });
					server.registerTool('hold', { description: 'waits for the test' }, async () => {
						await gate;
						return { content: [{ type: 'text', text: 'done' }] };
					});
					void server.connect(transport);
				},
			});
			listener.start();
			cleanups.push(() => listener.stop());
			const appFromPopup = app.seenFrom(popup);
			const hold = (id: number) => envelope({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'hold', arguments: {} } });
			for (let id = 1; id <= MAX_IN_FLIGHT + 6; id++) appFromPopup.postMessage(hold(id), APP);
			const payloads = () => popup.received.map((r) => (r.data as { payload: { id: number; error?: { message: string }; result?: unknown } }).payload);
			await eventually(() => expect(payloads()).toHaveLength(6));
			expect(payloads().map((p) => p.id)).toEqual(Array.from({ length: 6 }, (_, i) => MAX_IN_FLIGHT + 1 + i));
			expect(payloads()[0]!.error!.message).toMatch(/^Too many requests in flight: .* Nothing was done for this one/);
			release();
			await eventually(() => expect(payloads()).toHaveLength(MAX_IN_FLIGHT + 6));
			expect(
				payloads()
					.slice(6)
					.every((p) => p.result !== undefined),
			).toBe(true);
			appFromPopup.postMessage(hold(100), APP);
			await eventually(() => expect(payloads().at(-1)).toMatchObject({ id: 100, result: { content: [{ text: 'done' }] } }));
		});

		it('closes the connection when the client window goes away', async () => {
			const app = new FakeWindow(APP);
			const popup = new FakeWindow(OTHER);
			const h = listen(app);
			cleanups.push(() => h.listener.stop());
			h.allowed.add(OTHER);
			app.seenFrom(popup).postMessage(envelope({ jsonrpc: '2.0', id: 1, method: 'ping' }), APP);
			await eventually(() => expect(h.listener.transports()).toHaveLength(1));
			popup.closed = true;
			await h.listener.sweep();
			expect(h.listener.transports()).toEqual([]);
			expect(h.connections[0]!.transport.closed).toBe(true);
		});

		it('ignores envelopes in the other direction and foreign channels', async () => {
			const app = new FakeWindow(APP);
			const popup = new FakeWindow(OTHER);
			const h = listen(app);
			cleanups.push(() => h.listener.stop());
			h.allowed.add(OTHER);
			const view = app.seenFrom(popup);
			view.postMessage({ ...envelope({ jsonrpc: '2.0', id: 1, method: 'ping' }), direction: 'server-to-client' }, APP);
			view.postMessage({ ...envelope({ jsonrpc: '2.0', id: 2, method: 'ping' }), channel: 'something-else' }, APP);
			// The iframe channel is only accepted from the embedding page, never from a popup.
			view.postMessage({ ...envelope({ jsonrpc: '2.0', id: 3, method: 'ping' }), channel: 'mcp-iframe' }, APP);
			await flush(100);
			expect(popup.received).toEqual([]);
			expect(h.connections).toEqual([]);
		});
	});
});

function envelope(payload: unknown) {
	return { channel: 'mcp-default', type: 'mcp', direction: 'client-to-server', payload };
}

function app_post(iframe: HTMLIFrameElement, payload: unknown): void {
	iframe.contentWindow!.postMessage({ channel: 'mcp-iframe', type: 'mcp', direction: 'client-to-server', payload }, APP);
}

function chain(a: (() => void) | undefined, b: () => void): () => void {
	return () => {
		a?.();
		b();
	};
}

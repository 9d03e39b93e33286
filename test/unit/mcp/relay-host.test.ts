/**
 * RelayHost on the far side of a real MessageChannel through comlink, as the app runs it in the
 * engine worker: the page's host only holds the `relayControl` and mirrors what it pushes. A real
 * engine, the real relay bin and an SDK client over stdio; `ws` as the host's WebSocket.
 */
import { wrap, expose } from 'comlink';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startMcpHost, type McpHost } from '../../../src/mcp/host';
import { RelayHost, type RelayControl } from '../../../src/mcp/relay-host';
import type { WebSocketConstructor } from '../../../src/mcp/transports/relay-client';
import { freePort } from '../../e2e/helpers';
import { makeEngine } from '../engine/helpers';
import { newToken, relayHome, spawnRelayClient, waitFor } from '../relay/helpers';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
	for (const c of cleanups.splice(0).reverse()) await c();
});
const home = relayHome();
afterAll(() => home.remove());

const ORIGIN = 'http://127.0.0.1:4173';
const Ws = class extends WebSocket {
	constructor(url: string, protocols: string) {
		super(url, protocols, { origin: ORIGIN });
	}
} as unknown as WebSocketConstructor;

/** A "worker" (RelayHost exposed on one port) and a "page" host wired to it over comlink. */
async function split(): Promise<{ host: McpHost; engine: Awaited<ReturnType<typeof makeEngine>> }> {
	const engine = await makeEngine();
	const { port1, port2 } = new MessageChannel();
	expose(new RelayHost(engine, { WebSocket: Ws, backoff: { initialMs: 50, maxMs: 400 } }), port1 as never);
	const host = await startMcpHost(engine, {
		window: { location: { origin: ORIGIN, hash: '', pathname: '/', search: '' } } as never,
		postMessage: false,
		modelContext: null,
		relayControl: wrap<RelayControl>(port2 as never) as unknown as RelayControl,
	});
	cleanups.push(async () => {
		await host.stop();
		port1.close();
		port2.close();
		await engine.close();
	});
	return { host, engine };
}

describe('RelayHost behind comlink (the engine worker)', () => {
	it('pairs, serves a desktop client, and mirrors its connection and calls to the page', async () => {
		const port = await freePort();
		const token = newToken();
		const desk = await spawnRelayClient(['--port', String(port), '--token', token], { ENGRAM_RELAY_HOME: home.dir }, 'desk-split');
		cleanups.push(() => desk.close());
		const { host, engine } = await split();
		await host.pairRelay(`ws://127.0.0.1:${port}`, token);
		// The answer of the act is applied before it resolves: no waiting for a push.
		expect(host.relay().url).toBe(`ws://127.0.0.1:${port}`);
		await waitFor(() => host.relay().connection?.status === 'connected');
		const stored = await desk.client.callTool({ name: 'store_memory', arguments: { content: 'The split host stores through the worker.' } });
		expect(stored.isError).toBeFalsy();
		await waitFor(() => host.calls().some((c) => c.tool === 'store_memory' && c.ok));
		expect(host.calls()[0]).toMatchObject({ tool: 'store_memory', agent: 'desk-split (relay/stdio)', ok: true });
		expect(host.connections().map((c) => [c.kind, c.via, c.client?.name])).toEqual([['relay', 'stdio', 'desk-split']]);
		// The call is in the activity log (deferred, flushed by the reader).
		expect((await engine.activity(20)).map((a) => a.detail)).toContainEqual(expect.stringMatching(/^store_memory ok in \d+ ms \(profile native\)$/));

		const [{ id }] = host.connections();
		await host.disconnect(id!);
		expect(host.connections()).toEqual([]);

		await host.unpairRelay();
		expect(host.relay()).toEqual({});
		expect(await engine.getSetting('relay_pairing')).toBe(null);
	});

	it('shows a refused pairing in the state and throws naming the field', async () => {
		const { host } = await split();
		await expect(host.pairRelay('ws://10.0.0.2:17373', newToken())).rejects.toThrow('relay host "10.0.0.2" is refused');
		expect(host.relay().error).toContain('relay host "10.0.0.2" is refused');
	});
});

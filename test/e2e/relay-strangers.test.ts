/**
 * A stranger's web page against the real engram-relay, in Chromium: a page on another site (its
 * host name mapped to 127.0.0.1, as DNS rebinding would) tries the relay's WebSocket, its HTTP
 * endpoint with and without a preflight, and the relay's port under its own name. Nothing reaches
 * the paired tab: no session opens, no memory changes, and the desktop client is served throughout.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSAL_LOG_LINES } from '../../relay/sockets';
import { newToken, relayHome, spawnRaw, waitFor, waitForLog, type RawRelay } from '../unit/relay/helpers';
import { engine } from './app-support';
import { openPairingLink, type HostHandle } from './bridges-support';
import { CHROMIUM_ARGS, chromiumPath, freePort, startPreview, type Server } from './helpers';

const STRANGER = 'stranger.test';
let server: Server;
let context: BrowserContext;
let profile: string;
let app: Page;
let stranger: Page;
let strangerSite: HttpServer;
let strangerUrl: string;
let port: number;
let desk: RawRelay;
const token = newToken();
const home = relayHome();

const relay = () => app.evaluate(() => (globalThis as unknown as { engramMcpHost: HostHandle }).engramMcpHost.snapshot().relay);
const total = async () => (await engine<{ total_memories: number }>(app, 'stats', {})).total_memories;

/** The desktop client's request, answered (it waits for the answer line). */
async function deskCall(id: number, method: string, params?: object): Promise<Record<string, unknown>> {
	const before = desk.lines.length;
	desk.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
	await waitFor(() => desk.lines.length > before, 30_000);
	return desk.lines.at(-1) as Record<string, unknown>;
}

beforeAll(async () => {
	server = await startPreview();
	port = await freePort();
	desk = spawnRaw(['--port', String(port), '--app-url', server.url], { ENGRAM_RELAY_HOME: home.dir, ENGRAM_RELAY_TOKEN: token });
	await waitForLog(desk.log, 'listening');
	desk.send(
		JSON.stringify({
			jsonrpc: '2.0',
			id: 0,
			method: 'initialize',
			params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'desk', version: '1' } },
		}),
	);
	desk.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
	strangerSite = createServer((_req, res) => void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>A page on the web</title>'));
	await new Promise<void>((ok) => strangerSite.listen(0, '127.0.0.1', ok));
	strangerUrl = `http://${STRANGER}:${(strangerSite.address() as AddressInfo).port}`;
	profile = mkdtempSync(join(tmpdir(), 'engram-chromium-'));
	context = await chromium.launchPersistentContext(profile, {
		executablePath: chromiumPath(),
		headless: true,
		args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${STRANGER} 127.0.0.1`],
	});
	app = await context.newPage();
	await openPairingLink(app, `${server.url}/#relay=ws://127.0.0.1:${port}&token=${token}`);
	await waitFor(async () => expect((await relay()).connection?.status).toBe('connected'), 60_000);
	expect(await deskCall(1, 'tools/call', { name: 'store_memory', arguments: { content: 'Only my own agents may read this.' } })).toMatchObject({
		result: {},
	});
	stranger = await context.newPage();
	await stranger.goto(`${strangerUrl}/`);
}, 180_000);

afterAll(async () => {
	desk?.child.kill('SIGKILL');
	await context?.close().catch(() => {});
	if (profile) rmSync(profile, { recursive: true, force: true });
	await new Promise((ok) => strangerSite?.close(ok));
	await server?.stop();
	home.remove();
});

describe('a stranger’s web page and the relay', () => {
	it('cannot open the relay’s WebSocket: the upgrade is refused for its Origin', async () => {
		const outcome = await stranger.evaluate(
			(url) =>
				new Promise<string>((ok) => {
					const ws = new WebSocket(url, 'mcp');
					ws.onopen = () => ok('open');
					ws.onclose = (e) => ok(`closed ${e.code}`);
				}),
			`ws://127.0.0.1:${port}/`,
		);
		expect(outcome).toBe('closed 1006');
		await waitForLog(desk.log, `refused a WebSocket from ${strangerUrl}: Origin "${strangerUrl}" is refused`);
	});

	it('can try the port in a loop, and the relay’s log (the desktop client’s log file) gets a few lines for it', async () => {
		const closed = await stranger.evaluate(async (url) => {
			let n = 0;
			const until = performance.now() + 10_000;
			while (performance.now() < until)
				await new Promise<void>((ok) => {
					const ws = new WebSocket(url, 'mcp');
					ws.onclose = () => (n++, ok());
				});
			return n;
		}, `ws://127.0.0.1:${port}/`);
		expect(closed).toBeGreaterThan(REFUSAL_LOG_LINES);
		const lines = desk
			.log()
			.split('\n')
			.filter((l) => l.includes(`refused a WebSocket from ${strangerUrl}`));
		expect(lines.length).toBeLessThanOrEqual(2 * REFUSAL_LOG_LINES);
	});

	it('cannot call /mcp: a preflighted request is blocked, a simple one refused unread', async () => {
		const results = await stranger.evaluate(async (url) => {
			const init = JSON.stringify({
				jsonrpc: '2.0',
				id: 1,
				method: 'initialize',
				params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
			});
			const out: string[] = [];
			try {
				const r = await fetch(url, {
					method: 'POST',
					headers: { 'Content-Type': 'application/json', Authorization: 'Bearer guess-guess-guess-guess' },
					body: init,
				});
				out.push(`preflighted: ${r.status}`);
			} catch (e) {
				out.push(`preflighted: ${(e as Error).name}`);
			}
			const simple = await fetch(url, { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body: init });
			out.push(`simple: ${simple.type}`);
			return out;
		}, `http://127.0.0.1:${port}/mcp`);
		expect(results).toEqual(['preflighted: TypeError', 'simple: opaque']);
	});

	it('cannot reach the relay under its own host name (DNS rebinding): 403 for the Host', async () => {
		const rebound = await stranger.goto(`http://${STRANGER}:${port}/mcp`);
		expect(rebound?.status()).toBe(403);
		expect(await rebound?.text()).toContain(`Host \\"${STRANGER}:${port}\\" is refused`);
		const fromThere = await stranger.evaluate(async () => {
			const r = await fetch('/mcp', {
				method: 'POST',
				headers: { 'Content-Type': 'application/json' },
				body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
			});
			return r.status;
		});
		expect(fromThere).toBe(403);
	});

	it('left the tab paired with no new session, the memory unchanged, and the desktop client served', async () => {
		expect((await relay()).connection).toMatchObject({ status: 'connected', sessions: 1 });
		expect(await total()).toBe(1);
		const recall = await deskCall(2, 'tools/call', { name: 'recall_memory', arguments: { query: 'own agents' } });
		expect(JSON.stringify(recall)).toContain('Only my own agents may read this.');
	});
});

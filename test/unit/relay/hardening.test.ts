/**
 * engram-relay under attack and faults (issue 23), through the real interfaces: the real bin,
 * the real page host in Node as the tab, real `ws` sockets, the SDK's stdio and HTTP clients.
 * - hostile input: a message nested thousands deep never takes the relay down;
 * - the handshake: a process squatting on the port never learns the token nor gets a tool served;
 * - faults: a call in flight when the relay or the tab dies gets a prompt, truthful answer;
 * - limits: sessions per relay, duplicate ids in a batch, the token file's mode.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import type { Engine } from '../../../src/engine/engine';
import { startPrimary } from '../../../relay/primary';
import type { McpHost } from '../../../src/mcp/host';
import { MAX_RELAY_SESSIONS } from '../../../src/mcp/transports/relay-protocol';
import { freePort } from '../../e2e/helpers';
import { makeEngine } from '../engine/helpers';
import { handshake, newToken, relayHome, spawnRaw, spawnRelayClient, startNodeTab, waitFor, waitForLog, type RawRelay } from './helpers';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
	for (const c of cleanups.splice(0).reverse()) await c();
});
const home = relayHome();
afterAll(() => home.remove());
const env = { ENGRAM_RELAY_HOME: home.dir };

const INIT = {
	jsonrpc: '2.0',
	id: 0,
	method: 'initialize',
	params: {
		protocolVersion: '2025-06-18',
		capabilities: {},
		clientInfo: { name: 'raw', version: '1' },
	},
};

async function engineTab(port: number, token: string, waitConnected = true): Promise<{ engine: Engine; host: McpHost }> {
	const engine = await makeEngine();
	const host = await startNodeTab(engine, port, token, { waitConnected });
	cleanups.push(async () => {
		await host.stop();
		await engine.close();
	});
	return { engine, host };
}

const count = async (engine: Engine) => (await engine.stats({})).total_memories;

/** An engine whose `store` waits at a gate: a write in flight, for as long as the test wants. */
function gated(engine: Engine) {
	let release!: () => void;
	let entered!: () => void;
	const gate = new Promise<void>((r) => (release = r));
	const started = new Promise<void>((r) => (entered = r));
	const proxy = new Proxy(engine, {
		get(target, key) {
			if (key === 'store')
				return async (...args: Parameters<Engine['store']>) => {
					entered();
					await gate;
					return target.store(...args);
				};
			const v = Reflect.get(target, key) as unknown;
			return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
		},
	});
	return { engine: proxy, release, started };
}

/** A tab whose writes wait at a gate. */
async function gatedTab(port: number, token: string) {
	const engine = await makeEngine();
	const g = gated(engine);
	const host = await startNodeTab(g.engine, port, token);
	cleanups.push(async () => {
		g.release();
		await host.stop();
		await engine.close();
	});
	return { ...g, real: engine, host };
}

/** How long `p` takes to settle, and its error message (it must reject). */
async function rejectionWithin(p: Promise<unknown>): Promise<{ ms: number; message: string }> {
	const t0 = Date.now();
	try {
		await p;
	} catch (e) {
		return { ms: Date.now() - t0, message: (e as Error).message };
	}
	throw new Error('expected the call to fail');
}

const STORE = { name: 'store_memory', arguments: { content: 'Written while the relay died.' } };
const UNKNOWN =
	'before this call was answered: unknown whether it was applied. Check with get_memory (or recall_memory), or resend it with the same request_id.';

/** A relay on stdio, spawned raw, initialised. */
async function rawRelay(port: number, token: string, extra: string[] = []): Promise<RawRelay> {
	const raw = spawnRaw(['--port', String(port), '--token', token, ...extra], env);
	cleanups.push(() => raw.child.kill('SIGKILL'));
	await waitForLog(raw.log, 'listening');
	return raw;
}

function initialise(raw: RawRelay): Promise<void> {
	const before = raw.lines.length;
	raw.send(JSON.stringify(INIT));
	raw.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
	return waitFor(() => raw.lines.length > before);
}

/** `{"a":{"a":…1…}}` nested `depth` deep, as text (JSON.stringify itself would overflow). */
function nested(depth: number): string {
	return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

function deepStore(id: number, depth: number): string {
	return (
		`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"store_memory",` +
		`"arguments":{"content":"deep metadata","metadata":${nested(depth)}}}}`
	);
}

async function httpClient(port: number, token: string): Promise<Client> {
	const http = new Client({ name: 'http-bystander', version: '1' });
	await http.connect(
		new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
			requestInit: { headers: { Authorization: `Bearer ${token}` } },
		}),
	);
	cleanups.push(() => http.close().catch(() => {}));
	return http;
}

describe('engram-relay hardening', () => {
	describe('hostile messages (item 4)', () => {
		it('answers a call nested 5,000 and 2,000 deep with a JSON-RPC error and keeps every client', async () => {
			const port = await freePort();
			const token = newToken();
			const raw = await rawRelay(port, token);
			const { engine } = await engineTab(port, token);
			await initialise(raw);
			const http = await httpClient(port, token);
			const before = await count(engine);
			for (const [id, depth] of [
				[11, 5000],
				[12, 2000],
			] as const) {
				raw.send(deepStore(id, depth));
				await waitFor(() => raw.lines.some((l) => (l as { id?: number }).id === id), 10_000);
				const answer = raw.lines.find((l) => (l as { id?: number }).id === id) as {
					error: { code: number; message: string };
				};
				expect(answer.error.code).toBe(-32600);
				expect(answer.error.message).toMatch(/nested more than \d+ levels deep/);
			}
			expect(raw.child.exitCode).toBe(null);
			expect((await http.listTools()).tools.length).toBeGreaterThan(0);
			raw.send(JSON.stringify({ jsonrpc: '2.0', id: 13, method: 'ping' }));
			await waitFor(() => raw.lines.some((l) => (l as { id?: number }).id === 13));
			expect(await count(engine)).toBe(before);
		});

		it('stays up when a refused WebSocket upgrade is reset instead of closed', async () => {
			const port = await freePort();
			const token = newToken();
			const raw = await rawRelay(port, token);
			// A foreign origin is refused with a 403 on the raw socket; the peer then resets it (RST).
			for (let i = 0; i < 20; i++)
				await new Promise<void>((resolve, reject) => {
					const s = connect(port, '127.0.0.1', () =>
						s.write(
							`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: https://evil.example\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
								'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: mcp\r\n\r\n',
						),
					);
					s.once('data', (d) => {
						expect(d.toString()).toMatch(/^HTTP\/1\.1 403/);
						s.resetAndDestroy();
						resolve();
					});
					s.once('error', (e) => reject(new Error(`${e.message}; relay log: ${raw.log().slice(-600)}`)));
				});
			raw.send(JSON.stringify({ jsonrpc: '2.0', id: 21, method: 'ping' }));
			await waitFor(() => raw.lines.some((l) => (l as { id?: number }).id === 21));
			expect(raw.child.exitCode).toBe(null);
		});

		it('answers a deep call over HTTP with a JSON-RPC error, and stays up', async () => {
			const port = await freePort();
			const token = newToken();
			const raw = await rawRelay(port, token);
			await engineTab(port, token);
			await initialise(raw);
			const url = `http://127.0.0.1:${port}/mcp`;
			const headers = {
				Authorization: `Bearer ${token}`,
				'Content-Type': 'application/json',
				Accept: 'application/json, text/event-stream',
			};
			const init = await fetch(url, { method: 'POST', headers, body: JSON.stringify(INIT) });
			await init.text();
			const sid = init.headers.get('mcp-session-id')!;
			const session = { ...headers, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' };
			await (
				await fetch(url, {
					method: 'POST',
					headers: session,
					body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
				})
			).text();
			const res = await fetch(url, { method: 'POST', headers: session, body: deepStore(5, 5000) });
			const text = await res.text();
			expect(text).toMatch(/nested more than \d+ levels deep/);
			expect(raw.child.exitCode).toBe(null);
			raw.send(JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'ping' }));
			await waitFor(() => raw.lines.some((l) => (l as { id?: number }).id === 6));
		});
	});

	describe('the handshake (item 7)', () => {
		/** A program squatting on the port: accepts any WebSocket and records everything it gets. */
		async function impostor(port: number, behave: 'challenge' | 'silent-open') {
			const seen: string[] = [];
			const server: Server = createServer((req, res) => {
				seen.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)}`);
				res.writeHead(200).end();
			});
			const wss = new WebSocketServer({ server, handleProtocols: () => 'mcp' });
			wss.on('connection', (ws, req) => {
				seen.push(`${req.url} ${JSON.stringify(req.headers)}`);
				ws.on('message', (d) => seen.push(d.toString()));
				const frames: unknown[] = [];
				if (behave === 'challenge') frames.push({ t: 'challenge', v: 1, nonce: 'ab'.repeat(32) }, { t: 'proof', proof: '00'.repeat(32) });
				frames.push(
					{ t: 'welcome', relay: { version: 'evil', port } },
					{ t: 'open', session: { sid: 'evil', kind: 'stdio', profile: 'native' } },
					{ t: 'msg', sid: 'evil', m: INIT },
					{ t: 'msg', sid: 'evil', m: { jsonrpc: '2.0', method: 'notifications/initialized' } },
					{
						t: 'msg',
						sid: 'evil',
						m: {
							jsonrpc: '2.0',
							id: 1,
							method: 'tools/call',
							params: { name: 'store_memory', arguments: { content: 'planted by an impostor' } },
						},
					},
				);
				for (const f of frames) ws.send(JSON.stringify(f));
			});
			await new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));
			cleanups.push(
				() =>
					new Promise((ok) => {
						for (const c of wss.clients) c.terminate();
						wss.close();
						server.closeAllConnections();
						server.close(ok);
					}),
			);
			return { seen: () => seen.join('\n') };
		}

		for (const behave of ['challenge', 'silent-open'] as const)
			it(`a tab never hands its token to a program on the port, nor serves it (${behave})`, async () => {
				const port = await freePort();
				const token = newToken();
				const fake = await impostor(port, behave);
				const { engine, host } = await engineTab(port, token, false);
				await waitFor(() => fake.seen().length > 0);
				await new Promise((r) => setTimeout(r, 1500));
				expect(fake.seen()).not.toContain(token);
				expect(fake.seen()).not.toContain('"t":"msg"');
				expect(fake.seen()).not.toContain('"t":"hello"');
				expect(host.relay().connection?.status).not.toBe('connected');
				expect(await count(engine)).toBe(0);
				expect(host.relay().connection?.last_error).toMatch(/did not prove it knows the pairing token/);
			});

		it('a second relay never hands its token (or its client’s handshake) to a program on the port', async () => {
			const port = await freePort();
			const token = newToken();
			const fake = await impostor(port, 'challenge');
			const raw = spawnRaw(['--port', String(port), '--token', token], env);
			cleanups.push(() => raw.child.kill('SIGKILL'));
			raw.send(JSON.stringify(INIT));
			expect(await raw.exited).toBe(1);
			expect(fake.seen()).not.toContain(token);
			expect(fake.seen()).not.toContain('clientInfo');
			expect(raw.log()).toContain(`port ${port} is held by a program that did not prove it knows the pairing token`);
		});

		it('refuses a tab and a relay with the wrong token, saying so', async () => {
			const port = await freePort();
			const token = newToken();
			const owner = await rawRelay(port, token);
			const { host } = await engineTab(port, newToken(), false);
			await waitFor(() => expect(host.relay().connection?.last_error).toMatch(/refused this tab’s pairing token/));
			expect(host.relay().connection?.status).not.toBe('connected');
			await waitForLog(owner.log, 'refused a tab from http://127.0.0.1:4173: wrong token');
			const joiner = spawnRaw(['--port', String(port), '--token', newToken()], env);
			expect(await joiner.exited).toBe(1);
			expect(joiner.log()).toContain(`port ${port} is held by an engram-relay with a different token`);
		});

		it('keeps the token out of the WebSocket URL', async () => {
			const port = await freePort();
			const token = newToken();
			const urls: string[] = [];
			const owner = await rawRelay(port, token);
			const Spy = class extends WebSocket {
				constructor(url: string, protocols: string) {
					urls.push(url);
					super(url, protocols, { origin: 'http://127.0.0.1:4173' });
				}
			};
			const { RelayClient } = await import('../../../src/mcp/transports/relay-client');
			const c = new RelayClient({
				pairing: { url: `ws://127.0.0.1:${port}`, token },
				onSession: () => {},
				WebSocket: Spy as never,
			});
			cleanups.push(() => c.stop());
			c.start();
			await waitFor(() => c.state.status === 'connected');
			expect(urls).toEqual([`ws://127.0.0.1:${port}/`]);
			expect(owner.log()).not.toContain('refused');
		});
	});

	describe('a call in flight when something dies (item 5, fault suite)', () => {
		it('stdio: the relay killed mid-call (SIGTERM, then SIGKILL) answers at once; the write lands later', async () => {
			for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
				const port = await freePort();
				const token = newToken();
				const desk = await spawnRelayClient(['--port', String(port), '--token', token], env);
				cleanups.push(() => desk.close().catch(() => {}));
				const tab = await gatedTab(port, token);
				const before = await count(tab.real);
				const call = desk.client.callTool(STORE);
				await tab.started;
				const pid = desk.transport.pid!;
				process.kill(pid, signal);
				const { ms, message } = await rejectionWithin(call);
				expect(ms, signal).toBeLessThan(2_000);
				expect(message, signal).toMatch(signal === 'SIGTERM' ? `engram-relay is shutting down ${UNKNOWN}` : /Connection closed/);
				expect(await count(tab.real)).toBe(before);
				tab.release();
				await waitFor(async () => expect(await count(tab.real)).toBe(before + 1));
			}
		});

		it('HTTP: the relay killed mid-call (SIGTERM, then SIGKILL) answers at once; the write lands later', async () => {
			for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
				const port = await freePort();
				const token = newToken();
				const raw = await rawRelay(port, token, ['--http-only']);
				const tab = await gatedTab(port, token);
				const http = await httpClient(port, token);
				const before = await count(tab.real);
				const call = http.callTool(STORE);
				await tab.started;
				raw.child.kill(signal);
				const { ms, message } = await rejectionWithin(call);
				expect(ms, signal).toBeLessThan(2_000);
				if (signal === 'SIGTERM') expect(message).toContain(`engram-relay is shutting down ${UNKNOWN}`);
				expect(await count(tab.real)).toBe(before);
				tab.release();
				await waitFor(async () => expect(await count(tab.real)).toBe(before + 1));
			}
		});

		it('HTTP: after a relay restart the client learns at once that its session is gone', async () => {
			const port = await freePort();
			const token = newToken();
			const first = await rawRelay(port, token, ['--http-only']);
			await engineTab(port, token);
			const http = await httpClient(port, token);
			await http.listTools();
			first.child.kill('SIGKILL');
			await first.exited;
			await rawRelay(port, token, ['--http-only']);
			const { ms, message } = await rejectionWithin(http.listTools());
			expect(ms).toBeLessThan(2_000);
			expect(message).toContain('"code":-32001');
			expect(message).toContain('Session not found (engram-relay restarted');
		});

		it('a joined relay whose owner dies mid-call says the call may have been applied, not "retry"', async () => {
			const port = await freePort();
			const token = newToken();
			const owner = await rawRelay(port, token);
			const tab = await gatedTab(port, token);
			const joined = await spawnRelayClient(['--port', String(port), '--token', token], env);
			cleanups.push(() => joined.close().catch(() => {}));
			await waitForLog(joined.log, 'joined the engram-relay');
			const before = await count(tab.real);
			const call = joined.client.callTool(STORE);
			await tab.started;
			owner.child.kill('SIGKILL');
			const { ms, message } = await rejectionWithin(call);
			expect(ms).toBeLessThan(2_000);
			expect(message).toContain(`The engram-relay this one had joined (port ${port}) went away ${UNKNOWN}`);
			tab.release();
			await waitFor(async () => expect(await count(tab.real)).toBe(before + 1));
		});
	});

	describe('limits and the token’s exposure (items 7 and 11)', () => {
		it(`serves at most ${MAX_RELAY_SESSIONS} sessions, refusing the next with a clear error`, async () => {
			const port = await freePort();
			const token = newToken();
			const primary = await startPrimary({
				port,
				token,
				profile: 'native',
				allowOrigins: [],
				appUrl: 'http://127.0.0.1:4173',
				version: 't',
				log: () => {},
			});
			cleanups.push(() => primary.close());
			const peer = await handshake(port, token, 'relay');
			if (!('ws' in peer)) throw new Error(`refused: ${peer.reason}`);
			cleanups.push(() => peer.ws.close());
			const handshakeOf = { initialized: false };
			for (let i = 0; i <= MAX_RELAY_SESSIONS; i++) {
				peer.send({ t: 'open', sid: `s${i}`, profile: 'native', handshake: handshakeOf });
				peer.send({ t: 'msg', sid: `s${i}`, m: { jsonrpc: '2.0', id: i, method: 'ping' } });
			}
			await waitFor(() => peer.frames.length === MAX_RELAY_SESSIONS + 1);
			const last = peer.frames.find((f) => f.sid === `s${MAX_RELAY_SESSIONS}`)!;
			expect(last.m).toEqual({
				jsonrpc: '2.0',
				id: MAX_RELAY_SESSIONS,
				error: {
					code: -32603,
					message: `engram-relay already serves ${MAX_RELAY_SESSIONS} sessions (its limit): close another MCP client's session, then retry`,
				},
			});
			expect(peer.frames.filter((f) => 'result' in (f.m as object))).toHaveLength(MAX_RELAY_SESSIONS);
			expect(primary.hub.sessions).toHaveLength(MAX_RELAY_SESSIONS);
			const res = await fetch(`http://127.0.0.1:${port}/mcp`, {
				method: 'POST',
				headers: {
					Authorization: `Bearer ${token}`,
					'Content-Type': 'application/json',
					Accept: 'application/json, text/event-stream',
				},
				body: JSON.stringify(INIT),
			});
			expect(res.status).toBe(503);
			expect(await res.text()).toContain(`engram-relay already serves ${MAX_RELAY_SESSIONS} sessions`);
		});

		it('answers a batch with duplicate ids (an error for each request) instead of never answering', async () => {
			const port = await freePort();
			const token = newToken();
			const raw = await rawRelay(port, token);
			await engineTab(port, token);
			await initialise(raw);
			raw.send(
				JSON.stringify([
					{ jsonrpc: '2.0', id: 7, method: 'tools/list' },
					{ jsonrpc: '2.0', id: 7, method: 'ping' },
					{ jsonrpc: '2.0', id: 8, method: 'ping' },
				]),
			);
			await waitFor(() => raw.lines.some(Array.isArray), 5_000);
			const dup = 'Invalid Request: id 7 appears more than once in this batch; ids in a batch must be unique, so the batch was refused';
			expect(raw.lines.find(Array.isArray)).toEqual([
				{ jsonrpc: '2.0', id: 7, error: { code: -32600, message: dup } },
				{ jsonrpc: '2.0', id: 7, error: { code: -32600, message: dup } },
				{
					jsonrpc: '2.0',
					id: 8,
					error: {
						code: -32600,
						message: `Invalid Request: refused with its batch (${dup.replace('Invalid Request: ', '')})`,
					},
				},
			]);
		});

		it('warns that --token shows in ps, and refuses a token file other users can read', async () => {
			const raw = await rawRelay(await freePort(), newToken(), ['--http-only']);
			expect(raw.log()).toContain(
				'warning: --token shows in the process list (ps) to every user of this machine; prefer ENGRAM_RELAY_TOKEN or the saved token file',
			);
			const own = relayHome();
			cleanups.push(() => own.remove());
			mkdirSync(own.dir, { recursive: true });
			const file = join(own.dir, 'relay-token');
			writeFileSync(file, `${newToken()}\n`);
			chmodSync(file, 0o644);
			const loose = spawnRaw(['--port', String(await freePort()), '--http-only'], {
				ENGRAM_RELAY_HOME: own.dir,
			});
			expect(await loose.exited).toBe(1);
			expect(loose.log()).toBe(`[engram-relay] error: ${file} is open to other users (mode 0644): run chmod 600 ${file}\n`);
		});
	});
});

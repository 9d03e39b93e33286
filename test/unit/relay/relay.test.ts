/**
 * engram-relay end to end in Node: the real bin spawned by the SDK's StdioClientTransport, the
 * real page host (over a real engine) as the tab, real `ws` sockets and the SDK's Streamable HTTP
 * client. The same paths with the app in Chromium are in test/e2e/relay.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { McpHost } from '../../../src/mcp/host';
import { freePort } from '../../e2e/helpers';
import { makeEngine } from '../engine/helpers';
import { BIN, ROOT, handshake, newToken, relayHome, spawnRaw, spawnRelayClient, startNodeTab, waitFor, waitForLog, type StdioRelayClient } from './helpers';

const AUTOMEM_TOOLS = ['associate_memories', 'check_database_health', 'delete_memory', 'recall_memory', 'store_memory', 'update_memory'];

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
	for (const c of cleanups.splice(0).reverse()) await c();
});
const home = relayHome();
afterAll(() => home.remove());
const env = { ENGRAM_RELAY_HOME: home.dir };

async function client(args: string[], name?: string): Promise<StdioRelayClient> {
	const c = await spawnRelayClient(args, env, name);
	cleanups.push(() => c.close());
	return c;
}

async function tab(port: number, token: string, waitConnected = true): Promise<McpHost> {
	const engine = await makeEngine();
	const host = await startNodeTab(engine, port, token, { waitConnected });
	cleanups.push(async () => {
		await host.stop();
		await engine.close();
	});
	return host;
}

const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name).sort();

describe('engram-relay', () => {
	describe('over stdio', () => {
		it('answers every request with a clear error until a tab pairs, then announces the tool list', async () => {
			const port = await freePort();
			const token = newToken();
			const desk = await client(['--port', String(port), '--token', token]);
			await expect(desk.client.listTools()).rejects.toThrow(
				`MCP error -32000: Engram is not connected: no Engram tab is paired with engram-relay on port ${port}.`,
			);
			let changed = 0;
			desk.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
			await tab(port, token);
			await waitFor(() => changed === 1);
			expect(await names(desk.client)).toContain('find_memory_connections');
		});

		it('stores and recalls through a tab that was waiting for the relay to start', async () => {
			const port = await freePort();
			const token = newToken();
			const host = await tab(port, token, false);
			const desk = await client(['--port', String(port), '--token', token]);
			await waitFor(() => host.relay().connection?.status === 'connected');
			const stored = await desk.client.callTool({
				name: 'store_memory',
				arguments: {
					content: 'The staging database moved to PostgreSQL 16 on Tuesday.',
					tags: ['infra'],
				},
			});
			expect(stored.isError).toBeFalsy();
			const recalled = await desk.client.callTool({
				name: 'recall_memory',
				arguments: { query: 'staging database PostgreSQL' },
			});
			const results = (recalled.structuredContent as { results: { memory: { content: string } }[] }).results;
			expect(results[0]!.memory.content).toBe('The staging database moved to PostgreSQL 16 on Tuesday.');
		});

		it('serves two desktop clients with different profiles at once (the second relay joins the first)', async () => {
			const port = await freePort();
			const token = newToken();
			const native = await client(['--port', String(port), '--token', token], 'desk-native');
			const host = await tab(port, token);
			const automem = await client(['--port', String(port), '--token', token, '--profile', 'automem'], 'desk-automem');
			await waitForLog(automem.log, `joined the engram-relay already running on port ${port}`);
			const [a, b] = await Promise.all([names(native.client), names(automem.client)]);
			expect(b).toEqual(AUTOMEM_TOOLS);
			expect(a).toContain('find_memory_connections');
			expect(a.length).toBeGreaterThan(AUTOMEM_TOOLS.length);
			const relayed = host.connections().filter((c) => c.kind === 'relay');
			expect(relayed.map((c) => [c.client?.name, c.profile]).sort()).toEqual([
				['desk-automem', 'automem'],
				['desk-native', 'native'],
			]);
		});

		it('keeps its clients working across a tab reload', async () => {
			const port = await freePort();
			const token = newToken();
			const engine = await makeEngine();
			cleanups.push(() => engine.close());
			const desk = await client(['--port', String(port), '--token', token]);
			const first = await startNodeTab(engine, port, token);
			await desk.client.callTool({
				name: 'store_memory',
				arguments: { content: 'Deploys happen on Thursdays after the standup.' },
			});
			await first.stop();
			await waitForLog(desk.log, 'Engram tab disconnected');
			await expect(desk.client.listTools()).rejects.toThrow('Engram is not connected');
			const second = await startNodeTab(engine, port, token);
			cleanups.push(() => second.stop());
			const recalled = await desk.client.callTool({
				name: 'recall_memory',
				arguments: { query: 'when do deploys happen' },
			});
			expect(JSON.stringify(recalled.structuredContent)).toContain('Deploys happen on Thursdays');
		});

		it('hands the port to the joined relay when the first one exits', async () => {
			const port = await freePort();
			const token = newToken();
			const first = await spawnRelayClient(['--port', String(port), '--token', token], env, 'first');
			await tab(port, token);
			const second = await client(['--port', String(port), '--token', token, '--profile', 'automem'], 'second');
			await waitForLog(second.log, 'joined the engram-relay');
			await first.close();
			await waitForLog(second.log, 'taking over');
			await waitFor(async () => expect(await names(second.client)).toEqual(AUTOMEM_TOOLS));
		});
	});

	describe('stdio framing', () => {
		let port: number;
		let token: string;
		beforeAll(async () => {
			port = await freePort();
			token = newToken();
		});

		it('returns a JSON-RPC batch’s answers as one line, in input order', async () => {
			const raw = spawnRaw(['--port', String(port), '--token', token], env);
			cleanups.push(() => raw.child.kill());
			await waitForLog(raw.log, 'listening');
			await tab(port, token);
			raw.send(
				JSON.stringify({
					jsonrpc: '2.0',
					id: 0,
					method: 'initialize',
					params: {
						protocolVersion: '2025-06-18',
						capabilities: {},
						clientInfo: { name: 'raw', version: '1' },
					},
				}),
			);
			await waitFor(() => raw.lines.length === 1);
			raw.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
			raw.send(
				JSON.stringify([
					{
						jsonrpc: '2.0',
						id: 's',
						method: 'tools/call',
						params: { name: 'store_memory', arguments: { content: 'Batch item stored first.' } },
					},
					{ jsonrpc: '2.0', id: 'p', method: 'ping' },
					{ jsonrpc: '2.0', id: 't', method: 'tools/list' },
				]),
			);
			await waitFor(() => raw.lines.length === 2);
			const batch = raw.lines[1] as { id: string }[];
			expect(batch.map((r) => r.id)).toEqual(['s', 'p', 't']);
		});

		it('stamps its hops on stderr only with ENGRAM_RELAY_TRACE=1', async () => {
			const plain = spawnRaw(['--port', String(await freePort()), '--token', newToken()], env);
			const traced = spawnRaw(['--port', String(await freePort()), '--token', newToken()], {
				...env,
				ENGRAM_RELAY_TRACE: '1',
			});
			cleanups.push(
				() => plain.child.kill(),
				() => traced.child.kill(),
			);
			for (const raw of [plain, traced]) {
				raw.send('this is not json');
				await waitFor(() => raw.lines.length === 1);
			}
			expect(plain.log()).not.toContain('engram-relay trace');
			expect(traced.log()).toMatch(/engram-relay trace stdin \d+\.\d{3}\n/);
			expect(traced.log()).toMatch(/engram-relay trace stdout \d+\.\d{3}\n/);
		});

		it('answers a line that is not JSON with a parse error; stdout carries JSON-RPC only', async () => {
			const raw = spawnRaw(['--port', String(await freePort()), '--token', newToken()], env);
			cleanups.push(() => raw.child.kill());
			raw.send('this is not json');
			await waitFor(() => raw.lines.length === 1);
			expect(raw.lines).toEqual([
				{
					jsonrpc: '2.0',
					error: { code: -32700, message: 'Parse error: a line on stdin is not JSON' },
				},
			]);
			expect(raw.log()).toContain('[engram-relay] ');
		});
	});

	describe('process lifecycle', () => {
		it('exits when its stdin closes (npx forwards no signals)', async () => {
			const raw = spawnRaw(['--port', String(await freePort()), '--token', newToken()], env);
			await waitForLog(raw.log, 'listening');
			raw.child.stdin!.end();
			expect(await raw.exited).toBe(0);
			// Once: stdin's `end` and `close` both arrive, and the log says it only for the first.
			expect(raw.log().match(/exiting/g)).toEqual(['exiting']);
			expect(raw.log()).toContain('stdin closed: exiting');
		});

		it('stays up with --http-only when stdin closes', async () => {
			const raw = spawnRaw(['--port', String(await freePort()), '--token', newToken(), '--http-only'], env);
			cleanups.push(() => raw.child.kill());
			await waitForLog(raw.log, 'listening');
			expect(raw.log()).toContain(': Streamable HTTP at http://127.0.0.1:');
			const url = /Streamable HTTP at (http:\/\/\S+)/.exec(raw.log())![1];
			await new Promise<void>((r) => raw.child.stdin!.end(r));
			// An HTTP round trip after our end of stdin closed: the relay answers, so it is still up.
			const res = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
				body: '{}',
			});
			expect(res.status).toBeGreaterThanOrEqual(400);
			expect(raw.child.exitCode).toBe(null);
		});

		it('generates and saves a token when none is given, prints the pairing link, and reuses it next time', async () => {
			const own = relayHome();
			cleanups.push(() => own.remove());
			const port = await freePort();
			const first = spawnRaw(['--port', String(port), '--http-only'], {
				ENGRAM_RELAY_HOME: own.dir,
			});
			await waitForLog(first.log, 'pair the Engram tab');
			first.child.kill();
			await first.exited;
			const token = readFileSync(`${own.dir}/relay-token`, 'utf8').trim();
			expect(token).toMatch(/^[0-9a-f]{48}$/);
			expect(first.log()).toContain(`generated a pairing token, saved in ${own.dir}/relay-token`);
			expect(first.log()).toContain(`pair the Engram tab by opening http://127.0.0.1:4173/#relay=ws://127.0.0.1:${port}&token=${token}`);
			const second = spawnRaw(['--port', String(port), '--http-only', '--app-url', 'http://localhost:5173/'], { ENGRAM_RELAY_HOME: own.dir });
			await waitForLog(second.log, 'pair the Engram tab');
			second.child.kill();
			expect(second.log()).toContain(`using the pairing token saved in ${own.dir}/relay-token`);
			// Printed once, when new: later starts say where it is instead.
			expect(second.log()).not.toContain(token);
			expect(second.log()).toContain(
				`pair the Engram tab by opening http://localhost:5173/#relay=ws://127.0.0.1:${port}&token=TOKEN, with the token from ${own.dir}/relay-token (engram-relay --pairing-link prints the whole link)`,
			);
			const link = spawnSync(process.execPath, [BIN, '--port', String(port), '--pairing-link'], {
				cwd: ROOT,
				encoding: 'utf8',
				env: { PATH: process.env.PATH ?? '', ENGRAM_RELAY_HOME: own.dir },
			});
			expect(link.status).toBe(0);
			expect(link.stdout).toBe(`http://127.0.0.1:4173/#relay=ws://127.0.0.1:${port}&token=${token}\n`);
		});

		it('keeps a new token out of the log of a client that started it (stdio piped), and says how to get the link', async () => {
			const own = relayHome();
			cleanups.push(() => own.remove());
			const port = await freePort();
			// A desktop client starts the relay with stdin a pipe and its stderr going to the client's log file.
			const raw = spawnRaw(['--port', String(port)], { ENGRAM_RELAY_HOME: own.dir });
			await waitForLog(raw.log, 'pair the Engram tab');
			raw.child.stdin!.end();
			await raw.exited;
			const token = readFileSync(`${own.dir}/relay-token`, 'utf8').trim();
			expect(raw.log()).toContain(`generated a pairing token, saved in ${own.dir}/relay-token`);
			expect(raw.log()).not.toContain(token);
			expect(raw.log()).toContain(`&token=TOKEN, with the token from ${own.dir}/relay-token (engram-relay --pairing-link prints the whole link)`);
		});

		it('refuses a bad option with a message naming it', async () => {
			const raw = spawnRaw(['--profile', 'mem0'], env);
			expect(await raw.exited).toBe(1);
			expect(raw.log()).toBe('[engram-relay] error: --profile "mem0" must be one of native, automem, aiakiv, codomyrmex, memory-mcp\n');
		});
	});

	describe('over Streamable HTTP and WebSocket', () => {
		let port: number;
		let token: string;
		let stop: () => void;
		beforeAll(async () => {
			port = await freePort();
			token = newToken();
			const raw = spawnRaw(['--port', String(port), '--token', token, '--http-only'], env);
			stop = () => raw.child.kill();
			await waitForLog(raw.log, 'listening');
		});
		afterAll(() => stop());

		it('serves an HTTP client with the bearer token, in the profile its URL asks for', async () => {
			await tab(port, token);
			const http = new Client({ name: 'http-client', version: '1' });
			const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp?profile=codomyrmex`), {
				requestInit: { headers: { Authorization: `Bearer ${token}` } },
			});
			await http.connect(transport);
			cleanups.push(() => http.close());
			expect(await names(http)).toEqual(['memory_get', 'memory_put', 'memory_search']);
			const put = await http.callTool({
				name: 'memory_put',
				arguments: { content: 'HTTP clients work too.', importance: 'HIGH' },
			});
			expect(put.isError).toBeFalsy();
		});

		it('answers 401 without the token, 403 for a foreign Host or Origin, 400 for an unknown profile', async () => {
			const init = JSON.stringify({
				jsonrpc: '2.0',
				id: 1,
				method: 'initialize',
				params: {
					protocolVersion: '2025-06-18',
					capabilities: {},
					clientInfo: { name: 'x', version: '1' },
				},
			});
			const post = (headers: Record<string, string>, path = '/mcp') =>
				httpStatus(
					port,
					path,
					{
						'Content-Type': 'application/json',
						Accept: 'application/json, text/event-stream',
						...headers,
					},
					init,
				);
			const auth = { Authorization: `Bearer ${token}` };
			expect(await post({})).toMatchObject({
				status: 401,
				wwwAuthenticate: 'Bearer realm="engram-relay"',
			});
			expect(await post({ Authorization: `Bearer ${token}x` })).toMatchObject({ status: 401 });
			expect(await post({ ...auth, Host: `engram.attacker.example:${port}` })).toMatchObject({
				status: 403,
				message: `engram-relay: Host "engram.attacker.example:${port}" is refused: use 127.0.0.1:${port}`,
			});
			expect(await post({ ...auth, Origin: 'https://attacker.example' })).toMatchObject({
				status: 403,
				message: 'engram-relay: Origin "https://attacker.example" is refused: only loopback origins and --allow-origin are accepted',
			});
			expect(await post(auth, '/mcp?profile=mem0')).toMatchObject({ status: 400 });
			expect(await post({ ...auth, Origin: 'http://localhost:5173' })).toMatchObject({
				status: 200,
			});
		});

		it('refuses a tab WebSocket from a foreign Origin or without the mcp subprotocol, and a wrong token in the handshake', async () => {
			const url = `ws://127.0.0.1:${port}/`;
			expect(await wsVerdict(url, 'mcp', 'https://attacker.example')).toBe(403);
			expect(await wsVerdict(url, 'mcp', 'http://127.0.0.1.attacker.example:4173')).toBe(403);
			expect(await wsVerdict(url, 'chat', 'http://127.0.0.1:4173')).toBe(400);
			expect(await wsVerdict(url, 'mcp', 'http://localhost:4173')).toBe('open');
			expect(await handshake(port, `${token}x`)).toEqual({
				refused: 4004,
				reason: 'wrong token: pair again with the link engram-relay printed',
			});
			const peer = await handshake(port, token, 'tab', 'http://localhost:4173');
			expect('ws' in peer).toBe(true);
			if ('ws' in peer) peer.ws.close();
		});
	});
});

/** Status, WWW-Authenticate and body of one HTTP request (node:http, so Host can be forged). */
function httpStatus(
	port: number,
	path: string,
	headers: Record<string, string>,
	body: string,
): Promise<{ status: number; wwwAuthenticate?: string; message?: string }> {
	return new Promise((ok, fail) => {
		const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
			let text = '';
			res.on('data', (d) => (text += d));
			res.on('end', () => {
				// A successful initialize answers as an SSE event; a refusal as a JSON-RPC error body.
				const message = res.statusCode === 200 ? undefined : (JSON.parse(text) as { error: { message: string } }).error.message;
				ok({ status: res.statusCode!, wwwAuthenticate: res.headers['www-authenticate'], message });
			});
		});
		req.on('error', fail);
		req.end(body);
	});
}

/** 'open', or the HTTP status the upgrade was refused with. */
function wsVerdict(url: string, protocol: string, origin: string): Promise<number | 'open'> {
	return new Promise((ok, fail) => {
		const ws = new WebSocket(url, protocol, { origin });
		ws.on('open', () => {
			ws.close();
			ok('open');
		});
		ws.on('unexpected-response', (_req, res) => {
			ok(res.statusCode!);
			ws.terminate();
		});
		ws.on('error', (e) => fail(e));
	});
}

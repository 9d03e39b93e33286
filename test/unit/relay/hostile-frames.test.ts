/**
 * One hostile client must not leave its own calls unanswered or hold Engram for everyone else:
 * through the real bin over stdio and HTTP, with the real page host over a real engine as the tab.
 * - a request whose id is not a string or a number, or that the tab's SDK cannot read, is answered;
 * - bytes that are not UTF-8 are refused, never stored with U+FFFD in their place;
 * - a flood of calls from one client is capped, and a bystander is still served;
 * - a stdio client that never reads its answers has its input paused, not buffered without end.
 */
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { newNonce, proofFor } from '../../../relay/auth';
import type { Engine } from '../../../src/engine/engine';
import { MAX_BODY_BYTES_IN_FLIGHT } from '../../../relay/http';
import { startPrimary } from '../../../relay/primary';
import { REFUSAL_LOG_LINES } from '../../../relay/sockets';
import { MAX_LINE_BYTES, TOO_LONG } from '../../../relay/stdio';
import { MAX_IN_FLIGHT } from '../../../src/mcp/transports/relay-protocol';
import { freePort } from '../../e2e/helpers';
import { makeEngine } from '../engine/helpers';
import { newToken, relayHome, spawnRaw, startNodeTab, waitFor, waitForLog, type RawRelay } from './helpers';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
	for (const c of cleanups.splice(0).reverse()) await c();
});
const home = relayHome();
afterAll(() => home.remove());

const INIT = {
	jsonrpc: '2.0',
	id: 0,
	method: 'initialize',
	params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** A raw stdio relay (its token from the environment, not argv), initialised. */
async function rawRelay(port: number, token: string): Promise<RawRelay> {
	const raw = spawnRaw(['--port', String(port)], { ENGRAM_RELAY_HOME: home.dir, ENGRAM_RELAY_TOKEN: token });
	cleanups.push(() => raw.child.kill('SIGKILL'));
	await waitForLog(raw.log, 'listening');
	raw.send(JSON.stringify(INIT));
	raw.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
	await waitFor(() => raw.lines.length > 0);
	return raw;
}

async function engineTab(port: number, token: string): Promise<Engine> {
	const engine = await makeEngine();
	const host = await startNodeTab(engine, port, token);
	cleanups.push(async () => {
		await host.stop();
		await engine.close();
	});
	return engine;
}

/** A tab whose engine's `store` waits at a gate: a write in flight for as long as the test wants. */
async function gatedTab(port: number, token: string) {
	const real = await makeEngine();
	let release!: () => void;
	let entered!: () => void;
	const gate = new Promise<void>((r) => (release = r));
	const started = new Promise<void>((r) => (entered = r));
	const engine = new Proxy(real, {
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
	const host = await startNodeTab(engine, port, token);
	cleanups.push(async () => {
		release();
		await host.stop();
		await real.close();
	});
	return { real, release, started };
}

/** Sends `line` (text or raw bytes) and waits for the next `n` answers. */
async function exchange(raw: RawRelay, line: string | Buffer, n = 1): Promise<Record<string, unknown>[]> {
	const before = raw.lines.length;
	if (typeof line === 'string') raw.send(line);
	else raw.child.stdin!.write(Buffer.concat([line, Buffer.from('\n')]));
	await waitFor(() => raw.lines.length >= before + n);
	return raw.lines.slice(before) as Record<string, unknown>[];
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

/** A raw POST to the relay's /mcp in an SDK session: the request to write the body into, and its answer. */
function rawPost(port: number, token: string, sid: string, headers: Record<string, string | number> = {}) {
	let req!: ReturnType<typeof request>;
	const answer = new Promise<{ code: number; body: string }>((ok, fail) => {
		req = request(
			{
				host: '127.0.0.1',
				port,
				path: '/mcp',
				method: 'POST',
				headers: {
					Authorization: `Bearer ${token}`,
					'Content-Type': 'application/json',
					Accept: 'application/json, text/event-stream',
					'Mcp-Session-Id': sid,
					'Mcp-Protocol-Version': '2025-06-18',
					...headers,
				},
			},
			(res) => {
				let body = '';
				res.on('data', (d: Buffer) => (body += d.toString()));
				res.on('end', () => ok({ code: res.statusCode!, body }));
			},
		);
		req.on('error', fail);
	});
	return { req, answer };
}

/** A store_memory line whose content holds the bytes 0xFF 0xFE (not UTF-8). */
function notUtf8Store(id: number): Buffer {
	return Buffer.concat([
		Buffer.from(`{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"store_memory","arguments":{"content":"caf`),
		Buffer.from([0xff, 0xfe]),
		Buffer.from('"}}}'),
	]);
}

describe('engram-relay against one hostile client', () => {
	it('answers a request whose id is an object, an array, a boolean or null, instead of never answering', async () => {
		const port = await freePort();
		const token = newToken();
		const raw = await rawRelay(port, token);
		await engineTab(port, token);
		for (const [id, word] of [
			['{"a":1}', 'an object'],
			['[1]', 'an array'],
			['true', 'a boolean'],
			['null', 'null'],
		]) {
			const [answer] = await exchange(raw, `{"jsonrpc":"2.0","id":${id},"method":"tools/list"}`);
			expect(answer).toEqual({
				jsonrpc: '2.0',
				error: { code: -32600, message: `Invalid Request: id must be a string or a number, not ${word}` },
			});
		}
		const [ok] = await exchange(raw, '{"jsonrpc":"2.0","id":9,"method":"ping"}');
		expect(ok).toEqual({ jsonrpc: '2.0', id: 9, result: {} });
	});

	it('answers a request the tab’s MCP server cannot read (params a string, _meta a number)', async () => {
		const port = await freePort();
		const token = newToken();
		const raw = await rawRelay(port, token);
		await engineTab(port, token);
		const [a] = await exchange(raw, '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"store_memory"}');
		expect(a).toMatchObject({ id: 1, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: params: .*expected object/) } });
		const [b] = await exchange(raw, '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":5}}');
		expect(b).toMatchObject({ id: 2, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: params\._meta: /) } });
		const [c] = await exchange(raw, '{"jsonrpc":"2.0","id":3,"method":"ping"}');
		expect(c).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
	});

	it('refuses bytes that are not UTF-8 over stdio and HTTP, storing nothing, and keeps serving', async () => {
		const port = await freePort();
		const token = newToken();
		const raw = await rawRelay(port, token);
		const engine = await engineTab(port, token);
		const [answer] = await exchange(raw, notUtf8Store(5));
		expect(answer).toMatchObject({ id: 5, error: { code: -32600, message: expect.stringContaining('not valid UTF-8') } });
		const [batch] = await exchange(raw, Buffer.concat([Buffer.from('['), notUtf8Store(6), Buffer.from(',{"jsonrpc":"2.0","id":7,"method":"ping"}]')]));
		expect(batch).toEqual([
			{ jsonrpc: '2.0', id: 6, error: { code: -32600, message: expect.stringContaining('not valid UTF-8') } },
			{ jsonrpc: '2.0', id: 7, error: { code: -32600, message: expect.stringContaining('not valid UTF-8') } },
		]);

		const http = await httpClient(port, token);
		const sid = (http.transport as StreamableHTTPClientTransport).sessionId!;
		const post = rawPost(port, token, sid);
		post.req.end(notUtf8Store(8));
		const status = await post.answer;
		expect(status.code).toBe(400);
		expect(status.body).toContain('not valid UTF-8');

		expect((await engine.stats({})).total_memories).toBe(0);
		const [stored] = await exchange(
			raw,
			JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'store_memory', arguments: { content: 'café' } } }),
		);
		expect(stored).toMatchObject({ id: 9, result: { structuredContent: { success: true } } });
		await http.callTool({ name: 'recall_memory', arguments: { query: 'café' } });
	});

	it('answers a line over 64 MiB at once, with its id, and reads the next one', async () => {
		const port = await freePort();
		const token = newToken();
		const raw = await rawRelay(port, token);
		await engineTab(port, token);
		// As the SDK writes it: method first, id last.
		const head = Buffer.from('{"method":"tools/call","params":{"name":"store_memory","arguments":{"content":"');
		const [answer] = await exchange(raw, Buffer.concat([head, Buffer.alloc(MAX_LINE_BYTES, 'x'), Buffer.from('"}},"jsonrpc":"2.0","id":31}')]));
		expect(answer).toEqual({ jsonrpc: '2.0', id: 31, error: { code: -32600, message: TOO_LONG } });
		const [pong] = await exchange(raw, '{"jsonrpc":"2.0","id":32,"method":"ping"}');
		expect(pong).toEqual({ jsonrpc: '2.0', id: 32, result: {} });
	});

	it(`refuses a client’s calls beyond ${MAX_IN_FLIGHT} in flight, answering every one, and still serves a bystander`, async () => {
		const port = await freePort();
		const token = newToken();
		const raw = await rawRelay(port, token);
		await engineTab(port, token);
		const http = await httpClient(port, token);
		const N = 1000;
		const before = raw.lines.length;
		const flood = Array.from({ length: N }, (_, i) =>
			JSON.stringify({ jsonrpc: '2.0', id: 100 + i, method: 'tools/call', params: { name: 'recall_memory', arguments: { query: `flood ${i}` } } }),
		);
		raw.child.stdin!.write(`${flood.join('\n')}\n`);
		await waitForLog(raw.log, `has ${MAX_IN_FLIGHT} requests waiting for the tab`);
		const answer = await http.callTool({ name: 'recall_memory', arguments: { query: 'bystander' } });
		expect(answer.isError).toBeFalsy();
		await waitFor(() => raw.lines.length - before >= N, 60_000);
		const answers = raw.lines.slice(before) as { id: number; error?: { message: string } }[];
		expect(new Set(answers.map((a) => a.id)).size).toBe(N);
		const refused = answers.filter((a) => a.error?.message.startsWith('Too many requests in flight'));
		expect(refused.length).toBeGreaterThanOrEqual(N - 4 * MAX_IN_FLIGHT);
		expect(refused[0]!.error!.message).toContain('Nothing was done for this one');
		const [after] = await exchange(
			raw,
			'{"jsonrpc":"2.0","id":5000,"method":"tools/call","params":{"name":"recall_memory","arguments":{"query":"again"}}}',
		);
		expect(after).toMatchObject({ id: 5000, result: {} });
	});

	it(`refuses HTTP requests beyond ${MAX_BODY_BYTES_IN_FLIGHT / 2 ** 20} MiB of bodies in progress with 503, and serves the rest`, async () => {
		const port = await freePort();
		const token = newToken();
		const raw = await rawRelay(port, token);
		const http = await httpClient(port, token);
		const sid = (http.transport as StreamableHTTPClientTransport).sessionId!;
		const content = Buffer.alloc(60 * 2 ** 20, 'x');
		// Five 60 MiB calls in parallel, each holding back its last byte: together over the limit.
		const calls = Array.from({ length: 5 }, (_, i) => {
			const head = Buffer.from(`{"jsonrpc":"2.0","id":${i + 1},"method":"tools/call","params":{"name":"store_memory","arguments":{"content":"`);
			const tail = Buffer.from('"}}}');
			const { req, answer } = rawPost(port, token, sid, { 'Content-Length': head.length + content.length + tail.length });
			req.write(head);
			req.write(content);
			req.write(tail.subarray(0, -1));
			return { answer, finish: () => void req.end(tail.subarray(-1)) };
		});
		const first = await Promise.race(calls.map((c) => c.answer));
		expect(first.code).toBe(503);
		expect(first.body).toContain('busy: other requests holding');
		await waitForLog(raw.log, 'refused an HTTP request');
		for (const c of calls) c.finish();
		const answers = await Promise.all(calls.map((c) => c.answer));
		expect(answers.filter((a) => a.code === 200).length).toBeGreaterThanOrEqual(1);
		expect(answers.every((a) => a.code === 200 || a.code === 503)).toBe(true);
		await expect(http.ping()).resolves.toEqual({});
	});

	it('keeps serving when an HTTP client disconnects mid-call; the write lands', async () => {
		const port = await freePort();
		const token = newToken();
		const raw = await rawRelay(port, token);
		const tab = await gatedTab(port, token);
		const http = await httpClient(port, token);
		const sid = (http.transport as StreamableHTTPClientTransport).sessionId!;
		const { req, answer } = rawPost(port, token, sid);
		// The client leaves: its answer never comes.
		answer.catch(() => {});
		req.end(
			JSON.stringify({
				jsonrpc: '2.0',
				id: 77,
				method: 'tools/call',
				params: { name: 'store_memory', arguments: { content: 'Sent, then the client left.' } },
			}),
		);
		await tab.started;
		req.destroy();
		tab.release();
		await waitFor(async () => expect((await tab.real.stats({})).total_memories).toBe(1));
		const [pong] = await exchange(raw, '{"jsonrpc":"2.0","id":1,"method":"ping"}');
		expect(pong).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
		const again = await http.callTool({ name: 'recall_memory', arguments: { query: 'client left' } });
		expect(again.isError).toBeFalsy();
		expect(raw.child.exitCode).toBeNull();
	});

	it('logs a web page’s refused WebSockets a few at a time, however many it opens', async () => {
		const port = await freePort();
		const lines: string[] = [];
		const primary = await startPrimary({
			port,
			token: newToken(),
			profile: 'native',
			allowOrigins: [],
			appUrl: 'http://127.0.0.1:4173',
			version: 'test',
			log: (l) => void lines.push(l),
		});
		cleanups.push(() => primary.close());
		for (let i = 0; i < 60; i++) {
			const status = await new Promise<number>((ok, fail) => {
				const ws = new WebSocket(`ws://127.0.0.1:${port}/`, 'mcp', { origin: 'https://attacker.example' });
				ws.on('unexpected-response', (_req, res) => (ws.terminate(), ok(res.statusCode!)));
				ws.on('open', () => fail(new Error('the relay accepted a foreign Origin')));
				ws.on('error', fail);
			});
			expect(status).toBe(403);
		}
		expect(lines.filter((l) => l.startsWith('refused a WebSocket from https://attacker.example'))).toHaveLength(REFUSAL_LOG_LINES);
	});

	it('refuses a captured handshake replayed on a new socket, and serves the paired tab throughout', async () => {
		const port = await freePort();
		const token = newToken();
		await rawRelay(port, token);
		// What a program on the machine could capture of a good handshake (before the tab pairs, as a
		// tab that proved itself replaces the one paired): the auth answering one challenge.
		const captured = await new Promise<string>((ok, fail) => {
			const ws = new WebSocket(`ws://127.0.0.1:${port}/`, 'mcp', { origin: 'http://127.0.0.1:4173' });
			ws.once('message', (data) => {
				const { nonce } = JSON.parse(data.toString()) as { nonce: string };
				const peerNonce = newNonce();
				const auth = JSON.stringify({ t: 'auth', v: 1, role: 'tab', nonce: peerNonce, proof: proofFor(token, 'peer', 'tab', nonce, peerNonce) });
				ws.send(auth);
				ws.once('message', () => (ws.close(), ok(auth)));
			});
			ws.on('error', fail);
		});
		const engine = await engineTab(port, token);
		const http = await httpClient(port, token);
		const replayed = await new Promise<number>((ok, fail) => {
			const ws = new WebSocket(`ws://127.0.0.1:${port}/`, 'mcp', { origin: 'http://127.0.0.1:4173' });
			ws.once('message', () => ws.send(captured));
			ws.on('close', (code) => ok(code));
			ws.on('error', fail);
		});
		expect(replayed).toBe(4004);
		await waitFor(async () => expect((await http.callTool({ name: 'store_memory', arguments: { content: 'Still served.' } })).isError).toBeFalsy());
		expect((await engine.stats({})).total_memories).toBe(1);
	});

	it('answers 40 calls at once on one HTTP session each once; resent with their request_ids they replay; a deleted session is 404', async () => {
		const port = await freePort();
		const token = newToken();
		await rawRelay(port, token);
		const engine = await engineTab(port, token);
		const http = await httpClient(port, token);
		const store = () =>
			Promise.all(
				Array.from({ length: 40 }, (_, i) =>
					http.callTool({ name: 'store_memory', arguments: { content: `Concurrent fact ${i} about the widget fleet.`, request_id: `probe-${i}` } }),
				),
			);
		const first = await store();
		expect(first.filter((r) => r.isError)).toEqual([]);
		const again = await store();
		expect(again.map((r) => (r.structuredContent as { replayed?: boolean }).replayed)).toEqual(Array(40).fill(true));
		expect(again.map((r) => (r.structuredContent as { memory_id: string }).memory_id)).toEqual(
			first.map((r) => (r.structuredContent as { memory_id: string }).memory_id),
		);
		expect((await engine.stats({})).total_memories).toBe(40);
		const transport = http.transport as StreamableHTTPClientTransport;
		const sid = transport.sessionId!;
		await transport.terminateSession();
		const { req, answer } = rawPost(port, token, sid);
		req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
		const after = await answer;
		expect(after.code).toBe(404);
		expect(after.body).toContain('Session not found');
	});

	it('stops reading a stdio client that does not read its answers, serving the others, and resumes when it reads', async () => {
		const port = await freePort();
		const token = newToken();
		const raw = await rawRelay(port, token);
		raw.child.stdout!.pause();
		const N = 5000;
		const before = raw.lines.length;
		// Pings: a relay just started holds other requests for a moment, waiting for a tab (hub.ts TAB_GRACE_MS).
		raw.child.stdin!.write(`${Array.from({ length: N }, (_, i) => JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: 'ping' })).join('\n')}\n`);
		await waitForLog(raw.log, 'the stdio client is not reading its answers');
		const http = await httpClient(port, token);
		await expect(http.ping()).resolves.toEqual({});
		raw.child.stdout!.resume();
		await waitFor(() => raw.lines.length - before >= N, 60_000);
		expect(raw.lines.slice(before).map((l) => (l as { id: number }).id)).toEqual(Array.from({ length: N }, (_, i) => i + 1));
	});
});

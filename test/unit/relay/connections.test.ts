/**
 * The relay's connection caps against a flood of idle sockets: raw TCP connections and silent
 * WebSocket upgrades against the real bin (with a descriptor limit, so a flood without a cap runs
 * it out of descriptors), and the cap's refusal when every connection is busy, in-process.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ConnectionCap, TOO_MANY_CONNECTIONS } from '../../../relay/connections';
import { MAX_UNAUTHENTICATED } from '../../../relay/sockets';
import { freePort } from '../../e2e/helpers';
import { BIN, ROOT, handshake, newToken, relayHome, waitFor, waitForLog } from './helpers';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
	for (const c of cleanups.splice(0).reverse()) await c();
});

const INIT = {
	jsonrpc: '2.0',
	id: 0,
	method: 'initialize',
	params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** The real relay, stdio and HTTP, allowed `fds` open descriptors; its stdout lines parsed. */
async function limitedRelay(port: number, token: string, fds: number) {
	const home = relayHome();
	const child = spawn('bash', ['-c', `ulimit -n ${fds} && exec "$0" "$@"`, process.execPath, BIN, '--port', String(port)], {
		cwd: ROOT,
		env: { PATH: process.env.PATH ?? '', ENGRAM_RELAY_HOME: home.dir, ENGRAM_RELAY_TOKEN: token },
		stdio: ['pipe', 'pipe', 'pipe'],
	});
	const lines: { id?: unknown; result?: unknown }[] = [];
	let buf = '';
	let log = '';
	child.stdout.on('data', (d: Buffer) => {
		buf += d.toString();
		for (let i = buf.indexOf('\n'); i !== -1; i = buf.indexOf('\n')) {
			lines.push(JSON.parse(buf.slice(0, i)) as { id?: unknown });
			buf = buf.slice(i + 1);
		}
	});
	(child.stderr as Readable).on('data', (d: Buffer) => (log += d.toString()));
	cleanups.push(() => {
		child.kill('SIGKILL');
		home.remove();
	});
	await waitForLog(() => log, 'listening');
	return { lines, log: () => log, send: (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`) };
}

/** Opens `n` TCP connections to the port that send nothing. */
async function idleSockets(port: number, n: number): Promise<Socket[]> {
	const all: Socket[] = [];
	for (let i = 0; i < n; i++) {
		const s = connect(port, '127.0.0.1');
		s.on('error', () => {});
		all.push(s);
	}
	cleanups.push(() => all.forEach((s) => s.destroy()));
	await new Promise((r) => setTimeout(r, 500));
	return all;
}

async function initializeOverHttp(port: number, token: string): Promise<number | string> {
	return fetch(`http://127.0.0.1:${port}/mcp`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
		body: JSON.stringify(INIT),
		signal: AbortSignal.timeout(5_000),
	}).then(
		(r) => r.status,
		(e: Error) => `failed: ${e.message}`,
	);
}

describe('engram-relay connection caps', () => {
	it('keeps serving stdio, HTTP and the tab while 600 idle sockets are open (the relay may hold 400 descriptors)', async () => {
		const port = await freePort();
		const token = newToken();
		const relay = await limitedRelay(port, token, 400);
		relay.send(INIT);
		await idleSockets(port, 600);

		relay.send({ jsonrpc: '2.0', id: 'after-flood', method: 'ping' });
		await waitFor(() => expect(relay.lines.find((l) => l.id === 'after-flood')).toMatchObject({ result: {} }));
		expect(await initializeOverHttp(port, token)).toBe(200);
		const tab = await handshake(port, token);
		expect(tab).toHaveProperty('ws');
		(tab as { ws: WebSocket }).ws.close();
		expect(relay.log()).toContain('256 connections are open: closing idle ones to admit new ones');
		expect(relay.log()).not.toContain(token);
	});

	it(`lets the tab in while ${MAX_UNAUTHENTICATED + 4} silent WebSockets sit in the handshake`, async () => {
		const port = await freePort();
		const token = newToken();
		const relay = await limitedRelay(port, token, 1024);
		const silent: WebSocket[] = [];
		for (let i = 0; i < MAX_UNAUTHENTICATED + 4; i++) {
			const ws = new WebSocket(`ws://127.0.0.1:${port}/`, 'mcp', { origin: 'http://127.0.0.1:4173' });
			ws.on('error', () => {});
			silent.push(ws);
		}
		cleanups.push(() => silent.forEach((ws) => ws.terminate()));
		await waitFor(() => expect(silent.filter((ws) => ws.readyState === WebSocket.OPEN).length).toBeGreaterThanOrEqual(MAX_UNAUTHENTICATED));
		const tab = await handshake(port, token);
		expect(tab).toHaveProperty('ws');
		(tab as { ws: WebSocket }).ws.close();
		expect(relay.log()).toContain(`no answer to the challenge before ${MAX_UNAUTHENTICATED} newer connections came`);
	});

	it('refuses a connection with a 503 saying why only when every other one is busy with a request', async () => {
		const port = await freePort();
		const held: (() => void)[] = [];
		let hold = true;
		const server = createServer((_req, res) => (hold ? void held.push(() => res.end('done')) : res.end('done')));
		const lines: string[] = [];
		const cap = new ConnectionCap(server, { max: 3, log: (l) => lines.push(l) });
		await new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));
		cleanups.push(() => new Promise((r) => server.close(r)));
		cleanups.push(() => server.closeAllConnections());
		const busy = [1, 2, 3].map(() => fetch(`http://127.0.0.1:${port}/`).then((r) => r.text()));
		await waitFor(() => expect(held).toHaveLength(3));
		const refused = await new Promise<string>((ok) => {
			let text = '';
			const s = connect(port, '127.0.0.1');
			s.on('data', (d) => (text += d.toString()));
			s.on('close', () => ok(text));
			s.on('error', () => {});
		});
		expect(refused).toContain('HTTP/1.1 503 Service Unavailable');
		expect(refused).toContain(TOO_MANY_CONNECTIONS);
		expect(lines).toEqual(['refused a connection: 3 are open and all busy with requests']);
		hold = false;
		for (const release of held) release();
		expect(await Promise.all(busy)).toEqual(['done', 'done', 'done']);
		// Idle again (kept alive): a newcomer now displaces one instead of being refused.
		expect(
			await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000) }).then(
				() => 'served',
				(e: Error) => e.message,
			),
		).toBe('served');
		expect(cap.size).toBeLessThanOrEqual(3);
	});
});

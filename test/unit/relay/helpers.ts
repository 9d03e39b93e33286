/**
 * Shared set-up for relay tests: the real `engram-relay` bin spawned by the SDK's
 * StdioClientTransport (as a desktop client does), raw spawns for stdio edge cases, and a
 * "tab" in Node — the real page host (startMcpHost) over a real engine, connected with `ws`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import WebSocket from 'ws';
import type { EngineApi } from '../../../src/engine/types';
import { startMcpHost, type McpHost } from '../../../src/mcp/host';
import { newNonce, proofFor } from '../../../relay/auth';
import type { WebSocketConstructor } from '../../../src/mcp/transports/relay-client';
import type { PeerRole } from '../../../src/mcp/transports/relay-protocol';

export const ROOT = resolve(import.meta.dirname, '../../..');
export const BIN = join(ROOT, 'bin/engram-relay.mjs');

/** A random token of the form the relay accepts. */
export function newToken(): string {
	return randomBytes(18).toString('hex');
}

/** A temp config dir for the relay (so tests never touch the real ~/.config/engram). */
export function relayHome(): { dir: string; remove(): void } {
	const dir = mkdtempSync(join(tmpdir(), 'engram-relay-home-'));
	return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A desktop client: the SDK Client with StdioClientTransport spawning the real bin. */
export interface StdioRelayClient {
	client: Client;
	transport: StdioClientTransport;
	/** Everything the relay wrote to stderr so far. */
	log(): string;
	close(): Promise<void>;
}

/** Spawns `engram-relay args` and connects an SDK Client to it over stdio. */
export async function spawnRelayClient(args: string[], env: Record<string, string> = {}, name = 'vitest-desktop'): Promise<StdioRelayClient> {
	const transport = new StdioClientTransport({
		command: process.execPath,
		args: [BIN, ...args],
		env,
		stderr: 'pipe',
		cwd: ROOT,
	});
	let log = '';
	transport.stderr?.on('data', (d: Buffer) => (log += d.toString()));
	const client = new Client({ name, version: '1.0.0' });
	await client.connect(transport);
	return { client, transport, log: () => log, close: () => client.close() };
}

/** A raw spawn of the relay, for what the SDK client cannot send (batches, garbage, EOF). */
export interface RawRelay {
	child: ChildProcess;
	lines: unknown[];
	log(): string;
	send(line: string): void;
	exited: Promise<number | null>;
}

/** Spawns the relay with piped stdio and collects its stdout lines as parsed JSON. */
export function spawnRaw(args: string[], env: Record<string, string> = {}): RawRelay {
	const child = spawn(process.execPath, [BIN, ...args], {
		cwd: ROOT,
		env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
		stdio: ['pipe', 'pipe', 'pipe'],
	});
	const lines: unknown[] = [];
	let buf = '';
	let log = '';
	child.stdout!.on('data', (d: Buffer) => {
		buf += d.toString();
		for (let i = buf.indexOf('\n'); i !== -1; i = buf.indexOf('\n')) {
			lines.push(JSON.parse(buf.slice(0, i)));
			buf = buf.slice(i + 1);
		}
	});
	(child.stderr as Readable).on('data', (d: Buffer) => (log += d.toString()));
	const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
	return { child, lines, log: () => log, send: (line) => child.stdin!.write(`${line}\n`), exited };
}

/** Polls until `check` passes (it throws until then) or `ms` elapse. */
export async function waitFor(check: () => unknown, ms = 15_000): Promise<void> {
	const deadline = Date.now() + ms;
	for (;;) {
		try {
			if ((await check()) !== false) return;
		} catch (e) {
			if (Date.now() > deadline) throw e;
		}
		if (Date.now() > deadline) throw new Error('waitFor: timed out');
		await new Promise((r) => setTimeout(r, 25));
	}
}

/** Waits until the relay has logged `text` (its stderr). */
export function waitForLog(log: () => string, text: string, ms = 15_000): Promise<void> {
	return waitFor(() => {
		if (!log().includes(text)) throw new Error(`relay log lacks ${JSON.stringify(text)}:\n${log()}`);
	}, ms);
}

/**
 * The page host running in Node, paired with the relay on `port`: exactly the code the browser
 * runs, with `ws` as its WebSocket and no postMessage or WebMCP.
 */
export async function startNodeTab(engine: EngineApi, port: number, token: string, opts: { origin?: string; waitConnected?: boolean } = {}): Promise<McpHost> {
	const origin = opts.origin ?? 'http://127.0.0.1:4173';
	const Ws = class extends WebSocket {
		constructor(url: string, protocols: string) {
			super(url, protocols, { origin });
		}
	} as unknown as WebSocketConstructor;
	const win = { location: { origin, hash: '', pathname: '/', search: '' } } as never;
	const host = await startMcpHost(engine, {
		window: win,
		postMessage: false,
		modelContext: null,
		WebSocket: Ws,
		relayBackoff: { initialMs: 50, maxMs: 400 },
	});
	await host.pairRelay(`ws://127.0.0.1:${port}`, token);
	if (opts.waitConnected !== false) await waitFor(() => host.relay().connection?.status === 'connected');
	return host;
}

/** A peer that did the handshake: its socket, and the frames the relay sent after its proof. */
export interface Peer {
	ws: WebSocket;
	frames: Record<string, unknown>[];
	send(env: unknown): void;
}

/**
 * Connects to the relay on `port` as a tab or a joining relay and does the handshake with
 * `token` (a wrong one too). Resolves with the peer once the relay proved itself, or with the
 * close code when the relay refused.
 */
export function handshake(
	port: number,
	token: string,
	role: PeerRole = 'tab',
	origin = 'http://127.0.0.1:4173',
): Promise<Peer | { refused: number; reason: string }> {
	return new Promise((ok, fail) => {
		const ws = new WebSocket(`ws://127.0.0.1:${port}/`, 'mcp', role === 'tab' ? { origin } : {});
		const frames: Record<string, unknown>[] = [];
		const peerNonce = newNonce();
		let relayNonce = '';
		let stage: 'challenge' | 'proof' | 'ready' = 'challenge';
		const peer: Peer = { ws, frames, send: (env) => ws.send(JSON.stringify(env)) };
		ws.on('message', (data) => {
			const env = JSON.parse(data.toString()) as Record<string, string>;
			if (stage === 'challenge') {
				relayNonce = env.nonce!;
				stage = 'proof';
				const proof = proofFor(token, 'peer', role, relayNonce, peerNonce);
				return peer.send({ t: 'auth', v: 1, role, nonce: peerNonce, proof });
			}
			if (stage === 'proof') {
				if (env.proof !== proofFor(token, 'relay', role, relayNonce, peerNonce)) return fail(new Error('the relay’s proof is wrong'));
				stage = 'ready';
				return ok(peer);
			}
			frames.push(env);
		});
		ws.on('close', (code, reason) => ok({ refused: code, reason: reason.toString() }));
		ws.on('error', fail);
	});
}

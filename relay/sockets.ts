/**
 * The relay's WebSocket side, on the same port as its HTTP side: the Engram tab connects as
 * `ws://127.0.0.1:PORT/?token=TOKEN` with subprotocol `mcp`; a second relay process joins with
 * `&role=relay`. An upgrade with a wrong token, a foreign Origin or Host, or no `mcp` subprotocol
 * is refused with an HTTP status before any WebSocket exists.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import {
	FromDownstreamSchema,
	RELAY_CLOSE,
	RELAY_SUBPROTOCOL,
	parseEnvelope,
	type ToDownstream,
} from '../src/mcp/transports/relay-protocol';
import { checkHost, checkOrigin, tokenMatches, type Refusal } from './checks';
import type { Hub, TabLink } from './hub';
import type { Id, Message } from './jsonrpc';

/** Largest frame accepted; above the hub's forward limit so it can answer "too large" itself. */
export const MAX_FRAME_BYTES = 128 * 1024 * 1024;
const PING_MS = 30_000;

/** What the upgrade handler checks against. */
export interface SocketOptions {
	port: number;
	token: string;
	allowOrigins: readonly string[];
	log: (line: string) => void;
}

/** Decides whether an upgrade request may become a WebSocket, and in which role. */
export function checkUpgrade(
	req: IncomingMessage,
	opts: SocketOptions,
): Refusal | { role: 'tab' | 'relay' } {
	const url = new URL(req.url ?? '/', 'http://127.0.0.1');
	if (url.pathname !== '/')
		return { status: 404, message: `no WebSocket endpoint at ${url.pathname}; use /` };
	const refusal =
		checkHost(req.headers.host, opts.port) ?? checkOrigin(req.headers.origin, opts.allowOrigins);
	if (refusal) return refusal;
	if (!tokenMatches(url.searchParams.get('token'), opts.token))
		return {
			status: 401,
			message: 'wrong or missing token: pair with the link engram-relay printed',
		};
	const protocols = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
	if (!protocols.includes(RELAY_SUBPROTOCOL))
		return { status: 400, message: `the WebSocket subprotocol must be "${RELAY_SUBPROTOCOL}"` };
	const role = url.searchParams.get('role') ?? 'tab';
	if (role !== 'tab' && role !== 'relay')
		return { status: 400, message: 'role must be "tab" or "relay"' };
	return { role };
}

/** Writes an HTTP refusal on a raw upgrade socket and closes it. */
function refuse(socket: Duplex, { status, message }: Refusal): void {
	const reason = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' }[
		status
	];
	const body = `engram-relay: ${message}\n`;
	socket.end(
		`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
			`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
	);
}

/** Handles upgrades for one hub: tabs pair with it, joining relays attach their sessions. */
export class RelaySockets {
	readonly #wss = new WebSocketServer({
		noServer: true,
		maxPayload: MAX_FRAME_BYTES,
		handleProtocols: (protocols) => (protocols.has(RELAY_SUBPROTOCOL) ? RELAY_SUBPROTOCOL : false),
	});
	readonly #hub: Hub;
	readonly #opts: SocketOptions;
	#joined = 0;

	constructor(hub: Hub, opts: SocketOptions) {
		this.#hub = hub;
		this.#opts = opts;
	}

	/** The http server's 'upgrade' listener. */
	upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
		const verdict = checkUpgrade(req, this.#opts);
		if ('status' in verdict) {
			this.#opts.log(
				`refused a WebSocket from ${req.headers.origin ?? 'a non-browser client'}: ${verdict.message}`,
			);
			return refuse(socket, verdict);
		}
		this.#wss.handleUpgrade(req, socket, head, (ws) =>
			verdict.role === 'tab' ? this.#attachTab(ws) : this.#attachRelay(ws),
		);
	};

	#attachTab(ws: WebSocket): void {
		const link: TabLink = {
			send: (text) => ws.readyState === ws.OPEN && ws.send(text),
			close: (code, reason) => ws.close(code, reason),
		};
		keepAlive(ws);
		ws.on('message', (data, isBinary) => !isBinary && this.#hub.fromTab(link, data.toString()));
		ws.on('close', () => this.#hub.detachTab(link));
		ws.on('error', (e) => this.#opts.log(`tab socket error: ${e.message}`));
		this.#hub.attachTab(link);
	}

	/** A second relay process: its stdio client becomes one more session here. */
	#attachRelay(ws: WebSocket): void {
		const prefix = `relay${++this.#joined}:`;
		const sids = new Map<string, string>();
		keepAlive(ws);
		const send = (env: ToDownstream) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(env));
		ws.on('message', (data) => {
			const env = parseEnvelope(FromDownstreamSchema, data.toString());
			if (env instanceof Error) return ws.close(RELAY_CLOSE.protocol, env.message.slice(0, 120));
			const sid = sids.get(env.sid) ?? `${prefix}${env.sid}`;
			if (env.t === 'open') {
				sids.set(env.sid, sid);
				const sink = {
					deliver: (m: Message | Message[], rel?: Id) => send({ t: 'msg', sid: env.sid, m, rel }),
				};
				const session = this.#hub.openSession('stdio', env.profile, sink, sid);
				this.#hub.seed(session, env.handshake);
			} else if (env.t === 'msg') this.#hub.fromClient(sid, env.m);
			else this.#hub.closeSession(sid);
		});
		ws.on('close', () => {
			for (const sid of sids.values()) this.#hub.closeSession(sid);
		});
		ws.on('error', (e) => this.#opts.log(`joined relay socket error: ${e.message}`));
		this.#opts.log(`another engram-relay joined on port ${this.#opts.port}`);
	}

	/** Closes every socket, telling tabs the relay is shutting down (so they retry later). */
	close(): void {
		for (const ws of this.#wss.clients)
			ws.close(RELAY_CLOSE.shutdown, 'engram-relay is shutting down');
		this.#wss.close();
	}
}

/** Pings every 30 s and drops a peer that did not answer the previous ping (a sleeping laptop's tab). */
function keepAlive(ws: WebSocket): void {
	let alive = true;
	ws.on('pong', () => (alive = true));
	const timer = setInterval(() => {
		if (!alive) return ws.terminate();
		alive = false;
		ws.ping();
	}, PING_MS);
	timer.unref();
	ws.on('close', () => clearInterval(timer));
}

/**
 * The relay's WebSocket side, on the same port as its HTTP side: the Engram tab and second relay
 * processes connect to `ws://127.0.0.1:PORT/` with subprotocol `mcp`. An upgrade with a foreign
 * Origin or Host, or without the `mcp` subprotocol, is refused with an HTTP status before any
 * WebSocket exists. Then the challenge–response of relay-protocol.ts: the token never crosses the
 * wire, and nothing is served to a socket before it proved it knows the token.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import {
	AuthSchema,
	FromDownstreamSchema,
	RELAY_AUTH_VERSION,
	RELAY_CLOSE,
	RELAY_SUBPROTOCOL,
	parseEnvelope,
	type Challenge,
	type PeerRole,
	type RelayProof,
	type ToDownstream,
} from '../src/mcp/transports/relay-protocol';
import { newNonce, proofFor, proofMatches } from './auth';
import { checkHost, checkOrigin, type Refusal } from './checks';
import { SessionLimitError, type Hub, type TabLink } from './hub';
import { RELAY_ERROR, classify, errorResponse, safeStringify, type Id, type Message } from './jsonrpc';
import { trace } from './trace';

/** Largest frame accepted; above the hub's forward limit so it can answer "too large" itself. */
export const MAX_FRAME_BYTES = 128 * 1024 * 1024;
const PING_MS = 30_000;
/** How long a new socket has to answer the challenge. */
export const AUTH_TIMEOUT_MS = 5_000;
/** How long a refused peer has to answer the close before its socket is dropped. */
const CLOSE_GRACE_MS = 1_000;
/**
 * Sockets still in the handshake at once. A new one beyond it closes the oldest (which had the
 * longest to answer): a program holding silent sockets cannot keep the tab out, which answers the
 * challenge within milliseconds.
 */
export const MAX_UNAUTHENTICATED = 16;
/**
 * Log lines about refused connections per window, then one line counting the rest: any web page
 * (or several) can make the browser try the relay's port in a loop for as long as it stays open,
 * and each line would land in the desktop client's log file.
 */
export const REFUSAL_LOG_LINES = 5;
export const REFUSAL_LOG_WINDOW_MS = 60_000;

/** What the upgrade handler checks against. */
export interface SocketOptions {
	port: number;
	token: string;
	allowOrigins: readonly string[];
	log: (line: string) => void;
}

/**
 * Decides whether an upgrade request may become a WebSocket (Host, Origin, subprotocol). The
 * token is checked afterwards, by the handshake, never from the URL.
 */
export function checkUpgrade(req: IncomingMessage, opts: SocketOptions): Refusal | undefined {
	const url = new URL(req.url ?? '/', 'http://127.0.0.1');
	if (url.pathname !== '/') return { status: 404, message: `no WebSocket endpoint at ${url.pathname}; use /` };
	const refusal = checkHost(req.headers.host, opts.port) ?? checkOrigin(req.headers.origin, opts.allowOrigins);
	if (refusal) return refusal;
	const protocols = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
	if (!protocols.includes(RELAY_SUBPROTOCOL)) return { status: 400, message: `the WebSocket subprotocol must be "${RELAY_SUBPROTOCOL}"` };
	return undefined;
}

/** Writes an HTTP refusal on a raw upgrade socket and closes it. */
function refuse(socket: Duplex, { status, message }: Refusal): void {
	const reason = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' }[status];
	const body = `engram-relay: ${message}\n`;
	socket.end(
		`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
			`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
	);
	// Closed once written, whether or not the peer closes its side: it holds a descriptor until then.
	(socket as Duplex & { destroySoon?: () => void }).destroySoon?.();
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
	/** Sockets in the handshake, oldest first, each with what closes it. */
	readonly #unauthenticated = new Map<WebSocket, () => void>();
	#refusals = { logged: 0, skipped: 0, timer: undefined as ReturnType<typeof setTimeout> | undefined };

	constructor(hub: Hub, opts: SocketOptions) {
		this.#hub = hub;
		this.#opts = opts;
	}

	/** Logs a refused connection, at most REFUSAL_LOG_LINES per window; then how many were not logged. */
	#logRefusal(line: string): void {
		const r = this.#refusals;
		r.timer ??= setTimeout(() => {
			if (r.skipped)
				this.#opts.log(
					`refused ${r.skipped} more connection${r.skipped === 1 ? '' : 's'} in the last ${REFUSAL_LOG_WINDOW_MS / 1000} s (not logged one by one)`,
				);
			Object.assign(r, { logged: 0, skipped: 0, timer: undefined });
		}, REFUSAL_LOG_WINDOW_MS).unref();
		if (r.logged >= REFUSAL_LOG_LINES) return void r.skipped++;
		r.logged++;
		this.#opts.log(line);
	}

	/** The http server's 'upgrade' listener. */
	upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
		// Node's HTTP server stops handling the socket's errors once it emits 'upgrade': a peer that
		// resets a refused upgrade (RST instead of FIN) would throw an unhandled ECONNRESET and take
		// the relay down. The socket is closed either way; `ws` adds its own handler when it accepts.
		socket.on('error', () => socket.destroy());
		const from = req.headers.origin ?? 'a non-browser client';
		const refusal = checkUpgrade(req, this.#opts);
		if (refusal) {
			this.#logRefusal(`refused a WebSocket from ${from}: ${refusal.message}`);
			return refuse(socket, refusal);
		}
		this.#wss.handleUpgrade(req, socket, head, (ws) => {
			if (this.#unauthenticated.size >= MAX_UNAUTHENTICATED) this.#unauthenticated.values().next().value!();
			this.#authenticate(ws, from);
		});
	};

	/**
	 * The relay's side of the handshake: challenge, check the peer's proof, prove itself, and only
	 * then attach the socket as a tab or a joined relay.
	 */
	#authenticate(ws: WebSocket, from: string): void {
		let settled = false;
		const settle = () => {
			if (settled) return false;
			settled = true;
			this.#unauthenticated.delete(ws);
			clearTimeout(timer);
			return true;
		};
		const refuseWith = (why: string, code: number, reason: string) => {
			this.#logRefusal(`refused a ${why}`);
			ws.close(code, reason);
			// A peer that does not answer the close would hold its descriptor for ws's 30 s.
			setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
		};
		const relayNonce = newNonce();
		const timer = setTimeout(() => {
			if (settle())
				refuseWith(
					`WebSocket from ${from}: no answer to the challenge within ${AUTH_TIMEOUT_MS / 1000} s`,
					RELAY_CLOSE.unauthorized,
					'no answer to the challenge',
				);
		}, AUTH_TIMEOUT_MS);
		this.#unauthenticated.set(ws, () => {
			if (settle())
				refuseWith(
					`WebSocket from ${from}: no answer to the challenge before ${MAX_UNAUTHENTICATED} newer connections came`,
					RELAY_CLOSE.unauthorized,
					'no answer to the challenge',
				);
		});
		ws.on('close', () => void settle());
		ws.on('error', (e) => this.#logRefusal(`WebSocket error during the handshake: ${e.message}`));
		ws.once('message', (data, isBinary) => {
			if (!settle()) return;
			const auth = isBinary ? new Error('a binary frame') : parseEnvelope(AuthSchema, data.toString());
			if (auth instanceof Error)
				return refuseWith(
					`WebSocket from ${from}: its first frame is not the handshake's auth (${auth.message}); is the Engram app older than engram-relay? Reload it`,
					RELAY_CLOSE.protocol,
					'expected the handshake (auth): reload the Engram app',
				);
			if (auth.v !== RELAY_AUTH_VERSION)
				return refuseWith(
					`${auth.role} from ${from}: handshake version ${auth.v}, this relay speaks ${RELAY_AUTH_VERSION}`,
					RELAY_CLOSE.protocol,
					`handshake version ${auth.v} is not ${RELAY_AUTH_VERSION}: update the older side`,
				);
			const expected = proofFor(this.#opts.token, 'peer', auth.role, relayNonce, auth.nonce);
			if (!proofMatches(auth.proof, expected))
				return refuseWith(
					`${auth.role} from ${from}: wrong token (it did not prove it knows this relay's token)`,
					RELAY_CLOSE.unauthorized,
					'wrong token: pair again with the link engram-relay printed',
				);
			const proof: RelayProof = {
				t: 'proof',
				proof: proofFor(this.#opts.token, 'relay', auth.role, relayNonce, auth.nonce),
			};
			ws.send(JSON.stringify(proof));
			this.#attach(ws, auth.role);
		});
		const challenge: Challenge = { t: 'challenge', v: RELAY_AUTH_VERSION, nonce: relayNonce };
		ws.send(JSON.stringify(challenge));
	}

	#attach(ws: WebSocket, role: PeerRole): void {
		try {
			if (role === 'tab') this.#attachTab(ws);
			else this.#attachRelay(ws);
		} catch (e) {
			this.#opts.log(`could not attach a ${role}: ${(e as Error).message}`);
			ws.close(RELAY_CLOSE.protocol, 'engram-relay failed to attach this connection');
		}
	}

	#attachTab(ws: WebSocket): void {
		const link: TabLink = {
			send: (text) => {
				if (ws.readyState !== ws.OPEN) return;
				trace('to-tab');
				ws.send(text);
			},
			close: (code, reason) => ws.close(code, reason),
		};
		keepAlive(ws);
		ws.on('message', (data, isBinary) => {
			trace('from-tab');
			if (isBinary) return;
			try {
				this.#hub.fromTab(link, data.toString());
			} catch (e) {
				this.#opts.log(`dropped a frame from the tab: ${(e as Error).message}`);
			}
		});
		ws.on('close', () => this.#hub.detachTab(link));
		ws.on('error', (e) => this.#opts.log(`tab socket error: ${e.message}`));
		this.#hub.attachTab(link);
	}

	/** A second relay process: its stdio client becomes one more session here. */
	#attachRelay(ws: WebSocket): void {
		const prefix = `relay${++this.#joined}:`;
		const sids = new Map<string, string>();
		/** The joined relay's sessions refused for the session cap: each request gets the error. */
		const refused = new Set<string>();
		keepAlive(ws);
		const send = (env: ToDownstream) => {
			if (ws.readyState !== ws.OPEN) return;
			const text = safeStringify(env);
			if (text instanceof Error) this.#opts.log(`dropped a frame for a joined relay: ${text.message}`);
			else ws.send(text);
		};
		const onFrame = (text: string) => {
			const env = parseEnvelope(FromDownstreamSchema, text);
			if (env instanceof Error) return ws.close(RELAY_CLOSE.protocol, env.message.slice(0, 120));
			const sid = sids.get(env.sid) ?? `${prefix}${env.sid}`;
			if (env.t === 'open') {
				const sink = {
					deliver: (m: Message | Message[], rel?: Id) => send({ t: 'msg', sid: env.sid, m, rel }),
				};
				try {
					const session = this.#hub.openSession('stdio', env.profile, sink, sid);
					sids.set(env.sid, sid);
					this.#hub.seed(session, env.handshake);
				} catch (e) {
					if (!(e instanceof SessionLimitError)) throw e;
					this.#opts.log(`refused a joined relay's client: ${e.message}`);
					refused.add(env.sid);
				}
			} else if (env.t === 'msg') {
				if (refused.has(env.sid)) return answerRefused(env.sid, env.m);
				this.#hub.fromClient(sid, env.m);
			} else {
				refused.delete(env.sid);
				this.#hub.closeSession(sid);
			}
		};
		const answerRefused = (sid: string, value: unknown) => {
			const answers: Message[] = [];
			for (const item of Array.isArray(value) ? value : [value]) {
				const c = classify(item);
				if (c.kind === 'request') answers.push(errorResponse(c.id, RELAY_ERROR.internal, new SessionLimitError().message));
			}
			if (answers.length) send({ t: 'msg', sid, m: Array.isArray(value) ? answers : answers[0] });
		};
		ws.on('message', (data) => {
			try {
				onFrame(data.toString());
			} catch (e) {
				this.#opts.log(`dropped a frame from a joined relay: ${(e as Error).message}`);
			}
		});
		ws.on('close', () => {
			for (const sid of sids.values()) this.#hub.closeSession(sid);
		});
		ws.on('error', (e) => this.#opts.log(`joined relay socket error: ${e.message}`));
		this.#opts.log(`another engram-relay joined on port ${this.#opts.port}`);
	}

	/** Closes every socket, telling tabs the relay is shutting down (so they retry later). */
	close(): void {
		for (const ws of this.#wss.clients) ws.close(RELAY_CLOSE.shutdown, 'engram-relay is shutting down');
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

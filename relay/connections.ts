/**
 * A cap on the relay's HTTP connections. Each open connection costs a file descriptor, and any
 * local program (or a page served from another loopback port) can open thousands and send nothing:
 * without a cap the relay runs out of descriptors and can no longer accept its own clients or the
 * tab. At the cap, a new connection first displaces an idle one that never passed the token check
 * (oldest first), then an idle keep-alive one; only when every connection is busy with a request
 * is the newcomer refused, with a 503 that says why. A flood of idle sockets therefore can never
 * keep a client with the token out. WebSocket upgrades leave this count: the tab's handshake has
 * its own cap (sockets.ts).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** HTTP connections open at once (MCP clients keep one or a few each; the relay serves 64 sessions). */
export const MAX_HTTP_CONNECTIONS = 256;

/** How long a connection may take to send its request headers (Node's default is 60 s). */
export const HEADERS_TIMEOUT_MS = 10_000;

/** How long an idle keep-alive connection stays open between requests. */
export const KEEP_ALIVE_MS = 5_000;

/** The refusal a connection gets when every one of the others is busy with a request. */
export const TOO_MANY_CONNECTIONS = `engram-relay: too many open connections (the limit is ${MAX_HTTP_CONNECTIONS}, all busy with requests); retry shortly`;

/** Counts the server's connections and keeps them under `max`; see the file's comment. */
export class ConnectionCap {
	readonly #max: number;
	readonly #log: (line: string) => void;
	/** Idle connections that never passed the token check, oldest first. */
	readonly #strangers = new Set<Socket>();
	/** Idle connections that did (keep-alive between a client's requests), least recently used first. */
	readonly #known = new Set<Socket>();
	/** Connections with a request in progress. */
	readonly #busy = new Set<Socket>();
	readonly #trusted = new WeakSet<Socket>();
	#displaced = 0;
	#refused = 0;

	constructor(server: Server, opts: { max?: number; log: (line: string) => void }) {
		this.#max = opts.max ?? MAX_HTTP_CONNECTIONS;
		this.#log = opts.log;
		server.headersTimeout = HEADERS_TIMEOUT_MS;
		server.keepAliveTimeout = KEEP_ALIVE_MS;
		server.on('connection', (socket: Socket) => this.#admit(socket));
		server.on('request', (req: IncomingMessage, res: ServerResponse) => this.#request(req.socket, res));
		// An upgraded socket belongs to the WebSocket side from now on.
		server.on('upgrade', (req: IncomingMessage) => this.#forget(req.socket));
	}

	/** Connections counted now (for tests and status). */
	get size(): number {
		return this.#strangers.size + this.#known.size + this.#busy.size;
	}

	/** Marks the connection of a request that passed the token check: displaced only after strangers. */
	trust(socket: Socket): void {
		this.#trusted.add(socket);
	}

	#admit(socket: Socket): void {
		if (this.size >= this.#max && !this.#displaceOne()) {
			if (this.#refused++ === 0) this.#log(`refused a connection: ${this.#max} are open and all busy with requests`);
			socket.on('error', () => {});
			socket.end(
				`HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(TOO_MANY_CONNECTIONS) + 1}\r\n\r\n${TOO_MANY_CONNECTIONS}\n`,
			);
			socket.destroySoon();
			return;
		}
		this.#refused = 0;
		this.#strangers.add(socket);
		socket.once('close', () => this.#forget(socket));
	}

	/** Closes the oldest idle connection, strangers first; false when every connection is busy. */
	#displaceOne(): boolean {
		const victim = first(this.#strangers) ?? first(this.#known);
		if (!victim) return false;
		if (this.#displaced++ % 1000 === 0)
			this.#log(
				`${this.#max} connections are open: closing idle ones to admit new ones (${this.#displaced} so far; is a program opening connections and sending nothing?)`,
			);
		this.#forget(victim);
		victim.destroy();
		return true;
	}

	#request(socket: Socket, res: ServerResponse): void {
		if (!this.#strangers.delete(socket) && !this.#known.delete(socket) && !this.#busy.has(socket)) return;
		this.#busy.add(socket);
		res.once('close', () => {
			if (!this.#busy.delete(socket) || socket.destroyed) return;
			(this.#trusted.has(socket) ? this.#known : this.#strangers).add(socket);
		});
	}

	#forget(socket: Socket): void {
		this.#strangers.delete(socket);
		this.#known.delete(socket);
		this.#busy.delete(socket);
	}
}

function first<T>(set: Set<T>): T | undefined {
	return set.values().next().value;
}

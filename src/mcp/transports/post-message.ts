/**
 * The page's MCP server side over `window.postMessage`, wire-compatible with @mcp-b/transports 5.x.
 * Every message is an envelope `{ channel, type: 'mcp', direction, payload }`, where payload is a
 * JSON-RPC message or a control string (`mcp-check-ready` → `mcp-server-ready`; `mcp-server-stopped`).
 *
 * One listener on the page's window serves every client, each on its own transport (and so its
 * own McpServer):
 * - `same-window`: `TabClientTransport` in this page (an in-page agent, an extension's content
 *   script), channel `mcp-default`;
 * - `parent`: `IframeParentTransport` in the page embedding Engram, channel `mcp-iframe`;
 * - `window`: any other window (a popup, an opener, a child frame) posting `mcp-default`
 *   envelopes to this one; answers go back to that window only.
 * Before anything is read, `event.origin` must pass the allow-list; a refused origin gets no
 * answer at all, not even `mcp-server-ready`, and is reported through `onBlocked`.
 */
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { InFlight, invalidRequestAnswer } from './guards';

/** MCP-B's channel for clients in the same page (and, here, in other windows). */
export const TAB_CHANNEL = 'mcp-default';
/** MCP-B's channel between an embedding page and the iframe serving MCP. */
export const IFRAME_CHANNEL = 'mcp-iframe';
/** Control payloads of the MCP-B handshake. */
export const CHECK_READY = 'mcp-check-ready';
export const SERVER_READY = 'mcp-server-ready';
export const SERVER_STOPPED = 'mcp-server-stopped';

/** How a postMessage client is placed relative to this page. */
export type PeerKind = 'same-window' | 'parent' | 'window';

/** Something that can receive a postMessage: a window proxy. */
export interface PostTarget {
	postMessage(message: unknown, targetOrigin: string): void;
	readonly closed?: boolean;
}

/** The window the listener runs in: only what it uses, so tests can stand one in. */
export interface HostWindow extends PostTarget {
	addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
	removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
	readonly parent: PostTarget;
	readonly location: { readonly origin: string };
}

/** One postMessage client, as the host shows it. */
export interface PostMessagePeer {
	readonly kind: PeerKind;
	readonly origin: string;
	readonly channel: string;
}

interface Envelope {
	channel: string;
	type: 'mcp';
	direction: 'client-to-server' | 'server-to-client';
	payload: unknown;
}

function isClientEnvelope(data: unknown): data is Envelope {
	if (typeof data !== 'object' || data === null) return false;
	const e = data as Partial<Envelope>;
	return (e.channel === TAB_CHANNEL || e.channel === IFRAME_CHANNEL) && e.type === 'mcp' && e.direction === 'client-to-server' && 'payload' in e;
}

/**
 * The server end of one postMessage client. Messages that arrive before `start()` (the host
 * creates the transport on a client's first message) are kept and delivered on start.
 */
export class PostMessageServerTransport implements Transport {
	onmessage?: (message: JSONRPCMessage) => void;
	onerror?: (error: Error) => void;
	onclose?: () => void;
	#started = false;
	#closed = false;
	#early: unknown[] = [];
	readonly #inFlight = new InFlight();

	constructor(
		readonly peer: PostMessagePeer,
		private readonly post: (payload: unknown) => void,
		private readonly target: PostTarget,
	) {}

	/** Starts delivery; must be called after the callbacks are set (McpServer.connect does). */
	async start(): Promise<void> {
		if (this.#started) throw new Error('PostMessageServerTransport already started');
		this.#started = true;
		const early = this.#early;
		this.#early = [];
		for (const payload of early) this.receive(payload);
	}

	/** Sends one JSON-RPC message to this client only. */
	async send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
		if (this.#closed) throw new Error('PostMessageServerTransport is closed');
		this.#inFlight.answered(message);
		this.post(message);
	}

	/** Ends the connection; the client is told with `mcp-server-stopped` unless its window is gone. */
	async close(): Promise<void> {
		this.#end(!this.target.closed);
	}

	/**
	 * Ends the connection without telling the client: for a client replaced by a new one in the
	 * same window and channel, where `mcp-server-stopped` would reach (and close) the new one.
	 */
	detach(): void {
		this.#end(false);
	}

	#end(notify: boolean): void {
		if (this.#closed) return;
		this.#closed = true;
		if (notify) this.post(SERVER_STOPPED);
		this.onclose?.();
	}

	/** True once closed. */
	get closed(): boolean {
		return this.#closed;
	}

	/** True when the client's window has gone away (a closed popup, a removed iframe). */
	get peerGone(): boolean {
		return this.target.closed === true;
	}

	/** Delivers one payload from the client; a malformed one goes to `onerror` (a request is answered with Invalid Request). */
	receive(payload: unknown): void {
		if (this.#closed) return;
		if (!this.#started) return void this.#early.push(payload);
		const parsed = JSONRPCMessageSchema.safeParse(payload);
		if (!parsed.success) {
			this.onerror?.(new Error(`invalid JSON-RPC message from ${this.peer.origin}: ${parsed.error.issues[0]?.message}`));
			// A request the server never sees still gets its answer, or the client would wait for ever.
			const answer = invalidRequestAnswer(payload);
			if (answer) void this.send(answer).catch(() => {});
			return;
		}
		const refusal = this.#inFlight.admit(parsed.data);
		if (refusal) return this.post(refusal);
		this.onmessage?.(parsed.data);
	}
}

/** What the listener asks of its owner. */
export interface PostMessageListenerOptions {
	window: HostWindow;
	/** The origin allow-list; consulted on every message, so revocation applies at once. */
	isAllowed(origin: string): boolean;
	/** A refused origin tried to connect (its messages were dropped unanswered). */
	onBlocked?(peer: PostMessagePeer): void;
	/**
	 * A new client's first JSON-RPC message arrived: connect a server to `transport` (before or
	 * after this returns; messages wait for `start()`). `first` lets the owner read the
	 * client's `initialize` (name, requested profile) before choosing a server.
	 */
	onConnection(transport: PostMessageServerTransport, first: unknown): void;
}

interface Client {
	transport: PostMessageServerTransport;
	source: PostTarget;
}

/** Listens on the page's window and runs one transport per postMessage client. */
export class PostMessageListener {
	readonly #opts: PostMessageListenerOptions;
	readonly #clients = new Map<PostTarget, Map<string, Client>>();
	#blocked: { source: PostTarget; peer: PostMessagePeer }[] = [];
	#listening = false;

	constructor(opts: PostMessageListenerOptions) {
		this.#opts = opts;
	}

	/** Starts listening and announces `mcp-server-ready` to clients that started first. */
	start(): void {
		if (this.#listening) return;
		this.#listening = true;
		this.#opts.window.addEventListener('message', this.#onMessage);
		const self = this.#opts.window.location.origin;
		this.#post(this.#opts.window, { kind: 'same-window', origin: self, channel: TAB_CHANNEL }, SERVER_READY);
		this.#announceToParent();
	}

	/** Stops listening and closes every client (each is told `mcp-server-stopped`). */
	async stop(): Promise<void> {
		this.#opts.window.removeEventListener('message', this.#onMessage);
		this.#listening = false;
		await Promise.all(this.transports().map((t) => t.close()));
		this.#clients.clear();
		this.#blocked = [];
	}

	/** Every open client transport. */
	transports(): PostMessageServerTransport[] {
		return [...this.#clients.values()].flatMap((m) => [...m.values()].map((c) => c.transport));
	}

	/**
	 * Call after `origin` was approved: every client of it that waited is sent `mcp-server-ready`,
	 * so MCP-B clients (which wait for it before sending anything) proceed on their own.
	 */
	admit(origin: string): void {
		const waiting = this.#blocked.filter((b) => b.peer.origin === origin);
		this.#blocked = this.#blocked.filter((b) => b.peer.origin !== origin);
		for (const { source, peer } of waiting) this.#post(source, peer, SERVER_READY);
		this.#announceToParent();
	}

	/** Closes every connection from `origin` (call after revoking it). */
	async evict(origin: string): Promise<void> {
		const gone = this.transports().filter((t) => t.peer.origin === origin);
		await Promise.all(gone.map((t) => t.close()));
	}

	/** Closes connections whose window went away; the host calls this every few seconds. */
	async sweep(): Promise<void> {
		await Promise.all(
			this.transports()
				.filter((t) => t.peerGone)
				.map((t) => t.close()),
		);
	}

	#onMessage = (event: MessageEvent): void => {
		const data: unknown = event.data;
		if (!isClientEnvelope(data)) return;
		const source = event.source as PostTarget | null;
		if (!source || typeof source.postMessage !== 'function') return;
		const kind = this.#kindOf(source, data.channel);
		if (!kind) return;
		const peer: PostMessagePeer = { kind, origin: event.origin, channel: data.channel };
		if (!this.#opts.isAllowed(event.origin)) return this.#block(source, peer);
		if (data.payload === CHECK_READY) return this.#post(source, peer, SERVER_READY);
		if (typeof data.payload === 'string') return;
		this.#clientFor(source, peer, data.payload).transport.receive(data.payload);
	};

	/** MCP-B's iframe channel only comes from the embedding page; the tab channel from anywhere. */
	#kindOf(source: PostTarget, channel: string): PeerKind | undefined {
		const win = this.#opts.window;
		if (channel === IFRAME_CHANNEL) return source === win.parent && source !== win ? 'parent' : undefined;
		if (source === win) return 'same-window';
		return source === win.parent ? 'parent' : 'window';
	}

	#block(source: PostTarget, peer: PostMessagePeer): void {
		if (!this.#blocked.some((b) => b.source === source && b.peer.channel === peer.channel)) {
			// Bounded: a hostile page cannot grow this list by posting from many frames.
			if (this.#blocked.length >= 64) this.#blocked.shift();
			this.#blocked.push({ source, peer });
		}
		this.#opts.onBlocked?.(peer);
	}

	/** The client's transport; a new one on its first message, or when it initializes again. */
	#clientFor(source: PostTarget, peer: PostMessagePeer, payload: unknown): Client {
		const current = this.#clients.get(source)?.get(peer.channel);
		// A client that initializes again is a new client in the same window (MCP-B clients
		// cannot be told apart otherwise): it gets a fresh server, the old one is dropped.
		if (current && !current.transport.closed && !isInitialize(payload)) return current;
		if (current && !current.transport.closed) current.transport.detach();
		let bySource = this.#clients.get(source);
		if (!bySource) this.#clients.set(source, (bySource = new Map()));
		const transport = new PostMessageServerTransport(peer, (p) => this.#post(source, peer, p), source);
		const client = { transport, source };
		bySource.set(peer.channel, client);
		transport.onclose = () => {
			const map = this.#clients.get(source);
			if (map?.get(peer.channel) === client) map.delete(peer.channel);
			if (map?.size === 0) this.#clients.delete(source);
		};
		this.#opts.onConnection(transport, payload);
		return client;
	}

	#post(target: PostTarget, peer: PostMessagePeer, payload: unknown): void {
		const envelope: Envelope = {
			channel: peer.channel,
			type: 'mcp',
			direction: 'server-to-client',
			payload,
		};
		// Same-window answers stay in this origin; others go to the client's exact origin only.
		const targetOrigin = peer.origin === 'null' ? '*' : peer.origin;
		try {
			target.postMessage(envelope, targetOrigin);
		} catch {
			// The window went away between its message and our answer; sweep() closes it.
		}
	}

	/** When embedded, tells an approved embedding page that the server is ready. */
	#announceToParent(): void {
		const win = this.#opts.window;
		if (win.parent === win) return;
		const ancestors = (win.location as { ancestorOrigins?: ArrayLike<string> }).ancestorOrigins;
		const parentOrigin = ancestors?.[0];
		if (!parentOrigin || !this.#opts.isAllowed(parentOrigin)) return;
		this.#post(win.parent, { kind: 'parent', origin: parentOrigin, channel: IFRAME_CHANNEL }, SERVER_READY);
	}
}

function isInitialize(payload: unknown): boolean {
	return typeof payload === 'object' && payload !== null && (payload as { method?: unknown }).method === 'initialize';
}

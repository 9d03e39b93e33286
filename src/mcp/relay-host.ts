/**
 * The relay side of the MCP host, runnable wherever the engine is: the pairing with
 * `engram-relay` (RelayPairingManager and its RelayClient's WebSocket), one McpServer per desktop
 * client session, and an AgentTracker for those sessions. In the app it runs inside the engine
 * worker, so a desktop agent's call goes WebSocket → worker → Engine and back without touching
 * the page's main thread or comlink; the page drives it through `RelayControl` (comlink) and
 * mirrors its state from the views it pushes (host.ts). In Node tests it runs in-process.
 *
 * Every method answers with a fresh `RelayView`; `watch` pushes one after changes (at most one
 * per 100 ms) carrying the tool calls made since the previous push. The page reads and
 * cleans the pairing link off its own address bar and hands over only the hash.
 *
 * @example
 * const relay = new RelayHost(engine, { app: { name: 'Engram', version: '1' } });
 * relay.watch((v) => render(v));
 * await relay.start(location.hash);
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { EngineApi } from '../engine/types';
import { AgentTracker, type AgentConnection, type ToolCall } from './agent-tracker';
import { RelayPairingManager, type LinkContext, type RelayPairingState } from './relay-pairing';
import { createMemoryServer } from './server';
import type { RelaySessionTransport, WebSocketConstructor } from './transports/relay-client';
import type { RelayProfile } from './transports/relay-protocol';

/** The relay's state as the page mirrors it. */
export interface RelayView {
	/** Increases with every view made; a view older than the one applied is stale. */
	seq: number;
	relay: RelayPairingState;
	/** Desktop clients connected through the relay now. */
	connections: AgentConnection[];
	/** Pushed views only: the tool calls since the previous push, newest first (≤ 200). */
	calls?: ToolCall[];
	/** Pushed views only: non-fatal problems since the previous push (an activity-log write that failed). */
	errors?: string[];
}

/** What the page calls, in-process or over comlink (every answer is the state after the act). */
export interface RelayControl {
	/**
	 * Connects to the stored pairing, then takes the pairing link in `hash` (already cleaned off the
	 * address) as an offer; `from.framed`: the page is inside another page, so the link is refused.
	 */
	start(hash: string, from?: LinkContext): Promise<RelayView>;
	/** A pairing link opened later (hashchange). */
	fromLink(hash: string, from?: LinkContext): Promise<RelayView>;
	/** Throws MemoryError invalid_input naming the field. */
	pair(url: string, token: string): Promise<RelayView>;
	unpair(): Promise<RelayView>;
	acceptOffer(): Promise<RelayView>;
	declineOffer(): Promise<RelayView>;
	reconnect(): Promise<RelayView>;
	/** Closes one desktop client's session (the relay keeps the client). */
	disconnect(connectionId: string): Promise<RelayView>;
	view(): Promise<RelayView>;
	/** Calls `listener` after every change (over comlink: a `proxy`); one listener, the last wins. */
	watch(listener: (view: RelayView) => void | Promise<void>): Promise<void>;
	/** Closes the connection and every session, keeping the pairing. */
	stop(): Promise<void>;
}

/** Builds one server per session (the signature of `createMemoryServer`). */
export type CreateRelayServer = (engine: EngineApi, profile: RelayProfile, opts: { actor: string }) => McpServer;

/** Options of RelayHost. */
export interface RelayHostOptions {
	app?: { name: string; version: string };
	WebSocket?: WebSocketConstructor;
	backoff?: { initialMs: number; maxMs: number };
	/** Defaults to `createMemoryServer`. */
	createServer?: CreateRelayServer;
}

const MAX_CALLS = 200;
/** The shortest spell between two pushes to the page, ms. */
const PUSH_MS = 100;

/** Serves desktop clients through engram-relay over `engine`; see the file's comment. */
export class RelayHost implements RelayControl {
	readonly #engine: EngineApi;
	readonly #opts: RelayHostOptions;
	readonly #tracker: AgentTracker;
	readonly #pairing: RelayPairingManager;
	#listener?: (view: RelayView) => void | Promise<void>;
	#seq = 0;
	#fresh: ToolCall[] = [];
	#errors: string[] = [];
	#queued = false;
	#lastPush = -Infinity;
	#started = false;

	constructor(engine: EngineApi, opts: RelayHostOptions = {}) {
		this.#engine = engine;
		this.#opts = opts;
		this.#tracker = new AgentTracker(
			engine,
			() => this.#changed(),
			(e) => this.#error(e),
			{
				onCall: (call) => void (this.#fresh = [call, ...this.#fresh].slice(0, MAX_CALLS)),
			},
		);
		this.#pairing = new RelayPairingManager({
			store: engine,
			onSession: (t) => this.#serve(t),
			onChange: () => this.#changed(),
			WebSocket: opts.WebSocket,
			app: opts.app,
			backoff: opts.backoff,
		});
	}

	async start(hash: string, from?: LinkContext): Promise<RelayView> {
		// Once per host: a second start (a page's host restarted over the same worker) only reads the link.
		if (this.#started) return this.fromLink(hash, from);
		this.#started = true;
		await this.#pairing.start(at(hash), () => {}, from);
		return this.view();
	}

	async fromLink(hash: string, from?: LinkContext): Promise<RelayView> {
		await this.#pairing.fromLink(at(hash), () => {}, from);
		return this.view();
	}

	async pair(url: string, token: string): Promise<RelayView> {
		await this.#pairing.pair(url, token);
		return this.view();
	}

	async unpair(): Promise<RelayView> {
		await this.#pairing.unpair();
		return this.view();
	}

	async acceptOffer(): Promise<RelayView> {
		await this.#pairing.acceptOffer();
		return this.view();
	}

	async declineOffer(): Promise<RelayView> {
		this.#pairing.declineOffer();
		return this.view();
	}

	async reconnect(): Promise<RelayView> {
		this.#pairing.reconnect();
		return this.view();
	}

	async disconnect(connectionId: string): Promise<RelayView> {
		await this.#tracker.disconnect(connectionId);
		return this.view();
	}

	async view(): Promise<RelayView> {
		return { seq: ++this.#seq, relay: this.#pairing.state(), connections: this.#tracker.connections() };
	}

	async watch(listener: (view: RelayView) => void | Promise<void>): Promise<void> {
		this.#listener = listener;
	}

	async stop(): Promise<void> {
		this.#pairing.stop();
		this.#started = false;
	}

	#serve(transport: RelaySessionTransport): void {
		const { kind, client, profile } = transport.info;
		const info = this.#tracker.track(transport, { kind: 'relay', via: kind, client, profile });
		const create = this.#opts.createServer ?? createMemoryServer;
		const engine = tracedEngine(this.#engine);
		connectServer(
			transport,
			() => create(engine, profile, { actor: `${client?.name ?? 'agent'} (relay/${kind})` }),
			(e) => this.#error(e),
			info,
		);
	}

	#error(e: Error): void {
		this.#errors.push(e.message);
		this.#changed();
	}

	/**
	 * Pushes after the answer that caused the change has been sent: the first change of a quiet
	 * spell a microtask later, then at most one push per PUSH_MS (each push is a message to the
	 * page that this thread pays for, between agents' calls).
	 */
	#changed(): void {
		if (this.#queued) return;
		this.#queued = true;
		const wait = this.#lastPush + PUSH_MS - performance.now();
		if (wait > 0) setTimeout(() => this.#push(), wait);
		else queueMicrotask(() => this.#push());
	}

	#push(): void {
		this.#queued = false;
		this.#lastPush = performance.now();
		const listener = this.#listener;
		if (!listener) return;
		const view: RelayView = {
			seq: ++this.#seq,
			relay: this.#pairing.state(),
			connections: this.#tracker.connections(),
			calls: this.#fresh,
			errors: this.#errors,
		};
		this.#fresh = [];
		this.#errors = [];
		// Over comlink the call is a message; a page that went away takes its worker with it.
		void Promise.resolve()
			.then(() => listener(view))
			.catch(() => {});
	}
}

/**
 * A bench-only probe (`bench/lib/agent-path.ts` sets it in the worker): called with
 * `engine-start` / `engine-end` around every engine call a relayed session makes, so the
 * per-hop breakdown can split the worker's span into the MCP layer and the engine.
 */
type EngineProbe = (point: 'engine-start' | 'engine-end') => void;

/**
 * `engine` itself, unless the probe is set when a session opens (one check per session, none per
 * call); then a wrapper that stamps each method call's start and its settling.
 */
function tracedEngine(engine: EngineApi): EngineApi {
	const probe = (globalThis as { __engramEngineProbe?: EngineProbe }).__engramEngineProbe;
	if (typeof probe !== 'function') return engine;
	return new Proxy(engine, {
		get(target, name, receiver) {
			const value: unknown = Reflect.get(target, name, receiver);
			if (typeof value !== 'function') return value;
			return (...args: unknown[]) => {
				probe('engine-start');
				const out: unknown = value.apply(target, args);
				if (!(out instanceof Promise)) {
					probe('engine-end');
					return out;
				}
				return out.finally(() => probe('engine-end'));
			};
		},
	});
}

/** A pairing link's hash as the location the pairing manager reads (the page already cleaned its address). */
function at(hash: string) {
	return { hash, pathname: '', search: '' };
}

/** Connects a fresh server; if it cannot be built, every request gets an error naming why. */
export function connectServer(transport: Transport, build: () => McpServer, onError: (e: Error) => void, info: AgentConnection): void {
	let server: McpServer;
	try {
		server = build();
	} catch (e) {
		const why = `Engram could not start a server for profile ${info.profile}: ${(e as Error).message}`;
		onError(new Error(why));
		const tap = transport.onmessage;
		transport.onmessage = (m) => {
			tap?.(m);
			if ('method' in m && 'id' in m) void transport.send({ jsonrpc: '2.0', id: m.id, error: { code: -32603, message: why } });
		};
		void transport.start();
		return;
	}
	server.connect(transport).catch((e: Error) => onError(e));
}

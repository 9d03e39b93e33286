/**
 * The page side of Engram's MCP bridges, in one call: `startMcpHost(engine)` serves MCP clients
 * over postMessage (origin-checked), pairs with `engram-relay` for desktop clients, registers the
 * native tools with WebMCP where the browser has it, and tracks who is connected and what they
 * call. Every connection gets its own McpServer from `createMemoryServer(engine, profile, opts)`.
 *
 * The relay part is a RelayHost (relay-host.ts). In the app it runs in the engine worker
 * (`relayControl`), so desktop agents' calls never wait on this thread or on comlink; this host
 * only mirrors its state and forwards the person's acts. postMessage and WebMCP need the window
 * and stay here.
 *
 * The state is exposed through plain getters and one `subscribe`; nothing here imports Svelte.
 *
 * @example
 * const host = await startMcpHost(engine);
 * host.subscribe(() => (view = host.snapshot()));
 * await host.origins.approve('http://localhost:5173'); // lets that page's MCP-B client in
 * await host.pairRelay('ws://127.0.0.1:17373', token);  // or open the relay's pairing link
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { proxy } from 'comlink';
import type { EngineApi } from '../engine/types';
import { AgentTracker, type AgentConnection, type ToolCall } from './agent-tracker';
import { OriginPolicy, type ApprovedOrigin, type ChannelLike, type OriginRequest } from './origins';
import { takePairingLink, takenPairingLink } from './pairing-link';
import { connectServer, RelayHost, type RelayControl, type RelayView } from './relay-host';
import type { RelayPairingState } from './relay-pairing';
import { createMemoryServer } from './server';
import { PostMessageListener, type HostWindow, type PostMessageServerTransport } from './transports/post-message';
import type { WebSocketConstructor } from './transports/relay-client';
import { isRelayProfile, type RelayProfile } from './transports/relay-protocol';
import { trustingValidator } from './trusting-validator';
import { findModelContext, registerWebMcpTools, type ModelContextLike } from './webmcp';

/** Builds one server per connection (the signature of `createMemoryServer` in server.ts). */
export type CreateServer = (engine: EngineApi, profile: RelayProfile, opts: { actor: string }) => McpServer;

/** Options of `startMcpHost`; every part is on by default. */
export interface McpHostOptions {
	/** Defaults to `createMemoryServer` from ./server. */
	createServer?: CreateServer;
	/** The page's window (default `window`). */
	window?: HostWindow & { location: Location; history?: History };
	/** Serve postMessage clients (true). */
	postMessage?: boolean;
	/** Pair with engram-relay from the link or the stored pairing (true). */
	relay?: boolean;
	/**
	 * Where the relay pairing and its sessions are served: the engine worker's `relay` over comlink
	 * in the app (so desktop agents' calls never touch this thread); default: a RelayHost on this
	 * thread over `engine` (Node tests), built with `WebSocket`, `relayBackoff`, `app`, `createServer`.
	 */
	relayControl?: RelayControl;
	/** The model context to register WebMCP tools on (default: found on document/navigator; null: none). */
	modelContext?: ModelContextLike | null;
	/** Profile of same-origin postMessage clients that do not ask for one ('native'). */
	defaultProfile?: RelayProfile;
	/** Where tabs announce approval changes (default: a BroadcastChannel; null: none). */
	originsChannel?: ChannelLike | null;
	WebSocket?: WebSocketConstructor;
	relayBackoff?: { initialMs: number; maxMs: number };
	app?: { name: string; version: string };
	/** Non-fatal problems (a refused WebMCP tool, an activity-log write that failed). */
	onError?: (e: Error) => void;
}

/** Everything the UI shows, in one object. */
export interface McpHostSnapshot {
	connections: AgentConnection[];
	calls: ToolCall[];
	pending_origins: OriginRequest[];
	approved_origins: ApprovedOrigin[];
	relay: RelayPairingState;
	webmcp: { available: boolean; tools: string[] };
}

/** The running host. */
export interface McpHost {
	/** Approve, deny, revoke and list postMessage origins; changes apply to live connections at once. */
	readonly origins: OriginPolicy;
	/** The whole state at once (fresh copies). */
	snapshot(): McpHostSnapshot;
	connections(): AgentConnection[];
	/** Recent tool calls, newest first (≤ 200); every call is also in the engine's activity log. */
	calls(): ToolCall[];
	relay(): RelayPairingState;
	/** Pairs with a relay on this machine; throws MemoryError invalid_input for a non-loopback address or a bad token. */
	pairRelay(url: string, token: string): Promise<void>;
	unpairRelay(): Promise<void>;
	/** Pairs with the relay a pairing link offered (`relay().offer`), replacing any pairing. */
	acceptRelayLink(): Promise<void>;
	/** Refuses the offered link; the current pairing (or none) stays. */
	declineRelayLink(): void;
	/** Reconnects now (also takes the relay back after another tab took it over). */
	reconnectRelay(): void;
	webmcp(): { available: boolean; tools: string[] };
	/** Closes one agent's connection. */
	disconnect(connectionId: string): Promise<void>;
	/** Calls `listener` after any change (coalesced to one call per task); returns the unsubscribe. */
	subscribe(listener: () => void): () => void;
	/** Stops listening, disconnects everything, unregisters WebMCP tools. */
	stop(): Promise<void>;
}

const SWEEP_MS = 5_000;

/**
 * Starts the bridges for `engine` (an EngineApi or its comlink Remote). Resolves once origins are
 * loaded and every bridge is listening; WebMCP tools are registered before it resolves.
 */
export async function startMcpHost(engine: EngineApi, opts: McpHostOptions = {}): Promise<McpHost> {
	const win = opts.window ?? (globalThis.window as unknown as HostWindow & { location: Location; history?: History });
	const createServer = opts.createServer ?? createMemoryServer;
	const onError = opts.onError ?? (() => {});
	const listeners = new Set<() => void>();
	let queued = false;
	const changed = () => {
		if (queued) return;
		queued = true;
		queueMicrotask(() => {
			queued = false;
			for (const l of listeners) l();
		});
	};
	const origins = await OriginPolicy.load(engine, win.location.origin, {
		channel: opts.originsChannel,
	});
	if (origins.loadError) onError(new Error(origins.loadError));
	const tracker = new AgentTracker(engine, changed, onError);
	const serve = (transport: Transport, meta: Parameters<AgentTracker['track']>[1]) => {
		const info = tracker.track(transport, meta);
		connectServer(transport, () => createServer(engine, meta.profile, { actor: actorName(meta) }), onError, info);
	};

	const listener = opts.postMessage === false ? undefined : startPostMessage(win, origins, serve, opts.defaultProfile ?? 'native');
	const unwatch = listener ? watchApprovals(origins, listener, changed) : origins.subscribe(changed);
	const sweep = listener ? setInterval(() => void listener.sweep(), SWEEP_MS) : undefined;

	const control =
		opts.relayControl ?? new RelayHost(engine, { WebSocket: opts.WebSocket, app: opts.app, backoff: opts.relayBackoff, createServer: opts.createServer });
	const relay = new RelayMirror(control, changed, onError);
	const detachRelay = opts.relay === false ? () => {} : await relay.attach(win);
	const webmcp = { available: false, tools: [] as string[] };
	const webmcpAbort = new AbortController();
	const mc = opts.modelContext === null ? undefined : (opts.modelContext ?? findModelContext());
	if (mc) {
		webmcp.available = true;
		webmcp.tools = await startWebMcp(mc, serve, webmcpAbort.signal, onError);
	}

	const host: McpHost = {
		origins,
		snapshot: () => ({
			connections: [...tracker.connections(), ...relay.connections()],
			calls: mergeCalls(tracker.calls(), relay.calls()),
			pending_origins: origins.pending(),
			approved_origins: origins.approved(),
			relay: relay.state(),
			webmcp: { ...webmcp, tools: [...webmcp.tools] },
		}),
		connections: () => [...tracker.connections(), ...relay.connections()],
		calls: () => mergeCalls(tracker.calls(), relay.calls()),
		relay: () => relay.state(),
		pairRelay: (url, token) => relay.act(control.pair(url, token)),
		unpairRelay: () => relay.act(control.unpair()),
		acceptRelayLink: () => relay.act(control.acceptOffer()),
		declineRelayLink: () => {
			relay.patch({ offer: undefined });
			void relay.act(control.declineOffer()).catch((e: Error) => onError(e));
		},
		reconnectRelay: () => void relay.act(control.reconnect()).catch((e: Error) => onError(e)),
		webmcp: () => ({ ...webmcp, tools: [...webmcp.tools] }),
		disconnect: (id) => (relay.has(id) ? relay.act(control.disconnect(id)) : tracker.disconnect(id)),
		subscribe(l) {
			listeners.add(l);
			return () => listeners.delete(l);
		},
		async stop() {
			clearInterval(sweep);
			unwatch();
			origins.close();
			detachRelay();
			await control.stop().catch((e: Error) => onError(e));
			webmcpAbort.abort();
			await listener?.stop();
			await Promise.all(tracker.connections().map((c) => tracker.disconnect(c.id)));
		},
	};
	// A handle for devtools and end-to-end tests; scripts of this origin can reach everything anyway.
	(globalThis as { engramMcpHost?: McpHost }).engramMcpHost = host;
	return host;
}

function actorName(meta: { kind: string; via: string; origin?: string; client?: { name: string } }): string {
	const name = meta.client?.name ?? 'agent';
	if (meta.kind === 'postMessage') return `${name} (postMessage ${meta.origin})`;
	return meta.kind === 'relay' ? `${name} (relay/${meta.via})` : `${name} (WebMCP)`;
}

/** The postMessage listener, creating a server per client with its origin's profile. */
function startPostMessage(
	win: HostWindow,
	origins: OriginPolicy,
	serve: (t: Transport, meta: Parameters<AgentTracker['track']>[1]) => void,
	defaultProfile: RelayProfile,
): PostMessageListener {
	const listener = new PostMessageListener({
		window: win,
		isAllowed: (o) => origins.isAllowed(o),
		onBlocked: (peer) => origins.note(peer.origin, peer.kind),
		onConnection: (t: PostMessageServerTransport, first) => {
			const { kind, origin } = t.peer;
			// Another origin gets the profile it was approved with, whatever it asks for; the page's
			// own origin (which can reach everything anyway) chooses.
			const profile = origin === origins.selfOrigin ? (requestedProfile(first) ?? defaultProfile) : (origins.profileFor(origin) ?? defaultProfile);
			serve(t, { kind: 'postMessage', via: kind, origin, client: clientInfo(first), profile });
		},
	});
	listener.start();
	return listener;
}

/**
 * A same-origin postMessage client may ask for a profile in its initialize:
 * `capabilities.experimental.engram.profile` (MCP-B's wire format has no other place for it).
 */
function requestedProfile(first: unknown): RelayProfile | undefined {
	const p = (
		first as {
			method?: string;
			params?: { capabilities?: { experimental?: { engram?: { profile?: unknown } } } };
		}
	)?.params;
	const asked = p?.capabilities?.experimental?.engram?.profile;
	return isRelayProfile(asked) ? asked : undefined;
}

function clientInfo(first: unknown): { name: string; version?: string } | undefined {
	const ci = (first as { method?: string; params?: { clientInfo?: { name?: unknown; version?: unknown } } })?.params?.clientInfo;
	if (typeof ci?.name !== 'string') return undefined;
	return {
		name: ci.name.slice(0, 200),
		version: typeof ci.version === 'string' ? ci.version.slice(0, 100) : undefined,
	};
}

/** Applies approval changes to live connections: newly approved origins are admitted, revoked ones evicted. */
function watchApprovals(origins: OriginPolicy, listener: PostMessageListener, changed: () => void): () => void {
	let before = new Set(origins.approved().map((a) => a.origin));
	return origins.subscribe(() => {
		const now = new Set(origins.approved().map((a) => a.origin));
		for (const o of now) if (!before.has(o)) listener.admit(o);
		for (const o of before) if (!now.has(o)) void listener.evict(o);
		before = now;
		changed();
	});
}

const MAX_CALLS = 200;

/** The page's and the relay's recent calls together, newest first (≤ 200). */
function mergeCalls(a: ToolCall[], b: ToolCall[]): ToolCall[] {
	if (!b.length) return a;
	if (!a.length) return b;
	return [...a, ...b].sort((x, y) => (x.at < y.at ? 1 : x.at > y.at ? -1 : 0)).slice(0, MAX_CALLS);
}

/**
 * The page's copy of the relay's state: applied from every answer of the control and from the
 * views it pushes, the newer (`seq`) winning; calls arrive only with pushes, each new once.
 */
class RelayMirror {
	#seq = -1;
	#state: RelayPairingState = {};
	#connections: AgentConnection[] = [];
	#calls: ToolCall[] = [];

	constructor(
		private readonly control: RelayControl,
		private readonly changed: () => void,
		private readonly onError: (e: Error) => void,
	) {}

	state(): RelayPairingState {
		return structuredClone(this.#state);
	}

	connections(): AgentConnection[] {
		return this.#connections.map((c) => ({ ...c }));
	}

	calls(): ToolCall[] {
		return [...this.#calls];
	}

	has(connectionId: string): boolean {
		return this.#connections.some((c) => c.id === connectionId);
	}

	/** Shows the effect of an act at once (the control's answer confirms it). */
	patch(change: Partial<RelayPairingState>): void {
		const next: Record<string, unknown> = { ...this.#state, ...change };
		for (const k of Object.keys(change)) if (next[k] === undefined) delete next[k];
		this.#state = next as RelayPairingState;
		this.changed();
	}

	/** Waits for an act of the control and applies the state it answered with (or, refused, the state now). */
	async act(answer: Promise<RelayView>): Promise<void> {
		let view: RelayView;
		try {
			view = await answer;
		} catch (e) {
			// A refused act (a bad address) shows its error in the state before the caller hears of it.
			await this.control.view().then(
				(v) => this.#apply(v),
				() => undefined,
			);
			throw e;
		}
		this.#apply(view);
	}

	/**
	 * Subscribes to the control's pushes, pairs from the stored pairing or the page's link (cleaned
	 * off the address bar first), and watches for later links and coming back online.
	 */
	async attach(win: HostWindow & { location: Location; history?: History }): Promise<() => void> {
		await this.control.watch(proxy((v: RelayView) => this.#apply(v))).catch((e: Error) => this.onError(e));
		/** The hash of a pairing link, taken off the address bar at once (the token must not linger). */
		const takeLink = (): string => takePairingLink(win);
		// A page that frames the app could cover the dialog with its own and steer the click.
		const from = { framed: isFramed(win) };
		// main.ts took the page's first link before the engine started; a host started without it, at once.
		await this.act(this.control.start(takenPairingLink() || takeLink(), from)).catch((e: Error) => {
			this.#state = { ...this.#state, error: `the relay pairing could not start: ${e.message}` };
			this.onError(e);
		});
		const target = win as unknown as EventTarget;
		const onHash = () => {
			const hash = takeLink();
			if (hash) void this.act(this.control.fromLink(hash, from)).catch((e: Error) => this.onError(e));
		};
		const onOnline = () => void this.act(this.control.reconnect()).catch((e: Error) => this.onError(e));
		target.addEventListener?.('hashchange', onHash);
		target.addEventListener?.('online', onOnline);
		return () => {
			target.removeEventListener?.('hashchange', onHash);
			target.removeEventListener?.('online', onOnline);
		};
	}

	#apply(v: RelayView): void {
		if (v.seq > this.#seq) {
			this.#seq = v.seq;
			this.#state = v.relay;
			this.#connections = v.connections;
		}
		if (v.calls?.length) this.#calls = [...v.calls, ...this.#calls].slice(0, MAX_CALLS);
		for (const e of v.errors ?? []) this.onError(new Error(e));
		this.changed();
	}
}

/** True when the page runs inside another page (an iframe): a top-level window is its own parent. */
function isFramed(win: HostWindow): boolean {
	return win.parent !== win;
}

/** Serves the native tools to WebMCP through an in-page client. */
async function startWebMcp(
	mc: ModelContextLike,
	serve: (t: Transport, meta: Parameters<AgentTracker['track']>[1]) => void,
	signal: AbortSignal,
	onError: (e: Error) => void,
): Promise<string[]> {
	const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
	serve(serverSide, {
		kind: 'webmcp',
		via: 'modelContext',
		client: { name: 'WebMCP agent' },
		profile: 'native',
	});
	// No Ajv: it compiles with eval, which the CSP refuses; our server validates its own output.
	const client = new Client({ name: 'WebMCP agent', version: '1' }, { jsonSchemaValidator: trustingValidator });
	await client.connect(clientSide);
	signal.addEventListener('abort', () => void client.close(), { once: true });
	return registerWebMcpTools(mc, client, signal, onError);
}

/**
 * The MCP host's observable state (connected agents, origins waiting for approval, approved
 * origins, relay pairing, recent tool calls) mirrored as Svelte state. The host lives in
 * src/mcp/host.ts and knows nothing of Svelte; this class subscribes to it and forwards actions.
 */
import type { McpHost, McpHostSnapshot } from '../../mcp/host';
import type { AgentConnection, ToolCall } from '../../mcp/agent-tracker';
import type { ApprovedOrigin, OriginRequest } from '../../mcp/origins';
import type { RelayPairingState } from '../../mcp/relay-pairing';
import type { RelayProfile } from '../../mcp/transports/relay-protocol';

/** The host, or the promise of it (startMcpHost is async), or nothing (tests, host failed). */
export type HostLike = McpHost | Promise<McpHost> | undefined;

/** Mirrors the host's state; every action goes to the host. */
export class Connections {
	connections = $state<AgentConnection[]>([]);
	calls = $state<ToolCall[]>([]);
	pending = $state<OriginRequest[]>([]);
	approved = $state<ApprovedOrigin[]>([]);
	relay = $state<RelayPairingState>({});
	webmcp = $state<{ available: boolean; tools: string[] }>({ available: false, tools: [] });
	/** 'starting' until the host resolves; 'off' when there is none or it failed. */
	status = $state<'starting' | 'running' | 'off'>('starting');
	error = $state<string | undefined>(undefined);
	#host: McpHost | undefined;
	#source: HostLike;

	constructor(host: HostLike) {
		this.#source = host;
		if (!host) this.status = 'off';
	}

	/** Starts mirroring once the host is up; returns a function that stops. */
	start(): () => void {
		let unsubscribe = () => {};
		let stopped = false;
		Promise.resolve(this.#source)
			.then((host) => {
				if (!host || stopped) return void (this.status = host ? this.status : 'off');
				this.#host = host;
				this.status = 'running';
				this.#apply(host.snapshot());
				unsubscribe = host.subscribe(() => this.#apply(host.snapshot()));
			})
			.catch((e: unknown) => {
				this.status = 'off';
				this.error = e instanceof Error ? e.message : String(e);
			});
		return () => {
			stopped = true;
			unsubscribe();
		};
	}

	/** Lets an origin's agents connect, with the tool profile they get by default. */
	approve(origin: string, profile?: RelayProfile): Promise<void> {
		return this.#need().origins.approve(origin, profile ? { profile } : {});
	}

	/** Dismisses a pending request (the origin stays refused). */
	deny(origin: string): void {
		this.#need().origins.deny(origin);
	}

	/** Withdraws an approval; that origin's live connections are closed. */
	revoke(origin: string): Promise<void> {
		return this.#need().origins.revoke(origin);
	}

	pairRelay(url: string, token: string): Promise<void> {
		return this.#need().pairRelay(url, token);
	}

	unpairRelay(): Promise<void> {
		return this.#need().unpairRelay();
	}

	/** Pairs with the relay a pairing link offered, replacing any pairing. */
	acceptRelayLink(): Promise<void> {
		return this.#need().acceptRelayLink();
	}

	/** Keeps the current pairing (or none) and forgets the offered link. */
	declineRelayLink(): void {
		this.#need().declineRelayLink();
	}

	reconnectRelay(): void {
		this.#need().reconnectRelay();
	}

	disconnect(id: string): Promise<void> {
		return this.#need().disconnect(id);
	}

	#need(): McpHost {
		if (!this.#host) throw new Error('The MCP host is not running in this page');
		return this.#host;
	}

	#apply(s: McpHostSnapshot): void {
		this.connections = s.connections;
		this.calls = s.calls;
		this.pending = s.pending_origins;
		this.approved = s.approved_origins;
		this.relay = s.relay;
		this.webmcp = s.webmcp;
	}
}

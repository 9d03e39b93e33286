/**
 * Keeps the list of agents connected to this page (over postMessage, the relay or WebMCP) and the
 * recent tool calls they made, and records each call in the engine's activity log. It watches a
 * connection's transport without changing what flows through it: the inbound `initialize` (for the
 * client's name), `tools/call` requests, and the responses that answer them.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ActivityEntry } from '../engine/types';
import type { RelayProfile } from './transports/relay-protocol';

/** How an agent reached the page. */
export type AgentKind = 'postMessage' | 'relay' | 'webmcp';

/** One connected agent, as the UI lists it. */
export interface AgentConnection {
	id: string;
	kind: AgentKind;
	/** postMessage: same-window | parent | window; relay: stdio | http; webmcp: modelContext. */
	via: string;
	/** postMessage: the client page's origin. */
	origin?: string;
	/** From the client's initialize (clientInfo). */
	client?: { name: string; version?: string };
	profile: RelayProfile;
	connected_at: string;
	last_active_at: string;
	calls: number;
	errors: number;
}

/** One finished tool call. */
export interface ToolCall {
	/** Unique among the calls a page shows: the connection's id and the call's number on it. */
	id: string;
	at: string;
	connection_id: string;
	agent: string;
	tool: string;
	ok: boolean;
	ms: number;
	error?: string;
}

/** What the tracker needs from the engine. */
export interface ActivitySink {
	logActivity(entry: Omit<ActivityEntry, 'id' | 'at'>, opts?: { deferred?: boolean }): Promise<void>;
}

const MAX_CALLS = 200;

/**
 * Characters a client's name or version must not carry into the page or the activity log:
 * C0/C1 controls (a newline), bidi embeddings, overrides, isolates and marks (U+202E turns
 * "x\u202Egpj.exe" into "xexe.jpg"), and zero-width or invisible ones that make two names look
 * the same. ZWJ and ZWNJ stay (emoji and Persian need them). Mirrors ui/format.ts's revealHidden,
 * which the page applies to what agents wrote; the tracker cannot import the UI.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const HIDDEN = /[\u0000-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

/**
 * What an agent says about itself (clientInfo name or version, a tool name), as it may be shown:
 * each hidden or reordering character replaced by its code point ("⟨U+202E⟩"), at most `max`
 * characters (cut on a code point boundary).
 */
export function clientText(raw: string, max: number): string {
	const shown = raw.replace(HIDDEN, (c) => `⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`);
	if (shown.length <= max) return shown;
	const cut = shown.slice(0, max - 1);
	return (/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut) + '…';
}

/** The activity-log action that best describes a tool (the log has no generic "tool call"). */
export function actionFor(tool: string): ActivityEntry['action'] {
	if (/import/.test(tool)) return 'imported';
	if (/^(store|save)_|_put$/.test(tool)) return 'created';
	if (/delete|del_/.test(tool)) return 'deleted';
	if (/associate/.test(tool)) return 'associated';
	if (/update|add_labels|replace_labels/.test(tool)) return 'updated';
	if (/recall|search|retrieve|find_|query/.test(tool)) return 'recalled';
	return 'accessed';
}

/** A readable name for an agent: its client name, and how it came. */
export function agentLabel(c: AgentConnection): string {
	const name = c.client?.name ?? 'unnamed client';
	const where = c.kind === 'postMessage' ? `postMessage from ${c.origin}` : c.kind === 'relay' ? `relay/${c.via}` : 'WebMCP';
	return `${name} (${where})`;
}

/** Optional observers of a tracker. */
export interface AgentTrackerHooks {
	/** Called with every finished call, before `onChange`. */
	onCall?(call: ToolCall): void;
}

/** Tracks connections and calls; `onChange` fires after every change. */
export class AgentTracker {
	readonly #connections = new Map<string, { info: AgentConnection; close: () => Promise<void> }>();
	#calls: ToolCall[] = [];
	#next = 1;

	constructor(
		private readonly sink: ActivitySink,
		private readonly onChange: () => void,
		private readonly onError: (e: Error) => void,
		private readonly hooks: AgentTrackerHooks = {},
	) {}

	/** Connected agents, oldest first (copies). */
	connections(): AgentConnection[] {
		return [...this.#connections.values()].map((c) => ({ ...c.info }));
	}

	/** Recent tool calls, newest first (at most 200). */
	calls(): ToolCall[] {
		return [...this.#calls];
	}

	/** Closes one connection (its client is told, where the transport can). */
	async disconnect(id: string): Promise<void> {
		await this.#connections.get(id)?.close();
	}

	/**
	 * Starts watching `transport`; call before the server connects to it. Returns the connection
	 * record, which the caller may fill in (client name) before the first change is emitted.
	 */
	track(transport: Transport, meta: Omit<AgentConnection, 'id' | 'connected_at' | 'last_active_at' | 'calls' | 'errors'>): AgentConnection {
		const now = new Date().toISOString();
		const info: AgentConnection = {
			...meta,
			id: `${meta.kind}-${this.#next++}`,
			connected_at: now,
			last_active_at: now,
			calls: 0,
			errors: 0,
		};
		this.#connections.set(info.id, { info, close: () => transport.close() });
		const open = new Map<string | number, { tool: string; started: number }>();
		transport.onmessage = (m: JSONRPCMessage) => this.#inbound(info, open, m);
		const send = transport.send.bind(transport);
		transport.send = (m, options) => {
			// The answer leaves first: recording it (the activity log's write) is not on the agent's path.
			const sent = send(m, options);
			this.#outbound(info, open, m);
			return sent;
		};
		const closed = transport.onclose;
		transport.onclose = () => {
			closed?.();
			if (this.#connections.delete(info.id)) this.onChange();
		};
		this.onChange();
		return info;
	}

	#inbound(info: AgentConnection, open: Map<string | number, { tool: string; started: number }>, m: JSONRPCMessage): void {
		info.last_active_at = new Date().toISOString();
		if (!('method' in m) || !('id' in m)) return;
		const params = m.params as { name?: unknown; clientInfo?: { name?: unknown; version?: unknown } } | undefined;
		if (m.method === 'initialize' && typeof params?.clientInfo?.name === 'string') {
			const version = params.clientInfo.version;
			info.client = {
				name: clientText(params.clientInfo.name, 200),
				version: typeof version === 'string' ? clientText(version, 100) : undefined,
			};
			this.onChange();
		}
		if (m.method === 'tools/call' && typeof params?.name === 'string') open.set(m.id, { tool: clientText(params.name, 100), started: performance.now() });
	}

	#outbound(info: AgentConnection, open: Map<string | number, { tool: string; started: number }>, m: JSONRPCMessage): void {
		if ('method' in m || !('id' in m) || m.id === undefined) return;
		const call = open.get(m.id);
		if (!call) return;
		open.delete(m.id);
		this.#record(info, call.tool, Math.round(performance.now() - call.started), failure(m));
	}

	#record(info: AgentConnection, tool: string, ms: number, error: string | undefined): void {
		info.calls += 1;
		if (error !== undefined) info.errors += 1;
		const agent = agentLabel(info);
		const call: ToolCall = {
			id: `${info.id}:${info.calls}`,
			at: new Date().toISOString(),
			connection_id: info.id,
			agent,
			tool,
			ok: error === undefined,
			ms,
			error,
		};
		this.#calls = [call, ...this.#calls].slice(0, MAX_CALLS);
		this.hooks.onCall?.(call);
		const detail = `${tool} ${error === undefined ? 'ok' : `failed: ${error}`} in ${ms} ms (profile ${info.profile})`;
		this.sink.logActivity({ actor: agent, action: actionFor(tool), detail }, { deferred: true }).catch((e: Error) => this.onError(e));
		this.onChange();
	}
}

/** The error text of a failed tools/call response (JSON-RPC error or isError result), else undefined. */
function failure(m: JSONRPCMessage): string | undefined {
	if ('error' in m) return m.error.message.slice(0, 300);
	const result = (m as { result?: { isError?: boolean; content?: { type?: string; text?: string }[] } }).result;
	if (!result?.isError) return undefined;
	const text = result.content?.find((c) => c.type === 'text')?.text ?? 'isError';
	return text.slice(0, 300);
}

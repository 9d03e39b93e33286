/**
 * One desktop client's session on the relay: where its answers go, its remembered handshake (so a
 * reloaded tab can be re-initialised for it), its requests waiting for the tab, and the JSON-RPC
 * batches it has open (answered as one array, in input order).
 */
import type { SessionInfo, SessionKind, RelayProfile } from '../src/mcp/transports/relay-protocol';
import { idKey, type Id, type Message } from './jsonrpc';

/** Where a session's outbound messages go: stdout, an HTTP response stream, a joined relay. */
export interface ClientSink {
	/** `rel`: the client request a server notification relates to (progress), when known. */
	deliver(message: Message | Message[], rel?: Id): void;
}

/** A JSON-RPC batch the client sent: answered once every request in it has its response. */
export class Batch {
	readonly #order: string[] = [];
	readonly #answers = new Map<string, Message>();

	/** Adds a request slot, in input order. */
	expect(id: Id): void {
		this.#order.push(idKey(id));
	}

	/** Records an answer; returns the whole ordered batch once the last one is in. */
	answer(id: Id, response: Message): Message[] | undefined {
		this.#answers.set(idKey(id), response);
		if (this.#answers.size < this.#order.length) return undefined;
		return this.#order.map((k) => this.#answers.get(k)!);
	}

	/**
	 * Drops the slot of a request the client cancelled before it left the relay (no answer is due
	 * for it); returns the whole ordered batch when the others were all answered already.
	 */
	forget(id: Id): Message[] | undefined {
		const key = idKey(id);
		const at = this.#order.indexOf(key);
		if (at < 0) return undefined;
		this.#order.splice(at, 1);
		this.#answers.delete(key);
		if (this.#order.length === 0 || this.#answers.size < this.#order.length) return undefined;
		return this.#order.map((k) => this.#answers.get(k)!);
	}

	/** True when the batch contained at least one request (else nothing is sent back). */
	get expectsAnswer(): boolean {
		return this.#order.length > 0;
	}
}

/** A request of a client, accepted by the relay and not answered yet. */
export interface PendingRequest {
	id: Id;
	batch?: Batch;
	method?: string;
	/** The request itself, kept until it is sent to the tab. */
	m?: Message;
	/** Whether it reached the tab (then the tab may apply it; else nothing was done). */
	sent: boolean;
}

/** A session's state on the relay. */
export class Session {
	/** The client's `initialize` request, replayed to every tab that connects after it. */
	initialize?: Message;
	/** Whether the client sent `notifications/initialized`. */
	initialized = false;
	/** Whether the current tab has been told about this session (`open` envelope). */
	opened = false;
	/**
	 * Requests accepted for the tab and not answered yet, with the batch each belongs to: sent to
	 * the tab, or still waiting their turn on the relay (`queue`, see the hub's fair forwarding).
	 */
	readonly pending = new Map<string, PendingRequest>();
	/** Keys of `pending` requests not sent to the tab yet, in arrival order. */
	queue: string[] = [];
	/** How many of `pending` are at the tab now. */
	sent = 0;
	/** Set when a request was refused for MAX_IN_FLIGHT, until the session's queue empties (one log line per burst). */
	overloaded = false;
	/** Ids of replayed `initialize` requests, whose answers the client must not see. */
	readonly replayIds = new Set<string>();

	constructor(
		readonly sid: string,
		readonly kind: SessionKind,
		readonly profile: RelayProfile,
		readonly sink: ClientSink,
	) {}

	/** The session as the tab sees it (client name from the remembered initialize). */
	info(): SessionInfo {
		const params = this.initialize?.params as { clientInfo?: { name?: unknown; version?: unknown } } | undefined;
		const ci = params?.clientInfo;
		const client =
			typeof ci?.name === 'string'
				? {
						name: ci.name.slice(0, 200),
						version: typeof ci.version === 'string' ? ci.version.slice(0, 100) : undefined,
					}
				: undefined;
		return { sid: this.sid, kind: this.kind, profile: this.profile, client };
	}

	/** A request cancelled before it left the relay: no answer is due, but its batch must still complete. */
	forget(id: Id, batch?: Batch): void {
		const complete = batch?.forget(id);
		if (complete) this.sink.deliver(complete);
	}

	/** Sends a response to the client, inside its batch when it came in one. */
	respond(id: Id, response: Message, batch?: Batch): void {
		if (!batch) return this.sink.deliver(response);
		const complete = batch.answer(id, response);
		if (complete) this.sink.deliver(complete);
	}
}

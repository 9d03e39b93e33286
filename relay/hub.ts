/**
 * The relay's switchboard: desktop client sessions on one side, the paired Engram tab on the
 * other, JSON-RPC passed through untouched in between. It looks at a message only to route it:
 * the id (to match answers, fill batches in order, and fail calls in flight when the tab goes),
 * and the `initialize` handshake (remembered, so a reloaded tab is re-initialised for every
 * existing client). With no tab paired it answers by itself: the handshake and ping succeed so
 * the client stays connected, and every other request gets a clear error — never a cached list.
 * Only for a moment after the relay starts or a tab leaves (TAB_GRACE_MS) does a request wait for
 * a tab instead: a desktop client starting the relay asks for the tools at once, while the open
 * tab, retrying, needs up to 2 s to find the new relay (and a reloaded tab its start-up).
 * There is no timeout of its own: a 500-memory batch on a slow machine takes what it takes.
 */
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import {
	FromTabSchema,
	MAX_IN_FLIGHT,
	MAX_RELAY_SESSIONS,
	RELAY_CLOSE,
	parseEnvelope,
	type Handshake,
	type RelayProfile,
	type SessionKind,
	type ToTab,
} from '../src/mcp/transports/relay-protocol';
import {
	MAX_MESSAGE_DEPTH,
	RELAY_ERROR,
	classify,
	errorResponse,
	idKey,
	lostAnswer,
	nestingExceeds,
	resultResponse,
	safeStringify,
	vet,
	type Id,
	type Message,
} from './jsonrpc';
import { Batch, Session, type ClientSink, type PendingRequest } from './session';

/**
 * How long after the relay starts, or after its tab leaves, a request waits for a tab to pair
 * before it is answered "not connected". The app retries at most 2 s apart.
 */
export const TAB_GRACE_MS = 5000;

/**
 * Requests of one session at the tab at once; the rest wait on the relay, in order. The tab has one
 * engine, which works through its queue in arrival order: were every request sent at once, one
 * client's 64 heavy exports would sit ahead of another client's single call for minutes.
 */
export const TAB_IN_FLIGHT_PER_SESSION = 2;

/**
 * Requests at the tab at once, across sessions. When a slot frees, the sessions with requests
 * waiting take turns (round-robin), so a client's call waits behind a few calls, not behind the
 * whole backlog of a busier client.
 */
export const TAB_IN_FLIGHT = 16;

/** Largest answer the relay hands to a client (the SDK stdio client refuses lines over 10 MiB). */
export const MAX_FORWARD_CHARS = 8 * 1024 * 1024;

/** Thrown by `openSession` when the relay already serves MAX_RELAY_SESSIONS sessions. */
export class SessionLimitError extends Error {
	constructor() {
		super(`engram-relay already serves ${MAX_RELAY_SESSIONS} sessions (its limit): close another MCP client's session, then retry`);
	}
}

/** The tab's end of the WebSocket, as the hub sees it. */
export interface TabLink {
	send(text: string): void;
	close(code: number, reason: string): void;
}

/** What the hub needs from its surroundings. */
export interface HubOptions {
	port: number;
	version: string;
	appUrl: string;
	log: (line: string) => void;
	/** Called when a tab pairs or leaves, e.g. for tests and status lines. */
	onTabChange?: (connected: boolean) => void;
	/** TAB_GRACE_MS unless given (0: answer at once). */
	tabGraceMs?: number;
}

/** A request waiting for a tab (see TAB_GRACE_MS). */
interface Held {
	session: Session;
	m: Message;
	batch?: Batch;
}

/** Routes JSON-RPC between client sessions and the paired tab. */
export class Hub {
	readonly #opts: HubOptions;
	readonly #sessions = new Map<string, Session>();
	#tab?: TabLink;
	#nextSid = 1;
	#nextReplay = 1;
	/** Requests waiting for a tab, answered alone when `#graceTimer` fires. */
	#held: Held[] = [];
	#graceUntil = 0;
	#graceTimer?: ReturnType<typeof setTimeout>;
	/** Sessions with requests waiting and room at the tab, in turn order. */
	#ready: Session[] = [];
	/** Requests at the tab now, across sessions (TAB_IN_FLIGHT). */
	#atTab = 0;

	constructor(opts: HubOptions) {
		this.#opts = opts;
		this.#startGrace();
	}

	/** Requests made in the next TAB_GRACE_MS wait for a tab rather than fail at once. */
	#startGrace(): void {
		this.#graceUntil = Date.now() + (this.#opts.tabGraceMs ?? TAB_GRACE_MS);
	}

	/** Holds a request for a tab; false when the grace is over (or the session holds enough). */
	#hold(session: Session, m: Message, batch?: Batch): boolean {
		const left = this.#graceUntil - Date.now();
		if (left <= 0 || this.#held.filter((h) => h.session === session).length >= MAX_IN_FLIGHT) return false;
		this.#held.push({ session, m, batch });
		if (!this.#graceTimer) {
			this.#graceTimer = setTimeout(() => this.#releaseHeld(), left);
			// A relay shutting down is not kept alive by it.
			(this.#graceTimer as { unref?: () => void }).unref?.();
		}
		return true;
	}

	/** Hands every held request on: to the tab when one is paired, else to the relay's own answer. */
	#releaseHeld(): void {
		clearTimeout(this.#graceTimer);
		this.#graceTimer = undefined;
		const held = this.#held;
		this.#held = [];
		this.#graceUntil = 0;
		for (const { session, m, batch } of held) if (this.#sessions.get(session.sid) === session) this.#fromClientOne(session, m, batch);
	}

	/** True while an Engram tab is paired. */
	get tabConnected(): boolean {
		return this.#tab !== undefined;
	}

	/** The sessions currently open, for status and tests. */
	get sessions(): Session[] {
		return [...this.#sessions.values()];
	}

	/** Registers a client session; `sid` defaults to a fresh one. Throws SessionLimitError when full. */
	openSession(kind: SessionKind, profile: RelayProfile, sink: ClientSink, sid?: string): Session {
		if (this.#sessions.size >= MAX_RELAY_SESSIONS) throw new SessionLimitError();
		const session = new Session(sid ?? `${kind}-${this.#nextSid++}`, kind, profile, sink);
		this.#sessions.set(session.sid, session);
		return session;
	}

	/** Restores a session's handshake (a joined relay's client) and replays it if a tab is paired. */
	seed(session: Session, handshake: Handshake): void {
		const c = classify(handshake.initialize);
		if (c.kind !== 'request' || c.method !== 'initialize') return;
		session.initialize = handshake.initialize as Message;
		session.initialized = handshake.initialized;
		if (this.#tab) this.#replay(session);
	}

	/** Forgets a session and tells the tab; answers nothing more to it. */
	closeSession(sid: string, reason = 'client disconnected'): void {
		const session = this.#sessions.get(sid);
		if (!session) return;
		this.#sessions.delete(sid);
		this.#atTab -= session.sent;
		session.sent = 0;
		this.#ready = this.#ready.filter((s) => s !== session);
		if (this.#tab && session.opened) this.#send({ t: 'close', sid, reason });
		this.#pump();
	}

	/**
	 * Handles what a client sent: one message, or a batch (an array). Never throws: a message it
	 * cannot handle is answered with a JSON-RPC error (and logged), and every other client goes on.
	 */
	fromClient(sid: string, value: unknown): void {
		const session = this.#sessions.get(sid);
		if (!session) return;
		try {
			this.#fromClient(session, value);
		} catch (e) {
			this.#opts.log(`could not handle a message from ${sid}: ${(e as Error).message}`);
			const ids = (Array.isArray(value) ? value : [value]).flatMap((item) => {
				const c = classify(item);
				return c.kind === 'request' ? [c.id] : [];
			});
			for (const id of ids) {
				session.pending.delete(idKey(id));
				session.sink.deliver(errorResponse(id, RELAY_ERROR.internal, `engram-relay could not handle this request: ${(e as Error).message}`));
			}
		}
	}

	#fromClient(session: Session, value: unknown): void {
		const refusal = vet(value);
		if (refusal !== undefined) {
			if (refusal === null) return this.#opts.log(`dropped a notification from ${session.sid}: nested too deep`);
			return session.sink.deliver(refusal);
		}
		if (!Array.isArray(value)) return this.#fromClientOne(session, value);
		if (value.length === 0) return session.sink.deliver(errorResponse(undefined, RELAY_ERROR.invalidRequest, 'Invalid Request: empty batch'));
		const batch = new Batch();
		for (const item of value) {
			const c = classify(item);
			if (c.kind === 'request') batch.expect(c.id);
			else if (c.kind === 'invalid' && c.id !== undefined) batch.expect(c.id);
		}
		for (const item of value) this.#fromClientOne(session, item, batch);
	}

	#fromClientOne(session: Session, value: unknown, batch?: Batch): void {
		const c = classify(value);
		const m = value as Message;
		if (c.kind === 'invalid') {
			const err = errorResponse(c.id, RELAY_ERROR.invalidRequest, `Invalid Request: ${c.reason}`);
			return c.id === undefined ? session.sink.deliver(err) : session.respond(c.id, err, batch);
		}
		if (c.kind === 'request' && c.method === 'initialize') {
			session.initialize = m;
			session.initialized = false;
		}
		if (c.kind === 'notification' && c.method === 'notifications/initialized') session.initialized = true;
		if (c.kind === 'notification' && c.method === 'notifications/cancelled' && this.#cancel(session, m)) return;
		if (this.#tab) {
			if (c.kind === 'request') {
				if (session.pending.has(idKey(c.id)))
					return session.respond(
						c.id,
						errorResponse(
							c.id,
							RELAY_ERROR.invalidRequest,
							`Invalid Request: id ${JSON.stringify(c.id)} is already in flight; use a new id for each request`,
						),
						batch,
					);
				// One client cannot hold the tab's engine for every other: at most MAX_IN_FLIGHT of its calls wait.
				if (session.pending.size >= MAX_IN_FLIGHT) return session.respond(c.id, this.#busy(session, c.id), batch);
				const key = idKey(c.id);
				session.pending.set(key, { id: c.id, batch, method: c.method, m, sent: false });
				session.queue.push(key);
				this.#schedule(session);
				return this.#pump();
			}
			this.#forward(session, m);
			// A cancel of a request at the tab freed its place: the next waiting one goes now, after it.
			return this.#pump();
		}
		if (c.kind !== 'request') return;
		if (c.method !== 'ping' && c.method !== 'initialize' && this.#hold(session, m, batch)) return;
		session.respond(c.id, this.#answerAlone(c.id, c.method, m), batch);
	}

	/** The relay's own answer while no tab is paired. */
	#answerAlone(id: Id, method: string, m: Message): Message {
		if (method === 'ping') return resultResponse(id, {});
		if (method === 'initialize') return resultResponse(id, this.#handshake(m));
		return errorResponse(id, RELAY_ERROR.notConnected, this.notConnectedMessage());
	}

	/** The error text clients see while no tab is paired. */
	notConnectedMessage(): string {
		return (
			`Engram is not connected: no Engram tab is paired with engram-relay on port ${this.#opts.port}. ` +
			`Open the Engram app (${this.#opts.appUrl}) with its pairing link (\`npx engram-relay --pairing-link\` ` +
			`in the Engram folder prints it), keep that tab open, then retry.`
		);
	}

	#handshake(m: Message): Record<string, unknown> {
		const asked = (m.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
		const protocolVersion = typeof asked === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : LATEST_PROTOCOL_VERSION;
		return {
			protocolVersion,
			capabilities: { tools: { listChanged: true } },
			serverInfo: { name: 'engram', version: this.#opts.version },
			instructions:
				'Engram is long-term memory that lives in the user’s browser. The Engram tab is not paired with ' +
				'engram-relay yet, so tool calls fail until the user opens it; the tool list then updates itself.',
		};
	}

	/**
	 * A client cancelled one of its requests. Still waiting on the relay (its turn, or a tab): it is
	 * dropped, never sent nor answered, and its batch is answered without it (true: nothing more to do). At the tab: its slot is freed, since the tab's server sends no
	 * answer to a cancelled request, and the notification goes on to the tab (false).
	 */
	#cancel(session: Session, m: Message): boolean {
		const requestId = (m.params as { requestId?: unknown } | undefined)?.requestId;
		if (typeof requestId !== 'string' && typeof requestId !== 'number') return false;
		const key = idKey(requestId);
		// Held for a tab that has not paired yet (TAB_GRACE_MS): it never left the relay either.
		const held = this.#held.findIndex((h) => h.session === session && idKey(h.m.id as Id) === key);
		if (held >= 0) {
			const [{ batch }] = this.#held.splice(held, 1);
			session.forget(requestId, batch);
			return true;
		}
		const entry = session.pending.get(key);
		if (!entry) return false;
		session.pending.delete(key);
		if (session.pending.size === 0) session.overloaded = false;
		if (!entry.sent) {
			session.queue = session.queue.filter((k) => k !== key);
			session.forget(entry.id, entry.batch);
			return true;
		}
		this.#settled(session, entry);
		return false;
	}

	/** Puts `session` in the turn order when it has requests waiting and room at the tab. */
	#schedule(session: Session): void {
		if (session.queue.length === 0 || session.sent >= TAB_IN_FLIGHT_PER_SESSION || this.#ready.includes(session)) return;
		if (this.#sessions.get(session.sid) === session) this.#ready.push(session);
	}

	/** Sends waiting requests to the tab while there is room, one per session in turn. */
	#pump(): void {
		while (this.#tab && this.#atTab < TAB_IN_FLIGHT && this.#ready.length > 0) {
			const session = this.#ready.shift()!;
			const key = session.queue.shift();
			const entry = key === undefined ? undefined : session.pending.get(key);
			if (entry && !entry.sent) this.#sendPending(session, entry);
			this.#schedule(session);
		}
	}

	#sendPending(session: Session, entry: PendingRequest): void {
		const m = entry.m!;
		entry.m = undefined;
		entry.sent = true;
		session.sent++;
		this.#atTab++;
		try {
			this.#forward(session, m);
		} catch (e) {
			// Vetted on the way in, so this should not happen; the request is answered either way.
			session.pending.delete(idKey(entry.id));
			this.#settled(session, entry);
			session.respond(
				entry.id,
				errorResponse(entry.id, RELAY_ERROR.internal, `engram-relay could not forward this request: ${(e as Error).message}`),
				entry.batch,
			);
		}
	}

	/** A sent request was answered (or cancelled): its slot at the tab is free. */
	#settled(session: Session, entry: PendingRequest): void {
		if (!entry.sent) return;
		entry.sent = false;
		session.sent--;
		this.#atTab--;
		this.#schedule(session);
	}

	#forward(session: Session, m: Message): void {
		if (!session.opened) {
			session.opened = true;
			this.#send({ t: 'open', session: session.info() });
		}
		this.#send({ t: 'msg', sid: session.sid, m });
	}

	/** Pairs a tab, replacing any previous one, and re-initialises every known session on it. */
	attachTab(link: TabLink): void {
		if (this.#tab) {
			const old = this.#tab;
			this.detachTab(old);
			old.close(RELAY_CLOSE.superseded, 'another Engram tab paired with this relay');
		}
		this.#tab = link;
		this.#send({ t: 'welcome', relay: { version: this.#opts.version, port: this.#opts.port } });
		for (const session of this.#sessions.values()) this.#replay(session);
		this.#opts.log('Engram tab paired');
		this.#opts.onTabChange?.(true);
		this.#releaseHeld();
	}

	/** Replays a session's handshake to the new tab, then tells the client its tools changed. */
	#replay(session: Session): void {
		if (!session.initialize) return;
		const id = `engram-relay:replay:${this.#nextReplay++}`;
		session.replayIds.add(idKey(id));
		this.#forward(session, { ...session.initialize, id });
		if (!session.initialized) return;
		this.#send({
			t: 'msg',
			sid: session.sid,
			m: { jsonrpc: '2.0', method: 'notifications/initialized' },
		});
		session.sink.deliver({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
	}

	/** Unpairs `link` if it is the current tab; fails the calls it left unanswered. */
	detachTab(link: TabLink): void {
		if (this.#tab !== link) return;
		this.#tab = undefined;
		this.#atTab = 0;
		this.#ready = [];
		for (const session of this.#sessions.values()) {
			session.opened = false;
			session.replayIds.clear();
			this.#failPending(session, 'The Engram tab went away (reloaded or closed)');
		}
		this.#startGrace();
		this.#opts.log('Engram tab disconnected');
		this.#opts.onTabChange?.(false);
	}

	/**
	 * Answers every call still waiting for the tab, truthfully (see `lostAnswer`): for a relay that
	 * is shutting down, before it closes its clients' connections.
	 */
	failAllPending(why: string): void {
		this.#graceUntil = 0;
		this.#releaseHeld();
		this.#ready = [];
		this.#atTab = 0;
		for (const session of this.#sessions.values()) this.#failPending(session, why);
	}

	/**
	 * Answers every request of `session` still waiting: one at the tab may have been applied
	 * (`lostAnswer`); one still waiting its turn on the relay never left it, so nothing was done.
	 */
	#failPending(session: Session, why: string): void {
		const lost = [...session.pending.values()];
		session.pending.clear();
		session.queue = [];
		session.sent = 0;
		for (const { id, batch, method, sent } of lost) session.respond(id, sent ? lostAnswer(id, method, why) : notSentAnswer(id, why), batch);
	}

	/** Handles one WebSocket frame from the tab. */
	fromTab(link: TabLink, text: string): void {
		if (this.#tab !== link) return;
		const env = parseEnvelope(FromTabSchema, text);
		if (env instanceof Error) return this.#opts.log(`ignored a frame from the tab: ${env.message}`);
		if (env.t === 'hello') return this.#opts.log(`tab is ${env.app.name} ${env.app.version}`);
		const session = this.#sessions.get(env.sid);
		if (!session) return;
		if (nestingExceeds(env.m)) {
			const c = classify(env.m);
			this.#opts.log(`dropped a message from the tab for ${session.sid}: nested too deep`);
			if (c.kind !== 'response') return;
			const tooDeep = errorResponse(
				c.id,
				RELAY_ERROR.internal,
				`The answer is nested more than ${MAX_MESSAGE_DEPTH} levels deep; engram-relay does not forward it.`,
			);
			return this.#toClient(session, tooDeep, 0);
		}
		this.#toClient(session, env.m as Message, text.length, env.rel);
	}

	#toClient(session: Session, m: Message, size: number, rel?: Id): void {
		const c = classify(m);
		if (c.kind !== 'response') return session.sink.deliver(m, rel);
		const key = idKey(c.id);
		if (session.replayIds.delete(key)) {
			if ('error' in m) this.#opts.log(`re-initialising ${session.sid} failed: ${JSON.stringify(m.error)}`);
			return;
		}
		const entry = session.pending.get(key);
		// A request still waiting on the relay has no answer from the tab yet: this one is a late
		// answer to an earlier, cancelled request with the same id, and the client no longer wants it.
		if (entry && !entry.sent) return;
		session.pending.delete(key);
		if (entry) this.#settled(session, entry);
		if (session.pending.size === 0) session.overloaded = false;
		const out = size > MAX_FORWARD_CHARS ? this.#tooLarge(c.id, size) : m;
		if (entry) session.respond(entry.id, out, entry.batch);
		else session.sink.deliver(out);
		this.#pump();
	}

	/** The refusal of a request over the session's MAX_IN_FLIGHT (logged once per burst). */
	#busy(session: Session, id: Id): Message {
		if (!session.overloaded) this.#opts.log(`${session.sid} has ${MAX_IN_FLIGHT} requests waiting for the tab: refusing more until they are answered`);
		session.overloaded = true;
		return errorResponse(
			id,
			RELAY_ERROR.internal,
			`Too many requests in flight: this client already has ${MAX_IN_FLIGHT} requests waiting for Engram (the limit per client). Nothing was done for this one; wait for some answers, then resend it.`,
		);
	}

	#tooLarge(id: Id, size: number): Message {
		const mib = (size / 1024 / 1024).toFixed(1);
		return errorResponse(
			id,
			RELAY_ERROR.internal,
			`The answer is too large to forward (${mib} MiB; the limit is 8 MiB): ask for fewer results or shorter content.`,
		);
	}

	#send(envelope: ToTab): void {
		if (!this.#tab) return;
		// Messages were vetted (depth) on the way in, so this cannot overflow; it is guarded anyway.
		const text = safeStringify(envelope);
		if (text instanceof Error) throw text;
		this.#tab.send(text);
	}
}

/** The answer to a request the tab never received: nothing was done, so it can simply be resent. */
function notSentAnswer(id: Id, why: string): Message {
	return errorResponse(
		id,
		RELAY_ERROR.notConnected,
		`${why} before this request was sent to it (it was waiting its turn behind other requests); nothing was done, so resend it.`,
	);
}

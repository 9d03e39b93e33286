/**
 * The page's end of `engram-relay`: one WebSocket to `ws://127.0.0.1:PORT/` (subprotocol `mcp`)
 * carrying every desktop client the relay serves, each on its own `RelaySessionTransport` (and so
 * its own McpServer and profile). The token never crosses the wire: the tab answers the relay's
 * challenge with an HMAC (WebCrypto) and serves nothing until the relay has proved it knows the
 * token too (relay-protocol.ts). Reconnects with backoff (at most 2 s apart) when the relay
 * restarts or is not running yet; stops for good only when another tab took over.
 *
 * Pairing comes from the user (settings) or from a link `/#relay=ws://127.0.0.1:PORT&token=TOKEN`,
 * and is accepted only for a loopback relay address: a link must never point the app elsewhere.
 */
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MemoryError } from '../../core/errors';
import { splitPairingHash } from '../pairing-link';
import { invalidRequestAnswer } from './guards';
import {
	ChallengeSchema,
	RELAY_AUTH_VERSION,
	RELAY_CLOSE,
	RELAY_SUBPROTOCOL,
	RelayProofSchema,
	ToTabSchema,
	authMessage,
	parseEnvelope,
	type Auth,
	type FromTab,
	type SessionInfo,
} from './relay-protocol';

/** A relay to pair with: its loopback WebSocket address and the token it printed. */
export interface RelayPairing {
	/** `ws://127.0.0.1:PORT` (also `localhost`, `[::1]`). */
	url: string;
	token: string;
}

const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];
const TOKEN_RULE = /^[A-Za-z0-9._~-]{16,256}$/;

/**
 * Validates a relay address: ws:// or wss:// on a loopback host, no path, query or credentials.
 * Returns it normalised (`ws://127.0.0.1:17373`); throws MemoryError invalid_input naming `relay`.
 */
export function parseRelayUrl(input: string): string {
	let url: URL;
	try {
		url = new URL(input.trim());
	} catch {
		// Not echoed: it may be the token, pasted into the wrong field.
		throw new MemoryError('invalid_input', 'relay address must be a URL such as ws://127.0.0.1:17373');
	}
	if (url.protocol !== 'ws:' && url.protocol !== 'wss:') throw new MemoryError('invalid_input', `relay ${shown(url)} must start with ws://`);
	if (!LOOPBACK.includes(url.hostname))
		throw new MemoryError(
			'invalid_input',
			`relay host ${JSON.stringify(url.hostname)} is refused: the relay must run on this machine (127.0.0.1, localhost or [::1])`,
		);
	if (url.username || url.password || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash)
		throw new MemoryError('invalid_input', `relay ${shown(url)} must be ws://HOST:PORT with nothing after the port`);
	return `${url.protocol}//${url.host}`;
}

/**
 * A refused address as an error message shows it: without a user, password, query or fragment (a
 * whole pairing link pasted as the address would otherwise put its token on the screen).
 */
function shown(url: URL): string {
	const hidden = url.username || url.password || url.search || url.hash ? ' (…)' : '';
	return JSON.stringify(`${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`) + hidden;
}

/** Validates a pairing (address and token); throws MemoryError invalid_input naming the field. */
export function validatePairing(url: string, token: string): RelayPairing {
	if (!TOKEN_RULE.test(token)) throw new MemoryError('invalid_input', 'token must be the 16–256 character token engram-relay printed');
	return { url: parseRelayUrl(url), token };
}

/**
 * Why a pairing link for `localhost` or `[::1]` is refused: engram-relay listens on 127.0.0.1 only
 * and writes its links so, while another program could listen on [::1] at the same port (and the
 * browser may try `localhost` there first): the dialog would then show the relay's own port.
 */
const LINK_HOST_RULE =
	'a pairing link must point at ws://127.0.0.1:PORT, as engram-relay writes it (localhost and [::1] can reach another program on the same port); pair by hand on the Connections screen for another address';

/**
 * Reads a pairing link's hash (`#relay=ws://127.0.0.1:PORT&token=TOKEN`). Returns undefined when
 * the hash is not a pairing link; otherwise the pairing or the error refusing it, and `rest`: the
 * hash with the pairing removed (so the token does not stay in the address bar or history). Only
 * 127.0.0.1 is accepted in a link (LINK_HOST_RULE); the form takes localhost and [::1] too.
 */
export function readPairingHash(hash: string): { pairing?: RelayPairing; error?: MemoryError; rest: string } | undefined {
	const link = splitPairingHash(hash);
	if (!link) return undefined;
	const { relay, token, rest } = link;
	try {
		const pairing = validatePairing(relay, token);
		if (new URL(pairing.url).hostname !== '127.0.0.1') return { error: new MemoryError('invalid_input', LINK_HOST_RULE), rest };
		return { pairing, rest };
	} catch (e) {
		return { error: e as MemoryError, rest };
	}
}

/**
 * Why the last attempt failed, for the UI to act on (its words are in `last_error`):
 * `not_running` nothing answered (or a relay refused the upgrade without saying why: an
 * engram-relay older than the handshake does); `origin_refused` the same, from a page whose
 * origin the relay only accepts with --allow-origin; `wrong_token` the relay refused this tab's
 * proof; `not_relay` the program on the port did not prove it knows the token; `version` the two
 * speak different handshakes; `closed` the relay closed a working connection; `superseded`.
 */
export type RelayFailure = 'not_running' | 'origin_refused' | 'wrong_token' | 'not_relay' | 'version' | 'closed' | 'superseded';

/** The relay connection's state, for the UI. */
export interface RelayState {
	status: 'connecting' | 'connected' | 'retrying' | 'superseded' | 'stopped';
	url: string;
	/** Desktop client sessions open through the relay now. */
	sessions: number;
	/** Failed attempts since the last success. */
	attempts: number;
	/** When the next attempt happens (status 'retrying'). */
	retry_at?: string;
	/** Why the last attempt failed, in words a person can act on; never contains the token. */
	last_error?: string;
	reason?: RelayFailure;
	relay_version?: string;
	connected_at?: string;
}

/** The server end of one desktop client session on the relay socket. */
export class RelaySessionTransport implements Transport {
	onmessage?: (message: JSONRPCMessage) => void;
	onerror?: (error: Error) => void;
	onclose?: () => void;
	#closed = false;
	#started = false;
	#early: unknown[] = [];

	constructor(
		readonly info: SessionInfo,
		private readonly sendEnvelope: (env: FromTab) => void,
	) {}

	/** Starts delivery; messages that arrived before (while the server was being built) go first. */
	async start(): Promise<void> {
		this.#started = true;
		const early = this.#early;
		this.#early = [];
		for (const m of early) this.receive(m);
	}

	/** Sends to the desktop client; `relatedRequestId` lets the relay route progress over HTTP. */
	async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
		if (this.#closed) throw new Error(`relay session ${this.info.sid} is closed`);
		this.sendEnvelope({ t: 'msg', sid: this.info.sid, m: message, rel: options?.relatedRequestId });
	}

	/** Ends the session on this side (the relay keeps the client; a reconnect re-opens it). */
	async close(): Promise<void> {
		if (this.#closed) return;
		this.#closed = true;
		this.onclose?.();
	}

	/** Delivers one message from the client; a malformed one goes to `onerror` (a request is answered with Invalid Request). */
	receive(m: unknown): void {
		if (this.#closed) return;
		if (!this.#started) return void this.#early.push(m);
		const parsed = JSONRPCMessageSchema.safeParse(m);
		if (parsed.success) return this.onmessage?.(parsed.data);
		this.onerror?.(new Error(`invalid JSON-RPC message from ${this.info.sid}: ${parsed.error.issues[0]?.message}`));
		// A request the server never sees still gets its answer, or the client would wait for ever.
		const answer = invalidRequestAnswer(m);
		if (answer) void this.send(answer).catch(() => {});
	}
}

/** The WebSocket constructor (the browser's, or `ws` in Node tests). */
export type WebSocketConstructor = new (url: string, protocols: string) => WebSocket;

/** What a RelayClient needs. */
export interface RelayClientOptions {
	pairing: RelayPairing;
	/** A desktop client session opened: connect a server to the transport. */
	onSession(transport: RelaySessionTransport): void;
	/** Called after every state change. */
	onState?(state: RelayState): void;
	app?: { name: string; version: string };
	WebSocket?: WebSocketConstructor;
	/** First retry delay and cap, ms (RELAY_BACKOFF). */
	backoff?: { initialMs: number; maxMs: number };
	/** The page's origin, to word a refusal (default: `location.origin`). */
	origin?: string;
}

/**
 * Retry delays, ms. The cap is low so a tab is back within ~2 s of the relay's return even after
 * a long outage (a desktop client restarts the relay whenever it launches); a refused connection
 * on loopback costs next to nothing.
 */
export const RELAY_BACKOFF = { initialMs: 500, maxMs: 2_000 };

/** How long the relay has to finish the handshake after the socket opens. */
const HANDSHAKE_MS = 10_000;

/** What to do when the two sides speak different handshakes. */
const UPDATE_OLDER = 'update the older of the two: the relay (git pull and npm install in its checkout) or this app (reload it)';

/** `ws://127.0.0.1:17373` → `127.0.0.1:17373`, as the relay prints it. */
const hostOf = (url: string) => url.replace(/^wss?:\/\//, '');

/** The relay accepts these page origins without --allow-origin (relay/checks.ts). */
const isLoopbackPage = (origin: string) => /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/.test(origin);

const hex = (bytes: ArrayBuffer | Uint8Array) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
const unhex = (text: string) => new Uint8Array(text.match(/../g)?.map((h) => parseInt(h, 16)) ?? []);
const utf8 = (text: string) => new TextEncoder().encode(text);

/** One relay connection with reconnection. Call `start()`, then `stop()` when unpairing. */
export class RelayClient {
	readonly #opts: RelayClientOptions;
	readonly #sessions = new Map<string, RelaySessionTransport>();
	#ws?: WebSocket;
	#timer?: ReturnType<typeof setTimeout>;
	#state: RelayState;
	#key?: Promise<CryptoKey>;

	constructor(opts: RelayClientOptions) {
		this.#opts = opts;
		this.#state = { status: 'connecting', url: opts.pairing.url, sessions: 0, attempts: 0 };
	}

	/** The current state (a copy). */
	get state(): RelayState {
		return { ...this.#state };
	}

	/** Starts connecting. */
	start(): void {
		this.#connect();
	}

	/** Retries now instead of waiting for the backoff (e.g. when the page comes back online). */
	reconnectNow(): void {
		if (this.#state.status !== 'retrying' && this.#state.status !== 'superseded') return;
		clearTimeout(this.#timer);
		this.#connect();
	}

	/** Closes the socket and every session; no more reconnects. */
	stop(): void {
		clearTimeout(this.#timer);
		this.#update({ status: 'stopped', retry_at: undefined });
		const ws = this.#ws;
		this.#ws = undefined;
		ws?.close(1000, 'unpaired');
		this.#closeSessions();
	}

	#connect(): void {
		const { url } = this.#opts.pairing;
		const Ctor = this.#opts.WebSocket ?? globalThis.WebSocket;
		this.#update({ status: 'connecting', retry_at: undefined });
		let ws: WebSocket;
		try {
			// No token in the URL: it would reach whoever holds the port, and show in the console.
			ws = new Ctor(`${url}/`, RELAY_SUBPROTOCOL);
		} catch (e) {
			return this.#retry(`Cannot open ${hostOf(url)}: ${(e as Error).message}`);
		}
		this.#ws = ws;
		let stage: 'challenge' | 'proof' | 'ready' = 'challenge';
		/** Why this side closed the socket, when it did (the close event reports it). */
		let refusal: string | undefined;
		let relayNonce = '';
		let tabNonce = '';
		let chain = Promise.resolve();
		const at = hostOf(url);
		const notRelay = `The program listening at ${at} did not prove it knows the pairing token: it is not your engram-relay, or the relay's token changed (pair again with the link \`npx engram-relay --pairing-link\` prints)`;
		let reason: RelayFailure = 'not_relay';
		const refuse = (why: string, because: RelayFailure = 'not_relay') => {
			refusal = why;
			reason = because;
			ws.close(RELAY_CLOSE.unauthorized, 'the relay did not prove it knows the token');
		};
		const handshake = setTimeout(() => stage !== 'ready' && refuse(notRelay), HANDSHAKE_MS);
		const step = async (text: string) => {
			if (this.#ws !== ws || refusal) return;
			if (stage === 'ready') return this.#onFrame(text);
			if (stage === 'challenge') {
				const challenge = parseEnvelope(ChallengeSchema, text);
				if (challenge instanceof Error) return refuse(notRelay);
				if (challenge.v !== RELAY_AUTH_VERSION)
					return refuse(
						`engram-relay at ${at} speaks handshake version ${challenge.v} and this app version ${RELAY_AUTH_VERSION} — ${UPDATE_OLDER}`,
						'version',
					);
				relayNonce = challenge.nonce;
				tabNonce = hex(crypto.getRandomValues(new Uint8Array(32)));
				const key = await this.#hmacKey();
				const proof = await crypto.subtle.sign('HMAC', key, utf8(authMessage('peer', 'tab', relayNonce, tabNonce)));
				stage = 'proof';
				const auth: Auth = {
					t: 'auth',
					v: RELAY_AUTH_VERSION,
					role: 'tab',
					nonce: tabNonce,
					proof: hex(proof),
				};
				if (ws.readyState === 1) ws.send(JSON.stringify(auth));
				return;
			}
			const proof = parseEnvelope(RelayProofSchema, text);
			if (proof instanceof Error) return refuse(notRelay);
			const ok = await crypto.subtle.verify('HMAC', await this.#hmacKey(), unhex(proof.proof), utf8(authMessage('relay', 'tab', relayNonce, tabNonce)));
			if (!ok) return refuse(notRelay);
			if (this.#ws !== ws) return;
			stage = 'ready';
			clearTimeout(handshake);
			this.#update({
				status: 'connected',
				attempts: 0,
				last_error: undefined,
				reason: undefined,
				connected_at: new Date().toISOString(),
			});
			const app = this.#opts.app ?? { name: 'engram', version: '0' };
			this.#sendRaw(ws, { t: 'hello', app });
		};
		// The close event that follows says everything; without a handler Node's `ws` would throw.
		ws.onerror = () => {};
		let opened = false;
		ws.onopen = () => void (opened = true);
		ws.onmessage = (ev: MessageEvent) => {
			if (this.#ws !== ws || typeof ev.data !== 'string') return;
			const text = ev.data;
			// In order, one at a time: the handshake's crypto is asynchronous.
			chain = chain.then(() => step(text)).catch((e: Error) => refuse(`${notRelay} (${e.message})`));
		};
		ws.onclose = (ev: CloseEvent) => {
			clearTimeout(handshake);
			if (this.#ws !== ws) return;
			this.#ws = undefined;
			this.#closeSessions();
			if (ev.code === RELAY_CLOSE.superseded)
				return this.#update({
					status: 'superseded',
					last_error: 'another Engram tab paired with this relay',
					reason: 'superseded',
				});
			if (ev.code === RELAY_CLOSE.shutdown) this.#state.attempts = 0;
			const [why, because]: [string, RelayFailure] = refusal ? [refusal, reason] : this.#closeReason(at, ev, stage, opened);
			this.#retry(why, because);
		};
	}

	/** The pairing token as an HMAC-SHA256 key (WebCrypto; the page must be a secure context). */
	#hmacKey(): Promise<CryptoKey> {
		if (!globalThis.crypto?.subtle) return Promise.reject(new Error('WebCrypto is unavailable: open Engram at http://127.0.0.1 or over https'));
		this.#key ??= crypto.subtle.importKey('raw', utf8(this.#opts.pairing.token), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
		return this.#key;
	}

	/**
	 * Words for a close this side did not ask for. A browser tells a page nothing about an upgrade
	 * the relay refused (403 for a foreign Origin or Host, 401 from a relay older than the
	 * handshake): it looks like a port where nothing listens, so that message names the likely
	 * causes and the command that fixes each.
	 */
	#closeReason(at: string, ev: CloseEvent, stage: 'challenge' | 'proof' | 'ready', opened: boolean): [string, RelayFailure] {
		if (stage === 'ready') return [`The relay closed the connection${ev.reason ? `: ${ev.reason}` : ''}`, 'closed'];
		if (ev.code === RELAY_CLOSE.unauthorized && stage === 'proof')
			return [
				`engram-relay at ${at} refused this tab’s pairing token (wrong token: the relay’s token changed, or the pairing is for another relay) — pair again with the link \`npx engram-relay --pairing-link\` prints`,
				'wrong_token',
			];
		// Its reason is not shown: before its proof, whatever holds the port could word it ("run …").
		if (ev.code === RELAY_CLOSE.protocol) return [`engram-relay at ${at} does not speak this app’s handshake — ${UPDATE_OLDER}`, 'version'];
		if (opened) return [`The program listening at ${at} closed the connection during the handshake: is it engram-relay?`, 'not_relay'];
		const origin = this.#opts.origin ?? globalThis.location?.origin;
		if (origin && !isLoopbackPage(origin))
			return [
				`No relay is listening at ${at}, or it refused this page’s origin (${origin}) — start it with \`npx engram-relay --allow-origin ${origin}\``,
				'origin_refused',
			];
		return [
			`No relay is listening at ${at} — start it with \`npx engram-relay\` (if one is running, its log says why it refused this tab: an engram-relay older than this app does, so update it)`,
			'not_running',
		];
	}

	#retry(why: string, reason: RelayFailure = 'not_running'): void {
		const { initialMs, maxMs } = this.#opts.backoff ?? RELAY_BACKOFF;
		const attempts = this.#state.attempts + 1;
		// Full jitter in [½d, d]: tabs of several users' relays do not retry in lockstep.
		const d = Math.min(maxMs, initialMs * 2 ** (attempts - 1));
		const delay = d / 2 + Math.random() * (d / 2);
		this.#update({
			status: 'retrying',
			attempts,
			last_error: why,
			reason,
			retry_at: new Date(Date.now() + delay).toISOString(),
		});
		this.#timer = setTimeout(() => this.#connect(), delay);
	}

	#onFrame(text: string): void {
		const env = parseEnvelope(ToTabSchema, text);
		if (env instanceof Error) return this.#update({ last_error: env.message });
		if (env.t === 'welcome') return this.#update({ relay_version: env.relay.version });
		if (env.t === 'open') return this.#open(env.session);
		const session = this.#sessions.get(env.sid);
		if (env.t === 'msg') session?.receive(env.m);
		else void session?.close();
	}

	#open(info: SessionInfo): void {
		void this.#sessions.get(info.sid)?.close();
		const ws = this.#ws!;
		const transport = new RelaySessionTransport(info, (env) => this.#sendRaw(ws, env));
		// Set before the server connects: the SDK's connect() chains a handler already present.
		transport.onclose = () => {
			if (this.#sessions.get(info.sid) === transport) this.#sessions.delete(info.sid);
			this.#update({ sessions: this.#sessions.size });
		};
		this.#sessions.set(info.sid, transport);
		this.#update({ sessions: this.#sessions.size });
		this.#opts.onSession(transport);
	}

	#sendRaw(ws: WebSocket, env: FromTab): void {
		if (ws.readyState === 1) ws.send(JSON.stringify(env));
	}

	#closeSessions(): void {
		const all = [...this.#sessions.values()];
		this.#sessions.clear();
		for (const t of all) void t.close();
		this.#update({ sessions: 0 });
	}

	#update(patch: Partial<RelayState>): void {
		this.#state = { ...this.#state, ...patch };
		this.#opts.onState?.(this.state);
	}
}

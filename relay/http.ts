/**
 * Streamable HTTP at `http://127.0.0.1:PORT/mcp` for MCP clients that speak HTTP. Each HTTP
 * session (the SDK's `StreamableHTTPServerTransport`, one per `mcp-session-id`) is one hub
 * session with its own profile (`/mcp?profile=automem`, default the relay's --profile). Every
 * request first passes the Host and Origin checks (DNS rebinding) and the bearer token.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { MAX_RELAY_SESSIONS, RELAY_PROFILES, isRelayProfile, type RelayProfile } from '../src/mcp/transports/relay-protocol';
import { bearerToken, checkHost, checkOrigin, isLoopbackOrigin, tokenMatches } from './checks';
import { SessionLimitError, type Hub } from './hub';
import { vet, type Id, type Message } from './jsonrpc';
import { NOT_UTF8, decodeUtf8 } from './stdio';

/** Largest request body: a 500-memory batch of long memories fits. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * Request bodies held at once, across every HTTP request being read or waiting for its answer: a
 * few of the largest fit. Above it a request gets 503 at once, so one client sending many large
 * requests in parallel cannot run the relay (and with it every other client) out of memory.
 */
export const MAX_BODY_BYTES_IN_FLIGHT = 4 * MAX_BODY_BYTES;

/**
 * HTTP sessions kept at once: all the relay's sessions (MAX_RELAY_SESSIONS), of which HTTP ones
 * are closed least recently used first, since clients that never send DELETE would pile up.
 */
export const MAX_HTTP_SESSIONS = MAX_RELAY_SESSIONS;

/** What the HTTP side checks against. */
export interface HttpOptions {
	port: number;
	token: string;
	allowOrigins: readonly string[];
	profile: RelayProfile;
	log: (line: string) => void;
	/** Called for each request that passed the token check (the connection cap trusts its socket). */
	onAuthorized?: (req: IncomingMessage) => void;
}

const CORS_HEADERS = {
	'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
	'Access-Control-Allow-Headers': 'Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID',
	'Access-Control-Expose-Headers': 'Mcp-Session-Id, WWW-Authenticate',
	'Access-Control-Max-Age': '600',
};

/** Serves /mcp for one hub. */
export class HttpSessions {
	readonly #hub: Hub;
	readonly #opts: HttpOptions;
	readonly #transports = new Map<string, StreamableHTTPServerTransport>();
	readonly #hubSids = new WeakMap<StreamableHTTPServerTransport, string>();
	/** Answers being handed to the SDK, so closing can wait for them. */
	readonly #sending = new Set<Promise<void>>();
	/** Bytes of the request bodies read and not yet answered (MAX_BODY_BYTES_IN_FLIGHT). */
	#bodyBytes = 0;
	#next = 1;

	constructor(hub: Hub, opts: HttpOptions) {
		this.#hub = hub;
		this.#opts = opts;
	}

	/** The http server's 'request' listener. */
	handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const refusal = checkHost(req.headers.host, this.#opts.port) ?? checkOrigin(req.headers.origin, this.#opts.allowOrigins);
		if (refusal) return reply(res, refusal.status, refusal.message);
		this.#cors(req, res);
		if (url.pathname !== '/mcp' && url.pathname !== '/mcp/') return reply(res, 404, `no endpoint at ${url.pathname}: MCP is served at /mcp`);
		if (req.method === 'OPTIONS') return void res.writeHead(204).end();
		if (!tokenMatches(bearerToken(req.headers.authorization), this.#opts.token)) {
			res.setHeader('WWW-Authenticate', 'Bearer realm="engram-relay"');
			return reply(res, 401, 'missing or wrong bearer token: send "Authorization: Bearer <relay token>"');
		}
		this.#opts.onAuthorized?.(req);
		const sid = req.headers['mcp-session-id'];
		const existing = typeof sid === 'string' ? this.#transports.get(sid) : undefined;
		if (typeof sid === 'string' && !existing)
			return reply(res, 404, 'Session not found (engram-relay restarted, or the session was closed): initialize a new session', -32001);
		if (!existing && req.method !== 'POST') return reply(res, 400, 'Bad Request: no mcp-session-id; initialize with a POST first');
		const profile = url.searchParams.get('profile') ?? this.#opts.profile;
		if (!existing && !isRelayProfile(profile)) return reply(res, 400, `profile ${JSON.stringify(profile)} must be one of ${RELAY_PROFILES.join(', ')}`);
		// The body is read and vetted here, before the SDK's validator (which recurses) sees it.
		let body: unknown;
		if (req.method === 'POST') {
			const read = await this.#readJson(req, res);
			if ('status' in read) return reply(res, read.status, read.message, read.code);
			const refusal = vet(read.value);
			if (refusal !== undefined) {
				if (refusal === null) return reply(res, 400, 'the message is nested too deep', -32600);
				return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(refusal));
			}
			body = read.value;
		}
		if (existing) {
			// Map order doubles as recency: the least recently used session is evicted first.
			this.#transports.delete(sid as string);
			this.#transports.set(sid as string, existing);
			return existing.handleRequest(req, res, body);
		}
		await this.#startSession(profile as RelayProfile, req, res, body);
	};

	/** A POST without a session: becomes a session if the SDK accepts it as an initialize. */
	async #startSession(profile: RelayProfile, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
		const hubSid = `http-${this.#next++}`;
		const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
			sessionIdGenerator: () => randomUUID(),
			maxRequestBodySize: MAX_BODY_BYTES,
			// Answers as one JSON body, not an SSE stream: if the relay dies mid-call the client's
			// request fails at once instead of waiting on a stream that will never resume.
			enableJsonResponse: true,
			onsessioninitialized: (id) => void this.#transports.set(id, transport),
		});
		const sink = {
			deliver: (m: Message | Message[], rel?: Id) => {
				for (const one of Array.isArray(m) ? m : [m]) {
					const sent = transport
						.send(one as JSONRPCMessage, { relatedRequestId: rel })
						.catch((e: Error) => this.#opts.log(`HTTP ${hubSid}: could not deliver: ${e.message}`));
					this.#sending.add(sent);
					void sent.finally(() => this.#sending.delete(sent));
				}
			},
		};
		this.#hubSids.set(transport, hubSid);
		if (!this.#openHubSession(profile, sink, hubSid)) return reply(res, 503, new SessionLimitError().message);
		transport.onmessage = (m) => this.#hub.fromClient(hubSid, m);
		transport.onclose = () => {
			if (transport.sessionId) this.#transports.delete(transport.sessionId);
			this.#hub.closeSession(hubSid);
		};
		await transport.start();
		await transport.handleRequest(req, res, body);
		if (!transport.sessionId) this.#hub.closeSession(hubSid);
	}

	/** Opens the hub session; when the relay is full, first closes the least recently used HTTP one. */
	#openHubSession(profile: RelayProfile, sink: { deliver: (m: Message | Message[], rel?: Id) => void }, hubSid: string): boolean {
		for (;;) {
			try {
				this.#hub.openSession('http', profile, sink, hubSid);
				return true;
			} catch (e) {
				if (!(e instanceof SessionLimitError)) throw e;
				if (this.#transports.size === 0) {
					this.#opts.log(`refused an HTTP session: ${e.message}`);
					return false;
				}
				this.#closeOldest(`closed the least recently used HTTP session (the relay serves at most ${MAX_RELAY_SESSIONS} sessions)`);
			}
		}
	}

	#closeOldest(why: string): void {
		const [oldestId, oldest] = this.#transports.entries().next().value!;
		this.#transports.delete(oldestId);
		this.#opts.log(why);
		// onclose closes the hub session too, later; free the slot now.
		const hubSid = this.#hubSids.get(oldest);
		if (hubSid) this.#hub.closeSession(hubSid);
		void oldest.close();
	}

	/** Lets browser-based MCP clients on allowed origins call /mcp. */
	#cors(req: IncomingMessage, res: ServerResponse): void {
		const origin = req.headers.origin;
		if (!origin || !(isLoopbackOrigin(origin) || this.#opts.allowOrigins.includes(origin))) return;
		res.setHeader('Access-Control-Allow-Origin', origin);
		res.setHeader('Vary', 'Origin');
		for (const [k, v] of Object.entries(CORS_HEADERS)) res.setHeader(k, v);
	}

	/** Waits until the answers already handed over are on their way (bounded by the caller). */
	async flush(): Promise<void> {
		await Promise.all([...this.#sending]);
		// The SDK resolves `send` when the answer is queued; writing the body takes a moment more.
		await new Promise((r) => setTimeout(r, 100));
	}

	/** Ends every HTTP session. */
	async close(): Promise<void> {
		// Shutting down: a session that fails to close is gone with the process.
		await Promise.all([...this.#transports.values()].map((t) => t.close().catch(() => {})));
	}

	/**
	 * Reads a request body as JSON, up to MAX_BODY_BYTES, counting it against
	 * MAX_BODY_BYTES_IN_FLIGHT until its response is over.
	 */
	async #readJson(req: IncomingMessage, res: ServerResponse): Promise<{ value: unknown } | { status: number; message: string; code: number }> {
		let held = 0;
		res.once('close', () => void (this.#bodyBytes -= held));
		const chunks: Buffer[] = [];
		// Not destroyed on an early return: the refusal must still reach the client; resume() drains the rest.
		for await (const chunk of req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
			held += chunk.length;
			this.#bodyBytes += chunk.length;
			if (held > MAX_BODY_BYTES) {
				req.resume();
				return {
					status: 413,
					message: `the request is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB: send fewer or smaller memories per call`,
					code: -32600,
				};
			}
			if (this.#bodyBytes > MAX_BODY_BYTES_IN_FLIGHT) {
				req.resume();
				this.#opts.log(
					`refused an HTTP request: ${mib(this.#bodyBytes)} MiB of requests in progress (the limit is ${mib(MAX_BODY_BYTES_IN_FLIGHT)} MiB)`,
				);
				return {
					status: 503,
					message: `busy: other requests holding ${mib(MAX_BODY_BYTES_IN_FLIGHT)} MiB are in progress, so this one was not read and nothing was done; retry when they are answered`,
					code: -32000,
				};
			}
			chunks.push(chunk);
		}
		return parseBody(chunks);
	}
}

const mib = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** A request body as JSON: refused if it is not UTF-8 or not JSON. */
function parseBody(chunks: Buffer[]): { value: unknown } | { status: number; message: string; code: number } {
	const decoded = decodeUtf8(Buffer.concat(chunks));
	// Refused, not read with U+FFFD in place of the bad bytes: a memory must arrive as it was sent.
	if (!decoded.valid) return { status: 400, message: NOT_UTF8, code: -32600 };
	try {
		return { value: JSON.parse(decoded.text) };
	} catch {
		return { status: 400, message: 'Parse error: the request body is not JSON', code: -32700 };
	}
}

/** A JSON-RPC-shaped error body, so MCP clients show the message. */
function reply(res: ServerResponse, status: number, message: string, code = -32000): void {
	const body = JSON.stringify({
		jsonrpc: '2.0',
		error: { code, message: `engram-relay: ${message}` },
	});
	res.writeHead(status, { 'Content-Type': 'application/json' }).end(body);
}

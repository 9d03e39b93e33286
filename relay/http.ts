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
import {
	RELAY_PROFILES,
	isRelayProfile,
	type RelayProfile,
} from '../src/mcp/transports/relay-protocol';
import { bearerToken, checkHost, checkOrigin, isLoopbackOrigin, tokenMatches } from './checks';
import type { Hub } from './hub';
import type { Id, Message } from './jsonrpc';

/** Largest request body: a 500-memory batch of long memories fits. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** HTTP sessions kept at once; clients that never send DELETE would otherwise pile up. */
export const MAX_HTTP_SESSIONS = 64;

/** What the HTTP side checks against. */
export interface HttpOptions {
	port: number;
	token: string;
	allowOrigins: readonly string[];
	profile: RelayProfile;
	log: (line: string) => void;
}

const CORS_HEADERS = {
	'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
	'Access-Control-Allow-Headers':
		'Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID',
	'Access-Control-Expose-Headers': 'Mcp-Session-Id, WWW-Authenticate',
	'Access-Control-Max-Age': '600',
};

/** Serves /mcp for one hub. */
export class HttpSessions {
	readonly #hub: Hub;
	readonly #opts: HttpOptions;
	readonly #transports = new Map<string, StreamableHTTPServerTransport>();
	#next = 1;

	constructor(hub: Hub, opts: HttpOptions) {
		this.#hub = hub;
		this.#opts = opts;
	}

	/** The http server's 'request' listener. */
	handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
		const url = new URL(req.url ?? '/', 'http://127.0.0.1');
		const refusal =
			checkHost(req.headers.host, this.#opts.port) ??
			checkOrigin(req.headers.origin, this.#opts.allowOrigins);
		if (refusal) return reply(res, refusal.status, refusal.message);
		this.#cors(req, res);
		if (url.pathname !== '/mcp' && url.pathname !== '/mcp/')
			return reply(res, 404, `no endpoint at ${url.pathname}: MCP is served at /mcp`);
		if (req.method === 'OPTIONS') return void res.writeHead(204).end();
		if (!tokenMatches(bearerToken(req.headers.authorization), this.#opts.token)) {
			res.setHeader('WWW-Authenticate', 'Bearer realm="engram-relay"');
			return reply(
				res,
				401,
				'missing or wrong bearer token: send "Authorization: Bearer <relay token>"',
			);
		}
		const sid = req.headers['mcp-session-id'];
		const existing = typeof sid === 'string' ? this.#transports.get(sid) : undefined;
		if (existing) {
			// Map order doubles as recency: the least recently used session is evicted first.
			this.#transports.delete(sid as string);
			this.#transports.set(sid as string, existing);
			return existing.handleRequest(req, res);
		}
		if (typeof sid === 'string')
			return reply(res, 404, 'Session not found: initialize a new session', -32001);
		if (req.method !== 'POST')
			return reply(res, 400, 'Bad Request: no mcp-session-id; initialize with a POST first');
		const profile = url.searchParams.get('profile') ?? this.#opts.profile;
		if (!isRelayProfile(profile))
			return reply(
				res,
				400,
				`profile ${JSON.stringify(profile)} must be one of ${RELAY_PROFILES.join(', ')}`,
			);
		await this.#startSession(profile, req, res);
	};

	/** A POST without a session: becomes a session if the SDK accepts it as an initialize. */
	async #startSession(
		profile: RelayProfile,
		req: IncomingMessage,
		res: ServerResponse,
	): Promise<void> {
		const hubSid = `http-${this.#next++}`;
		const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
			sessionIdGenerator: () => randomUUID(),
			maxRequestBodySize: MAX_BODY_BYTES,
			onsessioninitialized: (id) => {
				this.#transports.set(id, transport);
				this.#evictOldest();
			},
		});
		const sink = {
			deliver: (m: Message | Message[], rel?: Id) => {
				for (const one of Array.isArray(m) ? m : [m])
					transport
						.send(one as JSONRPCMessage, { relatedRequestId: rel })
						.catch((e: Error) => this.#opts.log(`HTTP ${hubSid}: could not deliver: ${e.message}`));
			},
		};
		this.#hub.openSession('http', profile, sink, hubSid);
		transport.onmessage = (m) => this.#hub.fromClient(hubSid, m);
		transport.onclose = () => {
			if (transport.sessionId) this.#transports.delete(transport.sessionId);
			this.#hub.closeSession(hubSid);
		};
		await transport.start();
		await transport.handleRequest(req, res);
		if (!transport.sessionId) this.#hub.closeSession(hubSid);
	}

	#evictOldest(): void {
		if (this.#transports.size <= MAX_HTTP_SESSIONS) return;
		const [oldestId, oldest] = this.#transports.entries().next().value!;
		this.#transports.delete(oldestId);
		this.#opts.log(
			`closed the least recently used HTTP session (more than ${MAX_HTTP_SESSIONS} open)`,
		);
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

	/** Ends every HTTP session. */
	async close(): Promise<void> {
		await Promise.all([...this.#transports.values()].map((t) => t.close().catch(() => {})));
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

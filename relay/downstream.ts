/**
 * Joining a relay that already owns the port: this process's stdio client becomes one more
 * session of that relay, carried over a WebSocket with `role=relay`. If the owner goes away, the
 * calls it left unanswered fail with a clear error and the caller tries to take the port over.
 */
import WebSocket from 'ws';
import {
	RELAY_SUBPROTOCOL,
	ToDownstreamSchema,
	parseEnvelope,
	type FromDownstream,
	type RelayProfile,
} from '../src/mcp/transports/relay-protocol';
import { RELAY_ERROR, classify, errorResponse, idKey, type Id, type Message } from './jsonrpc';
import { MAX_FRAME_BYTES } from './sockets';
import type { StdioClient } from './stdio-client';

/** Why joining failed: `retry` (the owner just left; take the port) or `fatal` (give up, with why). */
export class JoinError extends Error {
	constructor(
		message: string,
		readonly retry: boolean,
	) {
		super(message);
	}
}

/** What joining needs. */
export interface JoinOptions {
	port: number;
	token: string;
	profile: RelayProfile;
	log: (line: string) => void;
}

const SID = 'stdio';

/**
 * Connects to the owning relay and serves `client` through it. Resolves when the connection is
 * lost after it was established; rejects with a JoinError when it could not be established.
 */
export function joinPrimary(opts: JoinOptions, client: StdioClient): Promise<void> {
	const url = `ws://127.0.0.1:${opts.port}/?token=${encodeURIComponent(opts.token)}&role=relay`;
	const ws = new WebSocket(url, RELAY_SUBPROTOCOL, { maxPayload: MAX_FRAME_BYTES });
	const pending = new Map<string, Id>();
	const send = (env: FromDownstream) => ws.send(JSON.stringify(env));
	return new Promise((resolve, reject) => {
		ws.on('unexpected-response', (_req, res) => {
			const why =
				res.statusCode === 401
					? `port ${opts.port} is held by an engram-relay with a different token (use the same --token or ENGRAM_RELAY_TOKEN)`
					: `port ${opts.port} is in use by another program (HTTP ${res.statusCode}); choose another --port`;
			reject(new JoinError(why, false));
			ws.terminate();
		});
		ws.on('error', (e: NodeJS.ErrnoException) => {
			if (ws.readyState !== WebSocket.OPEN)
				reject(new JoinError(e.message, e.code === 'ECONNREFUSED' || e.code === 'ECONNRESET'));
		});
		ws.on('open', () => {
			opts.log(`joined the engram-relay already running on port ${opts.port}`);
			send({ t: 'open', sid: SID, profile: opts.profile, handshake: client.handshake });
			client.routeTo((value) => {
				track(value, (id) => pending.set(idKey(id), id));
				send({ t: 'msg', sid: SID, m: value });
			});
		});
		ws.on('message', (data) => {
			const env = parseEnvelope(ToDownstreamSchema, data.toString());
			if (env instanceof Error)
				return opts.log(`ignored a frame from the owning relay: ${env.message}`);
			for (const m of Array.isArray(env.m) ? env.m : [env.m]) {
				const c = classify(m);
				if (c.kind === 'response') pending.delete(idKey(c.id));
			}
			client.write(env.m as Message);
		});
		ws.on('close', () => {
			client.routeTo(undefined);
			for (const id of pending.values())
				client.write(
					errorResponse(
						id,
						RELAY_ERROR.notConnected,
						'engram-relay lost its connection while this call was in flight; retry',
					),
				);
			pending.clear();
			resolve();
		});
	});
}

/** Calls `onRequest` with the id of every request in a message or batch. */
function track(value: unknown, onRequest: (id: Id) => void): void {
	for (const item of Array.isArray(value) ? value : [value]) {
		const c = classify(item);
		if (c.kind === 'request') onRequest(c.id);
	}
}

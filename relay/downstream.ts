/**
 * Joining a relay that already owns the port: this process's stdio client becomes one more
 * session of that relay, carried over a WebSocket. Both relays first prove they know the token
 * (the handshake in relay-protocol.ts): nothing of the client's, and never the token, goes to a
 * program on the port that cannot prove it. If the owner goes away, the calls it left unanswered
 * get a truthful error and the caller tries to take the port over.
 */
import WebSocket from 'ws';
import {
	ChallengeSchema,
	RELAY_AUTH_VERSION,
	RELAY_CLOSE,
	RELAY_SUBPROTOCOL,
	RelayProofSchema,
	ToDownstreamSchema,
	parseEnvelope,
	type Auth,
	type FromDownstream,
	type RelayProfile,
} from '../src/mcp/transports/relay-protocol';
import { newNonce, proofFor, proofMatches } from './auth';
import { classify, idKey, lostAnswer, safeStringify, type Id, type Message } from './jsonrpc';
import { MAX_FRAME_BYTES, AUTH_TIMEOUT_MS } from './sockets';
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
	const notRelay = `port ${opts.port} is held by a program that did not prove it knows the pairing token (not engram-relay, or one with another token); choose another --port`;
	const ws = new WebSocket(`ws://127.0.0.1:${opts.port}/`, RELAY_SUBPROTOCOL, {
		maxPayload: MAX_FRAME_BYTES,
	});
	const pending = new Map<string, { id: Id; method: string }>();
	const send = (env: FromDownstream | Auth) => {
		const text = safeStringify(env);
		if (text instanceof Error) opts.log(`dropped a message for the owning relay: ${text.message}`);
		else ws.send(text);
	};
	let stage: 'challenge' | 'proof' | 'joined' = 'challenge';
	let peerNonce = '';
	let relayNonce = '';
	return new Promise((resolve, reject) => {
		const fail = (why: string, retry = false) => {
			if (stage === 'joined') return;
			reject(new JoinError(why, retry));
			ws.terminate();
		};
		const timer = setTimeout(() => fail(notRelay), AUTH_TIMEOUT_MS * 2);
		ws.on('unexpected-response', (_req, res) => fail(`port ${opts.port} is in use by another program (HTTP ${res.statusCode}); choose another --port`));
		ws.on('error', (e: NodeJS.ErrnoException) => {
			if (ws.readyState !== WebSocket.OPEN) fail(e.message, e.code === 'ECONNREFUSED' || e.code === 'ECONNRESET');
		});
		const joined = () => {
			clearTimeout(timer);
			stage = 'joined';
			opts.log(`joined the engram-relay already running on port ${opts.port}`);
			send({ t: 'open', sid: SID, profile: opts.profile, handshake: client.handshake });
			client.routeTo((value) => {
				for (const item of Array.isArray(value) ? value : [value]) {
					const c = classify(item);
					if (c.kind === 'request') pending.set(idKey(c.id), { id: c.id, method: c.method });
				}
				send({ t: 'msg', sid: SID, m: value });
			});
		};
		ws.on('message', (data) => {
			const text = data.toString();
			if (stage === 'challenge') {
				const challenge = parseEnvelope(ChallengeSchema, text);
				if (challenge instanceof Error || challenge.v !== RELAY_AUTH_VERSION) return fail(notRelay);
				relayNonce = challenge.nonce;
				peerNonce = newNonce();
				stage = 'proof';
				return send({
					t: 'auth',
					v: RELAY_AUTH_VERSION,
					role: 'relay',
					nonce: peerNonce,
					proof: proofFor(opts.token, 'peer', 'relay', relayNonce, peerNonce),
				});
			}
			if (stage === 'proof') {
				const proof = parseEnvelope(RelayProofSchema, text);
				const expected = proofFor(opts.token, 'relay', 'relay', relayNonce, peerNonce);
				if (proof instanceof Error || !proofMatches(proof.proof, expected)) return fail(notRelay);
				return joined();
			}
			const env = parseEnvelope(ToDownstreamSchema, text);
			if (env instanceof Error) return opts.log(`ignored a frame from the owning relay: ${env.message}`);
			for (const m of Array.isArray(env.m) ? env.m : [env.m]) {
				const c = classify(m);
				if (c.kind === 'response') pending.delete(idKey(c.id));
			}
			client.write(env.m as Message);
		});
		ws.on('close', (code) => {
			clearTimeout(timer);
			if (stage !== 'joined') {
				if (code === RELAY_CLOSE.unauthorized)
					return fail(`port ${opts.port} is held by an engram-relay with a different token (use the same token file, ENGRAM_RELAY_TOKEN or --token)`);
				return fail(notRelay);
			}
			client.routeTo(undefined);
			for (const { id, method } of pending.values())
				client.write(lostAnswer(id, method, `The engram-relay this one had joined (port ${opts.port}) went away`));
			pending.clear();
			resolve();
		});
	});
}

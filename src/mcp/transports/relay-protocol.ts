/**
 * The envelope protocol spoken over the one WebSocket between `engram-relay` and the Engram tab,
 * and between a joining relay process and the relay that owns the port. Shared by the relay (Node)
 * and the page, so it is pure TypeScript: no DOM, no Node.
 *
 * One socket carries several desktop clients at once; every JSON-RPC message travels inside an
 * envelope naming its session, and is otherwise passed through untouched.
 *
 * Before anything else, both ends prove they know the pairing token without sending it (the
 * token never crosses the wire, so a program squatting on the port while the relay is down learns
 * nothing it can use): relay → peer `challenge {nonce: R}`; peer → relay `auth {role, nonce: P,
 * proof: HMAC-SHA256(token, authMessage('peer', role, R, P))}`; relay → peer `proof {proof:
 * HMAC-SHA256(token, authMessage('relay', role, R, P))}`. The relay serves nothing before a valid
 * `auth`; the peer sends nothing but `auth`, and handles nothing, before a valid `proof`. A wrong
 * proof closes the socket with RELAY_CLOSE.unauthorized.
 *
 * relay → tab: `open` (a desktop client's session, with its profile), `msg` (a JSON-RPC message
 * from that client), `close` (the client went away).
 * tab → relay: `hello` (who the app is), `msg` (a JSON-RPC message for that client).
 * joining relay → owner: `open`, `msg`, `close` for its own stdio client; owner → joining relay: `msg`.
 */
import { z } from 'zod';

/** The WebSocket subprotocol both sides require. */
export const RELAY_SUBPROTOCOL = 'mcp';

/** The relay's default port. */
export const DEFAULT_RELAY_PORT = 17373;

/** The app URL the relay's pairing link points at by default (`npm start` / `vite preview`). */
export const DEFAULT_APP_URL = 'http://127.0.0.1:4173';

/** Profiles a desktop client can ask for; the tab validates again when it builds the server. */
export const RELAY_PROFILES = ['native', 'automem', 'aiakiv', 'codomyrmex', 'memory-mcp'] as const;
export type RelayProfile = (typeof RELAY_PROFILES)[number];

/** WebSocket close codes with a meaning the other side acts on. */
export const RELAY_CLOSE = {
	/** Another Engram tab paired with the relay; the replaced tab must not reconnect by itself. */
	superseded: 4001,
	/** The relay process is shutting down (its client closed stdin); reconnecting later is right. */
	shutdown: 4002,
	/** An envelope could not be understood; a bug on one side. */
	protocol: 4003,
	/** The other side did not prove it knows the pairing token (wrong token, or not engram-relay). */
	unauthorized: 4004,
} as const;

/** Sessions one relay serves at once (stdio, HTTP and joined relays' clients together). */
export const MAX_RELAY_SESSIONS = 64;

/**
 * Requests one client may have waiting for their answers at once, on the relay (per session) and
 * in the tab (per postMessage client); more are refused at once, naming the limit.
 */
export const MAX_IN_FLIGHT = 64;

/** The handshake's version; a side that sees another refuses with a message saying which. */
export const RELAY_AUTH_VERSION = 1;

/** Who connects to the relay: the Engram tab, or a second relay process joining the first. */
export const PeerRoleSchema = z.enum(['tab', 'relay']);
export type PeerRole = z.infer<typeof PeerRoleSchema>;

/** 32 random bytes, hex: a nonce. */
const NonceSchema = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 hex characters');
/** An HMAC-SHA256, hex. */
const MacSchema = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 hex characters');

/** relay → peer, the first frame: the relay's nonce. */
export const ChallengeSchema = z.object({
	t: z.literal('challenge'),
	v: z.number().int(),
	nonce: NonceSchema,
});
export type Challenge = z.infer<typeof ChallengeSchema>;

/** peer → relay, its first and (until the relay's proof) only frame. */
export const AuthSchema = z.object({
	t: z.literal('auth'),
	v: z.number().int(),
	role: PeerRoleSchema,
	nonce: NonceSchema,
	proof: MacSchema,
});
export type Auth = z.infer<typeof AuthSchema>;

/** relay → peer, once the peer's proof checked out: the relay's own proof. */
export const RelayProofSchema = z.object({ t: z.literal('proof'), proof: MacSchema });
export type RelayProof = z.infer<typeof RelayProofSchema>;

/**
 * The text each side MACs with the token. `signer` and `role` are part of it, so a proof can
 * never be replayed the other way round (a relay's proof is not a peer's) or for another role.
 */
export function authMessage(signer: 'peer' | 'relay', role: PeerRole, relayNonce: string, peerNonce: string): string {
	return `engram-relay-auth/${RELAY_AUTH_VERSION} ${signer} ${role} ${relayNonce} ${peerNonce}`;
}

/** How a desktop client reaches the relay. */
export const SessionKindSchema = z.enum(['stdio', 'http']);
export type SessionKind = z.infer<typeof SessionKindSchema>;

/** A desktop client session, as the tab sees it. */
export const SessionInfoSchema = z.object({
	sid: z.string().min(1).max(200),
	kind: SessionKindSchema,
	profile: z.enum(RELAY_PROFILES),
	client: z.object({ name: z.string().max(200), version: z.string().max(100).optional() }).optional(),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

/** A JSON-RPC message for or from one session; `rel` names the request it relates to (progress). */
const MsgSchema = z.object({
	t: z.literal('msg'),
	sid: z.string().min(1).max(200),
	m: z.unknown(),
	rel: z.union([z.string(), z.number()]).optional(),
});

/** Envelopes the relay sends to the tab. */
export const ToTabSchema = z.discriminatedUnion('t', [
	z.object({ t: z.literal('open'), session: SessionInfoSchema }),
	MsgSchema,
	z.object({
		t: z.literal('close'),
		sid: z.string().min(1).max(200),
		reason: z.string().optional(),
	}),
	z.object({
		t: z.literal('welcome'),
		relay: z.object({ version: z.string(), port: z.number().int() }),
	}),
]);
export type ToTab = z.infer<typeof ToTabSchema>;

/** Envelopes the tab sends to the relay. */
export const FromTabSchema = z.discriminatedUnion('t', [
	z.object({
		t: z.literal('hello'),
		app: z.object({ name: z.string().max(200), version: z.string().max(100) }),
	}),
	MsgSchema,
]);
export type FromTab = z.infer<typeof FromTabSchema>;

/** What a joining relay remembers of its client's handshake, so the owner can replay it. */
export const HandshakeSchema = z.object({
	initialize: z.unknown().optional().describe('The client’s initialize request, as sent'),
	initialized: z.boolean(),
});
export type Handshake = z.infer<typeof HandshakeSchema>;

/** Envelopes a joining relay sends to the relay that owns the port. */
export const FromDownstreamSchema = z.discriminatedUnion('t', [
	z.object({
		t: z.literal('open'),
		sid: z.string().min(1).max(200),
		profile: z.enum(RELAY_PROFILES),
		handshake: HandshakeSchema,
	}),
	MsgSchema,
	z.object({ t: z.literal('close'), sid: z.string().min(1).max(200) }),
]);
export type FromDownstream = z.infer<typeof FromDownstreamSchema>;

/** Envelopes the owning relay sends to a joining relay. */
export const ToDownstreamSchema = z.discriminatedUnion('t', [MsgSchema]);
export type ToDownstream = z.infer<typeof ToDownstreamSchema>;

/**
 * Parses one WebSocket text frame with `schema`; returns the envelope, or an Error naming what
 * was wrong (never throws, so a bad frame cannot take a socket handler down).
 */
export function parseEnvelope<T>(schema: z.ZodType<T>, text: string): T | Error {
	let raw: unknown;
	try {
		raw = JSON.parse(text);
	} catch {
		return new Error('relay envelope is not valid JSON');
	}
	const parsed = schema.safeParse(raw);
	if (parsed.success) return parsed.data;
	const issue = parsed.error.issues[0];
	return new Error(`relay envelope: ${issue?.path.join('.') || '(root)'} ${issue?.message ?? 'is invalid'}`);
}

/** True when `value` is one of the profile names. */
export function isRelayProfile(value: unknown): value is RelayProfile {
	return typeof value === 'string' && (RELAY_PROFILES as readonly string[]).includes(value);
}

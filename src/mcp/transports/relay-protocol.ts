/**
 * The envelope protocol spoken over the one WebSocket between `engram-relay` and the Engram tab,
 * and between a joining relay process and the relay that owns the port. Shared by the relay (Node)
 * and the page, so it is pure TypeScript: no DOM, no Node.
 *
 * One socket carries several desktop clients at once; every JSON-RPC message travels inside an
 * envelope naming its session, and is otherwise passed through untouched.
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
} as const;

/** How a desktop client reaches the relay. */
export const SessionKindSchema = z.enum(['stdio', 'http']);
export type SessionKind = z.infer<typeof SessionKindSchema>;

/** A desktop client session, as the tab sees it. */
export const SessionInfoSchema = z.object({
	sid: z.string().min(1).max(200),
	kind: SessionKindSchema,
	profile: z.enum(RELAY_PROFILES),
	client: z
		.object({ name: z.string().max(200), version: z.string().max(100).optional() })
		.optional(),
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
	return new Error(
		`relay envelope: ${issue?.path.join('.') || '(root)'} ${issue?.message ?? 'is invalid'}`,
	);
}

/** True when `value` is one of the profile names. */
export function isRelayProfile(value: unknown): value is RelayProfile {
	return typeof value === 'string' && (RELAY_PROFILES as readonly string[]).includes(value);
}

/**
 * The relay's gatekeeping, as pure functions: which Host headers, Origins and tokens it accepts.
 * A web page the user happens to visit can reach 127.0.0.1 too (through DNS rebinding or a plain
 * cross-site WebSocket), so every HTTP request and WebSocket upgrade passes these first.
 */
import { timingSafeEqual } from 'node:crypto';

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

/** A refusal: the HTTP status to answer with and a message naming the rule. */
export interface Refusal {
	status: 400 | 401 | 403 | 404;
	message: string;
}

/**
 * Accepts only Host headers naming this relay on a loopback name (`127.0.0.1:PORT`,
 * `localhost:PORT`, `[::1]:PORT`): a DNS-rebinding page arrives with its own host name.
 */
export function checkHost(host: string | undefined, port: number): Refusal | undefined {
	if (!host) return { status: 400, message: 'Host header is required' };
	const allowed = LOOPBACK_HOSTS.map((h) => `${h}:${port}`);
	if (allowed.includes(host.toLowerCase())) return undefined;
	return { status: 403, message: `Host ${JSON.stringify(host)} is refused: use 127.0.0.1:${port}` };
}

/** True for `http://127.0.0.1:*`, `http://localhost:*` and `http://[::1]:*` (and https). */
export function isLoopbackOrigin(origin: string): boolean {
	let url: URL;
	try {
		url = new URL(origin);
	} catch {
		return false;
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
	return LOOPBACK_HOSTS.includes(url.hostname) && url.origin === origin.toLowerCase();
}

/**
 * Accepts a request whose Origin is loopback or in `allowed`, and one with no Origin at all
 * (browsers always send one on cross-origin requests and WebSocket upgrades, so its absence
 * means a non-browser client, which still needs the token).
 */
export function checkOrigin(origin: string | undefined, allowed: readonly string[]): Refusal | undefined {
	if (origin === undefined) return undefined;
	if (isLoopbackOrigin(origin) || allowed.includes(origin)) return undefined;
	return {
		status: 403,
		message: `Origin ${JSON.stringify(origin)} is refused: only loopback origins and --allow-origin are accepted`,
	};
}

/** Compares a presented token with the relay's in constant time. */
export function tokenMatches(presented: string | null | undefined, token: string): boolean {
	if (typeof presented !== 'string') return false;
	const a = Buffer.from(presented);
	const b = Buffer.from(token);
	return a.length === b.length && timingSafeEqual(a, b);
}

/** Reads the bearer token of an Authorization header. */
export function bearerToken(authorization: string | undefined): string | undefined {
	const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
	return m?.[1];
}

/**
 * Normalises an `--allow-origin` value to `scheme://host[:port]`; throws an Error naming the
 * value and the rule for a path, a wildcard or an opaque origin.
 */
export function normaliseAllowedOrigin(value: string): string {
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		throw new Error(`--allow-origin ${JSON.stringify(value)} is not a URL origin such as https://engram.example`);
	}
	const bare = value.replace(/\/$/, '');
	if (url.origin === 'null' || url.origin !== bare.toLowerCase())
		throw new Error(`--allow-origin ${JSON.stringify(value)} must be an origin only (scheme://host[:port], no path, no wildcard)`);
	return url.origin;
}

/**
 * The relay's command line: `engram-relay [--port N] [--profile P] [--allow-origin O]…
 * [--token T] [--app-url URL] [--http-only]`. Parsing is strict: an unknown option or a bad value
 * stops the relay with a message naming the option and the rule.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_APP_URL, DEFAULT_RELAY_PORT, RELAY_PROFILES, isRelayProfile, type RelayProfile } from '../src/mcp/transports/relay-protocol';
import { normaliseAllowedOrigin } from './checks';

/** The relay's settings after parsing and validation. */
export interface RelayOptions {
	port: number;
	profile: RelayProfile;
	allowOrigins: string[];
	/** From --token or ENGRAM_RELAY_TOKEN; undefined means "load or generate" (see token.ts). */
	token?: string;
	/** Where `token` came from, when it came from the command line or the environment. */
	tokenSource?: '--token' | 'ENGRAM_RELAY_TOKEN';
	/** Print the pairing link to stdout and exit. */
	pairingLink: boolean;
	appUrl: string;
	/** Serve only Streamable HTTP and stay up; no stdio client. */
	httpOnly: boolean;
	help: boolean;
	version: boolean;
}

/** The text of `engram-relay --help`. */
export const USAGE = `Usage: engram-relay [options]

Connects desktop MCP clients to the Engram tab in your browser. Speaks MCP over stdio (for the
client that started it) and Streamable HTTP at http://127.0.0.1:PORT/mcp, and forwards everything
to the Engram tab over a WebSocket on 127.0.0.1.

Options:
  --port N            port on 127.0.0.1 (default ${DEFAULT_RELAY_PORT}); a second relay on the same port joins the first
  --profile NAME      tool profile for the stdio client: ${RELAY_PROFILES.join(' | ')} (default native);
                      HTTP clients pick theirs with /mcp?profile=NAME
  --allow-origin URL  also accept the Engram app from this origin (repeatable), e.g. https://engram.example
  --token T           pairing token; visible to every user in the process list, so prefer
                      $ENGRAM_RELAY_TOKEN or the token saved (mode 0600) in the relay's config dir
  --pairing-link      print the link that pairs the Engram tab, and exit
  --app-url URL       where the Engram app runs, for the pairing link (default ${DEFAULT_APP_URL})
  --http-only         serve HTTP only and keep running when stdin closes (default when stdin is not a pipe)
  -h, --help          this help
  -v, --version       print the version
`;

const TOKEN_RULE = /^[A-Za-z0-9._~-]{16,256}$/;

/** Checks a token's form; throws an Error naming where it came from and the rule. */
export function validateToken(token: string, from: string): string {
	if (!TOKEN_RULE.test(token)) throw new Error(`${from} must be 16–256 characters of A–Z, a–z, 0–9, '.', '_', '~' or '-'`);
	return token;
}

/**
 * Parses argv (without node and the script) and the environment; throws an Error whose message
 * names the offending option and its rule.
 */
export function parseRelayArgs(argv: string[], env: NodeJS.ProcessEnv = {}): RelayOptions {
	const { values } = parseArgs({
		args: argv,
		strict: true,
		allowPositionals: false,
		options: {
			port: { type: 'string' },
			profile: { type: 'string' },
			'allow-origin': { type: 'string', multiple: true },
			token: { type: 'string' },
			'app-url': { type: 'string' },
			'http-only': { type: 'boolean' },
			'pairing-link': { type: 'boolean' },
			help: { type: 'boolean', short: 'h' },
			version: { type: 'boolean', short: 'v' },
		},
	});
	const token = values.token ?? (env.ENGRAM_RELAY_TOKEN || undefined);
	const tokenSource = values.token ? '--token' : token ? 'ENGRAM_RELAY_TOKEN' : undefined;
	return {
		port: parsePort(values.port),
		profile: parseProfile(values.profile),
		allowOrigins: (values['allow-origin'] ?? []).map(normaliseAllowedOrigin),
		token: token === undefined ? undefined : validateToken(token, tokenSource!),
		tokenSource,
		pairingLink: values['pairing-link'] ?? false,
		appUrl: parseAppUrl(values['app-url']),
		httpOnly: values['http-only'] ?? false,
		help: values.help ?? false,
		version: values.version ?? false,
	};
}

function parsePort(value: string | undefined): number {
	if (value === undefined) return DEFAULT_RELAY_PORT;
	const port = Number(value);
	if (!/^\d+$/.test(value) || port < 1 || port > 65535) throw new Error(`--port ${JSON.stringify(value)} must be an integer from 1 to 65535`);
	return port;
}

function parseProfile(value: string | undefined): RelayProfile {
	if (value === undefined) return 'native';
	if (!isRelayProfile(value)) throw new Error(`--profile ${JSON.stringify(value)} must be one of ${RELAY_PROFILES.join(', ')}`);
	return value;
}

function parseAppUrl(value: string | undefined): string {
	if (value === undefined) return DEFAULT_APP_URL;
	let url: URL;
	try {
		url = new URL(value);
	} catch {
		throw new Error(`--app-url ${JSON.stringify(value)} is not a URL`);
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`--app-url ${JSON.stringify(value)} must be an http or https URL`);
	// The pairing link carries the token to this page: over plain http from another machine, anyone
	// on the network path could change the page and read it.
	if (url.protocol === 'http:' && !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname))
		throw new Error(`--app-url ${JSON.stringify(value)} must use https unless the app runs on this machine (127.0.0.1, localhost or [::1])`);
	if (url.username || url.password || url.search || url.hash)
		throw new Error(`--app-url ${JSON.stringify(value)} must be the app's address only, with no user, password, query or fragment`);
	return `${url.origin}${url.pathname.replace(/\/$/, '')}`;
}

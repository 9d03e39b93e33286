/**
 * `engram-relay`: connects desktop MCP clients to the Engram tab. Run through bin/engram-relay.mjs
 * (tsx, no build step). Logs go to stderr only; stdout carries nothing but JSON-RPC.
 *
 * Example: `npx engram-relay --port 17373 --profile automem`, then open the pairing link it prints.
 */
import { fstatSync, readFileSync } from 'node:fs';
import { parseRelayArgs, USAGE, type RelayOptions } from './args';
import { JoinError, joinPrimary } from './downstream';
import { startPrimary, type Primary } from './primary';
import { StdioClient } from './stdio-client';
import { configDir, loadOrCreateToken } from './token';

const log = (line: string) => void process.stderr.write(`[engram-relay] ${line}\n`);

const VERSION = (
	JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
		version: string;
	}
).version;

/** True when stdin is a pipe or socket (a client spawned us), not a terminal or /dev/null. */
function stdinIsPipe(): boolean {
	try {
		const st = fstatSync(0);
		return st.isFIFO() || st.isSocket();
	} catch {
		return false;
	}
}

/** Where the token came from: said in the log, and whether the pairing link may be printed. */
interface TokenOrigin {
	token: string;
	/** Printed in full only when just generated; otherwise the log says where the token is. */
	fresh: boolean;
	where: string;
}

/** The token from the options, or the saved one (generated on first use). */
function resolveToken(opts: RelayOptions, quiet = false): TokenOrigin {
	if (opts.token) {
		if (opts.tokenSource === '--token' && !quiet)
			log('warning: --token shows in the process list (ps) to every user of this machine; prefer ENGRAM_RELAY_TOKEN or the saved token file');
		return { token: opts.token, fresh: false, where: opts.tokenSource ?? '--token' };
	}
	const { token, source, path } = loadOrCreateToken(configDir(process.env));
	if (!quiet) log(source === 'generated' ? `generated a pairing token, saved in ${path}` : `using the pairing token saved in ${path}`);
	return { token, fresh: source === 'generated', where: path };
}

function pairingLink(opts: RelayOptions, token: string): string {
	return `${opts.appUrl}/#relay=ws://127.0.0.1:${opts.port}&token=${token}`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Owns the port, or joins the relay that does (and takes over when it leaves). */
async function serve(opts: RelayOptions, origin: TokenOrigin, client?: StdioClient): Promise<Primary | undefined> {
	const token = origin.token;
	const common = { ...opts, token, version: VERSION, log };
	for (let attempt = 0; ; attempt++) {
		try {
			const primary = await startPrimary(common);
			if (client) {
				const session = primary.hub.openSession('stdio', opts.profile, { deliver: client.write }, 'stdio');
				primary.hub.seed(session, client.handshake);
				client.routeTo((value) => primary.hub.fromClient(session.sid, value));
			}
			announce(opts, origin);
			return primary;
		} catch (e) {
			if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
			if (!client) throw new Error(`port ${opts.port} is already in use (is another engram-relay serving it?)`, { cause: e });
		}
		try {
			await joinPrimary({ ...common }, client);
			attempt = 0;
			log('the engram-relay that owned the port went away; taking over');
		} catch (e) {
			if (!(e instanceof JoinError) || !e.retry || attempt >= 50) throw e;
			await sleep(100 + Math.random() * 200);
		}
	}
}

function announce(opts: RelayOptions, origin: TokenOrigin): void {
	const base = `127.0.0.1:${opts.port}`;
	log(`v${VERSION} listening on ${base}: ${opts.httpOnly ? '' : 'stdio + '}Streamable HTTP at http://${base}/mcp`);
	// The token goes to the log once, when it is new, and only to a person's terminal: logs are
	// kept and shared more than files, and a desktop client that starts the relay keeps its stderr
	// in a log file of its own.
	if (origin.fresh && (opts.httpOnly || process.stderr.isTTY)) log(`pair the Engram tab by opening ${pairingLink(opts, origin.token)}`);
	else
		log(
			`pair the Engram tab by opening ${opts.appUrl}/#relay=ws://${base}&token=TOKEN, with the token from ${origin.where} (engram-relay --pairing-link prints the whole link)`,
		);
}

async function main(): Promise<void> {
	const opts = parseRelayArgs(process.argv.slice(2), process.env);
	if (opts.help) return void process.stderr.write(USAGE);
	if (opts.version) return void process.stderr.write(`${VERSION}\n`);
	if (opts.pairingLink) return void process.stdout.write(`${pairingLink(opts, resolveToken(opts, true).token)}\n`);
	opts.httpOnly ||= !stdinIsPipe();
	const token = resolveToken(opts);
	const client = opts.httpOnly ? undefined : new StdioClient(process.stdin, process.stdout, log);
	// `let`, not const: the handlers below may run before serve() returns, and see undefined then.
	// eslint-disable-next-line prefer-const
	let primary: Primary | undefined;
	if (client) {
		// npx does not forward signals: the client closing our stdin is the one reliable "stop".
		process.stdin.on('end', () => void shutdown('stdin closed', primary));
		process.stdin.on('close', () => void shutdown('stdin closed', primary));
		process.stdout.on('error', () => void shutdown('stdout closed', primary));
	}
	for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, () => void shutdown(sig, primary));
	primary = await serve(opts, token, client);
}

/** Set by the first reason to stop: stdin's `end` and `close` both come, and a signal may too. */
let stopping = false;

async function shutdown(why: string, primary: Primary | undefined): Promise<void> {
	if (stopping) return;
	stopping = true;
	log(`${why}: exiting`);
	setTimeout(() => process.exit(0), 2000).unref();
	// Every call still waiting gets its truthful answer before the connections close.
	// Exiting either way: a connection that fails to close is ended with the process.
	await primary?.close('engram-relay is shutting down').catch(() => {});
	process.exit(0);
}

main().catch((e: Error & { code?: string }) => {
	const hint = e.code?.startsWith('ERR_PARSE_ARGS') ? ' (engram-relay --help lists the options)' : '';
	log(`error: ${e.message}${hint}`);
	process.exit(1);
});

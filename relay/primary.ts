/**
 * The relay that owns the port: one HTTP server on 127.0.0.1 serving Streamable HTTP at /mcp and
 * WebSocket upgrades (the tab, joined relays), around one hub.
 */
import { createServer, type Server } from 'node:http';
import type { RelayProfile } from '../src/mcp/transports/relay-protocol';
import { ConnectionCap } from './connections';
import { HttpSessions } from './http';
import { Hub } from './hub';
import { RelaySockets } from './sockets';

/** What the owning relay needs. */
export interface PrimaryOptions {
	port: number;
	token: string;
	profile: RelayProfile;
	allowOrigins: string[];
	appUrl: string;
	version: string;
	log: (line: string) => void;
	onTabChange?: (connected: boolean) => void;
}

/** A listening relay. */
export interface Primary {
	hub: Hub;
	/**
	 * Stops serving. With `why`, every call still waiting for the tab is answered first, truthfully
	 * (it may have been applied), and the answers get a moment to reach their clients.
	 */
	close(why?: string): Promise<void>;
}

/**
 * Listens on 127.0.0.1:port. Rejects with the listen error (code EADDRINUSE when another
 * process, maybe another relay, holds the port), so the caller can join it instead.
 */
export async function startPrimary(opts: PrimaryOptions): Promise<Primary> {
	const hub = new Hub(opts);
	// eslint-disable-next-line prefer-const -- set below, once the server exists; used only per request.
	let cap: ConnectionCap;
	const http = new HttpSessions(hub, { ...opts, onAuthorized: (req) => cap.trust(req.socket) });
	const sockets = new RelaySockets(hub, opts);
	const server = createServer((req, res) => {
		http.handle(req, res).catch((e: Error) => {
			// The path only: a client may have put a token in the query.
			opts.log(`HTTP ${req.method} ${(req.url ?? '').split('?')[0]} failed: ${e.message}`);
			if (!res.headersSent) res.writeHead(500).end();
		});
	});
	cap = new ConnectionCap(server, { log: opts.log });
	server.on('upgrade', sockets.upgrade);
	await listen(server, opts.port);
	return {
		hub,
		async close(why?: string) {
			if (why) {
				hub.failAllPending(why);
				await Promise.race([http.flush(), new Promise((r) => setTimeout(r, 1000))]);
			}
			sockets.close();
			await http.close();
			server.closeAllConnections();
			await new Promise((r) => server.close(r));
		},
	};
}

function listen(server: Server, port: number): Promise<void> {
	return new Promise((ok, fail) => {
		server.once('error', fail);
		server.listen(port, '127.0.0.1', () => {
			server.off('error', fail);
			ok();
		});
	});
}

/**
 * A sync server's identity as a URL, in a module of its own so the app can compare servers
 * without loading the sync code (PouchDB, the key derivation).
 */
export interface SyncServer {
	/** e.g. http://127.0.0.1:5984 (a trailing slash is fine). */
	url: string;
	database: string;
	user?: string;
	password?: string;
	/** Only memories of these scopes sync (both ways); all of them when absent or empty. */
	scopes?: string[];
}

/**
 * The database's URL, one spelling per server: "http://LOCALHOST:5984/" and
 * "http://localhost:5984" are the same server (same local mirror, same kept key).
 */
export function databaseUrl(s: SyncServer): string {
	let base = s.url.trim();
	try {
		const u = new URL(base);
		base = u.origin + u.pathname;
	} catch {
		// checkServer refuses it before any request; keep the text as typed.
	}
	return `${base.replace(/\/+$/, '')}/${encodeURIComponent(s.database.trim())}`;
}

/**
 * "Test connection": what is wrong with a CouchDB server and database, in words. Speaks plain
 * CouchDB HTTP (GET /db, PUT /db), nothing PouchDB-Server-specific.
 */
import { SyncError } from './crypto';
import { databaseUrl, type SyncServer } from './server-url';

export { databaseUrl, type SyncServer };

/**
 * How long a request to the server may take, answer included, before it counts as failed (and
 * replication retries it): a server that accepts a connection and never answers would otherwise
 * hold sync at "Syncing" for good. Live replication's long polls end sooner (replication.ts).
 */
export const REQUEST_TIMEOUT_MS = 60_000;
/** How long "Test connection" waits for an answer. */
const TEST_TIMEOUT_MS = 15_000;

/** Basic-auth headers when a user is given. */
export function authHeaders(s: SyncServer): Record<string, string> {
	return s.user ? { Authorization: `Basic ${btoa(unescape(encodeURIComponent(`${s.user}:${s.password ?? ''}`)))}` } : {};
}

/** Checks the server's URL and database name before any request. */
export function checkServer(s: SyncServer): string | undefined {
	let u: URL;
	try {
		u = new URL(s.url.trim());
	} catch {
		return 'Server URL: not a URL (e.g. http://127.0.0.1:5984)';
	}
	if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'Server URL: must start with http:// or https://';
	// A browser refuses to fetch a URL with credentials in it; the fields carry them (as basic auth).
	if (u.username || u.password) return 'Server URL: must not contain a user or password; put them in the User and Password fields';
	if (u.search || u.hash) return 'Server URL: must not contain ? or # (only the server address, e.g. http://127.0.0.1:5984)';
	// The app's Content-Security-Policy allows plain http only to this machine (docs/SYNC.md).
	if (u.protocol === 'http:' && u.hostname !== '127.0.0.1' && u.hostname !== 'localhost')
		return 'Server URL: use https:// for a server on another machine; plain http:// is allowed only for this machine (127.0.0.1 or localhost)';
	const db = s.database.trim();
	if (!db) return 'Database: required (e.g. engram)';
	if (!/^[a-z][a-z0-9_$()+/-]*$/.test(db)) return 'Database: lowercase letters, digits and _$()+-/ only, starting with a letter (CouchDB rule)';
	return undefined;
}

/**
 * Resolves when the database answers; otherwise throws a SyncError whose message says what to do.
 * A network failure is told apart from missing CORS by a no-cors request to the server's root: it
 * succeeds (opaque) when the server answers but withholds CORS headers.
 */
export async function testConnection(s: SyncServer, f: typeof fetch = fetch, ms = TEST_TIMEOUT_MS): Promise<{ docs: number }> {
	const bad = checkServer(s);
	if (bad) throw new SyncError('server', bad);
	let res: Response;
	try {
		res = await f(databaseUrl(s), { headers: { Accept: 'application/json', ...authHeaders(s) }, signal: AbortSignal.timeout(ms) });
	} catch (e) {
		if ((e as Error).name === 'TimeoutError')
			throw new SyncError(
				'unreachable',
				`${s.url.trim()} did not answer within ${ms / 1000} s: check that the server is running and not overloaded, then try again.`,
			);
		let answers: boolean;
		try {
			await f(s.url.trim(), { mode: 'no-cors', signal: AbortSignal.timeout(ms) });
			answers = true;
		} catch {
			answers = false;
		}
		if (answers)
			throw new SyncError(
				'cors',
				`The server answers but does not allow this app (CORS is not enabled). In CouchDB set [chttpd] enable_cors = true and [cors] origins = ${globalThis.location?.origin ?? '<this app’s origin>'}, credentials = true (docs/SYNC.md).`,
			);
		// https:// to a server on this machine: CouchDB speaks plain http unless set up otherwise.
		const local = new URL(s.url.trim());
		const tls = local.protocol === 'https:' && ['127.0.0.1', 'localhost', '[::1]'].includes(local.hostname);
		throw new SyncError(
			'unreachable',
			`Can't reach ${s.url.trim()}: check the address and that the server is running.${tls ? ` A CouchDB on this machine speaks plain http unless set up for TLS: try http://${local.host}.` : ''}`,
		);
	}
	if (res.status === 401)
		throw new SyncError(
			'unauthorized',
			'The server refused the user and password (401): check them, or leave both empty for a server without authentication.',
		);
	if (res.status === 403)
		throw new SyncError('forbidden', `This user may not use the database "${s.database.trim()}" (403): add it to the database's members.`);
	if (res.status === 404) {
		const db = s.database.trim();
		// The database's name typed into the Server URL too: the request went to /<db>/<db>.
		const doubled = new URL(s.url.trim()).pathname.replace(/\/+$/, '').endsWith(`/${db}`);
		// Not 'no-database': "Create database" would PUT /<db>/<db>, a document in it.
		if (doubled)
			throw new SyncError(
				'server',
				`Server URL: give the server's address without the database (e.g. ${new URL(s.url.trim()).origin}); nothing answers at ${databaseUrl(s)}.`,
			);
		throw new SyncError('no-database', `The database "${db}" does not exist on this server.`);
	}
	if (!res.ok) throw new SyncError('server', `The server answered ${res.status} ${res.statusText}.`);
	// The server answered OK: a body that is not JSON only leaves the count unknown.
	const info = (await res.json().catch(() => ({}))) as { doc_count?: number };
	return { docs: info.doc_count ?? 0 };
}

/** Creates the database (needs a server admin, or admin party). */
export async function createDatabase(s: SyncServer, f: typeof fetch = fetch): Promise<void> {
	const res = await f(databaseUrl(s), { method: 'PUT', headers: { Accept: 'application/json', ...authHeaders(s) } });
	if (res.ok || res.status === 412) return;
	if (res.status === 401 || res.status === 403)
		throw new SyncError(
			'forbidden',
			`Only a server admin can create the database "${s.database.trim()}" (${res.status}); create it in CouchDB's Fauxton or with curl (docs/SYNC.md).`,
		);
	throw new SyncError('server', `Creating the database failed: ${res.status} ${res.statusText}.`);
}

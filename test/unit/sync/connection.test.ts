/**
 * The Sync form's server fields checked before any request, each error naming the field and the
 * rule: credentials, a query or a fragment in the Server URL (a browser refuses the first, the
 * others turned every request into one to the server's root, which "Test connection" took for
 * the database), plain http to another machine (the app's CSP blocks it, which looked like an
 * unreachable server), and the database's name typed into the Server URL as well.
 */
import { describe, expect, it } from 'vitest';
import { checkServer, databaseUrl, testConnection } from '../../../src/sync/connection';

const ok = { url: 'http://127.0.0.1:5984', database: 'engram' };

describe('sync server fields', () => {
	it('accepts loopback http, any https, a trailing slash and a proxy path', () => {
		for (const url of ['http://127.0.0.1:5984', 'http://localhost:5984/', ' https://couch.example.org ', 'https://example.org/couch/'])
			expect(checkServer({ ...ok, url })).toBeUndefined();
	});

	it('spells one server one way: a trailing slash, the host’s case and a default port make no second server', () => {
		const urls = ['http://127.0.0.1:5984', 'http://127.0.0.1:5984/', ' http://127.0.0.1:5984// '].map((url) => databaseUrl({ ...ok, url }));
		expect(new Set(urls)).toEqual(new Set(['http://127.0.0.1:5984/engram']));
		expect(databaseUrl({ url: 'https://Couch.Example.org:443/couch/', database: ' engram ' })).toBe('https://couch.example.org/couch/engram');
	});

	it('refuses a user or password in the Server URL, pointing to the fields', () => {
		expect(checkServer({ ...ok, url: 'http://admin:pw@127.0.0.1:5984' })).toBe(
			'Server URL: must not contain a user or password; put them in the User and Password fields',
		);
		expect(checkServer({ ...ok, url: 'https://admin@couch.example.org' })).toMatch(/^Server URL: must not contain a user or password/);
	});

	it('refuses a query or fragment in the Server URL', () => {
		expect(checkServer({ ...ok, url: 'http://127.0.0.1:5984/?x=1' })).toMatch(/^Server URL: must not contain \? or #/);
		expect(checkServer({ ...ok, url: 'http://127.0.0.1:5984/#db' })).toMatch(/^Server URL: must not contain \? or #/);
	});

	it('refuses plain http to another machine, saying why', () => {
		expect(checkServer({ ...ok, url: 'http://192.168.1.5:5984' })).toBe(
			'Server URL: use https:// for a server on another machine; plain http:// is allowed only for this machine (127.0.0.1 or localhost)',
		);
	});

	it('names an empty database as required', () => {
		expect(checkServer({ ...ok, database: '  ' })).toBe('Database: required (e.g. engram)');
		expect(checkServer({ ...ok, database: 'Engram' })).toMatch(/^Database: lowercase letters/);
	});

	it('a query in the Server URL is refused before any request (it once read the root as the database)', async () => {
		let calls = 0;
		const f = (async () => (calls++, new Response('{"couchdb":"Welcome"}', { status: 200 }))) as typeof fetch;
		await expect(testConnection({ ...ok, url: 'http://127.0.0.1:5984/?x=1' }, f)).rejects.toThrow(/^Server URL: must not contain \? or #/);
		expect(calls).toBe(0);
	});

	it("an unreachable server is named, with a hint when https:// goes to this machine's plain-http CouchDB", async () => {
		const f = (async () => {
			throw new TypeError('Failed to fetch');
		}) as typeof fetch;
		const err = async (url: string) => (await testConnection({ ...ok, url }, f).catch((x: unknown) => x)) as { code: string; message: string };
		const local = await err('https://127.0.0.1:5984');
		expect(local.code).toBe('unreachable');
		expect(local.message).toBe(
			"Can't reach https://127.0.0.1:5984: check the address and that the server is running. A CouchDB on this machine speaks plain http unless set up for TLS: try http://127.0.0.1:5984.",
		);
		expect((await err('https://couch.example.org')).message).toBe(
			"Can't reach https://couch.example.org: check the address and that the server is running.",
		);
	});

	it('the database typed into the Server URL too: says so, and does not offer to create it', async () => {
		const f = (async () => new Response('{"error":"not_found"}', { status: 404 })) as typeof fetch;
		const e = (await testConnection({ ...ok, url: 'http://127.0.0.1:5984/engram/' }, f).catch((x: unknown) => x)) as { code: string; message: string };
		expect(e.code).toBe('server');
		expect(e.message).toBe(
			"Server URL: give the server's address without the database (e.g. http://127.0.0.1:5984); nothing answers at http://127.0.0.1:5984/engram/engram.",
		);
		const plain = (await testConnection(ok, f).catch((x: unknown) => x)) as { code: string };
		expect(plain.code).toBe('no-database');
	});

	it('a server that never answers: says so after the time limit rather than waiting for good', async () => {
		// Answers only by failing when the request is aborted (as fetch does on its signal).
		const f = ((_u: string, o?: RequestInit) =>
			new Promise((_ok, fail) => o?.signal?.addEventListener('abort', () => fail(o.signal!.reason)))) as typeof fetch;
		const e = (await testConnection(ok, f, 50).catch((x: unknown) => x)) as { code: string; message: string };
		expect(e.code).toBe('unreachable');
		expect(e.message).toBe('http://127.0.0.1:5984 did not answer within 0.05 s: check that the server is running and not overloaded, then try again.');
	});
});

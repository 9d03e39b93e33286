/**
 * Shared by the sync e2e files: the set-up of a file (`syncSuite`: a CouchDB-protocol server on
 * loopback — pouchdb-server, on disk when it must survive a restart — the built app, and the
 * devices to close after), devices (each its own Chromium profile, so its own IndexedDB), the
 * Settings form, a proxy that makes the server misbehave (`faultProxy`), what a device's mirror
 * holds (`mirrorStats`), and reading the server's documents over its HTTP API (decrypted in Node
 * with the same passphrase, to check what the server holds). */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request, type ServerResponse } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { engine, engineReady } from './app-support';
import { freePort, launchBrowser, ROOT, startPreview, waitForHttp, type Browser, type Server } from './helpers';
import { open, SALT_DOC_ID, unlockSaltDoc } from '../../src/sync/crypto';
import type { SyncRecord } from '../../src/engine/types';

export interface Couch {
	url: string;
	port: number;
	/** Stops the server (its data stays when it runs on disk). */
	halt(): Promise<void>;
	/** Starts it again on the same port. */
	restart(): Promise<void>;
	/** Stops it and removes its data. */
	stop(): Promise<void>;
}

/** pouchdb-server on a free loopback port: in memory, or on disk (`persistent`) to survive a restart. */
export async function startCouch(persistent = false): Promise<Couch> {
	const port = await freePort();
	const dir = mkdtempSync(joinPath(tmpdir(), 'engram-couch-'));
	const url = `http://127.0.0.1:${port}`;
	let child: ChildProcess | undefined;
	const up = async () => {
		const args = [joinPath(ROOT, 'node_modules/pouchdb-server/bin/pouchdb-server'), '--port', String(port), '--host', '127.0.0.1', '--no-stdout-logs'];
		args.push(...(persistent ? ['--dir', dir] : ['--in-memory']));
		child = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
		await waitForHttp(url, 30_000, child);
	};
	const halt = async () => {
		const c = child;
		if (c && c.exitCode === null) {
			const gone = new Promise((r) => c.once('exit', r));
			c.kill('SIGTERM');
			await gone;
		}
	};
	await up();
	return {
		url,
		port,
		halt,
		restart: up,
		async stop() {
			await halt();
			rmSync(dir, { recursive: true, force: true });
		},
	};
}

/** What `syncSuite` sets up for a test file. */
export interface SyncSuite {
	couch: Couch;
	app: Server;
	/** Every device a test opens (`newDevice(suite.app.url, suite.devices)`), closed after the file. */
	devices: Device[];
}

/**
 * The set-up every sync e2e file shares: pouchdb-server (on disk when `persistent`, to survive a
 * restart) and the built app, started before the file's tests with the databases `dbs` created;
 * after them every device is closed and both are stopped. `couch` and `app` are set by the time a
 * test runs.
 */
export function syncSuite(dbs: string[], o: { persistent?: boolean } = {}): SyncSuite {
	const s = { devices: [] as Device[] } as SyncSuite;
	beforeAll(async () => {
		[s.couch, s.app] = await Promise.all([startCouch(o.persistent), startPreview()]);
		for (const db of dbs) await fetch(`${s.couch.url}/${db}`, { method: 'PUT' });
	}, 60_000);
	afterAll(async () => {
		for (const d of s.devices) await d.browser.close();
		await s.app?.stop();
		await s.couch?.stop();
	});
	return s;
}

export interface Device {
	browser: Browser;
	page: Page;
}

/** A new device on the app's Settings screen. */
export async function newDevice(appUrl: string, list: Device[]): Promise<Page> {
	const browser = await launchBrowser({ offlineCapable: false });
	const page = await browser.context.newPage();
	page.on('pageerror', (e) => console.log(`[pageerror] ${e.message}`));
	await page.goto(`${appUrl}/#/settings`);
	await engineReady(page);
	list.push({ browser, page });
	return page;
}

/** Fills the Sync form. */
export async function fill(page: Page, o: { url: string; database: string; passphrase: string; scopes?: string }): Promise<void> {
	await page.getByLabel('Server URL').fill(o.url);
	await page.getByLabel('Database').fill(o.database);
	await page.getByLabel('User').fill('');
	await page.getByLabel('Password', { exact: true }).fill('');
	await page.getByLabel('Passphrase').fill(o.passphrase);
	await page.getByLabel('Scopes').fill(o.scopes ?? '');
}

/** Fills the form, starts syncing and waits for the chip to say Synced. */
export async function join(page: Page, o: { url: string; database: string; passphrase: string; scopes?: string }): Promise<void> {
	await fill(page, o);
	await page.getByRole('button', { name: 'Start syncing' }).click();
	await page.getByTestId('sync-chip').or(page.getByRole('alert')).first().waitFor({ timeout: 30_000 });
	if (await page.getByRole('alert').count()) throw new Error(await page.getByRole('alert').first().innerText());
	await page.getByTestId('sync-chip').getByText('Synced').waitFor({ timeout: 30_000 });
}

export const has = (page: Page, id: string) =>
	engine(page, 'get', { memory_id: id }).then(
		() => true,
		() => false,
	);
export const total = (page: Page) => engine<{ total_memories: number }>(page, 'stats', {}).then((s) => s.total_memories);
export const content = (page: Page, id: string) =>
	engine<{ memory: { content: string } }>(page, 'get', { memory_id: id }).then(
		(m) => m.memory.content,
		() => undefined,
	);
/** The targets of the links leaving a memory, as `type→to`. */
export const linksOf = (page: Page, id: string) =>
	engine<{ from: string; to: string; type: string }[]>(page, 'associationsOf', id).then((l) =>
		l
			.filter((a) => a.from === id)
			.map((a) => `${a.type}→${a.to}`)
			.sort(),
	);

/** Calls the page's sync state (pause, resume, idle). */
export const ctl = (p: Page, what: 'pause' | 'resume' | 'idle') =>
	p.evaluate((w) => (globalThis as unknown as { __engramSync: Record<string, () => unknown> }).__engramSync[w](), what);

export async function until(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
	const end = Date.now() + ms;
	while (!(await check())) {
		if (Date.now() > end) throw new Error(`timed out waiting: ${what}`);
		await new Promise((r) => setTimeout(r, 100));
	}
}

/** Every document of a database, with its body (through the server's HTTP API). */
export async function serverDocs(url: string, db: string): Promise<Record<string, unknown>[]> {
	const r = (await (await fetch(`${url}/${db}/_all_docs?include_docs=true&conflicts=true`)).json()) as { rows: { doc: Record<string, unknown> }[] };
	return r.rows.map((x) => x.doc);
}

/** The server's memory documents, decrypted in Node with the passphrase (id → record). */
export async function serverRecords(url: string, db: string, passphrase: string): Promise<Map<string, SyncRecord>> {
	const docs = await serverDocs(url, db);
	const key = await unlockSaltDoc(
		docs.find((d) => d._id === SALT_DOC_ID),
		passphrase,
	);
	const out = new Map<string, SyncRecord>();
	// Keyed by memory id (a memory id CouchDB reserves is under another document id).
	for (const d of docs)
		if (d._id !== SALT_DOC_ID && !String(d._id).startsWith('_design/')) {
			const r = (await open(key, d, String(d._id))) as SyncRecord;
			out.set(r.id, r);
		}
	return out;
}

/**
 * What the device's mirror (its PouchDB database, read straight from IndexedDB) holds: `bodies`,
 * the stored revision bodies (one per version kept); `bytes`, their size as JSON; `docs`, the
 * documents; `usage`, the origin's storage use (navigator.storage.estimate, every database).
 */
export async function mirrorStats(page: Page): Promise<{ bodies: number; bytes: number; docs: number; usage: number }> {
	return page.evaluate(async () => {
		const name = (await indexedDB.databases()).map((d) => d.name ?? '').find((n) => n.startsWith('_pouch_engram-sync-'));
		if (!name) throw new Error('no sync mirror in this profile');
		const db = await new Promise<IDBDatabase>((ok, fail) => {
			const r = indexedDB.open(name);
			r.onsuccess = () => ok(r.result);
			r.onerror = () => fail(r.error);
		});
		const tx = db.transaction(['by-sequence', 'document-store'], 'readonly');
		let bodies = 0,
			bytes = 0;
		await new Promise<void>((ok, fail) => {
			const c = tx.objectStore('by-sequence').openCursor();
			c.onsuccess = () => {
				const cur = c.result;
				if (!cur) return ok();
				bodies++;
				bytes += JSON.stringify(cur.value).length;
				cur.continue();
			};
			c.onerror = () => fail(c.error);
		});
		const docs = await new Promise<number>((ok) => {
			const r = tx.objectStore('document-store').count();
			r.onsuccess = () => ok(r.result);
		});
		db.close();
		return { bodies, bytes, docs, usage: (await navigator.storage.estimate()).usage ?? 0 };
	});
}

/** How the fault proxy answers: passes through, fails with 500 or 401, never answers, or answers 3 s late. */
export type FaultMode = 'pass' | '500' | '401' | 'hang' | 'slow';

export interface FaultProxy {
	url: string;
	mode: FaultMode;
	/** Requests answered with an injected error or left hanging so far. */
	faults: number;
	stop(): Promise<void>;
}

/**
 * A server in front of `target` (on a free loopback port) that misbehaves as `mode` says. CORS
 * preflights always pass through, so the page sees the injected status, not a network error.
 */
export async function faultProxy(target: string): Promise<FaultProxy> {
	const port = await freePort();
	const hung: ServerResponse[] = [];
	const p: FaultProxy = { url: `http://127.0.0.1:${port}`, mode: 'pass', faults: 0, stop: async () => undefined };
	const server = createServer((req, res) => {
		const cors = {
			'Access-Control-Allow-Origin': req.headers.origin ?? '*',
			'Access-Control-Allow-Credentials': 'true',
			'Content-Type': 'application/json',
		};
		const m = req.method === 'OPTIONS' ? 'pass' : p.mode;
		if (m === '500' || m === '401') {
			p.faults++;
			res.writeHead(Number(m), cors);
			res.end(
				JSON.stringify(
					m === '401' ? { error: 'unauthorized', reason: 'Name or password is incorrect.' } : { error: 'internal_server_error', reason: 'injected' },
				),
			);
			return;
		}
		if (m === 'hang') {
			p.faults++;
			hung.push(res);
			return;
		}
		const go = () => {
			const up = request(`${target}${req.url}`, { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (r) => {
				res.writeHead(r.statusCode ?? 502, r.headers);
				r.pipe(res);
			});
			up.on('error', () => res.destroy());
			req.pipe(up);
		};
		if (m === 'slow') setTimeout(go, 3_000);
		else go();
	});
	await new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));
	p.stop = () => {
		for (const r of hung) r.destroy();
		server.closeAllConnections();
		return new Promise((ok) => server.close(() => ok()));
	};
	return p;
}

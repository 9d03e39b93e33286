/**
 * Sync across devices through a CouchDB server (docs/DESIGN.md § Sync, docs/SYNC.md).
 *
 * A PouchDB database in this browser (its own IndexedDB) mirrors the server's: one encrypted
 * document per memory (id = memory id, body = a Box over the memory's SyncRecord). PouchDB
 * replicates it both ways. This controller moves records between that mirror and the engine:
 * - out: the engine's change events → the changed memories' records → encrypt → put / delete;
 * - in: the mirror's changes feed → decrypt → apply through the engine's import (ids, timestamps
 *   and updated_at kept; derived data recomputed) or delete.
 * The echo guard is a fingerprint per memory of the last record sent or applied: a change whose
 * record matches it is not sent again, and a remote change matching it is not applied again.
 *
 * @example
 * const sync = new SyncController(engine, PouchDB, deviceId);
 * sync.onStatus((s) => console.log(s.status));
 * await sync.start({ url: 'http://127.0.0.1:5984', database: 'engram' }, 'passphrase');
 */
import type { ChangeEvent, EngineApi, SyncRecord, SyncState } from '../engine/types';
import { authHeaders, checkServer, databaseUrl, testConnection, type SyncServer } from './connection';
import { checkKey, newSaltDoc, open, SALT_DOC_ID, seal, SyncError, unlockSaltDoc } from './crypto';
import { asRecord, checkDoc, compareVersions, fingerprint, inScopes, linkKey } from './records';

/** What the controller needs of the engine (the page's comlink proxy is one). */
export type SyncEngine = Pick<EngineApi, 'syncRecords' | 'recordSyncConflict' | 'importMemories' | 'delete' | 'deleteAssociation' | 'subscribe' | 'setSetting'>;

/** The parts of PouchDB used here (pouchdb-browser's default export). */
/* eslint-disable @typescript-eslint/no-explicit-any */
export type PouchCtor = new (name: string, opts?: Record<string, unknown>) => any;

/** The setting memory_stats reads (engine/stats-ops.ts SYNC_STATE_KEY). */
const SYNC_STATE_KEY = 'sync_state';
const MAP_DOC = '_local/engram-sync-map';
const OFFLINE = 'The server cannot be reached; changes wait here and go out when it is back.';

export interface SyncStatus extends SyncState {
	/** Documents skipped (undecryptable, malformed, foreign), newest first, at most 50. */
	skipped: { id: string; reason: string }[];
	/** First-sync progress: records applied so far of those the server had. */
	progress?: { done: number; total: number };
}

interface MapDoc {
	_id: string;
	_rev?: string;
	fp: Record<string, string>;
	since: number | string;
	/** Ids written to the mirror and not yet seen going to the server ("N waiting"). */
	unsent?: string[];
	/** Links that arrived before the memory they point to: target id → the ids of their sources. */
	wait?: Record<string, string[]>;
}

export class SyncController {
	#status: SyncStatus = { on: false, status: 'off', pending: 0, skipped: [] };
	#listeners = new Set<(s: SyncStatus) => void>();
	#local: any;
	#remote: any;
	#repl: any;
	#feed: any;
	#key: CryptoKey | undefined;
	#map: MapDoc = { _id: MAP_DOC, fp: {}, since: 0 };
	#queue: Promise<unknown> = Promise.resolve();
	#unsubscribe: (() => void) | undefined;
	#incoming: any[] = [];
	#incomingTimer: ReturnType<typeof setTimeout> | undefined;
	#reconcileTimer: ReturnType<typeof setTimeout> | undefined;
	#saveTimer: ReturnType<typeof setTimeout> | undefined;
	#server: SyncServer | undefined;
	#pendingOut = 0;
	#unsent = new Set<string>();
	#outIds = new Set<string>();
	#stateTimer: ReturnType<typeof setTimeout> | undefined;
	/** Imports sync made whose id-less "memories" event has not come back yet. */
	#ownImports = 0;
	#outTimer: ReturnType<typeof setTimeout> | undefined;
	/** The revision this device last wrote to the mirror, per id: its echo in the changes feed is skipped unread. */
	#written = new Map<string, string>();
	#failing = { push: false, pull: false };
	/** Where the time goes (ms), for bench/sync.ts. */
	readonly timings = { apply: 0, open: 0, import: 0, write: 0, reconcile: 0, batches: 0, docs: 0 };

	constructor(
		private readonly engine: SyncEngine,
		private readonly Pouch: PouchCtor,
		private readonly device: string,
	) {}

	get status(): SyncStatus {
		return this.#status;
	}

	onStatus(l: (s: SyncStatus) => void): () => void {
		this.#listeners.add(l);
		l(this.#status);
		return () => this.#listeners.delete(l);
	}

	#set(p: Partial<SyncStatus>): void {
		const prev = this.#status;
		this.#status = { ...prev, ...p };
		for (const l of this.#listeners) l(this.#status);
		// memory_stats reads the state from a setting: written when sync starts or stops at once,
		// otherwise at most once a second (a write per status flip would compete with every store).
		if (prev.on !== this.#status.on) this.#saveState();
		else if (prev.status !== this.#status.status || prev.error !== this.#status.error || prev.pending !== this.#status.pending)
			this.#stateTimer ??= setTimeout(() => this.#saveState(), 1_000);
	}

	#saveState(): void {
		clearTimeout(this.#stateTimer);
		this.#stateTimer = undefined;
		const { on, status, last_synced, pending, error } = this.#status;
		// Saved only to show the state after a reload; the live status is what the UI reads.
		void this.engine.setSetting(SYNC_STATE_KEY, { on, status, last_synced, pending, error }).catch(() => undefined);
	}

	#skip(id: string, reason: string): void {
		this.#set({ skipped: [{ id, reason }, ...this.#status.skipped].slice(0, 50) });
	}

	/** Runs tasks one at a time, in order. */
	#serial<T>(fn: () => Promise<T>): Promise<T> {
		const run = this.#queue.then(fn, fn);
		this.#queue = run.catch((e: unknown) => this.#set({ status: 'error', error: (e as Error).message }));
		return run;
	}

	/**
	 * Connects, unlocks (or sets up) the database's key, then syncs live both ways. A wrong
	 * passphrase throws before anything is written on this device. Resolves with the key, which
	 * the caller may keep (non-extractable) to resume later with `startWithKey`.
	 */
	async start(server: SyncServer, passphrase: string): Promise<CryptoKey> {
		if (this.#repl) throw new SyncError('server', 'Sync is already running on this device.');
		if (!passphrase) throw new SyncError('wrong-passphrase', 'Passphrase: required (the same on every device).');
		await testConnection(server);
		const remote = this.#remoteFor(server);
		let key: CryptoKey;
		const salt = await remote.get(SALT_DOC_ID).catch((e: { status?: number }) => {
			if (e.status === 404) return undefined;
			throw new SyncError('server', `Reading ${SALT_DOC_ID} failed: ${(e as Error).message}`);
		});
		if (salt) key = await unlockSaltDoc(salt, passphrase);
		else {
			const fresh = await newSaltDoc(passphrase);
			try {
				await remote.put(fresh.doc);
				key = fresh.key;
			} catch (e) {
				// Another device set it up a moment before: use theirs.
				if ((e as { status?: number }).status !== 409) throw e;
				key = await unlockSaltDoc(await remote.get(SALT_DOC_ID), passphrase);
			}
		}
		await this.#begin(server, remote, key);
		return key;
	}

	/**
	 * Resumes sync with a key kept from an earlier `start` (after a reload): no passphrase, no key
	 * derivation. An unreachable server is not an error (replication retries, the status says
	 * offline); a database whose key check this key no longer opens (the passphrase was rotated)
	 * or that lost its salt document throws before anything is written.
	 */
	async startWithKey(server: SyncServer, key: CryptoKey): Promise<void> {
		if (this.#repl) throw new SyncError('server', 'Sync is already running on this device.');
		const bad = checkServer(server);
		if (bad) throw new SyncError('server', bad);
		const remote = this.#remoteFor(server);
		const salt = await remote.get(SALT_DOC_ID).catch((e: { status?: number }) => {
			if (e.status === 401) throw new SyncError('unauthorized', 'The server refused the user and password (401): stop syncing and set it up again.');
			if (e.status === 403) throw new SyncError('forbidden', `This user may not use the database "${server.database.trim()}" (403).`);
			return e.status === 404 ? null : undefined; // anything else: not reachable now, trust the kept key
		});
		if (salt === null)
			throw new SyncError('bad-salt', `The database has no ${SALT_DOC_ID} document any more (deleted or re-created): stop syncing and set it up again.`);
		if (salt && !(await checkKey(key, salt)))
			throw new SyncError(
				'wrong-passphrase',
				"The database's passphrase changed since this device joined: stop syncing and start again with the new one.",
			);
		await this.#begin(server, remote, key);
	}

	#remoteFor(server: SyncServer): any {
		return new this.Pouch(databaseUrl(server), {
			skip_setup: true,
			fetch: (u: string, o: RequestInit = {}) =>
				fetch(u, { ...o, headers: { ...Object.fromEntries(new Headers(o.headers).entries()), ...authHeaders(server) } }),
		});
	}

	async #begin(server: SyncServer, remote: any, key: CryptoKey): Promise<void> {
		this.#key = key;
		this.#remote = remote;
		this.#server = server;
		this.#local = new this.Pouch(`engram-sync-${fingerprintOf(databaseUrl(server))}`, { auto_compaction: true });
		// No map yet (a first sync): start from an empty one.
		this.#map = await this.#local.get(MAP_DOC).catch(() => ({ _id: MAP_DOC, fp: {}, since: 0 }));
		this.#unsent = new Set(this.#map.unsent ?? []);
		this.#set({ on: true, status: 'syncing', error: undefined, skipped: [] });
		this.#unsubscribe = await this.engine.subscribe(proxied((e: ChangeEvent) => this.#onEngineEvent(e)));
		// What changed here while sync was off (or everything, the first time) goes out first.
		await this.#serial(() => this.#reconcile());
		// Progress only for a first sync: a resumed one reads just what changed since its checkpoint.
		if (!this.#map.since) {
			// Only for the progress bar's total; replication reports its own errors.
			const info = await remote.info().catch(() => ({ doc_count: 0 }));
			this.#set({ progress: { done: 0, total: Math.max(0, (info.doc_count ?? 1) - 1) } });
		}
		this.#listen();
		this.#replicate();
		globalThis.addEventListener?.('online', this.#online);
	}

	#listen(): void {
		this.#feed = this.#local
			.changes({ since: this.#map.since, live: true, include_docs: true, conflicts: true })
			.on('change', (c: any) => {
				this.#incoming.push(c);
				if (this.#incoming.length >= 500) this.#flushIncoming();
				else this.#incomingTimer ??= setTimeout(() => this.#flushIncoming(), 50);
			})
			.on('error', (e: Error) => this.#set({ status: 'error', error: `Local sync database: ${e.message}` }));
	}

	#flushIncoming(): void {
		clearTimeout(this.#incomingTimer);
		this.#incomingTimer = undefined;
		const batch = this.#incoming.splice(0);
		if (batch.length) void this.#serial(() => this.#applyIncoming(batch));
	}

	#replicate(): void {
		// Retries back off from 1 s to at most 30 s (PouchDB's default grows to 10 minutes); the
		// browser saying it is online again retries at once.
		this.#repl = this.#local
			.sync(this.#remote, { live: true, retry: true, batch_size: 500, back_off_function: (d: number) => (d ? Math.min(d * 2, 30_000) : 1_000) })
			.on('change', (info: any) => {
				if (info.direction === 'push') {
					for (const d of info.change?.docs ?? []) this.#unsent.delete(d._id);
					this.#set({ status: 'syncing', pending: this.#waiting() });
				} else this.#set({ status: 'syncing', pending: info.change?.pending ?? 0 });
			})
			.on('active', () => {
				// A retry after an error stays "offline" until it gets through.
				if (!this.#failing.push && !this.#failing.pull) this.#set({ status: 'syncing' });
			})
			.on('paused', () => {
				if (this.#failing.push || this.#failing.pull) this.#set({ status: 'offline', pending: this.#waiting(), error: OFFLINE });
				else this.#caughtUp();
			})
			.on('denied', (err: any) => this.#skip(err?.id ?? '?', `the server refused it: ${err?.message ?? err?.reason ?? 'denied'}`))
			.on('error', (err: any) =>
				this.#set({
					status: 'error',
					error: err?.status === 401 ? 'The server refused the user and password (401).' : `Sync stopped: ${err?.message ?? err}`,
				}),
			);
		// Sync's own "paused" carries no error: each direction's events tell a failing request
		// (PouchDB retries it) from being caught up.
		for (const dir of ['push', 'pull'] as const) {
			this.#failing[dir] = false;
			this.#repl[dir]
				.on('requestError', (err: any) => {
					if (err?.status === 401 || err?.status === 403) return; // PouchDB ends with "error" for these
					this.#failing[dir] = true;
					this.#set({ status: 'offline', pending: this.#waiting(), error: OFFLINE });
				})
				.on('paused', (err: unknown) => {
					this.#failing[dir] = !!err;
					if (!err && this.#status.status === 'offline' && !this.#failing.push && !this.#failing.pull) this.#caughtUp();
				});
		}
	}

	/** Both directions caught up: nothing written here waits any more. */
	#caughtUp(): void {
		this.#unsent.clear();
		this.#scheduleSave();
		this.#set({ status: this.#pendingOut ? 'syncing' : 'synced', error: undefined, pending: this.#pendingOut, last_synced: new Date().toISOString() });
	}

	/** Back online (the browser says so): retry now rather than after the back-off. */
	#online = (): void => {
		if (!this.#repl || this.#status.status !== 'offline') return;
		this.#repl.cancel();
		this.#replicate();
	};

	/** Changes made here that the server has not received yet. */
	#waiting(): number {
		return this.#unsent.size + this.#pendingOut;
	}

	/** Pauses replication (local writes still reach the mirror and go out on resume). */
	pause(): void {
		this.#repl?.cancel();
		this.#repl = undefined;
		this.#set({ status: 'paused' });
	}

	resume(): void {
		if (!this.#local || this.#repl) return;
		this.#replicate();
	}

	/** Stops syncing this device: replication and listeners end; local memories stay. */
	async stop(): Promise<void> {
		globalThis.removeEventListener?.('online', this.#online);
		clearTimeout(this.#outTimer);
		this.#outTimer = undefined;
		this.#outIds.clear();
		this.#repl?.cancel();
		this.#feed?.cancel();
		this.#repl = this.#feed = undefined;
		this.#unsubscribe?.();
		this.#unsubscribe = undefined;
		// Stopping: queued work's errors were reported to the status when they happened.
		await this.#queue.catch(() => undefined);
		await this.#saveMap();
		// Closing a local database that is already gone: nothing left to do.
		await this.#local?.close().catch(() => undefined);
		this.#local = this.#remote = this.#key = undefined;
		this.#set({ on: false, status: 'off', pending: 0, error: undefined, progress: undefined });
	}

	/** Settles: resolves once queued work (incoming and outgoing) is done. For tests. */
	async idle(): Promise<void> {
		// Waits only: queued work's errors went to the status when they happened.
		this.#flushOut();
		this.#flushIncoming();
		await this.#queue.catch(() => undefined);
	}

	#onEngineEvent(e: ChangeEvent): void {
		if (!this.#local) return;
		if ((e.kind === 'memories' || e.kind === 'associations') && e.ids?.length) {
			// Changes close together go out together (one read of their records, one write).
			for (const id of e.ids) this.#outIds.add(id);
			if (this.#outIds.size >= 500) this.#flushOut();
			else this.#outTimer ??= setTimeout(() => this.#flushOut(), 200);
		} else if (e.kind === 'memories' && this.#ownImports > 0) {
			// The id-less event of sync's own import: what it wrote is already accounted for.
			this.#ownImports--;
		} else if (e.kind === 'memories' || e.kind === 'wipe') {
			clearTimeout(this.#reconcileTimer);
			this.#reconcileTimer = setTimeout(() => void this.#serial(() => this.#reconcile()), 1_000);
		}
	}

	#flushOut(): void {
		clearTimeout(this.#outTimer);
		this.#outTimer = undefined;
		const ids = [...this.#outIds];
		this.#outIds.clear();
		if (!ids.length) return;
		this.#pendingOut += ids.length;
		if (this.#status.status === 'offline') this.#set({ pending: this.#waiting() });
		void this.#serial(() => this.#push(ids)).finally(() => {
			this.#pendingOut -= ids.length;
			if (this.#status.status === 'offline' || this.#status.status === 'paused') this.#set({ pending: this.#waiting() });
		});
	}

	/** Sends what differs from the fingerprints: every memory, or those named. */
	async #reconcile(): Promise<void> {
		const recs = (await this.engine.syncRecords()).filter((r) => this.#inScope(r));
		const present = new Set(recs.map((r) => r.id));
		const gone = Object.keys(this.#map.fp).filter((id) => !present.has(id));
		await this.#write(
			recs.filter((r) => this.#map.fp[r.id] !== fingerprint(r)),
			gone,
		);
	}

	async #push(ids: string[]): Promise<void> {
		if (!this.#local) return;
		// A memory moved out of the synced scopes leaves the server as if deleted here.
		const recs = (await this.engine.syncRecords(ids)).filter((r) => this.#inScope(r));
		const present = new Set(recs.map((r) => r.id));
		const gone = ids.filter((id) => !present.has(id) && this.#map.fp[id] !== undefined);
		await this.#write(
			recs.filter((r) => this.#map.fp[r.id] !== fingerprint(r)),
			gone,
		);
	}

	/** Encrypts and writes records (and deletions) to the mirror, in one bulk request. */
	async #write(recs: SyncRecord[], gone: string[]): Promise<void> {
		if (!recs.length && !gone.length) return;
		const tw = performance.now();
		await this.#writeTimed(recs, gone);
		this.timings.write += performance.now() - tw;
	}

	async #writeTimed(recs: SyncRecord[], gone: string[]): Promise<void> {
		const key = this.#key!;
		const ids = [...recs.map((r) => r.id), ...gone];
		const revs = new Map<string, string>();
		for (const row of (await this.#local.allDocs({ keys: ids })).rows) if (row.value && !row.value.deleted) revs.set(row.id, row.value.rev);
		const docs: Record<string, unknown>[] = [];
		for (const r of recs) {
			const rec = { ...r, device: this.device };
			docs.push({ _id: r.id, ...(revs.has(r.id) ? { _rev: revs.get(r.id) } : {}), ...(await seal(key, rec, r.id)) });
			this.#map.fp[r.id] = fingerprint(r);
		}
		for (const id of gone) {
			if (revs.has(id)) docs.push({ _id: id, _rev: revs.get(id), _deleted: true });
			delete this.#map.fp[id];
		}
		const res = await this.#local.bulkDocs(docs);
		for (const r of res) {
			if (r.error) this.#skip(r.id, `could not be written to the sync database: ${r.message ?? r.name}`);
			else {
				this.#unsent.add(r.id);
				this.#written.set(r.id, r.rev);
			}
		}
		if (this.#status.status === 'offline' || this.#status.status === 'paused') this.#set({ pending: this.#waiting() });
		this.#scheduleSave();
	}

	/** Applies a batch of the mirror's changes to the engine. */
	async #applyIncoming(changes: any[]): Promise<void> {
		if (!this.#local) return;
		const t0 = performance.now();
		try {
			await this.#applyIncomingTimed(changes);
		} finally {
			this.timings.apply += performance.now() - t0;
			this.timings.batches++;
			this.timings.docs += changes.length;
		}
	}

	async #applyIncomingTimed(changes: any[]): Promise<void> {
		const key = this.#key!;
		const upserts = new Map<string, SyncRecord>();
		const deletes = new Set<string>();
		const conflicts: { winner: SyncRecord; loser: SyncRecord }[] = [];
		for (const c of changes) {
			const id: string = c.id;
			if (id === SALT_DOC_ID || id.startsWith('_design/')) continue;
			upserts.delete(id);
			deletes.delete(id);
			const mine = this.#written.get(id);
			if (mine !== undefined && c.doc?._rev === mine && !c.doc._conflicts?.length) {
				this.#written.delete(id);
				continue; // this device's own write
			}
			if (c.deleted) {
				if (this.#map.fp[id] !== undefined) deletes.add(id);
				continue;
			}
			const bad = checkDoc(c.doc);
			if (bad) {
				this.#skip(id, bad);
				continue;
			}
			let rec: SyncRecord;
			try {
				const to = performance.now();
				const r = asRecord(id, await open(key, c.doc, id));
				this.timings.open += performance.now() - to;
				if (typeof r === 'string') {
					this.#skip(id, `not an Engram memory record: ${r}`);
					continue;
				}
				rec = r;
			} catch {
				this.#skip(id, 'could not be decrypted: tampered with, or encrypted with another passphrase');
				continue;
			}
			if (c.doc._conflicts?.length) rec = await this.#resolve(id, c.doc, rec, conflicts);
			// A device syncing chosen scopes takes only those.
			if (this.#inScope(rec)) upserts.set(id, rec);
		}
		// What this device already has (sent or applied) needs no more work.
		for (const [id, rec] of upserts) if (this.#map.fp[id] === fingerprint(rec)) upserts.delete(id);
		// A local edit not yet sent that is newer than the incoming version wins (and goes out next).
		const local = new Map((await this.engine.syncRecords([...upserts.keys()])).map((r) => [r.id, r]));
		for (const [id, rec] of upserts) {
			const mine = local.get(id);
			if (this.#map.fp[id] === fingerprint(rec) || (mine && fingerprint(mine) === fingerprint(rec))) {
				this.#map.fp[id] = fingerprint(rec);
				upserts.delete(id);
				continue;
			}
			if (mine && this.#map.fp[id] !== fingerprint(mine)) {
				const minev = { ...mine, device: this.device };
				if (compareVersions(minev, rec) > 0) {
					conflicts.push({ winner: minev, loser: rec });
					upserts.delete(id);
					continue;
				}
				conflicts.push({ winner: rec, loser: minev });
			}
		}
		if (deletes.size) {
			for (const id of deletes) delete this.#map.fp[id];
			await this.engine.delete({ memory_ids: [...deletes] }, { actor: 'sync' });
		}
		if (upserts.size) await this.#apply([...upserts.values()], local);
		for (const { winner, loser } of conflicts)
			await this.engine
				.recordSyncConflict(
					winner,
					loser,
					`Sync conflict: the version from device ${winner.device ?? '?'} (updated ${winner.updated_at}) was kept; the one from device ${loser.device ?? '?'} (updated ${loser.updated_at}) lost and is kept here.`,
				)
				// The winner is applied either way; only the losing version's history entry is lost.
				.catch(() => undefined);
		const p = this.#status.progress;
		if (p) this.#set({ progress: { done: Math.min(p.total, p.done + upserts.size), total: p.total } });
		this.#map.since = changes[changes.length - 1].seq;
		this.#scheduleSave();
	}

	/**
	 * Writes incoming records through the engine's import: memories, then their links. A link to a
	 * memory not here yet waits (in the map) and is made when that memory arrives; links the
	 * record no longer has are removed (an unlink on another device).
	 */
	async #apply(recs: SyncRecord[], local: Map<string, SyncRecord>): Promise<void> {
		const map = this.#map;
		const wait = (map.wait ??= {});
		const arriving = new Set(recs.map((r) => r.id));
		const targets = [...new Set(recs.flatMap((r) => r.links.map((l) => String(l.to))))].filter((t) => !arriving.has(t));
		const here = new Set((await this.engine.syncRecords(targets)).map((r) => r.id));
		const associations: Record<string, unknown>[] = [];
		for (const r of recs) {
			for (const l of r.links) {
				const to = String(l.to);
				if (arriving.has(to) || here.has(to)) associations.push({ ...l, from: r.id });
				else if (!(wait[to] ??= []).includes(r.id)) wait[to].push(r.id);
			}
		}
		// Links waiting for a memory that arrives now: their sources' latest records, from the mirror.
		const sources = [...new Set([...arriving].flatMap((id) => wait[id] ?? []))].filter((s) => !arriving.has(s));
		const late = (await this.#mirrorRecords(sources)).flatMap((r) => r.links.filter((l) => arriving.has(String(l.to))).map((l) => ({ ...l, from: r.id })));
		for (const id of arriving) delete wait[id];
		const memories = recs.map(({ links: _l, device: _d, ...m }) => m);
		const ti = performance.now();
		this.#ownImports++;
		const out = await this.engine
			.importMemories(
				{ data: JSON.stringify({ memories, associations: [...associations, ...late] }), format: 'json', on_conflict: 'replace' },
				{ actor: 'sync' },
			)
			.catch((e: unknown) => {
				this.#ownImports--;
				throw e;
			});
		this.timings.import += performance.now() - ti;
		for (const e of out.errors) this.#skip('?', `refused by the engine: ${e.error}`);
		for (const r of recs) {
			const keep = new Set(r.links.map(linkKey));
			for (const l of local.get(r.id)?.links ?? [])
				if (!keep.has(linkKey(l)))
					await this.engine
						.deleteAssociation({ memory1_id: r.id, memory2_id: String(l.to), type: l.type as never }, { actor: 'sync' })
						.catch(() => undefined);
		}
		// What the engine stored (normalised) is what "unchanged" means from now on.
		for (const r of await this.engine.syncRecords([...arriving, ...sources])) map.fp[r.id] = fingerprint(r);
	}

	/** The decrypted records of the mirror's current documents (unreadable ones left out). */
	async #mirrorRecords(ids: string[]): Promise<SyncRecord[]> {
		if (!ids.length) return [];
		const out: SyncRecord[] = [];
		for (const row of (await this.#local.allDocs({ keys: ids, include_docs: true })).rows) {
			if (!row.doc || checkDoc(row.doc)) continue;
			try {
				const r = asRecord(row.id, await open(this.#key!, row.doc, row.id));
				if (typeof r !== 'string') out.push(r);
			} catch {
				// Skipped when it arrived.
			}
		}
		return out;
	}

	#inScope(r: SyncRecord): boolean {
		return inScopes(r.scope, this.#server?.scopes);
	}

	/** Picks the winner among a document's conflicting revisions and removes the others from the mirror. */
	async #resolve(id: string, doc: any, current: SyncRecord, conflicts: { winner: SyncRecord; loser: SyncRecord }[]): Promise<SyncRecord> {
		const versions: { rev: string; rec: SyncRecord }[] = [{ rev: doc._rev, rec: current }];
		for (const rev of doc._conflicts as string[]) {
			try {
				const other = await this.#local.get(id, { rev });
				const r = asRecord(id, await open(this.#key!, other, id));
				if (typeof r !== 'string') versions.push({ rev, rec: r });
			} catch {
				// Unreadable revisions lose.
			}
		}
		versions.sort((a, b) => compareVersions(b.rec, a.rec) || (a.rev < b.rev ? 1 : -1));
		const [win, ...lose] = versions;
		for (const l of lose) if (fingerprint(l.rec) !== fingerprint(win.rec)) conflicts.push({ winner: win.rec, loser: l.rec });
		const drop = [doc._rev, ...doc._conflicts].filter((r: string) => r !== win.rev).map((r: string) => ({ _id: id, _rev: r, _deleted: true }));
		// Losing revisions left in place are dropped again at the next reconcile.
		await this.#local.bulkDocs(drop).catch(() => undefined);
		return win.rec;
	}

	/**
	 * Keeps the map (fingerprints, checkpoint) at most every 5 s: it holds an entry per memory, and
	 * losing the last seconds of it costs only a re-check (a record re-sent or re-read is a no-op).
	 */
	#scheduleSave(): void {
		if (this.#saveTimer !== undefined) return;
		this.#saveTimer = setTimeout(() => {
			this.#saveTimer = undefined;
			void this.#serial(() => this.#saveMap());
		}, 5_000);
	}

	async #saveMap(): Promise<void> {
		if (!this.#local) return;
		this.#map.unsent = [...this.#unsent];
		const res = await this.#local.put(this.#map).catch(async () => {
			// No stored map: the put below creates it.
			const cur = await this.#local.get(MAP_DOC).catch(() => undefined);
			return this.#local.put({ ...this.#map, _rev: cur?._rev });
		});
		if (res?.rev) this.#map._rev = res.rev;
	}

	/** The server this controller syncs with. */
	get server(): SyncServer | undefined {
		return this.#server;
	}
}

/** Comlink needs listeners wrapped with proxy(); the caller passes its own wrapper. */
let proxied = <T>(f: T): T => f;
export function setListenerWrapper(w: <T>(f: T) => T): void {
	proxied = w;
}

/** A short stable name for a server + database (the mirror's IndexedDB name). */
function fingerprintOf(s: string): string {
	let h = 2166136261;
	for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
	return (h >>> 0).toString(36);
}

/**
 * Sync across devices through a CouchDB server (docs/DESIGN.md § Sync, docs/SYNC.md).
 *
 * A PouchDB database in this browser (its own IndexedDB) mirrors the server's: one encrypted
 * document per memory (id = memory id, body = a Box over the memory's SyncRecord). PouchDB
 * replicates it both ways (replication.ts). This controller starts and stops the parts that move
 * records between that mirror and the engine:
 * - out (outgoing.ts): the engine's change events → the changed memories' records → encrypt → put / delete;
 * - in (incoming.ts): the mirror's changes feed → decrypt → apply through the engine's import (ids,
 *   timestamps and updated_at kept; derived data recomputed) or delete.
 * The echo guard is a fingerprint per memory of the last record sent or applied (sync-map.ts): a
 * change whose record matches it is not sent again, and a remote change matching it is not
 * applied again. All their work goes through one queue, in order.
 *
 * @example
 * const sync = new SyncController(engine, PouchDB, deviceId);
 * sync.onStatus((s) => console.log(s.status));
 * await sync.start({ url: 'http://127.0.0.1:5984', database: 'engram' }, 'passphrase');
 */
import type { ChangeEvent } from '../engine/types';
import { authHeaders, checkServer, databaseUrl, REQUEST_TIMEOUT_MS, testConnection, type SyncServer } from './connection';
import type { PouchCtor, SyncContext, SyncEngine, SyncTimings } from './context';
import { Compaction } from './compaction';
import { checkKey, newSaltDoc, SALT_DOC_ID, SyncError, unlockSaltDoc } from './crypto';
import { Incoming } from './incoming';
import { Outgoing } from './outgoing';
import { inScopes } from './records';
import { Replication } from './replication';
import { errorMessage, SyncStatusTracker, type SyncStatus } from './status';
import { SyncMap } from './sync-map';

export type { PouchCtor, SyncEngine } from './context';
export type { SyncStatus } from './status';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Syncs one device's memories with a server's database, live both ways, until `stop`. One run at
 * a time: `start` or `startWithKey` while running throws. Status changes (and skipped documents)
 * reach `onStatus` listeners; nothing else is thrown once a run started.
 */
export class SyncController {
	#status: SyncStatusTracker;
	#map: SyncMap;
	#ctx: SyncContext;
	#replication: Replication;
	#in: Incoming;
	#out: Outgoing;
	#compaction: Compaction;
	#queue: Promise<unknown> = Promise.resolve();
	#unsubscribe: (() => void) | undefined;
	/** Where the time goes (ms), for bench/sync.ts. */
	readonly timings: SyncTimings = { apply: 0, open: 0, import: 0, write: 0, reconcile: 0, batches: 0, docs: 0 };

	constructor(
		private readonly engine: SyncEngine,
		private readonly Pouch: PouchCtor,
		private readonly device: string,
	) {
		this.#status = new SyncStatusTracker(engine);
		this.#map = new SyncMap(
			() => this.#ctx.local,
			(fn) => this.#serial(fn),
		);
		this.#ctx = {
			engine,
			device,
			local: undefined,
			remote: undefined,
			key: undefined,
			server: undefined,
			map: this.#map,
			status: this.#status,
			timings: this.timings,
			serial: (fn) => this.#serial(fn),
			resend: (ids) => this.#out.add(ids),
			waiting: () => this.#map.unsent.size + this.#out.pending,
			caughtUp: () => this.#compaction.soon(),
			recovered: () => this.#replication.recovered(),
			unapplied: () => this.#in.unapplied,
		};
		this.#replication = new Replication(this.#ctx);
		this.#in = new Incoming(this.#ctx);
		this.#out = new Outgoing(this.#ctx);
		this.#compaction = new Compaction(
			this.#ctx,
			async () => {
				await this.#in.delivered((await this.#ctx.local?.info())?.update_seq);
				this.#in.flush();
			},
			() => this.#ctx.waiting() > 0 || this.#out.batched > 0,
		);
	}

	get status(): SyncStatus {
		return this.#status.current;
	}

	onStatus(l: (s: SyncStatus) => void): () => void {
		return this.#status.onStatus(l);
	}

	/** Runs tasks one at a time, in order. */
	#serial<T>(fn: () => Promise<T>): Promise<T> {
		const run = this.#queue.then(fn, fn);
		this.#queue = run.catch((e: unknown) => this.#status.set({ status: 'error', error: errorMessage(e) }));
		return run;
	}

	/**
	 * Connects, unlocks (or sets up) the database's key, then syncs live both ways. A wrong
	 * passphrase throws before anything is written on this device. Resolves with the key, which
	 * the caller may keep (non-extractable) to resume later with `startWithKey`.
	 */
	async start(server: SyncServer, passphrase: string): Promise<CryptoKey> {
		if (this.#replication.running) throw new SyncError('server', 'Sync is already running on this device.');
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
		// A mirror left from an earlier run (sync stopped by an error, the database re-created since)
		// holds the old salt document and ciphertext of the old key: replicating it would put them
		// into this database. A start with a passphrase begins from an empty mirror.
		await new this.Pouch(mirrorName(server)).destroy().catch(() => undefined);
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
		if (this.#replication.running) throw new SyncError('server', 'Sync is already running on this device.');
		const bad = checkServer(server);
		if (bad) throw new SyncError('server', bad);
		const remote = this.#remoteFor(server);
		const salt = await remote.get(SALT_DOC_ID).catch((e: { status?: number }) => {
			if (e.status === 401) throw new SyncError('unauthorized', 'The server refused the user and password (401): stop syncing and set it up again.');
			if (e.status === 403) throw new SyncError('forbidden', `This user may not use the database "${server.database.trim()}" (403).`);
			return e.status === 404 ? null : undefined; // anything else: not reachable now, trust the kept key
		});
		if (salt === null)
			throw new SyncError(
				'bad-salt',
				`The database has no ${SALT_DOC_ID} document any more (deleted or re-created): enter a passphrase and Start syncing to set it up again (every memory of this device is sent again).`,
			);
		if (salt && !(await checkKey(key, salt)))
			throw new SyncError(
				'wrong-passphrase',
				"The database's passphrase changed since this device joined: stop syncing and start again with the new one.",
			);
		await this.#begin(server, remote, key);
	}

	/**
	 * The server's database. Once a request finds the database itself missing (deleted under this
	 * device), every later request through it is refused: a database re-created empty under the
	 * same name must not receive this device's documents under a key it does not hold.
	 */
	#remoteFor(server: SyncServer): any {
		let gone = false;
		const goneError = () =>
			new SyncError(
				'no-database',
				`The database "${server.database.trim()}" is gone from the server (deleted): sync stopped and sends nothing more; every memory stays on this device. To sync again: Stop syncing this device, create the database (or choose another) and Start syncing.`,
			);
		return new this.Pouch(databaseUrl(server), {
			skip_setup: true,
			fetch: async (u: string, o: RequestInit = {}) => {
				if (gone) throw goneError();
				// A request that gets no answer fails after a while, and replication retries it.
				const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
				const res = await fetch(u, {
					...o,
					headers: { ...Object.fromEntries(new Headers(o.headers).entries()), ...authHeaders(server) },
					signal: o.signal ? AbortSignal.any([o.signal, timeout]) : timeout,
				});
				// CouchDB: "Database does not exist."; PouchDB Server: "no_db_file". A missing document says "missing" or "deleted".
				if (
					res.status === 404 &&
					DB_MISSING.test(
						await res
							.clone()
							.text()
							.catch(() => ''),
					)
				) {
					gone = true;
					if (this.#ctx.remote && this.#replication.running) {
						this.#replication.cancel();
						this.#status.set({ status: 'error', error: goneError().message });
					}
				}
				return res;
			},
		});
	}

	async #begin(server: SyncServer, remote: any, key: CryptoKey): Promise<void> {
		const ctx = this.#ctx;
		ctx.key = key;
		ctx.remote = remote;
		ctx.server = server;
		// Not compacted whole: a merge needs the version two conflicting ones came from; old
		// versions go by `Compaction` (the last ones below each leaf stay).
		ctx.local = new this.Pouch(mirrorName(server));
		await this.#map.load(ctx.local);
		await this.#rescope(server);
		this.#status.set({ on: true, status: 'syncing', error: undefined, skipped: [] });
		this.#unsubscribe = await this.engine.subscribe(proxied((e: ChangeEvent) => this.#onEngineEvent(e)));
		// Progress only for a first sync: a resumed one reads just what changed since its checkpoint.
		let pullFirst = false;
		if (!this.#map.since) {
			// Only for the progress bar's total; replication reports its own errors.
			const info = await remote.info().catch(() => ({ doc_count: 0 }));
			const total = Math.max(0, (info.doc_count ?? 1) - 1);
			this.#status.set({ progress: { done: 0, total } });
			pullFirst = total > 0;
		}
		// What changed here while sync was off goes out first. A first sync with a database that
		// already holds records pulls them all first: a device joining with memories the database
		// already has (restored from an export, or a profile that synced before) would otherwise
		// send them again, each a conflict with the server's copy. Then it compares.
		if (pullFirst) {
			this.#out.hold();
			this.#in.listen();
			void this.#pullFirst();
		} else {
			await this.#serial(() => this.#out.reconcile());
			this.#in.listen();
			this.#replication.start();
		}
		globalThis.addEventListener?.('online', this.#replication.online);
	}

	/**
	 * The scopes chosen changed since this mirror was last used. A memory outside the new scopes is forgotten by the map, not deleted from
	 * the server: it left the filter, not the other devices (before, the next comparison sent its
	 * deletion and every other device deleted it). The changes feed is read again from the start,
	 * so memories of a scope now included that the server already holds are taken in.
	 */
	async #rescope(server: SyncServer): Promise<void> {
		const scopes = [...(server.scopes ?? [])].sort();
		const map = this.#map;
		const before = map.scopes;
		map.scopes = scopes;
		// A map from before the scopes were kept: taken as unchanged (re-reading the whole feed once
		// on every device after an upgrade would cost a full decryption for nothing).
		if (!map.since || !before || before.join('\u0000') === scopes.join('\u0000')) return;
		for (const r of await this.engine.syncRecords(Object.keys(map.fp))) if (!inScopes(r.scope, scopes)) delete map.fp[r.id];
		map.since = 0;
		await map.save();
	}

	/**
	 * A first sync: one pull of everything the server holds, every pulled document through the
	 * incoming path, then the comparison that sends what differs, then live replication. While
	 * the pull runs nothing goes out (`hold`). If the pull fails (offline) or is cancelled
	 * (paused), live replication takes over and its first catch-up pulls once more (the live
	 * "paused" alone can come before anything was pulled) before comparing.
	 */
	async #pullFirst(): Promise<void> {
		const ctx = this.#ctx;
		const settle = async (checkpoint: boolean): Promise<boolean> => {
			try {
				if (!(await this.#replication.pullOnce(checkpoint))) return false;
			} catch {
				return false; // not reachable: live replication retries, and reports it
			}
			if (!ctx.local) return true; // stopped meanwhile
			await this.#in.delivered((await ctx.local.info()).update_seq);
			this.#in.flush();
			this.#out.release();
			// A failure was reported to the status by the queue.
			await this.#serial(() => this.#out.reconcile()).catch(() => undefined);
			return true;
		};
		const settled = await settle(true);
		if (!ctx.local) return;
		if (!settled) {
			const retry = async (): Promise<void> => {
				if (ctx.local && !(await settle(false))) this.#replication.whenCaughtUp(retry);
			};
			this.#replication.whenCaughtUp(retry);
		}
		if (this.#status.current.status !== 'paused' && !this.#replication.running) this.#replication.start();
	}

	/** Pauses replication (local writes still reach the mirror and go out on resume). */
	pause(): void {
		this.#replication.cancel();
		this.#status.set({ status: 'paused' });
	}

	resume(): void {
		if (!this.#ctx.local || this.#replication.running) return;
		this.#replication.start();
	}

	/**
	 * Stops syncing this device: replication and listeners end; local memories stay. The mirror is
	 * destroyed: its documents are encrypted with this run's key and its checkpoints describe this
	 * run's database, so a later start (another passphrase, or the database re-created) must not
	 * push them.
	 */
	async stop(): Promise<void> {
		globalThis.removeEventListener?.('online', this.#replication.online);
		this.#out.clear();
		this.#compaction.cancel();
		this.#replication.cancel(true);
		this.#in.cancel();
		this.#unsubscribe?.();
		this.#unsubscribe = undefined;
		// Stopping: queued work's errors were reported to the status when they happened.
		await this.#queue.catch(() => undefined);
		// A mirror that is already gone: nothing left to do.
		await this.#ctx.local?.destroy().catch(() => undefined);
		this.#ctx.local = this.#ctx.remote = this.#ctx.key = undefined;
		this.#status.set({ on: false, status: 'off', pending: 0, error: undefined, progress: undefined });
	}

	/** Settles: resolves once queued work (incoming and outgoing) is done. For tests. */
	async idle(): Promise<void> {
		// Waits only: queued work's errors went to the status when they happened.
		this.#out.flush();
		this.#in.flush();
		await this.#queue.catch(() => undefined);
	}

	#onEngineEvent(e: ChangeEvent): void {
		if (!this.#ctx.local) return;
		if ((e.kind === 'memories' || e.kind === 'associations') && e.ids?.length) {
			const now = Date.now();
			for (const id of e.ids) this.#map.writtenAt.set(id, now);
			this.#out.add(e.ids);
		}
		// The id-less event of sync's own import: what it wrote is already accounted for.
		else if (e.kind === 'memories' && this.#in.claimOwnImport()) return;
		else if (e.kind === 'memories' || e.kind === 'wipe') this.#out.scheduleReconcile();
	}

	/** The server this controller syncs with. */
	get server(): SyncServer | undefined {
		return this.#ctx.server;
	}
}

/** The body of a 404 for a database that does not exist (not a missing document). */
const DB_MISSING = /no_db_file|database does not exist/i;

/** Comlink needs listeners wrapped with proxy(); the caller passes its own wrapper. */
let proxied = <T>(f: T): T => f;
export function setListenerWrapper(w: <T>(f: T) => T): void {
	proxied = w;
}

/** The mirror's IndexedDB name for a server + database. */
function mirrorName(server: SyncServer): string {
	return `engram-sync-${fingerprintOf(databaseUrl(server))}`;
}

/** A short stable name for a server + database (the mirror's IndexedDB name). */
function fingerprintOf(s: string): string {
	let h = 2166136261;
	for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
	return (h >>> 0).toString(36);
}

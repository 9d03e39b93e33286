/**
 * PouchDB's live replication between the mirror and the server, and what it means for the
 * status: syncing, synced, offline (a request failing and being retried), or an error that
 * ends it (401, 403).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import type { SyncContext } from './context';
import { errorMessage } from './status';

/**
 * How long the server holds a live pull's request open when nothing changes (CouchDB's `timeout`),
 * well within the request time limit (connection.ts REQUEST_TIMEOUT_MS).
 */
const LONG_POLL_MS = 25_000;

const UNAUTHORIZED =
	'The server refused the user and password (401): sync stopped. Every memory stays on this device; to sync again, Stop syncing this device and Start syncing with the current password and the passphrase.';
const OFFLINE = 'The server cannot be reached; changes wait here and go out when it is back.';

/**
 * Runs replication for a controller's context (`ctx.local` ↔ `ctx.remote`, both set before
 * `start`). At most one replication runs: `start` while running is the caller's mistake.
 */
export class Replication {
	#repl: any;
	/** A one-shot pull (`pullOnce`) in progress. */
	#once: any;
	#failing = { push: false, pull: false };
	/** Both directions caught up, and nothing moved since. */
	#idle = false;
	/** Replication ended on an error (401, 403): nothing clears it but a new start. */
	#fatal = false;
	/** Work to run the next time both directions are caught up, before saying "synced". */
	#onCaughtUp: (() => Promise<void>)[] = [];

	constructor(private readonly ctx: SyncContext) {}

	/** Whether replication runs (started and neither paused nor stopped). */
	get running(): boolean {
		return !!this.#repl;
	}

	/** Starts live replication both ways, retrying failed requests (1 s, doubling to 30 s). */
	start(): void {
		const { map } = this.ctx;
		// A cancelled replication's late events (a request failing as it ends) must not overwrite
		// the status its canceller set (paused, or an error such as the database being gone).
		// (`repl` is read only by handlers, which run after it is set.)
		const live = () => this.#repl === repl;
		this.#idle = this.#fatal = false;
		const st = this.ctx.status;
		const status = { set: (s: Parameters<typeof st.set>[0]) => live() && st.set(s), skip: st.skip.bind(st), current: () => st.current };
		// Retries back off from 1 s to at most 30 s (PouchDB's default grows to 10 minutes); the
		// browser saying it is online again retries at once.
		const repl: any = (this.#repl = this.ctx.local
			.sync(this.ctx.remote, {
				live: true,
				retry: true,
				batch_size: 500,
				timeout: LONG_POLL_MS,
				back_off_function: (d: number) => (d ? Math.min(d * 2, 30_000) : 1_000),
			})
			.on('change', (info: any) => {
				this.#idle = false;
				if (info.direction === 'push') {
					for (const d of info.change?.docs ?? []) map.unsent.delete(d._id);
					status.set({ status: 'syncing', pending: this.ctx.waiting() });
				} else status.set({ status: 'syncing', pending: info.change?.pending ?? 0 });
			})
			.on('active', () => {
				this.#idle = false;
				// A retry after an error stays "offline" until it gets through.
				if (!this.#failing.push && !this.#failing.pull) status.set({ status: 'syncing' });
			})
			.on('paused', () => {
				if (!live()) return;
				if (this.#failing.push || this.#failing.pull) status.set({ status: 'offline', pending: this.ctx.waiting(), error: OFFLINE });
				else this.#caughtUp();
			})
			.on('denied', (err: any) => status.skip(err?.id ?? '?', `the server refused it: ${err?.message ?? err?.reason ?? 'denied'}`))
			.on('error', (err: any) => {
				this.#fatal = true;
				status.set({
					status: 'error',
					error: err?.status === 401 ? UNAUTHORIZED : `Sync stopped: ${errorMessage(err)}`,
				});
			}));
		// Sync's own "paused" carries no error: each direction's events tell a failing request
		// (PouchDB retries it) from being caught up.
		for (const dir of ['push', 'pull'] as const) {
			this.#failing[dir] = false;
			this.#repl[dir]
				.on('requestError', (err: any) => {
					if (err?.status === 401 || err?.status === 403) return; // PouchDB ends with "error" for these
					this.#failing[dir] = true;
					status.set({ status: 'offline', pending: this.ctx.waiting(), error: OFFLINE });
				})
				.on('paused', (err: unknown) => {
					this.#failing[dir] = !!err;
					if (live() && !err && status.current().status === 'offline' && !this.#failing.push && !this.#failing.pull) this.#caughtUp();
				});
		}
	}

	/**
	 * Runs `fn` once, the next time both directions are caught up, and says "synced" only after it
	 * (unless it wrote something, which replication then takes out and says so).
	 */
	whenCaughtUp(fn: () => Promise<void>): void {
		this.#onCaughtUp.push(fn);
	}

	/**
	 * Pulls everything the server holds now into the mirror, once, and resolves true when it read
	 * all of it (false: cancelled; a document the mirror could not store does not count, or a
	 * device whose disk refuses one would never start sending). A failing request rejects (no
	 * retries). Unlike live
	 * replication's "paused", which can come before the pull has even started (PouchDB's sync
	 * starts both directions as paused, so an empty push pausing first reports both caught up),
	 * its end means the mirror holds the server's state. `checkpoint: false` reads the server's
	 * feed from the start without touching the checkpoint live replication keeps (for a second
	 * try while live replication runs).
	 */
	async pullOnce(checkpoint = true): Promise<boolean> {
		const once = (this.#once = this.ctx.local.replicate.from(this.ctx.remote, { batch_size: 500, ...(checkpoint ? {} : { checkpoint: false }) }));
		try {
			const res = await once;
			return res?.status === 'complete';
		} finally {
			if (this.#once === once) this.#once = undefined;
		}
	}

	/** Ends replication (if running); the status is the caller's to set. `forget`: drops the work waiting to be caught up (sync stops). */
	cancel(forget = false): void {
		if (forget) this.#onCaughtUp = [];
		this.#once?.cancel();
		this.#once = undefined;
		this.#repl?.cancel();
		this.#repl = undefined;
	}

	/** Back online (the browser says so): retry now rather than after the back-off. For the window's "online" event. */
	readonly online = (): void => {
		if (!this.#repl || this.ctx.status.current.status !== 'offline') return;
		this.#repl.cancel();
		this.start();
	};

	/**
	 * Every incoming batch is applied (one that failed, on a full disk, went through on its retry):
	 * when replication is idle and the status still shows that task's error, or "syncing" because
	 * batches were unapplied when it caught up, says what holds now (synced, or what still waits),
	 * as being caught up would have.
	 */
	recovered(): void {
		const s = this.ctx.status.current.status;
		if (this.#repl && this.#idle && !this.#fatal && (s === 'error' || s === 'syncing')) this.#caughtUp();
	}

	/** Both directions caught up: nothing written here waits any more. */
	#caughtUp(): void {
		this.#idle = true;
		// Changes pulled into the mirror and not applied yet (a batch on its way, or one that failed
		// and waits for its retry): not "synced". A failed batch's error stays; `recovered` says
		// what holds once they are applied.
		if (this.ctx.unapplied()) {
			if (this.ctx.status.current.status !== 'error') this.ctx.status.set({ status: 'syncing' });
			return;
		}
		const then = this.#onCaughtUp.splice(0);
		if (then.length) {
			void (async () => {
				for (const fn of then) await fn();
				if (this.#repl && !this.ctx.map.unsent.size) this.#caughtUp();
			})();
			return;
		}
		this.ctx.map.unsent.clear();
		this.ctx.map.scheduleSave();
		const pendingOut = this.ctx.waiting(); // what is left: batches on their way to the mirror
		this.ctx.status.set({ status: pendingOut ? 'syncing' : 'synced', error: undefined, pending: pendingOut, last_synced: new Date().toISOString() });
		if (!pendingOut) this.ctx.caughtUp();
	}
}

/**
 * Sync's status: what the UI shows (listeners get every change) and what memory_stats reads
 * after a reload (a setting, written at most once a second).
 */
import type { EngineApi, SyncState } from '../engine/types';

/** The setting memory_stats reads (engine/stats-ops.ts SYNC_STATE_KEY). */
const SYNC_STATE_KEY = 'sync_state';

/** The live state of sync on this device. */
export interface SyncStatus extends SyncState {
	/** Documents skipped (undecryptable, malformed, foreign), newest first, at most 50. */
	skipped: { id: string; reason: string }[];
	/** First-sync progress: records applied so far of those the server had. */
	progress?: { done: number; total: number };
}

/**
 * Holds the status and tells listeners of each change. Saving it to the engine's setting never
 * fails loudly: it is only there to show the last state after a reload.
 */
export class SyncStatusTracker {
	#status: SyncStatus = { on: false, status: 'off', pending: 0, skipped: [] };
	#listeners = new Set<(s: SyncStatus) => void>();
	#stateTimer: ReturnType<typeof setTimeout> | undefined;

	constructor(private readonly engine: Pick<EngineApi, 'setSetting'>) {}

	/** The current status (a new object after every change; never mutated). */
	get current(): SyncStatus {
		return this.#status;
	}

	/** Calls `l` with the current status now and with every later one; returns the unsubscribe. */
	onStatus(l: (s: SyncStatus) => void): () => void {
		this.#listeners.add(l);
		l(this.#status);
		return () => this.#listeners.delete(l);
	}

	/** Merges `p` into the status and tells the listeners. */
	set(p: Partial<SyncStatus>): void {
		const prev = this.#status;
		this.#status = { ...prev, ...p };
		for (const l of this.#listeners) l(this.#status);
		// memory_stats reads the state from a setting: written when sync starts or stops at once,
		// otherwise at most once a second (a write per status flip would compete with every store).
		if (prev.on !== this.#status.on) this.#saveState();
		else if (prev.status !== this.#status.status || prev.error !== this.#status.error || prev.pending !== this.#status.pending)
			this.#stateTimer ??= setTimeout(() => this.#saveState(), 1_000);
	}

	/** Lists a document sync left out, with why (newest first, the last 50 kept). */
	skip(id: string, reason: string): void {
		this.set({ skipped: [{ id, reason }, ...this.#status.skipped].slice(0, 50) });
	}

	#saveState(): void {
		clearTimeout(this.#stateTimer);
		this.#stateTimer = undefined;
		const { on, status, last_synced, pending, error } = this.#status;
		// Saved only to show the state after a reload; the live status is what the UI reads.
		void this.engine.setSetting(SYNC_STATE_KEY, { on, status, last_synced, pending, error }).catch(() => undefined);
	}
}

/** What a full disk stops, in words. */
const DISK_FULL =
	"This device's storage is full: changes from the server wait until there is room. Every memory here is intact; make room (delete memories you no longer need, or other sites' data in the browser's settings), then reload the page.";

/**
 * Words for an error that stopped a sync task. A full disk is said as such: PouchDB reports it
 * as "unknown" with the reason QuotaExceededError, the engine as `quota_exceeded`.
 */
export function errorMessage(e: unknown): string {
	const x = (e ?? {}) as { name?: string; reason?: string; code?: string; message?: string };
	if ([x.name, x.reason, x.code].some((v) => v === 'QuotaExceededError' || v === 'quota_exceeded')) return DISK_FULL;
	if (x.name === 'indexed_db_went_bad') return `This device's sync database refused a write (${x.reason ?? 'no reason given'}); sync tries again.`;
	return x.message ?? String(e);
}

/**
 * Activity entries that need not share a transaction with anything: the 'recalled' entry of
 * each recall. They are written together, at most once per `delayMs`, instead of one write
 * transaction per recall, which in a browser would queue against the next store's transaction.
 * Readers of the log flush first, so they never miss an entry; losing the last second of
 * recall entries to a crash loses no memory.
 */
import { appendActivity } from '../store/activity';
import type { EngramDB } from '../store/db';
import type { ActivityRow } from '../store/rows';

/** The default quiet spell before pending entries are written. */
export const DEFERRED_LOG_DELAY_MS = 1000;

export class DeferredLog {
	readonly #db: EngramDB;
	readonly #delayMs: number;
	#pending: ActivityRow[] = [];
	#timer: ReturnType<typeof setTimeout> | undefined;
	#writing: Promise<void> = Promise.resolve();

	constructor(db: EngramDB, delayMs = DEFERRED_LOG_DELAY_MS) {
		this.#db = db;
		this.#delayMs = delayMs;
	}

	/** Queues an entry; it is written within `delayMs`. */
	add(entry: ActivityRow): void {
		this.#pending.push(entry);
		this.#timer ??= setTimeout(() => void this.flush(), this.#delayMs);
	}

	/** Writes every pending entry (one transaction) and resolves once it is written. */
	flush(): Promise<void> {
		if (this.#timer !== undefined) clearTimeout(this.#timer);
		this.#timer = undefined;
		const rows = this.#pending;
		this.#pending = [];
		// A failed write loses only these log entries; it must not fail a later reader.
		if (rows.length) this.#writing = this.#writing.then(() => appendActivity(this.#db, rows)).catch(() => undefined);
		return this.#writing;
	}
}

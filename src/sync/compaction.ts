/**
 * Bounds the mirror. A merge needs the version two conflicting ones came from (merge.ts), so the
 * mirror is not compacted whole; but kept whole it holds one encrypted body per version it ever
 * saw (one memory edited 500 times: 501 bodies). This keeps, per document, the bodies of its
 * leaves and of the `KEEP_VERSIONS` revisions below each leaf, and drops older ones: a base a
 * merge still needs is the version a device last had before the edits now conflicting, close to
 * a leaf. It runs only when both directions are caught up with nothing waiting to go out (a
 * version edited here and not yet sent keeps its base however many edits deep), at most every
 * 10 s, and reads only the documents changed since its last run.
 */
import type { SyncContext } from './context';

/** Revisions kept below each leaf (older bodies are dropped; their ids stay in the revision tree). */
export const KEEP_VERSIONS = 10;
/** No two runs closer than this. */
const MIN_GAP_MS = 10_000;
/** Documents compacted per task of the controller's queue. */
const CHUNK = 200;
/** Where the last run's position in the changes feed is kept (never replicated). */
const DONE_DOC = '_local/engram-compaction';

export class Compaction {
	#timer: ReturnType<typeof setTimeout> | undefined;
	#last = -Infinity;
	#running = false;

	/**
	 * @param settle resolves once the changes the mirror holds now have been queued for the engine
	 *   (a merge among them still finds its base: the run queues behind them)
	 * @param busy whether a change made here waits to go out (its base must stay, however deep)
	 */
	constructor(
		private readonly ctx: SyncContext,
		private readonly settle: () => Promise<void>,
		private readonly busy: () => boolean,
	) {}

	/** Caught up with nothing waiting: compacts soon (now, or 10 s after the run before). */
	soon(): void {
		if (this.#timer !== undefined || this.#running) return;
		this.#timer = setTimeout(
			() => {
				this.#timer = undefined;
				void this.run();
			},
			Math.max(0, MIN_GAP_MS - (performance.now() - this.#last)),
		);
	}

	/** Drops a run not yet started (sync stops). */
	cancel(): void {
		clearTimeout(this.#timer);
		this.#timer = undefined;
	}

	/** Drops the bodies more than `KEEP_VERSIONS` below every leaf, of the documents changed since the last run. */
	async run(): Promise<void> {
		const local = this.ctx.local;
		if (!local || this.#running || this.busy()) return;
		this.#running = true;
		try {
			await this.settle();
			const done = await local.get(DONE_DOC).catch(() => ({ _id: DONE_DOC, seq: 0 }));
			const changed = await local.changes({ since: done.seq });
			const ids: string[] = changed.results.map((r: { id: string }) => r.id);
			// Through the queue, a chunk at a time: incoming and outgoing work goes on in between.
			for (let i = 0; i < ids.length; i += CHUNK) {
				const all = await this.ctx.serial(async () => {
					// Stopped, or something written here meanwhile: the rest waits for the next run.
					if (this.ctx.local !== local || this.busy()) return false;
					for (const id of ids.slice(i, i + CHUNK)) if (!this.ctx.map.unsent.has(id)) await local.compactDocument(id, KEEP_VERSIONS);
					return true;
				});
				if (!all) return;
			}
			await local.put({ ...done, seq: changed.last_seq });
		} catch {
			// A failed run only leaves more bodies; the next one retries from the same place.
		} finally {
			this.#last = performance.now();
			this.#running = false;
		}
	}
}

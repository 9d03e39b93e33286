/**
 * The outgoing path: the engine's changes → the changed memories' records → encrypt → put or
 * delete in the mirror (replication takes them to the server). Changes close together go out
 * together, and a record whose fingerprint matches the map's is not sent again.
 */
import type { SyncRecord } from '../engine/types';
import { inScope, type SyncContext } from './context';
import { open, seal } from './crypto';
import { markChanges } from './marks';
import { asRecord, checkDoc, docIdOf, fingerprint } from './records';

/** A batch goes this long after its first change… */
const BATCH_MS = 200;
/** …and at least this long after the batch before it. */
const MIN_GAP_MS = 1_000;

/**
 * Batches the ids the engine reports changed and writes their records to the mirror, through the
 * controller's queue. Every write goes through it, so the map's fingerprints stay in step.
 */
export class Outgoing {
	#outIds = new Set<string>();
	#outTimer: ReturnType<typeof setTimeout> | undefined;
	#reconcileTimer: ReturnType<typeof setTimeout> | undefined;
	#pendingOut = 0;
	/** When the last batch was queued (performance.now()). */
	#lastFlush = -Infinity;
	/** While set, nothing goes out: changes are kept for `release` (a first sync pulling first). */
	#held = false;

	constructor(private readonly ctx: SyncContext) {}

	/** Ids queued to be written and not yet in the mirror. */
	get pending(): number {
		return this.#pendingOut;
	}

	/** Ids changed here and not yet queued for the mirror (the batch being gathered, or held). */
	get batched(): number {
		return this.#outIds.size;
	}

	/**
	 * Adds changed memories to the next batch: it goes at 500 ids, or 200 ms after its first, and
	 * no sooner than 1 s after the batch before it. A lone edit goes out within 200 ms; a stream
	 * of stores (an agent writing one memory per call) costs one batch a second rather than one
	 * per call — each batch is a bulk write to the mirror and a push and pull round of replication
	 * on the page's main thread, which delayed every engine answer (issue 27: store p50 ×2.2 at
	 * 10k memories with a batch per 200 ms).
	 */
	add(ids: string[]): void {
		// Changes close together go out together (one read of their records, one write).
		for (const id of ids) this.#outIds.add(id);
		if (this.#held) return;
		if (this.#outIds.size >= 500) this.flush();
		else this.#outTimer ??= setTimeout(() => this.flush(), Math.max(BATCH_MS, MIN_GAP_MS - (performance.now() - this.#lastFlush)));
	}

	/** A change without ids (an import, a wipe): compares everything, 1 s after the last such change. */
	scheduleReconcile(): void {
		clearTimeout(this.#reconcileTimer);
		this.#reconcileTimer = setTimeout(() => void this.ctx.serial(() => this.reconcile()), 1_000);
	}

	/**
	 * Sends nothing until `release`: a first sync with a database that holds records pulls them
	 * all before it compares. A change sent before its document reached the mirror would go out
	 * as a new document (a `1-` revision) competing with the server's copy.
	 */
	hold(): void {
		this.#held = true;
	}

	/** Ends `hold`; what changed meanwhile goes out with the next batch (the caller reconciles). */
	release(): void {
		this.#held = false;
		if (this.#outIds.size) this.add([]);
	}

	/** Queues the batch now (not while held). */
	flush(): void {
		if (this.#held) return;
		clearTimeout(this.#outTimer);
		this.#outTimer = undefined;
		const ids = [...this.#outIds];
		this.#outIds.clear();
		if (!ids.length) return;
		this.#lastFlush = performance.now();
		const { status } = this.ctx;
		this.#pendingOut += ids.length;
		if (status.current.status === 'offline') status.set({ pending: this.ctx.waiting() });
		void this.ctx
			.serial(() => this.#push(ids))
			.finally(() => {
				this.#pendingOut -= ids.length;
				if (status.current.status === 'offline' || status.current.status === 'paused') status.set({ pending: this.ctx.waiting() });
			});
	}

	/** Drops the batch not yet queued (sync stops). */
	clear(): void {
		this.#held = false;
		clearTimeout(this.#outTimer);
		this.#outTimer = undefined;
		this.#outIds.clear();
	}

	/** Sends what differs from the fingerprints, of every memory in the synced scopes. Run it through the queue. */
	async reconcile(): Promise<void> {
		// Held: the release is followed by a reconcile.
		if (this.#held) return;
		const { map } = this.ctx;
		const recs = (await this.ctx.engine.syncRecords()).filter((r) => inScope(this.ctx, r));
		const present = new Set(recs.map((r) => r.id));
		const gone = Object.keys(map.fp).filter((id) => !present.has(id));
		await this.#write(
			recs.filter((r) => map.fp[r.id] !== fingerprint(r)),
			gone,
		);
	}

	/** Sends what differs from the fingerprints, of the memories named. */
	async #push(ids: string[]): Promise<void> {
		if (!this.ctx.local) return;
		const { map } = this.ctx;
		// A memory moved out of the synced scopes leaves the server as if deleted here.
		const recs = (await this.ctx.engine.syncRecords(ids)).filter((r) => inScope(this.ctx, r));
		const present = new Set(recs.map((r) => r.id));
		const gone = ids.filter((id) => !present.has(id) && map.fp[id] !== undefined);
		await this.#write(
			recs.filter((r) => map.fp[r.id] !== fingerprint(r)),
			gone,
		);
		// A change event that sent nothing (a History entry, an unchanged record) must not bound a later edit's stamp.
		for (const id of ids) map.writtenAt.delete(id);
	}

	/** Encrypts and writes records (and deletions) to the mirror, in one bulk request. */
	async #write(recs: SyncRecord[], gone: string[]): Promise<void> {
		if (!recs.length && !gone.length) return;
		const tw = performance.now();
		await this.#writeTimed(recs, gone);
		this.ctx.timings.write += performance.now() - tw;
	}

	/** A mirror document's record (undefined when there is none, or it does not open: no marks to carry). */
	async #previous(id: string, doc: unknown): Promise<SyncRecord | undefined> {
		if (!doc || checkDoc(doc)) return undefined;
		try {
			const r = asRecord(id, await open(this.ctx.key!, doc as never, docIdOf(id)));
			return typeof r === 'string' ? undefined : r;
		} catch {
			return undefined; // another key's, or damaged: sent without its marks
		}
	}

	async #writeTimed(recs: SyncRecord[], gone: string[]): Promise<void> {
		const { map, status } = this.ctx;
		const key = this.ctx.key!;
		// Documents are named by docIdOf (memory ids CouchDB reserves are escaped); the map by memory id.
		const ids = [...recs.map((r) => docIdOf(r.id)), ...gone.map(docIdOf)];
		const revs = new Map<string, string>();
		/** The version each document holds now (the last one sent or applied here), for its removal marks. */
		const prev = new Map<string, unknown>();
		for (const row of (await this.ctx.local.allDocs({ keys: ids, include_docs: recs.length > 0 })).rows)
			if (row.value && !row.value.deleted) {
				revs.set(row.id, row.value.rev);
				if (row.doc) prev.set(row.id, row.doc);
			}
		const docs: Record<string, unknown>[] = [];
		for (const r of recs) {
			const d = docIdOf(r.id);
			const clock = map.clockFor(r);
			const rec = markChanges(await this.#previous(r.id, prev.get(d)), { ...r, ...map.marks.get(r.id), device: this.ctx.device, clock }, clock);
			map.marks.delete(r.id);
			docs.push({ _id: d, ...(revs.has(d) ? { _rev: revs.get(d) } : {}), ...(await seal(key, rec, d)) });
			map.fp[r.id] = fingerprint(r);
		}
		for (const id of gone) {
			const d = docIdOf(id);
			if (revs.has(d)) docs.push({ _id: d, _rev: revs.get(d), _deleted: true });
			delete map.fp[id];
		}
		const res = await this.ctx.local.bulkDocs(docs);
		for (const r of res) {
			if (r.error) status.skip(r.id, `could not be written to the sync database: ${r.message ?? r.name}`);
			else {
				map.unsent.add(r.id);
				map.written.set(r.id, r.rev);
			}
		}
		if (status.current.status === 'offline' || status.current.status === 'paused') status.set({ pending: this.ctx.waiting() });
		map.scheduleSave();
	}
}

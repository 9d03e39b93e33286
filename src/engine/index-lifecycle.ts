/**
 * The search index's life: restored from the persisted snapshot when it is current, otherwise
 * rebuilt from IndexedDB (memories + the model's stored vectors + associations, never
 * re-embedding), and persisted again, debounced, after writes.
 */
import { linksOut } from '../store/associations';
import type { EngramDB } from '../store/db';
import type { AssociationRow } from '../store/rows';
import type { SnapshotFiles } from '../store/snapshot-files';
import type { StampedSnapshot } from '../store/snapshot-reader';
import { readSnapshot, writeSnapshot, type LoadedSnapshot, type SnapshotPlace } from '../store/snapshots';
import { readStamp } from '../store/settings';
import { toDocMeta, toDocText } from './doc';
import { reads } from './read-gate';
import { warmDateWords } from './search/date-words';
import { createSearchIndex, restoreSearchIndexInSteps } from './search/index';
import type { SnapshotSlices } from './search/snapshot';
import type { SearchIndex } from './search/types';

/** How the index came to be, for health and the tests. */
export type IndexOrigin = 'snapshot' | 'rebuilt';

/**
 * An index and where it came from; `place` is where its snapshot is kept, when it has one, and
 * `stamp` the write stamp a restored snapshot reflects.
 */
export interface LoadedIndex {
	index: SearchIndex;
	origin: IndexOrigin;
	place?: SnapshotPlace;
	stamp?: number;
}

/**
 * The index for `model`: the snapshot when its stamp equals the database's write stamp and it
 * restores cleanly, else a rebuild (which is then persisted as the new snapshot, in `files`
 * when given).
 */
export async function loadIndex(db: EngramDB, model: string, dims: number, files?: SnapshotFiles): Promise<LoadedIndex> {
	const restored = await restoreIndex(db, model, files);
	if (restored) return restored;
	const stamp = await readStamp(db);
	const index = await rebuildIndex(db, model, dims);
	// In one piece: nothing else runs until the engine is ready.
	const place = await persistSnapshot(db, index, stamp, files, false);
	return { index, origin: 'rebuilt', place, stamp };
}

/**
 * The write stamp and the active model's snapshot, as read somewhere other than this engine's
 * connection: the engine worker's helper thread (store/snapshot-reader.ts), which finds the
 * active model itself and may hand over the snapshot sliced (`sliceSnapshot`) instead of whole.
 */
export interface SourcedSnapshot {
	stamp: StampedSnapshot['stamp'];
	snapshot: (Omit<LoadedSnapshot, 'bytes'> & ({ bytes: Uint8Array } | { slices: SnapshotSlices })) | undefined;
}

/** Reads a {@link SourcedSnapshot}. */
export type SnapshotSource = () => Promise<SourcedSnapshot>;

/**
 * The index restored from the active model's snapshot as `source` reads it, before this
 * engine's database is even open; undefined when there is none or it is not current. The caller
 * checks the model and the stamp against the database once it is open.
 */
export async function restoreFromSource(source: SnapshotSource): Promise<LoadedIndex | undefined> {
	const read = source();
	// Awaited below; a failed read must not count as unhandled while this thread warms up.
	read.catch(() => undefined);
	// While the helper thread reads, this one mostly waits (for it and for the database to open):
	// the first recall's one-off costs are paid now rather than after the restore.
	await nextTask();
	warmDateWords();
	const { stamp, snapshot: snap } = await read;
	return snap && snap.stamp === stamp ? restoreBytes(snap, snap.model) : undefined;
}

/**
 * The index restored from `model`'s snapshot when that snapshot is current, else undefined.
 * Needs no embedder, so the engine starts it while the model is still loading.
 */
export async function restoreIndex(db: EngramDB, model: string, files?: SnapshotFiles): Promise<LoadedIndex | undefined> {
	const [stamp, snap] = await Promise.all([readStamp(db), readSnapshot(db, model, files)]);
	if (!snap || snap.stamp !== stamp) return undefined;
	return restoreBytes(snap, model);
}

/** The index in a loaded snapshot, when it decodes and is `model`'s. */
async function restoreBytes(snap: NonNullable<SourcedSnapshot['snapshot']>, model: string): Promise<LoadedIndex | undefined> {
	try {
		const index = await restoreSearchIndexInSteps('slices' in snap ? snap.slices : snap.bytes, nextTask);
		return index.modelId === model ? { index, origin: 'snapshot', place: snap.place, stamp: snap.stamp } : undefined;
	} catch {
		// A snapshot from an older index format: rebuilding is always correct, just slower.
		return undefined;
	}
}

/** Resolves in a later task, after whatever else is queued (a setTimeout of 0). */
export const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** How long a snapshot step waits for recalls in flight before it goes ahead anyway. */
const READS_WAIT_MS = 25;

/** The pause between snapshot steps: recalls in flight finish first (read-gate.ts), then a task. */
const afterReads = () => reads.idle(READS_WAIT_MS).then(nextTask);

/** Rows read per request while rebuilding: getAll pages, far faster than a cursor per row. */
const PAGE = 2_000;

/** A fresh index for `model` filled from IndexedDB, using the memories' vectors of that model. */
export async function rebuildIndex(db: EngramDB, model: string, dims: number): Promise<SearchIndex> {
	const index = createSearchIndex({ modelId: model, dims });
	const links: AssociationRow[] = [];
	// In seq order, as memories were stored: a rebuilt index lists ties (a batch shares one
	// timestamp) in the same order as the index that saw them arrive.
	for (let after = -Infinity; ;) {
		const page = await db.memories.where('seq').above(after).limit(PAGE).toArray();
		for (const row of page) {
			index.upsert(toDocMeta(row), toDocText(row), row.vectors?.[model] ?? null);
			links.push(...linksOut(row));
		}
		if (page.length < PAGE) break;
		after = page[page.length - 1].seq;
	}
	// Edges after every memory, so each finds both its ends.
	for (const a of links) index.addEdge({ from: a.from, to: a.to, type: a.type, strength: a.strength });
	return index;
}

/**
 * Persists the index as the snapshot for its model, recording the stamp it reflects; returns
 * where the bytes went (a file of `files` when given and writable). Encodes and writes the file
 * `inSteps` (a few ms of work, then a task for whatever else is queued) so calls that only read
 * (recalls) run in between; the caller keeps writes out.
 */
export async function persistSnapshot(db: EngramDB, index: SearchIndex, stamp: number, files?: SnapshotFiles, inSteps = true): Promise<SnapshotPlace> {
	const bytes = inSteps ? await index.snapshotInSteps(afterReads) : index.snapshot();
	// The file goes in pieces with the same pauses: its write blocks the worker too.
	return writeSnapshot(db, { model: index.modelId, stamp, bytes, at: new Date().toISOString() }, files, inSteps ? afterReads : undefined);
}

/**
 * Debounces snapshot writes: waits for a quiet spell that grows with the index (a 100k index
 * is tens of MB to serialise), but never longer than `maxWaitMs` under a steady stream of writes.
 * When the spell ends while an agent is searching (a read within `readQuietMs`), it waits until
 * the reads pause too: the snapshot's steps, its file flush and the garbage they leave cost a
 * search that lands among them tens of ms (the agent path's p99). `maxWaitMs` bounds this wait as well.
 */
export class SnapshotScheduler {
	#timer: ReturnType<typeof setTimeout> | undefined;
	#firstPending = 0;
	#pending = false;

	constructor(
		private readonly save: (now: boolean) => Promise<void>,
		private readonly size: () => number,
		private readonly baseMs = 2_000,
		private readonly maxWaitMs = 120_000,
		private readonly readsQuietFor: (now: number) => number = () => Infinity,
		private readonly readQuietMs = 1_000,
	) {}

	/** A write committed: (re)start the quiet-spell timer. */
	schedule(): void {
		const now = Date.now();
		if (!this.#pending) this.#firstPending = now;
		this.#pending = true;
		const quiet = Math.min(60_000, this.baseMs + this.size() * 0.2);
		const delay = Math.max(0, Math.min(quiet, this.#firstPending + this.maxWaitMs - now));
		this.#arm(delay);
	}

	#arm(delay: number): void {
		if (this.#timer) clearTimeout(this.#timer);
		this.#timer = setTimeout(() => this.#due(), delay);
		// In Node, a pending snapshot must not keep the process alive; close() flushes it.
		(this.#timer as { unref?: () => void }).unref?.();
	}

	/** The quiet spell is over: save, unless reads are under way and the longest wait is not reached. */
	#due(): void {
		const now = Date.now();
		const quiet = this.readsQuietFor(now);
		const left = this.#firstPending + this.maxWaitMs - now;
		if (this.#pending && quiet < this.readQuietMs && left > 0) return this.#arm(Math.min(left, Math.max(50, this.readQuietMs - quiet)));
		void this.flush();
	}

	/** Writes the snapshot now if one is pending; `now`: encoded in one piece (closing), not in steps. */
	async flush(now = false): Promise<void> {
		if (this.#timer) clearTimeout(this.#timer);
		this.#timer = undefined;
		if (!this.#pending) return;
		this.#pending = false;
		await this.save(now);
	}

	/** Drops a pending snapshot (the database is closing or was wiped). */
	cancel(): void {
		if (this.#timer) clearTimeout(this.#timer);
		this.#timer = undefined;
		this.#pending = false;
	}
}

/**
 * Keeps the in-memory search index in step with IndexedDB writes. `writeIndexed` runs a write
 * transaction and, once its last request has succeeded (or, for a writer that says so, once its
 * last request has been issued), mirrors the change into the index while IndexedDB is still
 * writing and committing (the index update, about 0.4 ms of a single store at 10k memories, no
 * longer waits for the storage process). Only a successful commit
 * is announced (cross-tab notice, snapshot scheduling); a commit that fails after all puts the
 * touched records back in the index as the database still has them.
 */
import type { AssociationType } from '../core/schemas';
import type { MemoryRow } from '../store/rows';
import type { AssociationRow } from '../store/rows';
import type { EngineContext } from './context';
import { reportFailure } from './background';
import { applyNotice } from './cross-tab';
import { toDocMeta, toDocText } from './doc';
import { withHeldRequests } from './request-ids';

/** What one committed write changed, in the order it is applied: removals, upserts, edges. */
export interface IndexChange {
	/** Memories to (re)index with their active-model vector (null = none). */
	upserts: { row: MemoryRow; vector: Float32Array | null }[];
	edges: AssociationRow[];
	removedIds?: string[];
	removedEdges?: AssociationRow[];
	/** The write stamp the transaction set; undefined when it changed nothing indexed. */
	stamp?: number;
}

/**
 * Runs `fn` in one write transaction (see EngramDB.write) that fills `change`, and keeps the
 * index in step: mirrored while IndexedDB commits, announced once it has. A writer that knows
 * its whole change before its last requests have succeeded calls `complete()` then: the index
 * is updated while the storage process is still writing, instead of after (a batch store's
 * entity and last row writes take about as long as its index update). Should the transaction
 * fail afterwards, the touched records are read back as the database still has them. Once the
 * commit is asked for, nothing fails the write: it can no longer be aborted, so an error would
 * answer "refused" for a write that lands (an index update that fails then reads the records
 * back too). Callers hold the engine's write lock.
 */
export async function writeIndexed<T>(ctx: EngineContext, change: IndexChange, fn: (complete: () => void) => Promise<T>): Promise<T> {
	let mirrored = false;
	const complete = () => {
		if (mirrored) return;
		mirrored = true;
		mirror(ctx, change);
	};
	// Set when mirroring failed after the commit was asked for: the write can no longer be undone.
	let unmirrored = false;
	try {
		// Request ids a full-disk delete could not record ride along (request-ids.ts).
		const out = await withHeldRequests(ctx, (recordHeld) =>
			ctx.db.write(async () => {
				await recordHeld();
				const result = await fn(complete);
				ctx.db.commitNow();
				// Nothing may fail the callback from here: the commit is under way and cannot be
				// aborted, so a failure would answer "refused" for a write that lands.
				try {
					complete();
				} catch {
					unmirrored = true;
				}
				return result;
			}),
		);
		// Committed: an index the change did not fully reach reads the records back.
		if (unmirrored) await applyNotice(ctx, touched(change)).catch(() => undefined);
		try {
			announce(ctx, change);
		} catch (e) {
			// The write stands; telling the other tabs and the snapshot scheduler is best effort.
			reportFailure(ctx, 'announcing a committed write', e);
		}
		return out;
	} catch (e) {
		// Best effort: should the database be unreadable too, the next open rebuilds the index.
		if (mirrored) await applyNotice(ctx, touched(change)).catch(() => undefined);
		throw e;
	}
}

/** Applies a change to the index: removals, upserts, then edges. */
function mirror(ctx: EngineContext, change: IndexChange): void {
	for (const e of change.removedEdges ?? []) ctx.index.removeEdge(e.from, e.to, e.type);
	for (const id of change.removedIds ?? []) ctx.index.remove(id);
	for (const u of change.upserts) ctx.index.upsert(toDocMeta(u.row), toDocText(u.row), u.vector);
	for (const e of change.edges) ctx.index.addEdge({ from: e.from, to: e.to, type: e.type, strength: e.strength });
}

/** Tells the engine about a committed change (cross-tab notice, snapshot scheduling). */
function announce(ctx: EngineContext, change: IndexChange): void {
	if (change.stamp === undefined) return;
	ctx.committed(change.stamp, { upserts: change.upserts.map((u) => u.row.id), removed: change.removedIds ?? [], edges: edgeKeys(change) });
}

/** Every record a change touched, as a notice that re-reads each of them (none is assumed gone). */
function touched(change: IndexChange) {
	return { stamp: change.stamp ?? 0, upserts: [...change.upserts.map((u) => u.row.id), ...(change.removedIds ?? [])], removed: [], edges: edgeKeys(change) };
}

function edgeKeys(change: IndexChange): [string, string, AssociationType][] {
	return [...change.edges, ...(change.removedEdges ?? [])].map((e) => [e.from, e.to, e.type]);
}

/**
 * Persisted search-index snapshots, one per model. A snapshot is only used when its stamp
 * equals the current write stamp, i.e. no write happened after it was taken.
 */
import type { EngramDB } from './db';
import type { SnapshotRow } from './rows';

/** The stored snapshot for `model`, if any. */
export async function readSnapshot(db: EngramDB, model: string): Promise<SnapshotRow | undefined> {
	return db.snapshots.get(model);
}

/** Stores (replaces) the snapshot for `model`. */
export async function writeSnapshot(db: EngramDB, row: SnapshotRow): Promise<void> {
	await db.snapshots.put(row);
}

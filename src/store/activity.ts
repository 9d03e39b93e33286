/**
 * The activity log: an append-only table kept bounded, newest entries kept.
 */
import type { ActivityEntry } from '../core/activity';
import type { EngramDB } from './db';
import { writeRows } from './raw';
import type { ActivityRow } from './rows';

/** Entries kept; older ones are trimmed in chunks so trimming is rare. */
export const ACTIVITY_LIMIT = 10_000;
const TRIM_SLACK = 500;

/** Appends entries (inside the caller's transaction, when there is one: see raw.ts). */
export async function appendActivity(db: EngramDB, entries: ActivityRow[]): Promise<void> {
	await writeRows(db, 'activity', entries, 'add');
}

/**
 * The `created` entry of a batch store, as stored (schema v15): its memories' ids unindexed, and
 * the range of their seqs, by which a memory's history finds it (recentActivity). One index entry
 * instead of one per memory. Memories whose seqs are not consecutive (no store writes such a
 * batch) get the indexed `memory_ids` as before.
 */
export function batchCreatedRow(at: string, actor: string, rows: readonly { id: string; seq: number }[]): ActivityRow {
	const entry: ActivityRow = { at, actor, action: 'created', detail: `batch of ${rows.length}` };
	const ids = rows.map((r) => r.id);
	const first = rows[0].seq;
	const last = rows[rows.length - 1].seq;
	if (last - first !== rows.length - 1 || rows.some((r, i) => r.seq !== first + i)) return { ...entry, memory_ids: ids };
	return { ...entry, batch_ids: ids, first_seq: first, last_seq: last };
}

/** An entry as the log's readers see it: a batch's ids as `memory_ids`, its seq range left out. */
function entryOf(row: ActivityRow): ActivityEntry {
	if (row.batch_ids === undefined) return row;
	const { batch_ids, first_seq: _first, last_seq: _last, ...rest } = row;
	return { ...rest, memory_ids: batch_ids };
}

/** Drops the oldest entries once the log exceeds the limit by the slack. */
export async function trimActivity(db: EngramDB, limit = ACTIVITY_LIMIT): Promise<number> {
	const count = await db.activity.count();
	if (count <= limit + TRIM_SLACK) return 0;
	const cutoff = await db.activity
		.orderBy('id')
		.offset(count - limit)
		.first();
	if (!cutoff?.id) return 0;
	return db.activity.where('id').below(cutoff.id).delete();
}

/** The newest entries, newest first; only those about `memoryId` when given. */
export async function recentActivity(db: EngramDB, limit: number, memoryId?: string): Promise<ActivityEntry[]> {
	if (memoryId !== undefined) {
		const [own, shared, batch] = await Promise.all([
			db.activity.where('memory_id').equals(memoryId).toArray(),
			db.activity.where('memory_ids').equals(memoryId).toArray(),
			batchEntryBySeq(db, memoryId),
		]);
		const found = [...own, ...shared, ...batch];
		// A memory created in a batch whose seq it no longer has (deleted, or replaced by an import)
		// or not created by a store at all: its batch entries, if any, are found among them all.
		const more = found.some((a) => a.action === 'created') ? [] : await batchEntriesNaming(db, memoryId, new Set(batch.map((a) => a.id)));
		return [...found, ...more]
			.sort((a, b) => (b.id ?? 0) - (a.id ?? 0))
			.slice(0, limit)
			.map(entryOf);
	}
	return (await db.activity.orderBy('id').reverse().limit(limit).toArray()).map(entryOf);
}

/** The batch `created` entry whose seq range holds the memory's seq (one look-up), if it names the memory. */
async function batchEntryBySeq(db: EngramDB, memoryId: string): Promise<ActivityRow[]> {
	const seq = (await db.memories.get(memoryId))?.seq;
	if (seq === undefined) return [];
	const hit = await db.activity.where('last_seq').aboveOrEqual(seq).first();
	return hit && hit.first_seq! <= seq && hit.batch_ids?.includes(memoryId) ? [hit] : [];
}

/** Every batch `created` entry (schema v15's form) naming the memory, but those in `skip`. */
function batchEntriesNaming(db: EngramDB, memoryId: string, skip: Set<number | undefined>): Promise<ActivityRow[]> {
	return db.activity
		.orderBy('last_seq')
		.filter((a) => !skip.has(a.id) && a.batch_ids!.includes(memoryId))
		.toArray();
}

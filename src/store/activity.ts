/**
 * The activity log: an append-only table kept bounded, newest entries kept.
 */
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
export async function recentActivity(db: EngramDB, limit: number, memoryId?: string): Promise<ActivityRow[]> {
	if (memoryId !== undefined) {
		const [own, shared] = await Promise.all([
			db.activity.where('memory_id').equals(memoryId).toArray(),
			db.activity.where('memory_ids').equals(memoryId).toArray(),
		]);
		return [...own, ...shared].sort((a, b) => (b.id ?? 0) - (a.id ?? 0)).slice(0, limit);
	}
	return db.activity.orderBy('id').reverse().limit(limit).toArray();
}

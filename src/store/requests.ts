/**
 * The `requests` table: one row per client `request_id` (idempotency key) a write applied, with
 * the operation, a hash of its canonical arguments, what it returned and when. Rows are read and
 * written inside the write's own transaction, so a key is recorded exactly when its write
 * commits (engine/request-ids.ts has the rules); the oldest are trimmed by later writes.
 */
import type { EngramDB } from './db';
import type { RequestRow } from './rows';

export type { RequestRow };

/** How long and how many request ids are remembered. */
export interface RequestRetention {
	maxAgeMs: number;
	maxKeys: number;
}

/** The retention writes use: 7 days, and at most the newest 10,000. */
export const REQUEST_RETENTION: Readonly<RequestRetention> = { maxAgeMs: 7 * 24 * 3600 * 1000, maxKeys: 10_000 };

/** The recorded request with this id, if any (inside or outside a transaction). */
export function findRequest(db: EngramDB, id: string): Promise<RequestRow | undefined> {
	return db.requests.get(id);
}

/**
 * Records requests inside the caller's write transaction, and trims the table: rows older than
 * `maxAgeMs` before `now` go, then the oldest beyond `maxKeys`. Trimming costs a count and an
 * (usually empty) range delete per recorded write, none for writes without a request_id.
 */
export async function recordRequests(db: EngramDB, rows: RequestRow[], now: number, retention: RequestRetention = REQUEST_RETENTION): Promise<void> {
	const [, , count] = await Promise.all([
		db.requests.bulkPut(rows),
		db.requests
			.where('at')
			.below(now - retention.maxAgeMs)
			.delete(),
		db.requests.count(),
	]);
	// The count was taken after the put and the age trim (requests run in order).
	const excess = count - retention.maxKeys;
	if (excess > 0) await db.requests.bulkDelete(await db.requests.orderBy('at').limit(excess).primaryKeys());
}

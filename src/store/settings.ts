/**
 * Settings and the engine's counters, kept in the `settings` table. Counters are read and
 * bumped inside the caller's write transaction, so they advance exactly when the write commits.
 */
import type { EngramDB } from './db';

const SEQ_KEY = 'sys:seq';
const STAMP_KEY = 'sys:write_stamp';

/** Reads one setting (undefined when unset). */
export async function getSetting<T>(db: EngramDB, key: string): Promise<T | undefined> {
	const row = await db.settings.get(key);
	return row?.value as T | undefined;
}

/** Writes one setting; `undefined` deletes it. */
export async function setSetting(db: EngramDB, key: string, value: unknown): Promise<void> {
	if (value === undefined) await db.settings.delete(key);
	else await db.settings.put({ key, value });
}

/**
 * Reserves `n` consecutive seq numbers and returns the first. Never reuses a number, even after
 * deletes, so an integer id an agent noted down can never point at a different memory later.
 */
export async function reserveSeqs(db: EngramDB, n: number): Promise<number> {
	const last = (await getSetting<number>(db, SEQ_KEY)) ?? 0;
	await setSetting(db, SEQ_KEY, last + n);
	return last + 1;
}

/** Makes sure future seqs come after `seq` (imports keep their original numbers). */
export async function ensureSeqAbove(db: EngramDB, seq: number): Promise<void> {
	const last = (await getSetting<number>(db, SEQ_KEY)) ?? 0;
	if (seq > last) await setSetting(db, SEQ_KEY, seq);
}

/** The write stamp: bumped by every write that changes what the search index mirrors. */
export async function readStamp(db: EngramDB): Promise<number> {
	return (await getSetting<number>(db, STAMP_KEY)) ?? 0;
}

/** The seq and stamp counters as they stand, read in one request (see `writeCounters`). */
export interface Counters {
	seq: number;
	stamp: number;
}

/**
 * Reads both counters at once, so a write can plan with them and write them back beside its
 * other requests (`writeCounters`) instead of spending two round trips on each.
 */
export async function readCounters(db: EngramDB): Promise<Counters> {
	const [seq, stamp] = await db.settings.bulkGet([SEQ_KEY, STAMP_KEY]);
	return { seq: (seq?.value as number | undefined) ?? 0, stamp: (stamp?.value as number | undefined) ?? 0 };
}

/** Writes both counters in one request; the caller's transaction read them with `readCounters`. */
export async function writeCounters(db: EngramDB, c: Counters): Promise<void> {
	await db.settings.bulkPut([
		{ key: SEQ_KEY, value: c.seq },
		{ key: STAMP_KEY, value: c.stamp },
	]);
}

/** Bumps the write stamp inside the current transaction and returns the new value. */
export async function bumpStamp(db: EngramDB): Promise<number> {
	const next = (await readStamp(db)) + 1;
	await setSetting(db, STAMP_KEY, next);
	return next;
}

/**
 * Settings and the engine's counters, kept in the `settings` table. Counters are read and
 * bumped inside the caller's write transaction, so they advance exactly when the write commits.
 */
import type { EngramDB } from './db';
import { COUNTERS_KEY, WIPED_SEQ_KEY } from './names';
import { getRow, writeRows } from './raw';
import type { SettingRow } from './rows';

export { ACTIVE_MODEL_KEY, COUNTERS_KEY } from './names';

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
 * The engine's counters. `seq` is the last integer id handed out: never reused, even after
 * deletes, so an integer id an agent noted down can never point at a different memory later.
 * `stamp` is bumped by every write that changes what the search index mirrors.
 */
export interface Counters {
	seq: number;
	stamp: number;
}

/** Reads both counters in one request, so a write can plan with them (see `writeCounters`). */
export async function readCounters(db: EngramDB): Promise<Counters> {
	const c = (await getRow<SettingRow>(db, 'settings', COUNTERS_KEY))?.value as Partial<Counters> | undefined;
	return { seq: c?.seq ?? 0, stamp: c?.stamp ?? 0 };
}

/** Writes both counters in one request; the caller's transaction read them with `readCounters`. */
export async function writeCounters(db: EngramDB, c: Counters): Promise<void> {
	await writeRows<SettingRow>(db, 'settings', [{ key: COUNTERS_KEY, value: { seq: c.seq, stamp: c.stamp } }], 'put');
}

/** Reserves `n` consecutive seq numbers and returns the first. */
export async function reserveSeqs(db: EngramDB, n: number): Promise<number> {
	const c = await readCounters(db);
	await writeCounters(db, { ...c, seq: c.seq + n });
	return c.seq + 1;
}

/**
 * Notes, in a wipe's transaction, that every seq handed out so far belonged to memories the wipe
 * removed: an import may give those numbers back (a backup restored), where a seq freed by a
 * delete goes back only to the memory that had it (import-ops.ts `settleSeqs`).
 */
export async function markSeqsWiped(db: EngramDB): Promise<void> {
	await setSetting(db, WIPED_SEQ_KEY, (await readCounters(db)).seq);
}

/** The seq counter as it was at the last wipe (0 when there was none). */
export async function readWipedSeq(db: EngramDB): Promise<number> {
	return (await getSetting<number>(db, WIPED_SEQ_KEY)) ?? 0;
}

/** Makes sure future seqs come after `seq` (imports keep their original numbers). */
export async function ensureSeqAbove(db: EngramDB, seq: number): Promise<void> {
	const c = await readCounters(db);
	if (seq > c.seq) await writeCounters(db, { ...c, seq });
}

/** The write stamp. */
export async function readStamp(db: EngramDB): Promise<number> {
	return (await readCounters(db)).stamp;
}

/** Bumps the write stamp inside the current transaction and returns the new value. */
export async function bumpStamp(db: EngramDB): Promise<number> {
	const c = await readCounters(db);
	await writeCounters(db, { ...c, stamp: c.stamp + 1 });
	return c.stamp + 1;
}

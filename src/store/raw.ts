/**
 * The requests a store issues on every call, made straight on the native IndexedDB transaction
 * under the current `EngramDB.write()`/`read()` instead of through Dexie's table API. Each Dexie
 * call builds a promise chain, checks the table against the transaction's zone and passes the
 * request down its middleware stack: in CPU profiles of single stores through the relay
 * (bench/store-relay.ts --profile-out), about 0.2 ms of worker time per call next to ~0.1 ms for
 * the request itself, and a single store made six or seven such calls.
 *
 * Same contract as the Dexie calls they replace: the results are Dexie promises (so code that
 * awaits one stays in the transaction's zone and can go on using Dexie); a failed request
 * rejects its promise with the request's error (a ConstraintError, say, which errors.ts maps by
 * name) and aborts the transaction there and then (as `EngramDB.write()` does for every failed
 * request), so nothing of it is written even should the caller catch the rejection and go on;
 * outside a transaction over the table (or one that has not started its native transaction)
 * each helper falls back to the Dexie call.
 */
import Dexie from 'dexie';
import type { EngramDB } from './db';

/** The part of Dexie's Transaction these helpers use (idbtrans is not in Dexie's public types). */
interface DexieTx {
	db: Dexie;
	mode: string;
	storeNames: string[];
	idbtrans: IDBTransaction | null;
}

/** The native transaction under `db`'s current transaction when it covers `store` (and can write, for `write`). */
function nativeTx(db: EngramDB, store: string, write: boolean): IDBTransaction | undefined {
	const t = Dexie.currentTransaction as unknown as DexieTx | null;
	if (!db.rawRequests || !t || t.db !== db || !t.idbtrans || !t.storeNames.includes(store)) return undefined;
	if (write && t.mode !== 'readwrite') return undefined;
	return t.idbtrans;
}

/**
 * Resolves with `result()` once the last of `reqs` has succeeded (IndexedDB runs a transaction's
 * requests in order), as a Dexie promise; rejects with the first request's error. A failed
 * request's error event is handled here (the rejection carries the error to the caller, rather
 * than an uncaught abort) and the transaction is aborted at once (see `handled`).
 */
function settled<T>(reqs: IDBRequest[], result: () => T): Promise<T> {
	return new Dexie.Promise<T>((resolve, reject) => {
		let failed = false;
		const onerror = (ev: Event) => {
			handled(ev);
			if (failed) return;
			failed = true;
			reject((ev.target as IDBRequest).error);
		};
		for (const r of reqs) r.onerror = onerror;
		reqs[reqs.length - 1].onsuccess = () => {
			if (!failed) resolve(result());
		};
	});
}

/**
 * Adds `values` to `store` (`put`: replaces rows with the same key); resolves once the last has
 * succeeded (IndexedDB runs a transaction's requests in order). `prepare` maps each value as
 * the table's middleware would (db.ts storedMemory for memories).
 */
export function writeRows<T>(db: EngramDB, store: string, values: readonly T[], how: 'add' | 'put', prepare?: (v: T) => unknown): Promise<void> {
	if (values.length === 0) return Dexie.Promise.resolve();
	const tx = nativeTx(db, store, true);
	if (!tx) {
		const table = db.table(store);
		return (how === 'add' ? table.bulkAdd(values as T[]) : table.bulkPut(values as T[])).then(() => undefined);
	}
	return guarded(() => {
		const os = tx.objectStore(store);
		return settled(
			values.map((v) => os[how](prepare ? prepare(v) : v)),
			() => undefined,
		);
	});
}

/** The row of `store` with primary key `key`, or undefined. */
export function getRow<T>(db: EngramDB, store: string, key: string): Promise<T | undefined> {
	const tx = nativeTx(db, store, false);
	if (!tx) return db.table(store).get(key) as Promise<T | undefined>;
	return guarded(() => {
		const req = tx.objectStore(store).get(key);
		return settled([req], () => req.result as T | undefined);
	});
}

/** The rows of `store` with the given primary keys, in order (undefined where there is none). */
export function getRows<T>(db: EngramDB, store: string, keys: readonly string[]): Promise<(T | undefined)[]> {
	const tx = nativeTx(db, store, false);
	if (!tx) return db.table(store).bulkGet([...keys]) as Promise<(T | undefined)[]>;
	if (keys.length === 0) return Dexie.Promise.resolve([]);
	return guarded(() => {
		const os = tx.objectStore(store);
		const reqs = keys.map((k) => os.get(k));
		return settled(reqs, () => reqs.map((r) => r.result as T | undefined));
	});
}

/**
 * The last row (highest key) of `index` of `store` within [lower, upper) that `accept` takes, or
 * undefined. Outside a transaction this is the same read through Dexie (or `fallback`, when given).
 */
export function lastInIndex<T>(
	db: EngramDB,
	store: string,
	index: string,
	lower: IDBValidKey,
	upper: IDBValidKey,
	accept?: (row: T) => boolean,
	fallback: () => Promise<T | undefined> = () => {
		const range = db.table<T>(store).where(index).between(lower, upper);
		return (accept ? range.filter(accept) : range).last();
	},
): Promise<T | undefined> {
	const tx = nativeTx(db, store, false);
	if (!tx) return fallback();
	return guarded(() => {
		const req = tx
			.objectStore(store)
			.index(index)
			.openCursor(db.keyRange.bound(lower, upper, false, true), 'prev');
		return new Dexie.Promise<T | undefined>((resolve, reject) => {
			req.onsuccess = () => {
				const c = req.result;
				if (!c) return resolve(undefined);
				const row = c.value as T;
				if (accept === undefined || accept(row)) return resolve(row);
				c.continue();
			};
			req.onerror = (ev) => {
				handled(ev);
				reject(req.error);
			};
		});
	});
}

/**
 * Takes a failed request's error event: handled here (no uncaught abort, nor Dexie's own
 * transaction error handler), and the request's transaction aborted at once. Leaving the abort
 * to the caller's rejection would keep the transaction live until then, and a caller that caught
 * it would commit the other requests without this one.
 */
function handled(ev: Event): void {
	ev.preventDefault();
	ev.stopPropagation();
	try {
		(ev.target as IDBRequest).transaction?.abort();
	} catch {
		// Already aborted (this is a later request's AbortError) or finished.
	}
}

/** `issue()`, with a request refused on the spot (the transaction has finished, say) as a rejection, as Dexie gives it. */
function guarded<T>(issue: () => Promise<T>): Promise<T> {
	try {
		return issue();
	} catch (e) {
		return Dexie.Promise.reject(e) as Promise<T>;
	}
}

/**
 * A full disk at the IndexedDB level, below Dexie: fake-indexeddb's own classes are patched,
 * so no Dexie middleware is added and store/raw.ts keeps issuing its requests on the native
 * transaction (middleware would send them back through Dexie, see EngramDB.rawRequests).
 * Chromium refuses a write in two ways, and each can be forced here:
 * - at commit (what Chromium does: every request succeeds, then the transaction aborts with
 *   QuotaExceededError, whether it was committed explicitly or by itself): `full`;
 * - as a failed request (an add or put whose error event carries QuotaExceededError): `failing`
 *   names the object stores whose adds and puts fail so.
 * A transaction that only reads or deletes still commits, as in Chromium.
 */
import { IDBObjectStore, IDBTransaction } from 'fake-indexeddb';

export interface NativeFaults {
	/** Transactions that added or put anything abort at commit with QuotaExceededError. */
	full: boolean;
	/** Object stores whose add and put requests fail with QuotaExceededError. */
	failing: Set<string>;
	/** Requests failed so far (to check a test reached the point it means to). */
	failed: number;
	/** Transactions refused at commit so far. */
	refused: number;
	/** Undoes the patches. */
	restore(): void;
}

type RequestQueue = { request: { readyState: string } }[];
interface FakeTx {
	_requests: RequestQueue;
	_state: string;
	_abort(name: string | null): void;
	_execRequestAsync(obj: { source: unknown; operation: () => unknown }): IDBRequest;
	__puts?: boolean;
}

/** Patches fake-indexeddb until `restore()`; see the module comment. */
export function nativeFaults(): NativeFaults {
	const proto = IDBObjectStore.prototype as unknown as Record<'add' | 'put', (...a: unknown[]) => IDBRequest>;
	const txProto = IDBTransaction.prototype as unknown as { _start: () => void };
	const saved = { add: proto.add, put: proto.put, start: txProto._start };
	const faults: NativeFaults = {
		full: false,
		failing: new Set(),
		failed: 0,
		refused: 0,
		restore() {
			proto.add = saved.add;
			proto.put = saved.put;
			txProto._start = saved.start;
		},
	};
	for (const method of ['add', 'put'] as const) {
		proto[method] = function (this: IDBObjectStore, ...args: unknown[]) {
			const tx = this.transaction as unknown as FakeTx;
			if (!faults.failing.has(this.name)) {
				const req = saved[method].apply(this, args);
				tx.__puts = true;
				return req;
			}
			tx.__puts = true;
			return tx._execRequestAsync({
				source: this,
				operation: () => {
					faults.failed++;
					throw new DOMException('quota reached (request)', 'QuotaExceededError');
				},
			});
		};
	}
	txProto._start = function (this: FakeTx) {
		// Where fake-indexeddb would complete the transaction (no request left), a full disk aborts it.
		const idle = this._requests.every((r) => r.request.readyState === 'done');
		if (idle && this._state !== 'finished' && faults.full && this.__puts) {
			faults.refused++;
			this._abort('QuotaExceededError');
			return;
		}
		saved.start.call(this);
	};
	return faults;
}

/**
 * Translates Dexie/IndexedDB errors into MemoryError where they enter Engram, by `err.name`
 * (Dexie wraps the underlying DOMException; an AbortError carries it as `inner`).
 */
import { isMemoryError, MemoryError } from '../core/errors';

interface NamedError {
	name?: string;
	message?: string;
	inner?: NamedError;
	failures?: NamedError[];
}

/**
 * The innermost named cause: Dexie.AbortError wraps the error that aborted the transaction, and
 * a Dexie.BulkError (a bulkPut or bulkAdd) lists its failed requests' errors.
 */
function rootCause(e: NamedError): NamedError {
	let cur = e;
	for (;;) {
		const next = cur.inner ?? cur.failures?.[0];
		if (!next || typeof next !== 'object') return cur;
		cur = next;
	}
}

/**
 * Thrown inside `EngramDB.write()` to abort the transaction so the caller can run it again
 * (a store whose guessed state proved stale, engine/write-guess.ts); `write()` passes it on
 * unchanged.
 */
export class AbortForRetry extends Error {}

/**
 * Returns `e` as a MemoryError: MemoryErrors and AbortForRetry pass through; ConstraintError → 'conflict',
 * QuotaExceededError → 'quota_exceeded', anything else → 'storage_failed' naming the cause.
 */
export function mapStoreError(e: unknown): unknown {
	if (isMemoryError(e) || e instanceof AbortForRetry) return e;
	if (typeof e !== 'object' || e === null) return new MemoryError('storage_failed', `storage: ${String(e)}`);
	const outer = e as NamedError;
	const root = rootCause(outer);
	if (isMemoryError(root) || root instanceof AbortForRetry) return root;
	const names = [outer.name, root.name];
	const message = root.message ?? outer.message ?? '';
	if (names.includes('QuotaExceededError'))
		return new MemoryError(
			'quota_exceeded',
			'storage: the browser refused to store more data (quota exceeded); free space or export and delete old memories',
			{ cause: message },
		);
	if (names.includes('ConstraintError')) return new MemoryError('conflict', `storage: a record with this key already exists (${message})`);
	return new MemoryError('storage_failed', `storage: ${root.name ?? outer.name ?? 'Error'}: ${message}`);
}

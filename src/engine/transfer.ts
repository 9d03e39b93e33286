/**
 * Keeps MemoryError intact across a comlink boundary. Comlink's built-in "throw" handler
 * serialises only message, name and stack, so `code` and `data` would be lost; this replaces it
 * with one that carries them and rebuilds a real MemoryError on the receiving side. Call
 * `registerMemoryErrorTransfer()` on BOTH sides (worker and page) before any call is made.
 */
import { transferHandlers, type TransferHandler } from 'comlink';
import { isMemoryError, MemoryError, type MemoryErrorCode } from '../core/errors';

/** What crosses the wire for a thrown value. */
interface SerializedThrow {
	isError: boolean;
	value: unknown;
}

interface SerializedError {
	message: string;
	name: string;
	stack?: string;
	code?: MemoryErrorCode;
	data?: unknown;
}

let registered = false;

/** Replaces comlink's "throw" handler (idempotent); other errors keep comlink's behaviour. */
export function registerMemoryErrorTransfer(): void {
	if (registered) return;
	const base = transferHandlers.get('throw') as TransferHandler<{ value: unknown }, SerializedThrow> | undefined;
	if (!base) throw new Error('comlink has no "throw" transfer handler to extend');
	const handler: TransferHandler<{ value: unknown }, SerializedThrow> = {
		canHandle: base.canHandle,
		serialize(thrown) {
			if (!isMemoryError(thrown.value)) return base.serialize(thrown);
			const e = thrown.value;
			const value: SerializedError = { message: e.message, name: 'MemoryError', stack: e.stack, code: e.code, data: cloneable(e.data) };
			return [{ isError: true, value }, []];
		},
		deserialize(s) {
			const v = s.value as SerializedError | undefined;
			if (s.isError && v?.name === 'MemoryError' && typeof v.code === 'string') {
				const e = new MemoryError(v.code, v.message, v.data);
				if (v.stack) e.stack = v.stack;
				throw e;
			}
			return base.deserialize(s);
		},
	};
	transferHandlers.set('throw', handler as TransferHandler<unknown, unknown>);
	registered = true;
}

/** `data` when structured clone accepts it, else its JSON form (never a clone error instead of the real one). */
function cloneable(data: unknown): unknown {
	if (data === undefined) return undefined;
	try {
		return structuredClone(data);
	} catch {
		try {
			return JSON.parse(JSON.stringify(data)) as unknown;
		} catch {
			return String(data);
		}
	}
}

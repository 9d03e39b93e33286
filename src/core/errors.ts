/**
 * The one error type of Engram's core, engine and store. `code` is stable and machine-readable;
 * `message` names the field or value at fault and the rule it broke.
 */
export type MemoryErrorCode =
	'not_found' | 'invalid_input' | 'conflict' | 'quota_exceeded' | 'embedding_failed' | 'not_connected' | 'storage_failed' | 'cancelled';

/** Thrown by every engine entry point; crosses the worker boundary intact (see engine/transfer.ts). */
export class MemoryError extends Error {
	readonly code: MemoryErrorCode;
	readonly data?: unknown;

	constructor(code: MemoryErrorCode, message: string, data?: unknown) {
		super(message);
		this.name = 'MemoryError';
		this.code = code;
		this.data = data;
	}

	/** Plain-object form, for postMessage and JSON. */
	toJSON(): { code: MemoryErrorCode; message: string; data?: unknown } {
		return { code: this.code, message: this.message, data: this.data };
	}
}

/** True for a MemoryError, including one rebuilt on the other side of a worker boundary. */
export function isMemoryError(e: unknown): e is MemoryError {
	return (
		e instanceof MemoryError ||
		(typeof e === 'object' && e !== null && (e as { name?: string }).name === 'MemoryError' && typeof (e as { code?: unknown }).code === 'string')
	);
}

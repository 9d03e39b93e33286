/**
 * Idempotent writes: a call that carries a client `request_id` is applied at most once. The
 * write's own transaction first looks the id up (store/requests.ts): unknown, the write runs
 * and records the id with a hash of its canonical arguments and a compact copy of its result;
 * known with the same operation and arguments, nothing is written and the recorded result comes
 * back (`replayed: true`); known with anything else, the call is a `conflict`. Checking inside
 * the transaction, under the engine's write lock, makes two copies of one call apply once even
 * when they race, in one tab or in two (IndexedDB runs read-write transactions over the same
 * tables one at a time).
 *
 * A delete on a full disk cannot record its id (a put would abort it, see delete-ops.ts
 * `deleteWhenFull`): the id is held in this tab (replays here are recognised) and written with
 * the next write that commits; the result says so (`request_recorded: false`).
 */
import { canonicalJson, cyrb53 } from '../core/canonical';
import { MemoryError } from '../core/errors';
import type { EngramDB } from '../store/db';
import { findRequest, recordRequests, type RequestRow } from '../store/requests';
import type { EngineContext } from './context';

export { canonicalJson };

/** The writes that accept a request_id, by tool name. */
export type WriteOp = 'store_memory' | 'update_memory' | 'delete_memory' | 'associate_memories' | 'unlink_memories';

/** A call's request id, operation and argument hash. */
export interface RequestKey {
	id: string;
	op: WriteOp;
	hash: string;
}

/** The key of a call, or undefined when it carries no request_id. */
export function requestKey(op: WriteOp, input: { request_id?: string }): RequestKey | undefined {
	const { request_id: id, ...args } = input;
	if (id === undefined) return undefined;
	return { id, op, hash: hashText(canonicalJson(args)) };
}

/**
 * JSON with object keys sorted and undefined members left out, so two spellings of the same
 * arguments (key order, an explicit undefined) hash the same.
 */

/**
 * A 106-bit hash (two 53-bit cyrb53 lanes, hex): synchronous, so a write can key itself without
 * leaving its transaction, and wide enough that two different calls under one id never pass for
 * the same one.
 */
export function hashText(s: string): string {
	return cyrb53(s, 0x9e3779b9).toString(16).padStart(14, '0') + cyrb53(s, 0x85ebca6b).toString(16).padStart(14, '0');
}

/** Request ids a delete on a full disk applied but could not record, per database (this tab only). */
const held = new WeakMap<EngramDB, Map<string, RequestRow>>();

/**
 * The recorded result of `key` (committed, or held in this tab), or undefined when the id is
 * new. Works inside a transaction (the authoritative check) or outside (an early answer for a
 * retry whose target is gone: a delete's memory, an update's).
 * @throws MemoryError 'conflict' when the id was used for another operation or other arguments.
 */
export async function priorResult(ctx: EngineContext, key: RequestKey): Promise<{ result: unknown } | undefined> {
	const row = held.get(ctx.db)?.get(key.id) ?? (await findRequest(ctx.db, key.id));
	if (!row) return undefined;
	if (row.op !== key.op || row.hash !== key.hash) {
		const what = row.op === key.op ? 'other arguments' : `${row.op}`;
		throw new MemoryError(
			'conflict',
			`request_id: "${key.id}" was already used for ${what} (at ${new Date(row.at).toISOString()}); a new call needs a new request_id`,
		);
	}
	return { result: row.result };
}

/** What `applyOnce` did: ran the write (its value), or found it applied (the recorded compact value). */
export type Applied<T, C> = { replayed: false; value: T } | { replayed: true; value: C };

/**
 * Inside a write transaction: runs `write` unless `key` was applied already, and records `key`
 * with `compact(value)` in the same transaction. Without a key it just runs `write`.
 */
export async function applyOnce<T, C>(ctx: EngineContext, key: RequestKey | undefined, write: () => Promise<T>, compact: (v: T) => C): Promise<Applied<T, C>> {
	if (key) {
		const prior = await priorResult(ctx, key);
		if (prior) return { replayed: true, value: prior.result as C };
	}
	const value = await write();
	if (key) await recordRequests(ctx.db, [{ ...key, at: ctx.now(), result: compact(value) }], ctx.now());
	return { replayed: false, value };
}

/** Holds a request a full-disk delete applied, until a later write records it (see `withHeldRequests`). */
export function holdRequest(ctx: EngineContext, key: RequestKey, result: unknown): void {
	const rows = held.get(ctx.db) ?? new Map<string, RequestRow>();
	rows.set(key.id, { ...key, at: ctx.now(), result });
	held.set(ctx.db, rows);
}

/**
 * Runs a write transaction's body after recording the held requests in it, and forgets them
 * once `commit` (the whole transaction) has succeeded. Costs nothing when none is held.
 */
export async function withHeldRequests<T>(ctx: EngineContext, commit: (record: () => Promise<void>) => Promise<T>): Promise<T> {
	const rows = [...(held.get(ctx.db)?.values() ?? [])];
	if (rows.length === 0) return commit(async () => undefined);
	const out = await commit(() => recordRequests(ctx.db, rows, ctx.now()));
	const map = held.get(ctx.db);
	for (const r of rows) if (map?.get(r.id) === r) map.delete(r.id);
	return out;
}

/** Marks an output as the original result of an earlier call with this request_id. */
export function replayedOutput<T extends { message: string }>(out: T, key: RequestKey): T & { replayed: true } {
	return { ...out, message: `Already applied (request_id "${key.id}"), nothing written again: ${out.message}`, replayed: true };
}

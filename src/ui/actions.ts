/**
 * Multi-step actions the screens share: delete with undo, bulk tagging. Each engine call is one
 * transaction, so a failure part-way leaves whole memories, never half a record.
 */
import { isMemoryError } from '../core/errors';
import type { UpdateInput } from '../core/schemas';
import { LIMITS } from '../core/schemas';
import type { ActivityEntry } from '../engine/types';
import type { AppContext } from './state/context';

function chunks<T>(items: T[], size: number): T[][] {
	const out: T[][] = [];
	for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
	return out;
}

/**
 * What is needed to put deleted memories back exactly: their Engram JSON export with every
 * vector and every link in and out (engine exportByIds), and how many it holds.
 */
export interface DeletedSnapshot {
	data: string;
	ids: string[];
}

/** Reads everything needed to restore the given memories later (no access is counted). */
export async function snapshotMemories(app: AppContext, ids: string[]): Promise<DeletedSnapshot> {
	const found = (await app.engine.getMemories(ids)).flatMap((m) => (m ? [m.id] : []));
	const data = await app.engine.exportByIds(found);
	return { data, ids: found };
}

/**
 * Puts deleted memories back with their ids, seq, timestamps, vectors and links, through the
 * engine's lossless JSON import (associations to memories that no longer exist are reported, not fatal).
 */
export async function restoreMemories(app: AppContext, snap: DeletedSnapshot): Promise<number> {
	const out = await app.engine.importMemories({ data: snap.data, format: 'json', on_conflict: 'skip' }, { actor: 'app' });
	app.live.touch('memories');
	return out.imported + out.replaced;
}

/**
 * Deletes memories and offers Undo in a toast for 10 s. Returns how many were deleted.
 * The snapshot is taken first, so Undo restores exactly what was there.
 */
export async function deleteWithUndo(app: AppContext, ids: string[]): Promise<number> {
	if (ids.length === 0) return 0;
	const snap = await snapshotMemories(app, ids);
	let deleted = 0;
	for (const part of chunks(ids, LIMITS.batch)) deleted += (await app.engine.delete({ memory_ids: part }, { actor: 'app' })).deleted_count;
	app.live.touch('memories');
	// Deleted elsewhere meanwhile (an agent, another tab): nothing to undo here.
	if (deleted === 0) {
		app.toasts.show(ids.length === 1 ? 'That memory was already deleted' : 'Those memories were already deleted', { kind: 'info' });
		return 0;
	}
	const noun = deleted === 1 ? 'memory' : 'memories';
	app.toasts.show(`Deleted ${deleted} ${noun}`, {
		kind: 'success',
		action: {
			label: 'Undo',
			run: async () => {
				try {
					const n = await restoreMemories(app, snap);
					await app.engine.logActivity({ actor: 'app', action: 'restored', memory_ids: snap.ids, detail: 'Undo after delete' });
					app.live.touch('memories');
					app.toasts.show(`Restored ${n} ${n === 1 ? 'memory' : 'memories'}`, { kind: 'success' });
				} catch (e) {
					app.toasts.error(e, 'Undo failed');
				}
			},
		},
	});
	return deleted;
}

/**
 * Adds (or removes, case-insensitively) tags on many memories; returns how many changed. Each
 * memory's edit is one engine update applied to the tags it has then (tags_add / tags_remove),
 * so a label an agent adds meanwhile is kept; a memory deleted meanwhile is skipped.
 */
export async function retagMemories(app: AppContext, ids: string[], add: string[], remove: string[] = []): Promise<number> {
	const edit: Pick<UpdateInput, 'tags_add' | 'tags_remove'> = {};
	if (add.length) edit.tags_add = add;
	if (remove.length) edit.tags_remove = remove;
	if (!edit.tags_add && !edit.tags_remove) return 0;
	let changed = 0;
	for (const id of ids) {
		try {
			if ((await app.engine.update({ memory_id: id, ...edit }, { actor: 'app' })).changed.includes('tags')) changed++;
		} catch (e) {
			if (!isMemoryError(e) || e.code !== 'not_found') throw e;
		}
	}
	app.live.touch('memories');
	return changed;
}

/**
 * The values an `updated` history entry left (its `to`, undefined where it unset a field): passed
 * with the revert as its base, so a field changed again since is a conflict, not silently undone.
 */
export function revertBase(entry: ActivityEntry): Record<string, unknown> {
	return Object.fromEntries(Object.entries(entry.changes ?? {}).map(([field, { to }]) => [field, to]));
}

/**
 * The update that puts back the values an `updated` history entry replaced, or undefined when
 * the entry recorded none. It goes through the normal update path (so it is itself one entry in
 * the history, and can be reverted in turn). A field that was unset before is cleared: windows
 * with null, text fields with '', metadata keys the change added with null.
 */
export function revertInput(entry: ActivityEntry): UpdateInput | undefined {
	if (entry.action !== 'updated' || !entry.memory_id || !entry.changes) return undefined;
	const input: Record<string, unknown> = { memory_id: entry.memory_id };
	for (const [field, { from, to }] of Object.entries(entry.changes)) {
		if (field === 'metadata') {
			const before = (from ?? {}) as Record<string, unknown>;
			const patch: Record<string, unknown> = { ...before };
			for (const k of Object.keys((to ?? {}) as Record<string, unknown>)) if (!(k in before)) patch[k] = null;
			input.metadata = patch;
		} else if (field === 't_valid' || field === 't_invalid') input[field] = from ?? null;
		else if (field === 'summary' || field === 'source') input[field] = from ?? '';
		else if (from !== undefined) input[field] = from;
	}
	return Object.keys(input).length > 1 ? (input as UpdateInput) : undefined;
}

/**
 * What sync (src/sync) ships for a memory: the fields a person or an agent wrote, never derived
 * data (vectors, extracted entities, SIMILAR_TO / PRECEDED_BY links, seq, access counts), which
 * each device recomputes. `syncRecords` reads them, `applySyncRecords` writes incoming ones; a sync
 * conflict's losing version is kept in the memory's history (`recordSyncConflict`, or with the
 * records applied).
 */
import { SYSTEM_ASSOCIATION_TYPES, type ImportOutput } from '../core/schemas';
import { appendActivity } from '../store/activity';
import type { ActivityRow, MemoryRow } from '../store/rows';
import { nowIso, type EngineContext } from './context';
import { importExact } from './import-ops';
import type { FieldChange, SyncApply, SyncRecord } from './types';

const SYSTEM = new Set<string>(SYSTEM_ASSOCIATION_TYPES);

/** A row's sync record. */
export function toSyncRecord(r: MemoryRow): SyncRecord {
	const rec: SyncRecord = {
		id: r.id,
		content: r.content,
		type: r.type,
		tags: r.tags,
		scope: r.scope,
		importance: r.importance,
		confidence: r.confidence,
		metadata: r.metadata,
		timestamp: r.timestamp,
		updated_at: r.updated_at,
		links: (r.links ?? []).filter((l) => !SYSTEM.has(l.type)),
	};
	if (r.summary !== undefined) rec.summary = r.summary;
	if (r.source !== undefined) rec.source = r.source;
	if (r.t_valid !== undefined) rec.t_valid = r.t_valid;
	if (r.t_invalid !== undefined) rec.t_invalid = r.t_invalid;
	if (r.context !== undefined) rec.context = r.context;
	if (r.entities_given) rec.entities = r.entities;
	return rec;
}

/** The sync records of the memories named (missing ids left out), or of every memory. */
export async function syncRecords(ctx: EngineContext, ids?: string[]): Promise<SyncRecord[]> {
	return ctx.db.read(async () => {
		const rows = ids ? (await ctx.db.memories.bulkGet(ids)).filter((r): r is MemoryRow => !!r) : await ctx.db.memories.toArray();
		return rows.map(toSyncRecord);
	});
}

/** Keeps a sync conflict's losing version in the memory's history (one activity entry). */
export async function recordSyncConflict(ctx: EngineContext, winner: SyncRecord, loser: SyncRecord, detail: string): Promise<void> {
	await ctx.db.write(() => appendActivity(ctx.db, [conflictEntry(ctx, winner, loser, detail)]));
	ctx.hub.emit({ kind: 'memories', ids: [winner.id] });
}

/**
 * Applies incoming sync records in one transaction (import-ops.ts `importExact`): each memory with
 * its content, fields, exactly its caller-authored links (`records[].links`; those to a memory not
 * here are refused: sync leaves them out and makes them when it arrives), the `links` of memories
 * here into them, and the History entries of `conflicts`. A failure (a full disk) leaves all of
 * it as it was.
 */
export async function applySyncRecords(ctx: EngineContext, input: SyncApply, actor = 'sync'): Promise<ImportOutput> {
	const memories = input.records.map(({ links: _l, device: _d, clock: _c, removed: _r, added: _a, ...m }) => m);
	const associations = [...input.records.flatMap((r) => r.links.map((l) => ({ ...l, from: r.id }))), ...input.links];
	const history = input.conflicts.map((c) => conflictEntry(ctx, c.winner, c.loser, c.detail));
	return importExact(ctx, JSON.stringify({ memories, associations }), history, actor);
}

/** The History entry of a sync conflict: the fields where the losing version differs from the kept one. */
function conflictEntry(ctx: EngineContext, winner: SyncRecord, loser: SyncRecord, detail: string): ActivityRow {
	const changes: Record<string, FieldChange> = {};
	const keys = new Set([...Object.keys(winner), ...Object.keys(loser)]);
	for (const k of keys) {
		if (k === 'id' || k === 'device' || k === 'clock' || k === 'removed' || k === 'added') continue;
		const a = (loser as unknown as Record<string, unknown>)[k];
		const b = (winner as unknown as Record<string, unknown>)[k];
		if (JSON.stringify(a) !== JSON.stringify(b)) changes[k] = { from: a, to: b };
	}
	return { at: nowIso(ctx), actor: 'sync', action: 'updated', memory_id: winner.id, detail, changes };
}

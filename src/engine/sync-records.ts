/**
 * What sync (src/sync) ships for a memory: the fields a person or an agent wrote, never derived
 * data (vectors, extracted entities, SIMILAR_TO / PRECEDED_BY links, seq, access counts), which
 * each device recomputes. `syncRecords` reads them; a sync conflict's losing version is kept in
 * the memory's history by `recordSyncConflict`.
 */
import { SYSTEM_ASSOCIATION_TYPES } from '../core/schemas';
import { appendActivity } from '../store/activity';
import type { MemoryRow } from '../store/rows';
import { nowIso, type EngineContext } from './context';
import type { FieldChange, SyncRecord } from './types';

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
	const changes: Record<string, FieldChange> = {};
	const keys = new Set([...Object.keys(winner), ...Object.keys(loser)]);
	for (const k of keys) {
		if (k === 'id' || k === 'device' || k === 'clock') continue;
		const a = (loser as unknown as Record<string, unknown>)[k];
		const b = (winner as unknown as Record<string, unknown>)[k];
		if (JSON.stringify(a) !== JSON.stringify(b)) changes[k] = { from: a, to: b };
	}
	await ctx.db.write(() => appendActivity(ctx.db, [{ at: nowIso(ctx), actor: 'sync', action: 'updated', memory_id: winner.id, detail, changes }]));
	ctx.hub.emit({ kind: 'memories', ids: [winner.id] });
}

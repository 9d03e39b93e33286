/**
 * Entity rows and their mention counts. Which memories mention an entity is the memory row's
 * own `entity_ids` (indexed); the counts here are kept exact inside the caller's write
 * transaction, and an entity no memory mentions any more is deleted.
 */
import type { EngramDB } from './db';
import { entityIdsOf } from './derived';
import type { EntityRow, MemoryRow } from './rows';

/** An entity as the engine resolved it: stable id, normalised name, display name, type. */
export interface EntityKey {
	id: string;
	norm: string;
	name: string;
	type: string;
}

/** A memory's entity mentions: its entity keys and its timestamp. */
export interface Mentions {
	keys: EntityKey[];
	at: string;
}

/**
 * Counts the mentions of many memories (creating entities as needed) in two requests, whatever
 * their number (single and batch store, update, import).
 */
export async function linkEntitiesMany(db: EngramDB, items: Mentions[]): Promise<void> {
	const ids = [...new Set(items.flatMap((it) => it.keys.map((k) => k.id)))];
	if (ids.length === 0) return;
	await writeEntityLinks(db, items, await readEntities(db, ids));
}

/** The stored rows of the given entity ids (missing ones absent), for `writeEntityLinks`. */
export async function readEntities(db: EngramDB, ids: string[]): Promise<Map<string, EntityRow>> {
	const rows = new Map<string, EntityRow>();
	if (ids.length) (await db.entities.bulkGet(ids)).forEach((r) => r && rows.set(r.id, r));
	return rows;
}

/**
 * Counts the mentions into `known` (every mentioned entity's stored row, as `readEntities`
 * returned it) and writes the entities: one request. Returns the rows written.
 */
export async function writeEntityLinks(db: EngramDB, items: Mentions[], known: ReadonlyMap<string, EntityRow>): Promise<Map<string, EntityRow>> {
	const rows = new Map<string, EntityRow>();
	for (const it of items) for (const k of it.keys) rows.set(k.id, countIn(rows.get(k.id) ?? known.get(k.id), k, it.at));
	if (rows.size) await db.entities.bulkPut([...rows.values()]);
	return rows;
}

/** One more mention of `k` at `at`: a new row, or the existing one counted and widened. */
function countIn(row: EntityRow | undefined, k: EntityKey, at: string): EntityRow {
	if (!row)
		return { id: k.id, norm: k.norm, name: k.name, type: k.type, aliases: [k.name], memory_count: 1, first_seen: at, last_seen: at };
	return {
		...row,
		memory_count: row.memory_count + 1,
		aliases: row.aliases.includes(k.name) ? row.aliases : [...row.aliases, k.name],
		first_seen: at < row.first_seen ? at : row.first_seen,
		last_seen: at > row.last_seen ? at : row.last_seen,
	};
}

/**
 * Uncounts the mentions of memories as they were stored (before a delete, or before their
 * entities change); returns the ids of entities deleted as orphans.
 */
export async function unlinkEntities(db: EngramDB, memories: Pick<MemoryRow, 'entities'>[]): Promise<string[]> {
	const drop = new Map<string, number>();
	for (const m of memories) for (const id of entityIdsOf(m.entities)) drop.set(id, (drop.get(id) ?? 0) + 1);
	if (drop.size === 0) return [];
	const ids = [...drop.keys()];
	const rows = await db.entities.bulkGet(ids);
	const orphans: string[] = [];
	const keep: EntityRow[] = [];
	rows.forEach((row, i) => {
		if (!row) return;
		const count = row.memory_count - (drop.get(ids[i]) ?? 0);
		if (count <= 0) orphans.push(row.id);
		else keep.push({ ...row, memory_count: count });
	});
	await db.entities.bulkDelete(orphans);
	await db.entities.bulkPut(keep);
	return orphans;
}

/** Memory ids that mention an entity. */
export async function memoryIdsOf(db: EngramDB, entityId: string): Promise<string[]> {
	return (await db.memories.where('entity_ids').equals(entityId).primaryKeys()) as string[];
}

/** Entities whose normalised name starts with `prefix`, most-mentioned first. */
export async function entitiesByPrefix(db: EngramDB, prefix: string, limit: number): Promise<EntityRow[]> {
	const rows = await db.entities.where('norm').startsWith(prefix).limit(limit * 5).toArray();
	return rows.sort((a, b) => b.memory_count - a.memory_count).slice(0, limit);
}

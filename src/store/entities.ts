/**
 * Entity rows and memory ↔ entity links. Counts are kept exact inside the caller's write
 * transaction; an entity no memory mentions any more is deleted.
 */
import type { EngramDB } from './db';
import type { EntityRow } from './rows';
import { rowsWhere } from './lookup';

/** An entity as the engine resolved it: stable id, normalised name, display name, type. */
export interface EntityKey {
	id: string;
	norm: string;
	name: string;
	type: string;
}

/** Links `memoryId` to each entity (creating or counting it); `at` is the memory's timestamp. */
export async function linkEntities(db: EngramDB, memoryId: string, keys: EntityKey[], at: string): Promise<void> {
	await linkEntitiesMany(db, [{ memoryId, keys, at }]);
}

/** A memory's entity mentions, as linkEntitiesMany takes them. */
export interface Mentions {
	memoryId: string;
	keys: EntityKey[];
	at: string;
}

/** The same for many memories in three requests, whatever their number (batch store, import). */
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
 * returned it) and writes entities and links: two requests, issued together.
 */
export async function writeEntityLinks(db: EngramDB, items: Mentions[], known: Map<string, EntityRow>): Promise<void> {
	const mentions = items.flatMap((it) => it.keys.map((k) => ({ k, at: it.at, memoryId: it.memoryId })));
	if (mentions.length === 0) return;
	const rows = new Map<string, EntityRow>();
	for (const m of mentions) rows.set(m.k.id, countIn(rows.get(m.k.id) ?? known.get(m.k.id), m.k, m.at));
	await Promise.all([
		db.entities.bulkPut([...rows.values()]),
		db.memoryEntities.bulkPut(mentions.map((m) => ({ memory_id: m.memoryId, entity_id: m.k.id }))),
	]);
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

/** Removes every entity link of the given memories; returns the ids of entities deleted as orphans. */
export async function unlinkEntities(db: EngramDB, memoryIds: string[]): Promise<string[]> {
	if (memoryIds.length === 0) return [];
	const links = await rowsWhere(db.memoryEntities, 'memory_id', memoryIds);
	if (links.length === 0) return [];
	await db.memoryEntities.bulkDelete(links.map((l) => [l.memory_id, l.entity_id] as [string, string]));
	const drop = new Map<string, number>();
	for (const l of links) drop.set(l.entity_id, (drop.get(l.entity_id) ?? 0) + 1);
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

/** Entity ids linked to a memory. */
export async function entityIdsOf(db: EngramDB, memoryId: string): Promise<string[]> {
	return (await db.memoryEntities.where('memory_id').equals(memoryId).toArray()).map((l) => l.entity_id);
}

/** Memory ids linked to an entity. */
export async function memoryIdsOf(db: EngramDB, entityId: string): Promise<string[]> {
	return (await db.memoryEntities.where('entity_id').equals(entityId).toArray()).map((l) => l.memory_id);
}

/** Entities whose normalised name starts with `prefix`, most-mentioned first. */
export async function entitiesByPrefix(db: EngramDB, prefix: string, limit: number): Promise<EntityRow[]> {
	const rows = await db.entities.where('norm').startsWith(prefix).limit(limit * 5).toArray();
	return rows.sort((a, b) => b.memory_count - a.memory_count).slice(0, limit);
}

/**
 * Entity rows: an entity's identity (id, normalised and display name, type, aliases), written
 * when first mentioned and again only when a new alias turns up. Which memories mention an
 * entity is their rows' own `entities`; which, how many, and when first and last is answered by
 * the engine's index, which holds every memory's entities (engine/reads.ts), so storing a memory
 * rewrites none of the rows of the entities it mentions. An entity no memory mentions any more
 * is deleted, in the same transaction as the write that removed its last mention
 * (engine/entity-orphans.ts).
 */
import type { EngramDB } from './db';
import { getRows, writeRows } from './raw';
import type { EntityRow } from './rows';

/** An entity as the engine resolved it: stable id, normalised name, display name, type. */
export interface EntityKey {
	id: string;
	norm: string;
	name: string;
	type: string;
}

/**
 * Makes sure every entity of `keys` has a row with its name among the aliases (single and batch
 * store, update, import): reads the rows, then writes only the new and the newly aliased ones.
 */
export async function ensureEntities(db: EngramDB, keys: EntityKey[]): Promise<void> {
	const ids = [...new Set(keys.map((k) => k.id))];
	if (ids.length === 0) return;
	await writeEntities(db, keys, await readEntities(db, ids));
}

/** The stored rows of the given entity ids (missing ones absent), for `writeEntities`. */
export async function readEntities(db: EngramDB, ids: string[]): Promise<Map<string, EntityRow>> {
	const rows = new Map<string, EntityRow>();
	if (ids.length) (await getRows<EntityRow>(db, 'entities', ids)).forEach((r) => r && rows.set(r.id, r));
	return rows;
}

/**
 * Writes the rows `keys` need, given `known` (every mentioned entity's stored row, as
 * `readEntities` returned it): a new entity's row, or a known one with a new alias. One request,
 * none when nothing is new. Returns the rows written.
 *
 * `absent` names entities the caller believes have no row without having read them (a guessed
 * store, engine/write-guess.ts): their rows are added, not put, so should one exist after all
 * the add fails with a ConstraintError and aborts the transaction, instead of a read of each
 * beforehand (a batch of 500 mentions a few hundred new entities).
 */
export async function writeEntities(
	db: EngramDB,
	keys: Iterable<EntityKey>,
	known: ReadonlyMap<string, EntityRow>,
	absent?: ReadonlySet<string>,
): Promise<Map<string, EntityRow>> {
	const rows = new Map<string, EntityRow>();
	for (const k of keys) {
		const row = rows.get(k.id) ?? known.get(k.id);
		if (!row) rows.set(k.id, { id: k.id, norm: k.norm, name: k.name, type: k.type, aliases: [k.name] });
		else if (!row.aliases.includes(k.name)) rows.set(k.id, { ...row, aliases: [...row.aliases, k.name] });
	}
	if (rows.size === 0) return rows;
	if (absent === undefined || absent.size === 0) await writeRows(db, 'entities', [...rows.values()], 'put');
	else {
		const added = [...rows.values()].filter((r) => absent.has(r.id) && !known.has(r.id));
		const put = [...rows.values()].filter((r) => !absent.has(r.id) || known.has(r.id));
		await Promise.all([writeRows(db, 'entities', added, 'add'), writeRows(db, 'entities', put, 'put')]);
	}
	return rows;
}

/** Deletes entity rows (ones no memory mentions any more: engine/entity-orphans.ts decides). */
export async function deleteEntities(db: EngramDB, ids: string[]): Promise<void> {
	if (ids.length) await db.entities.bulkDelete(ids);
}

/** Up to `max` entities whose normalised name starts with `prefix`, in name order. */
export async function entitiesByPrefix(db: EngramDB, prefix: string, max: number): Promise<EntityRow[]> {
	return db.entities.where('norm').startsWith(prefix).limit(max).toArray();
}

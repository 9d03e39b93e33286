/**
 * Association rows: lookups in both directions, idempotent upserts keyed by (from, to, type),
 * and removal of every link touching a set of memories.
 */
import type { EngramDB } from './db';
import type { AssociationRow } from './rows';
import { rowsWhere } from './lookup';

/** Every association out of and into `id` (both directions), out-links first. */
export async function linksOf(db: EngramDB, id: string): Promise<{ out: AssociationRow[]; in: AssociationRow[] }> {
	const [out, inc] = await Promise.all([
		db.associations.where('from').equals(id).toArray(),
		db.associations.where('to').equals(id).toArray(),
	]);
	return { out, in: inc };
}

/** Every association touching any of `ids`; each row once. */
export async function linksTouching(db: EngramDB, ids: string[]): Promise<AssociationRow[]> {
	if (ids.length === 0) return [];
	const [out, inc] = await Promise.all([
		rowsWhere(db.associations, 'from', ids),
		rowsWhere(db.associations, 'to', ids),
	]);
	const seen = new Map<string, AssociationRow>();
	for (const a of [...out, ...inc]) seen.set(`${a.from}\u0000${a.to}\u0000${a.type}`, a);
	return [...seen.values()];
}

/** Deletes the given associations by key. */
export async function deleteLinks(db: EngramDB, rows: AssociationRow[]): Promise<void> {
	await db.associations.bulkDelete(rows.map((a) => [a.from, a.to, a.type] as [string, string, string]));
}

/**
 * Associations live on the memory they leave: `row.links`, one entry per (to, type). The store
 * indexes them backwards by `[to, type]` (`link_keys`, multi-entry, derived on every write), so
 * links into a memory are one index lookup. A stored memory therefore writes its SIMILAR_TO and
 * PRECEDED_BY links as part of its own row instead of one row each.
 *
 * Every function here runs inside the caller's transaction. Writers read the source rows, change
 * their `links` and put them back, so a link is never written apart from the memory it leaves.
 */
import Dexie from 'dexie';
import type { EngramDB } from './db';
import type { AssociationRow, MemoryRow, StoredLink } from './rows';
import { MemoryError } from '../core/errors';

/** The identity of a link: source, target and type. */
export type LinkKey = [from: string, to: string, type: string];

/** A link's identity as one string (for maps and sets). */
export const linkId = (a: { from: string; to: string; type: string }) => `${a.from}\u0000${a.to}\u0000${a.type}`;

/** The links leaving a memory row, as associations. */
export function linksOut(row: Pick<MemoryRow, 'id' | 'links'> | undefined): AssociationRow[] {
	return row?.links?.map((l) => ({ from: row.id, ...l })) ?? [];
}

/** The `[to, type]` key of each of a row's links (unique per row: `withLink` replaces a repeat); the middleware stores them. */
export function linkKeysOf(links: readonly StoredLink[] | undefined): [string, string][] {
	return (links ?? []).map((l) => [l.to, l.type]);
}

/** Memory rows with a link into any of `ids`, each once (a row is found once per matching link). */
async function rowsLinkingTo(db: EngramDB, ids: string[]): Promise<MemoryRow[]> {
	const found = await Promise.all(ids.map((id) => db.memories.where('link_keys').between([id, Dexie.minKey], [id, Dexie.maxKey], true, true).toArray()));
	return [...new Map(found.flat().map((r) => [r.id, r])).values()];
}

/**
 * Every association out of and into `id` (both directions), out-links first. A caller that
 * already read the memory's row passes it, and only the links into it are looked up.
 */
export async function linksOf(db: EngramDB, id: string, row?: MemoryRow): Promise<{ out: AssociationRow[]; in: AssociationRow[] }> {
	const [own, sources] = await Promise.all([row ?? db.memories.get(id), rowsLinkingTo(db, [id])]);
	return { out: linksOut(own), in: sources.flatMap(linksOut).filter((a) => a.to === id) };
}

/**
 * Every association touching any of the memories `rows` (as read in this transaction, or
 * undefined for a missing one); each once.
 */
export async function linksTouching(db: EngramDB, ids: string[], rows?: (MemoryRow | undefined)[]): Promise<AssociationRow[]> {
	if (ids.length === 0) return [];
	const wanted = new Set(ids);
	const [own, sources] = await Promise.all([rows ?? db.memories.bulkGet(ids), rowsLinkingTo(db, ids)]);
	const seen = new Map<string, AssociationRow>();
	for (const row of own) for (const a of linksOut(row)) seen.set(linkId(a), a);
	for (const row of sources) for (const a of linksOut(row)) if (wanted.has(a.to)) seen.set(linkId(a), a);
	return [...seen.values()];
}

/** The associations leaving any of `ids`. */
export async function linksFrom(db: EngramDB, ids: string[]): Promise<AssociationRow[]> {
	return (await db.memories.bulkGet(ids)).flatMap(linksOut);
}

/** The stored links with these keys (undefined where none), e.g. to mirror another tab's write. */
export async function linksByKey(db: EngramDB, keys: LinkKey[]): Promise<(AssociationRow | undefined)[]> {
	const rows = new Map((await db.memories.bulkGet([...new Set(keys.map((k) => k[0]))])).flatMap((r) => (r ? [[r.id, r] as const] : [])));
	return keys.map(([from, to, type]) => linksOut(rows.get(from)).find((a) => a.to === to && a.type === type));
}

/** How many associations are stored (one index entry each). */
export function countLinks(db: EngramDB): Promise<number> {
	return db.memories.orderBy('link_keys').count();
}

/** `row` with `link` added, or replacing the link of the same target and type. */
export function withLink(row: MemoryRow, link: AssociationRow): MemoryRow {
	const { from: _from, ...stored } = link;
	const links = (row.links ?? []).filter((l) => l.to !== link.to || l.type !== link.type);
	return { ...row, links: [...links, stored] };
}

/**
 * Writes associations (inserting, or replacing the same from/to/type) onto their source rows:
 * one read and one write request for the lot. `known` holds source rows the caller already has
 * in this transaction (and is about to write no other way); a source that does not exist throws.
 */
export async function putLinks(db: EngramDB, links: AssociationRow[], known = new Map<string, MemoryRow>()): Promise<void> {
	if (links.length === 0) return;
	const rows = await sourceRows(db, links, known);
	for (const a of links) rows.set(a.from, withLink(rows.get(a.from)!, a));
	await db.memories.bulkPut([...rows.values()]);
}

/** Removes associations from their source rows (sources already deleted are skipped). */
export async function deleteLinks(db: EngramDB, links: AssociationRow[]): Promise<void> {
	if (links.length === 0) return;
	const drop = new Set(links.map(linkId));
	const rows = await sourceRows(db, links, new Map(), false);
	const changed = [...rows.values()].map((r) => ({ ...r, links: linksOut(r).filter((a) => !drop.has(linkId(a))).map(({ from: _f, ...l }) => l) }));
	await db.memories.bulkPut(changed);
}

/** The source rows of `links`, from `known` or read in one request. */
async function sourceRows(db: EngramDB, links: AssociationRow[], known: Map<string, MemoryRow>, strict = true): Promise<Map<string, MemoryRow>> {
	const ids = [...new Set(links.map((a) => a.from))];
	const missing = ids.filter((id) => !known.has(id));
	const read = new Map(missing.length ? (await db.memories.bulkGet(missing)).flatMap((r) => (r ? [[r.id, r] as const] : [])) : []);
	const out = new Map<string, MemoryRow>();
	for (const id of ids) {
		const row = known.get(id) ?? read.get(id);
		if (row) out.set(id, row);
		else if (strict) throw new MemoryError('not_found', `from: no memory with id ${JSON.stringify(id)}`);
	}
	return out;
}

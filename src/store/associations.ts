/**
 * Associations live on the memory they leave: `row.links`, one entry per (to, type). A stored
 * memory therefore writes its SIMILAR_TO and PRECEDED_BY links as part of its own row instead of
 * one row each. Nothing in IndexedDB indexes them backwards: which memories link into a memory
 * is the engine's to say (its search index mirrors every link in both directions, see
 * engine/search/adjacency.ts), and the functions here read those source rows for the links
 * themselves. Up to schema v8 a multi-entry `link_keys` index answered it instead, at about
 * five index entries per stored memory: a third of a batch import's storage work.
 *
 * Every function here runs inside the caller's transaction. Writers read the source rows, change
 * their `links` and put them back, so a link is never written apart from the memory it leaves.
 */
import type { EngramDB } from './db';
import type { AssociationRow, MemoryRow } from './rows';
import { MemoryError } from '../core/errors';

/** The identity of a link: source, target and type. */
export type LinkKey = [from: string, to: string, type: string];

/** A link's identity as one string (for maps and sets). */
export const linkId = (a: { from: string; to: string; type: string }) => `${a.from}\u0000${a.to}\u0000${a.type}`;

/** The links leaving a memory row, as associations. */
export function linksOut(row: Pick<MemoryRow, 'id' | 'links'> | undefined): AssociationRow[] {
	return row?.links?.map((l) => ({ from: row.id, ...l })) ?? [];
}

/**
 * The rows of `sources` (memories the caller knows to link into some of `ids`), each once; one
 * request. A source that is gone, or whose links no longer reach `ids`, is simply not matched
 * by the callers' filters.
 */
async function sourceRowsOf(db: EngramDB, sources: readonly string[]): Promise<MemoryRow[]> {
	if (sources.length === 0) return [];
	return (await db.memories.bulkGet([...new Set(sources)])).filter((r): r is MemoryRow => r !== undefined);
}

/**
 * Every association out of and into `id` (both directions), out-links first. `sources` names
 * the memories that link into it (the engine's index knows them). A caller that already read
 * the memory's row passes it.
 */
export async function linksOf(db: EngramDB, id: string, sources: readonly string[], row?: MemoryRow): Promise<{ out: AssociationRow[]; in: AssociationRow[] }> {
	const [own, from] = await Promise.all([row ?? db.memories.get(id), sourceRowsOf(db, sources)]);
	return { out: linksOut(own), in: from.flatMap(linksOut).filter((a) => a.to === id) };
}

/**
 * Every association touching any of the memories `ids`, each once. `sources` names the memories
 * that link into them; `rows`, when given, are the memories' own rows as read in this
 * transaction (undefined for a missing one).
 */
export async function linksTouching(db: EngramDB, ids: string[], sources: readonly string[], rows?: (MemoryRow | undefined)[]): Promise<AssociationRow[]> {
	if (ids.length === 0) return [];
	const wanted = new Set(ids);
	const [own, from] = await Promise.all([rows ?? db.memories.bulkGet(ids), sourceRowsOf(db, sources)]);
	const seen = new Map<string, AssociationRow>();
	for (const row of own) for (const a of linksOut(row)) seen.set(linkId(a), a);
	for (const row of from) for (const a of linksOut(row)) if (wanted.has(a.to)) seen.set(linkId(a), a);
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

/** `row` with `link` added, or replacing the link of the same target and type. */
export function withLink(row: MemoryRow, link: AssociationRow): MemoryRow {
	const { from: _from, ...stored } = link;
	const links = (row.links ?? []).filter((l) => l.to !== link.to || l.type !== link.type);
	return { ...row, links: [...links, stored] };
}

/**
 * `row` with `links` added in order, each replacing a link of the same target and type: what
 * withLink one link at a time gives, with the row copied once instead of once per link (a
 * batch's new rows carry several links each).
 */
export function withLinks(row: MemoryRow, links: readonly AssociationRow[]): MemoryRow {
	if (links.length === 0) return row;
	const out = [...(row.links ?? [])];
	for (const link of links) {
		const { from: _from, ...stored } = link;
		for (let i = out.length - 1; i >= 0; i--) if (out[i].to === link.to && out[i].type === link.type) out.splice(i, 1);
		out.push(stored);
	}
	return { ...row, links: out };
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
	const changed = [...rows.values()].map((r) => ({
		...r,
		links: linksOut(r)
			.filter((a) => !drop.has(linkId(a)))
			.map(({ from: _f, ...l }) => l),
	}));
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

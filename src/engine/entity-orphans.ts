/**
 * An entity's row goes when its last mention goes, in the same transaction as the write that
 * removed it (a delete, an update that changed the entities, an import replacing memories).
 * Nothing in IndexedDB indexes mentions since schema v11 (an index entry per mention, with the
 * tags' entries 15–35% of a large import's storage-process CPU), so the count comes from the
 * engine's index, which holds every memory's entities, corrected by this transaction's own
 * changes (not in the index yet).
 * The index answers only when it holds exactly what is stored: the database's write stamp, read
 * inside the transaction, equals the stamp the index reflects. Otherwise (another tab wrote and
 * its notice is not applied yet) the rows themselves are counted, one pass over the table.
 */
import { entityIdsOf } from '../store/derived';
import { deleteEntities } from '../store/entities';
import type { MemoryRow } from '../store/rows';
import { readStamp } from '../store/settings';
import type { EngineContext } from './context';

type Mentioner = Pick<MemoryRow, 'id' | 'entities'>;

/**
 * Deletes the entities `removed` mentioned that no memory mentions once this transaction
 * commits. Call it inside the write transaction, before the index mirrors the change:
 * `removed` are the rows as they were before (deleted, or replaced), `written` the rows this
 * transaction put in their place. Returns the ids deleted.
 */
export async function dropOrphanEntities(ctx: EngineContext, removed: Mentioner[], written: Mentioner[] = []): Promise<string[]> {
	const candidates = new Set(removed.flatMap((m) => entityIdsOf(m.entities)));
	if (candidates.size === 0) return [];
	const left = (await readStamp(ctx.db)) === ctx.indexedUpTo() ? fromIndex(ctx, candidates, removed, written) : await fromRows(ctx, candidates);
	const orphans = [...candidates].filter((id) => (left.get(id) ?? 0) <= 0);
	await deleteEntities(ctx.db, orphans);
	return orphans;
}

/** Mentions of `ids` once the transaction commits: the index's count, less the removed rows it holds, plus the written rows. */
function fromIndex(ctx: EngineContext, ids: Set<string>, removed: Mentioner[], written: Mentioner[]): Map<string, number> {
	const left = new Map([...ids].map((id) => [id, ctx.index.mentions(id)]));
	const add = (m: Mentioner, by: number) => {
		for (const id of entityIdsOf(m.entities)) if (left.has(id)) left.set(id, left.get(id)! + by);
	};
	for (const m of removed) if (ctx.index.has(m.id)) add(m, -1);
	for (const m of written) add(m, 1);
	return left;
}

/** Mentions of `ids` counted on the rows, this transaction's own writes included. */
async function fromRows(ctx: EngineContext, ids: Set<string>): Promise<Map<string, number>> {
	const left = new Map<string, number>();
	await ctx.db.memories.each((m) => {
		for (const id of entityIdsOf(m.entities)) if (ids.has(id)) left.set(id, (left.get(id) ?? 0) + 1);
	});
	return left;
}

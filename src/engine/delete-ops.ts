/**
 * delete_memory: by id, by a list of ids, or by tags (any/all, optionally in one scope). Removes
 * the memories, every association in or out of them, their entity links (and entities no longer
 * mentioned), their vectors under every model and their index entries, in one transaction.
 */
import { isMemoryError } from '../core/errors';
import { DeleteInputSchema, LIMITS, type DeleteInput, type DeleteOutput, type MemoryRef } from '../core/schemas';
import { appendActivity } from '../store/activity';
import { deleteLinks, linksTouching, putLinks } from '../store/associations';
import { getByRef } from '../store/memories';
import { bumpStamp } from '../store/settings';
import type { AssociationRow } from '../store/rows';
import { nowIso, type EngineContext } from './context';
import { dropOrphanEntities } from './entity-orphans';
import { notFound } from './get-ops';
import { writeIndexed, type IndexChange } from './index-sync';
import { carriesTags } from './search/filters';
import { applyOnce, holdRequest, priorResult, replayedOutput, requestKey, type RequestKey } from './request-ids';
import { parseInput } from './validate';

/** Deletes memories; see the module comment. With the storage full, see `deleteWhenFull`. */
export async function deleteMemories(ctx: EngineContext, input: DeleteInput, actor = 'agent'): Promise<DeleteOutput> {
	const p = parseInput(DeleteInputSchema, input);
	const key = requestKey('delete_memory', p);
	return ctx.lock.run(async () => {
		// A retry whose first call went through finds its memories gone: answer it before looking.
		const early = key && (await priorResult(ctx, key));
		if (early) return replayedOutput(early.result as DeleteOutput, key!);
		const found = await targets(ctx, p);
		const missing = found.missing;
		if (found.ids.length === 0) return output([], 0, missing, p);
		try {
			return await deleteFully(ctx, p, found.ids, missing, actor, key);
		} catch (e) {
			if (!isMemoryError(e) || e.code !== 'quota_exceeded') throw e;
			return deleteWhenFull(ctx, p, found.ids, missing, actor, key);
		}
	});
}

/** The delete in one transaction (the caller holds the write lock). */
async function deleteFully(
	ctx: EngineContext,
	p: DeleteInput,
	found: string[],
	missing: MemoryRef[],
	actor: string,
	key: RequestKey | undefined,
): Promise<DeleteOutput> {
	{
		let ids = found;
		const change: IndexChange = { upserts: [], edges: [], removedIds: ids, removedEdges: [] };
		const compact = (removed: number) => output(ids, removed, missing, p);
		const applied = await writeIndexed(ctx, change, () =>
			applyOnce(
				ctx,
				key,
				async () => {
					let rows = await ctx.db.memories.bulkGet(ids);
					const tags = p.tags;
					if (tags) {
						// The index named them; the rows confirm they still match (another tab may have
						// changed one since).
						rows = rows.filter(
							(r) => r !== undefined && (p.scope === undefined || r.scope === p.scope) && carriesTags(r.tags, tags, p.tag_mode ?? 'any'),
						);
						change.removedIds = ids = rows.map((r) => r!.id);
					}
					const deleted = new Set(ids);
					const links = await linksTouching(ctx.db, ids, ctx.index.linkedFrom(ids), rows);
					// Links leaving a deleted memory go with its row; links into one leave their sources.
					await deleteLinks(
						ctx.db,
						links.filter((a) => !deleted.has(a.from)),
					);
					const bridges = bridgeSequence(links, deleted, nowIso(ctx));
					await putLinks(ctx.db, bridges);
					change.edges = bridges;
					// A memory's vectors are part of its row (store/vectors.ts): they go with it.
					await ctx.db.memories.bulkDelete(ids);
					await dropOrphanEntities(
						ctx,
						rows.filter((r) => r !== undefined),
					);
					const at = nowIso(ctx);
					await appendActivity(
						ctx.db,
						ids.map((memory_id) => ({ at, actor, action: 'deleted' as const, memory_id })),
					);
					change.removedEdges = links;
					change.stamp = await bumpStamp(ctx.db);
					return links.length;
				},
				compact,
			),
		);
		// Another tab applied this request_id first: its memories are gone, and were removed here too.
		if (applied.replayed) return replayedOutput(applied.value, key!);
		ctx.hub.emit({ kind: 'memories', ids });
		return output(ids, applied.value, missing, p);
	}
}

/**
 * The delete when the origin's quota is reached. Chromium then commits a transaction only if
 * its every request is a delete (tried in Chromium 156: a delete plus the counters' put, plus
 * the activity entry, or a row rewritten shorter, each aborted with QuotaExceededError), so
 * this one only deletes: the memory rows (their vectors and the links leaving them go along)
 * and the index snapshots. What has to wait:
 * - the write stamp stays (bumping it is a put); the snapshots go instead, so the next start
 *   rebuilds the index from the rows rather than restoring one that still holds these memories;
 * - links into the deleted memories stay on their source rows, dangling (get, graph walks and
 *   recall skip a missing end, §3) and PRECEDED_BY chains are not bridged;
 * - entities left unmentioned keep their rows (an entity's counts come from the index);
 * - the `deleted` activity entries go to the deferred log, written once there is room;
 * - a request_id is held in this tab (replays here are recognised) and recorded by the next
 *   write that commits (request-ids.ts); the result says `request_recorded: false`.
 */
async function deleteWhenFull(
	ctx: EngineContext,
	p: DeleteInput,
	found: string[],
	missing: MemoryRef[],
	actor: string,
	key: RequestKey | undefined,
): Promise<DeleteOutput> {
	let ids = found;
	let prior: { result: unknown } | undefined;
	await ctx.db.deleteOnly(async () => {
		// Reading is allowed when full; the check must be in the transaction, as in `write`.
		prior = key && (await priorResult(ctx, key));
		if (prior) return;
		if (p.tags) {
			const tags = p.tags;
			const rows = await ctx.db.memories.bulkGet(ids);
			ids = rows
				.filter((r) => r !== undefined && (p.scope === undefined || r.scope === p.scope) && carriesTags(r.tags, tags, p.tag_mode ?? 'any'))
				.map((r) => r!.id);
		}
		await ctx.db.memories.bulkDelete(ids);
		await ctx.db.snapshots.clear();
	});
	if (prior) return replayedOutput(prior.result as DeleteOutput, key!);
	const gone = new Set(ids);
	const linking = ctx.index.linkedFrom(ids).filter((id) => !gone.has(id)).length;
	for (const id of ids) ctx.index.remove(id);
	// The database's stamp did not move: other tabs mirror the removal, nobody counts it as a new write.
	ctx.committed(ctx.indexedUpTo(), { upserts: [], removed: ids, edges: [] });
	const at = nowIso(ctx);
	for (const memory_id of ids) ctx.log.add({ at, actor, action: 'deleted', memory_id });
	ctx.hub.emit({ kind: 'memories', ids });
	const out = output(ids, 0, missing, p);
	out.message += `; storage is full: ${linking ? `${linking} other memor${linking === 1 ? 'y keeps its link' : 'ies keep their links'} to them, and ` : ''}the history entries wait until there is room`;
	if (!key) return out;
	holdRequest(ctx, key, out);
	return {
		...out,
		message: `${out.message}; its request_id is held in this tab until there is room to record it (resent after a reload or from another tab first, it deletes again what is left: a single memory_id already gone is not_found)`,
		request_recorded: false,
	};
}

/**
 * Keeps PRECEDED_BY chains whole: when y → x → w and x is deleted, y now follows w (through any
 * run of deleted memories), as if x had never been stored.
 */
export function bridgeSequence(links: AssociationRow[], deleted: Set<string>, at: string): AssociationRow[] {
	const prevOf = new Map<string, string>();
	for (const a of links) if (a.type === 'PRECEDED_BY' && deleted.has(a.from)) prevOf.set(a.from, a.to);
	const out: AssociationRow[] = [];
	for (const a of links) {
		if (a.type !== 'PRECEDED_BY' || deleted.has(a.from) || !deleted.has(a.to)) continue;
		let w: string | undefined = a.to;
		const seen = new Set<string>();
		while (w !== undefined && deleted.has(w) && !seen.has(w)) {
			seen.add(w);
			w = prevOf.get(w);
		}
		if (w !== undefined && !deleted.has(w) && w !== a.from) out.push({ from: a.from, to: w, type: 'PRECEDED_BY', strength: a.strength, created_at: at });
	}
	return out;
}

/** The ids to delete, and the references that matched nothing. */
async function targets(ctx: EngineContext, p: DeleteInput): Promise<{ ids: string[]; missing: MemoryRef[] }> {
	if (p.tags) return { ids: ctx.index.withTags(p.tags, p.tag_mode ?? 'any', p.scope), missing: [] };
	if (p.memory_id !== undefined) {
		const row = await getByRef(ctx.db, p.memory_id);
		if (!row) throw notFound('memory_id', p.memory_id);
		return { ids: [row.id], missing: [] };
	}
	const refs = p.memory_ids ?? [];
	const rows = await Promise.all(refs.map((r) => getByRef(ctx.db, r)));
	const missing = refs.filter((_, i) => !rows[i]);
	return { ids: [...new Set(rows.flatMap((r) => (r ? [r.id] : [])))], missing };
}

function output(ids: string[], associations: number, missing: MemoryRef[], p: DeleteInput): DeleteOutput {
	const what = p.tags ? ` with tags ${p.tags.join(p.tag_mode === 'all' ? ' and ' : ' or ')}${p.scope ? ` in scope ${p.scope}` : ''}` : '';
	const out: DeleteOutput = {
		success: missing.length === 0,
		message:
			(ids.length
				? `Deleted ${ids.length} memor${ids.length === 1 ? 'y' : 'ies'}${what} and ${associations} association(s)`
				: `No memories${what || ' matched'}`) + (missing.length ? `; not found: ${missing.map((m) => JSON.stringify(m)).join(', ')}` : ''),
		deleted_count: ids.length,
		deleted_ids: ids.slice(0, LIMITS.batch),
		associations_removed: associations,
	};
	if (missing.length) out.not_found = missing.map(String);
	return out;
}

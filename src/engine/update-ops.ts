/**
 * update_memory: replaces content, tags and entities, merges metadata (a null value deletes
 * the key), sets or clears the validity window. tags_add / tags_remove edit the tags the row
 * has inside the update's transaction (a label edit is one operation, never read-then-write). A
 * content change re-embeds the memory, refreshes its SIMILAR_TO links and (unless the caller
 * gave them) its extracted entities, and drops vectors other models computed from the old text.
 */
import { isMemoryError, MemoryError } from '../core/errors';
import { importanceValue, LIMITS, toIso, UpdateInputSchema, type UpdateInput, type UpdateOutput } from '../core/schemas';
import type { ActivityEntry } from '../core/activity';
import { DEFAULT_STRENGTH, linkEntry } from './associate-ops';
import { normalize } from '../core/vector';
import { appendActivity } from '../store/activity';
import { deleteLinks, linksOut, linksTouching, withLink } from '../store/associations';
import { contentKey, sessionOf } from '../store/derived';
import { ensureEntities } from '../store/entities';
import { getByRef } from '../store/memories';
import type { AssociationRow, MemoryRow } from '../store/rows';
import { bumpStamp } from '../store/settings';
import { setVector } from '../store/vectors';
import { callerModel, embedTexts, nowIso, type EngineContext } from './context';
import { entityKeys, resolveEntities } from './entity-keys';
import { notFound } from './get-ops';
import { dropOrphanEntities } from './entity-orphans';
import { writeIndexed, type IndexChange } from './index-sync';
import { applyOnce, priorResult, replayedOutput, requestKey, type Applied, type RequestKey } from './request-ids';
import { checkValidity, MAX_SIMILAR } from './store-ops';
import { parseInput } from './validate';
import { UPDATE_FIELDS, type UpdateBase, type UpdateExtra } from './types';

/** Applies an update; see the module comment. With `extra`, see UpdateExtra. */
export async function updateMemory(ctx: EngineContext, input: UpdateInput, actor = 'agent', extra: UpdateExtra = {}): Promise<UpdateOutput> {
	const p = parseInput(UpdateInputSchema, input);
	const key = requestKey('update_memory', p);
	// A retry whose first call went through is answered before the memory is looked up (it may be gone since).
	const early = key && (await priorResult(ctx, key));
	if (early) return replayedOutput(early.result as UpdateOutput, key!);
	const current = await getByRef(ctx.db, p.memory_id);
	if (!current) throw notFound('memory_id', p.memory_id);
	const reembed = p.content !== undefined && p.content !== current.content;
	const [vector] = reembed ? await embedTexts(ctx, [p.content!]) : [undefined];
	const caller = p.embedding ? normalize(p.embedding) : null;
	if (p.embedding && !caller) throw new MemoryError('invalid_input', 'embedding: must not be all zeros');
	return ctx.lock.run(async () => {
		const tagEdit = p.tags_add !== undefined || p.tags_remove !== undefined;
		const out = (r: Rewritten) => output(r.row, r.changed, reembed, tagEdit);
		const applied = await rewrite(ctx, p, current, vector ?? null, caller, actor, key, out, extra).catch(whenFull);
		if (applied.replayed) return replayedOutput(applied.value, key!);
		const res = applied.value;
		if (res.changed.length || caller || p.updated_at !== undefined) ctx.hub.emit({ kind: 'memories', ids: [res.row.id] });
		const other = extra.link?.to ?? extra.unlink?.to;
		if (other !== undefined) ctx.hub.emit({ kind: 'associations', ids: [res.row.id, other] });
		return out(res);
	});
}

/**
 * With the storage full, Chromium refuses any transaction that puts a row, even one rewritten
 * shorter (tried in Chromium 156), so an update cannot go through: say how to make room.
 */
function whenFull(e: unknown): never {
	if (isMemoryError(e) && e.code === 'quota_exceeded')
		throw new MemoryError(
			'quota_exceeded',
			'update_memory: storage is full, and the browser refuses to rewrite a memory (even shorter) until there is room; delete memories first (delete_memory works when full; the app lists the oldest), then retry',
			e.data,
		);
	throw e;
}

type Rewritten = { row: MemoryRow; changed: string[] };

/** The update's one transaction (the caller holds the write lock); a replayed request_id writes nothing. */
async function rewrite(
	ctx: EngineContext,
	p: UpdateInput,
	current: MemoryRow,
	vector: Float32Array | null,
	caller: Float32Array | null,
	actor: string,
	key: RequestKey | undefined,
	compact: (r: Rewritten) => UpdateOutput,
	extra: UpdateExtra,
): Promise<Applied<Rewritten, UpdateOutput>> {
	{
		const change: IndexChange = { upserts: [], edges: [], removedEdges: [] };
		const res = await writeIndexed(ctx, change, () =>
			applyOnce(
				ctx,
				key,
				async (): Promise<Rewritten> => {
					const old = await ctx.db.memories.get(current.id);
					if (!old) throw notFound('memory_id', p.memory_id);
					if (extra.replaceTags !== undefined) checkReplaced(old, p, extra.replaceTags);
					let next = applyFields(old, p, nowIso(ctx));
					if (extra.base) checkBase(old, next, p, extra.base);
					checkValidity(next, (f) => f);
					const changed: string[] = UPDATE_FIELDS.filter((f) => JSON.stringify(old[f]) !== JSON.stringify(next[f]));
					if (caller) changed.push('embedding');
					const links = await linkEdits(ctx, old, extra, actor, change);
					if (changed.length === 0 && !caller && p.updated_at === undefined && !links) return { row: old, changed };
					if (links) next = { ...next, links: links.links };
					const contentChanged = changed.includes('content');
					// Before the put: new content changes the row's own SIMILAR_TO links.
					const vec = contentChanged ? await replaceVectors(ctx, next, vector, change) : next.vectors?.[ctx.embedder.modelId];
					if (caller) setVector(next, callerModel(caller.length), caller);
					await ctx.db.memories.put(next);
					if (changed.includes('entities')) await relinkEntities(ctx, old, next);
					await appendActivity(ctx.db, [
						...(changed.length
							? [
									{
										at: next.updated_at,
										actor,
										action: 'updated' as const,
										memory_id: next.id,
										detail: changed.join(', '),
										changes: fieldChanges(old, next, changed),
									},
								]
							: []),
						...(links?.entries ?? []),
					]);
					change.upserts.push({ row: next, vector: vec ?? null });
					change.stamp = await bumpStamp(ctx.db);
					return { row: next, changed };
				},
				compact,
			),
		);
		return res;
	}
}

/**
 * The row's links after `extra`'s link and unlink (recorded in `change` and as activity entries),
 * or undefined when it asks for neither. The linked memory must exist; a link to remove must too.
 */
async function linkEdits(
	ctx: EngineContext,
	row: MemoryRow,
	extra: UpdateExtra,
	actor: string,
	change: IndexChange,
): Promise<{ links: MemoryRow['links']; entries: ActivityEntry[] } | undefined> {
	if (!extra.link && !extra.unlink) return undefined;
	const at = nowIso(ctx);
	let out = row;
	const entries: ActivityEntry[] = [];
	if (extra.unlink) {
		const { to, type } = extra.unlink;
		const gone = linksOut(row).filter((l) => l.to === to && l.type === type);
		if (gone.length === 0) throw new MemoryError('not_found', `type: no ${type} link from ${row.id} to ${to}`);
		out = { ...out, links: (out.links ?? []).filter((l) => l.to !== to || l.type !== type) };
		change.removedEdges!.push(...gone);
		entries.push(linkEntry(at, actor, 'unlinked', row.id, to, type));
	}
	if (extra.link) {
		const { to, type, ...fields } = extra.link;
		if (to === row.id) throw new MemoryError('invalid_input', 'memory2_id: must differ from memory1_id (a memory cannot be linked to itself)');
		if (!(await ctx.db.memories.get(to))) throw notFound('memory2_id', to);
		const existing = linksOut(out).find((l) => l.to === to && l.type === type);
		const link: AssociationRow = existing
			? { ...existing, ...fields, updated_at: at }
			: { from: row.id, to, type, strength: DEFAULT_STRENGTH, created_at: at, ...fields };
		out = withLink(out, link);
		change.edges.push(link);
		entries.push(linkEntry(at, actor, 'associated', row.id, to, type));
	}
	return { links: out.links, entries };
}

/**
 * A replacement (UpdateExtra.replaceTags) of tags the memory has none of is refused, read inside
 * the update's transaction: adding the new tags anyway would file a memory as "done" that was
 * never "todo". One that already holds every new tag is a retry and goes on (changing nothing).
 */
function checkReplaced(old: MemoryRow, p: UpdateInput, field: string): void {
	const have = new Set(old.tags.map((t) => t.toLowerCase()));
	const remove = p.tags_remove ?? [];
	if (remove.length === 0 || remove.some((t) => have.has(t.toLowerCase()))) return;
	if ((p.tags_add ?? []).every((t) => old.tags.includes(t))) return;
	const list = (tags: string[]) => (tags.length ? tags.map((t) => JSON.stringify(t)).join(', ') : 'none');
	throw new MemoryError(
		'not_found',
		`${field}: memory #${old.seq} has none of ${list(remove)} (it has: ${list(old.tags)}); nothing was replaced or changed`,
		{ field, tags: old.tags },
	);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Throws a `conflict` when a field this update changes no longer holds the value the editor
 * started from (`base`), unless it already holds the new value. Metadata is compared per key
 * the update sets or deletes: keys changed elsewhere merge.
 */
function checkBase(old: MemoryRow, next: MemoryRow, p: UpdateInput, base: UpdateBase): void {
	const moved: string[] = [];
	for (const f of UPDATE_FIELDS) {
		if (!(f in base) || !(f in p) || p[f as keyof UpdateInput] === undefined) continue;
		if (f === 'metadata') {
			const was = (base.metadata ?? {}) as Record<string, unknown>;
			const keys = Object.keys(p.metadata ?? {}).filter((k) => !same(old.metadata[k], was[k]) && !same(old.metadata[k], next.metadata[k]));
			moved.push(...keys.map((k) => `metadata.${k}`));
		} else if (!same(old[f], base[f]) && !same(old[f], next[f])) moved.push(f);
	}
	if (moved.length)
		throw new MemoryError(
			'conflict',
			`${moved[0]}: changed elsewhere (by an agent or another tab) since it was read; nothing was saved (the memory's ${moved.join(', ')} ${moved.length === 1 ? 'is' : 'are'} no longer what this change started from)`,
			{ fields: moved },
		);
}

/** Fields whose old and new values the history keeps (so a person can see and revert them). */
const HISTORY_FIELDS = new Set<string>(UPDATE_FIELDS.filter((f) => f !== 'last_accessed'));

/** Each changed field's value before and after; unset values are left out (`from`/`to` absent). */
function fieldChanges(old: MemoryRow, next: MemoryRow, changed: string[]): Record<string, { from?: unknown; to?: unknown }> {
	const out: Record<string, { from?: unknown; to?: unknown }> = {};
	for (const f of changed) {
		if (!HISTORY_FIELDS.has(f)) continue;
		const key = f as (typeof UPDATE_FIELDS)[number];
		const c: { from?: unknown; to?: unknown } = {};
		if (old[key] !== undefined) c.from = old[key];
		if (next[key] !== undefined) c.to = next[key];
		out[f] = c;
	}
	return out;
}

/** The row after applying every given field. */
function applyFields(old: MemoryRow, p: UpdateInput, now: string): MemoryRow {
	const next: MemoryRow = { ...old, updated_at: p.updated_at ? toIso(p.updated_at) : now };
	if (p.content !== undefined) {
		next.content = p.content;
		next.content_key = contentKey(p.content);
	}
	if (p.summary !== undefined) next.summary = p.summary;
	if (p.tags !== undefined) next.tags = [...new Set(p.tags)];
	if (p.tags_add !== undefined || p.tags_remove !== undefined) next.tags = editTags(old.tags, p.tags_add ?? [], p.tags_remove ?? []);
	if (p.type !== undefined) next.type = p.type;
	if (p.importance !== undefined) next.importance = importanceValue(p.importance);
	if (p.confidence !== undefined) next.confidence = p.confidence;
	if (p.source !== undefined) next.source = p.source;
	if (p.scope !== undefined) next.scope = p.scope;
	if (p.timestamp !== undefined) next.timestamp = toIso(p.timestamp);
	if (p.last_accessed !== undefined) next.last_accessed = toIso(p.last_accessed);
	setOrClear(next, 't_valid', p.t_valid);
	setOrClear(next, 't_invalid', p.t_invalid);
	if (p.metadata !== undefined) mergeMetadata(next, p.metadata);
	if (p.entities !== undefined || (p.content !== undefined && !old.entities_given)) {
		const { refs, given } = resolveEntities(next.content, p.entities ?? undefined);
		next.entities = refs;
		next.entities_given = given;
	}
	return next;
}

/**
 * The row's tags less `remove` (case-insensitive), then plus each of `add` it lacks (exact
 * match), in order: the edit runs on the row as read inside the update's transaction, so two
 * concurrent edits both land. An edit that would grow the list past the limit is refused (as a
 * tags update of that length is); one that shrinks a list already over it is not.
 */
function editTags(tags: string[], add: string[], remove: string[]): string[] {
	const drop = new Set(remove.map((t) => t.toLowerCase()));
	// A tag removed and added back as it is stays where it was ("x" replaced by "x" changes nothing).
	const kept = tags.filter((t) => !drop.has(t.toLowerCase()) || add.includes(t));
	const next = [...new Set([...kept, ...add])];
	if (next.length > LIMITS.tags && next.length > tags.length)
		throw new MemoryError('invalid_input', `tags: must have at most ${LIMITS.tags} items (tags_add would give the memory ${next.length})`, {
			issues: [{ path: 'tags_add', rule: `must leave the memory at most ${LIMITS.tags} tags` }],
		});
	return next;
}

function setOrClear(row: MemoryRow, key: 't_valid' | 't_invalid', v: string | null | undefined): void {
	if (v === null) delete row[key];
	else if (v !== undefined) row[key] = toIso(v);
}

/** Shallow merge; a null value deletes the key. Keeps the derived session in step. */
function mergeMetadata(row: MemoryRow, patch: Record<string, unknown>): void {
	const merged = { ...row.metadata };
	for (const [k, v] of Object.entries(patch)) {
		if (v === null) delete merged[k];
		else merged[k] = v;
	}
	row.metadata = merged;
	const session = sessionOf(merged);
	if (session === undefined) delete row.session;
	else row.session = session;
}

/** After the row's put: rows for its new entities, and none left for entities it alone mentioned. */
async function relinkEntities(ctx: EngineContext, old: MemoryRow, row: MemoryRow): Promise<void> {
	await ensureEntities(ctx.db, entityKeys(row.entities));
	await dropOrphanEntities(ctx, [old], [row]);
}

/**
 * New content: the active model's vector is replaced, every other model's (and the caller's)
 * vector is dropped as stale, and SIMILAR_TO links are recomputed: the row's own in `row.links`
 * and its vectors (the caller puts the row), those into it on their source rows. Returns the new
 * vector.
 */
async function replaceVectors(ctx: EngineContext, row: MemoryRow, vector: Float32Array | null, change: IndexChange): Promise<Float32Array | null> {
	delete row.vectors;
	if (vector) setVector(row, ctx.embedder.modelId, vector);
	const similar = (await linksTouching(ctx.db, [row.id], ctx.index.linkedFrom([row.id]), [row])).filter((a) => a.type === 'SIMILAR_TO');
	await deleteLinks(
		ctx.db,
		similar.filter((a) => a.from !== row.id),
	);
	row.links = row.links?.filter((l) => l.type !== 'SIMILAR_TO');
	change.removedEdges!.push(...similar);
	if (!vector) return null;
	const near = ctx.index.nearest(vector, MAX_SIMILAR, { scope: row.scope, exclude: [row.id] });
	for (const n of near.filter((x) => x.cosine >= ctx.thresholds.similar)) {
		const strength = Math.round(n.cosine * 1e6) / 1e6;
		// One link per pair, as store-ops writes it (SIMILAR_TO is symmetric).
		const link: AssociationRow = { from: row.id, to: n.id, type: 'SIMILAR_TO', strength, created_at: row.updated_at };
		row.links = withLink(row, link).links;
		change.edges.push(link);
	}
	return vector;
}

/** The update's answer; a tag edit (tags_add/tags_remove) also gets the tags it left. */
function output(row: MemoryRow, changed: string[], reembedded: boolean, tagEdit: boolean): UpdateOutput {
	return {
		success: true,
		message: changed.length ? `Updated memory ${row.id}: ${changed.join(', ')}` : `Memory ${row.id} already had these values; nothing changed`,
		memory_id: row.id,
		seq: row.seq,
		changed,
		re_embedded: reembedded && changed.includes('content'),
		...(tagEdit ? { tags: [...row.tags] } : {}),
	};
}

/**
 * associate_memories: one pair, or a batch of ≤ 500 in one transaction where each item succeeds
 * or fails on its own (unknown id → not_found, self-link → invalid_input). Only the 11 authorable
 * types are accepted. Idempotent per (from, to, type): a repeat updates strength and fields.
 *
 * unlink_memories (deleteAssociation): removes the links from one memory to another, of one type
 * or all, in one transaction that also updates the search index's adjacency and logs it.
 */
import { MemoryError } from '../core/errors';
import {
	AssociateInputSchema,
	type AssociateInput,
	type AssociateItem,
	type AssociateOutput,
	type AuthorableAssociationType,
	UnlinkInputSchema,
	type UnlinkInput,
	type UnlinkOutput,
} from '../core/schemas';
import type { ActivityEntry } from '../core/activity';
import { appendActivity } from '../store/activity';
import { deleteLinks, linksOut, putLinks } from '../store/associations';
import { getByRef } from '../store/memories';
import type { AssociationRow } from '../store/rows';
import { bumpStamp } from '../store/settings';
import { nowIso, type EngineContext } from './context';
import { notFound } from './get-ops';
import { writeIndexed, type IndexChange } from './index-sync';
import { applyOnce, replayedOutput, requestKey } from './request-ids';
import { parseInput } from './validate';

/** Strength when the caller gives none (seed 000: 0.5–0.7 is "moderate"). */
export const DEFAULT_STRENGTH = 0.5;

/** The relation-specific fields copied onto the association when given. */
const FIELDS = ['reason', 'context', 'role', 'confidence', 'resolution', 'observations', 'pattern_type', 'transformation', 'timestamp'] as const;

type Succeeded = AssociateOutput['succeeded'][number];
type Failed = AssociateOutput['failed'][number];

/** Creates or updates associations; see the module comment. */
export async function associateMemories(ctx: EngineContext, input: AssociateInput, actor = 'agent'): Promise<AssociateOutput> {
	const p = parseInput(AssociateInputSchema, input);
	const single = p.associations === undefined;
	const items: AssociateItem[] = p.associations ?? [p as AssociateItem];
	const key = requestKey('associate_memories', p);
	return ctx.lock.run(async () => {
		const change: IndexChange = { upserts: [], edges: [] };
		const applied = await writeIndexed(ctx, change, () =>
			applyOnce(
				ctx,
				key,
				async () => {
					const ok: Succeeded[] = [];
					const failed: Failed[] = [];
					const at = nowIso(ctx);
					for (const [index, item] of items.entries()) {
						const r = await writeOne(ctx, item, index, at, single);
						if ('error' in r) failed.push(r);
						else {
							ok.push(r.result);
							change.edges.push(r.row);
						}
					}
					if (ok.length) {
						await appendActivity(
							ctx.db,
							ok.map((s) => linkEntry(at, actor, 'associated', s.memory1_id, s.memory2_id, s.type)),
						);
						change.stamp = await bumpStamp(ctx.db);
					}
					return { ok, failed };
				},
				(r) => r,
			),
		);
		const res = applied.value;
		if (applied.replayed) return replayedOutput(output(res.ok, res.failed), key!);
		if (res.ok.length) ctx.hub.emit({ kind: 'associations', ids: [...new Set(res.ok.flatMap((s) => [s.memory1_id, s.memory2_id]))] });
		return output(res.ok, res.failed);
	});
}

/**
 * Removes links; see the module comment. No link to remove is a not_found error naming it. With
 * a request_id, a resend is answered with the original result (`replayed`) rather than
 * not_found for the link it already removed.
 */
export async function unlinkMemories(ctx: EngineContext, input: UnlinkInput, actor = 'agent'): Promise<UnlinkOutput> {
	const p = parseInput(UnlinkInputSchema, input);
	const key = requestKey('unlink_memories', p);
	return ctx.lock.run(async () => {
		const change: IndexChange = { upserts: [], edges: [], removedEdges: [] };
		const applied = await writeIndexed(ctx, change, () =>
			applyOnce(
				ctx,
				key,
				async () => {
					const [a, b] = await Promise.all([getByRef(ctx.db, p.memory1_id), getByRef(ctx.db, p.memory2_id)]);
					if (!a) throw notFound('memory1_id', p.memory1_id);
					if (!b) throw notFound('memory2_id', p.memory2_id);
					const links = linksOut(a).filter((l) => l.to === b.id && (p.type === undefined || l.type === p.type));
					if (links.length === 0)
						throw new MemoryError('not_found', `${p.type ? 'type' : 'memory2_id'}: no ${p.type ? `${p.type} ` : ''}link from ${a.id} to ${b.id}`);
					await deleteLinks(ctx.db, links);
					const at = nowIso(ctx);
					await appendActivity(
						ctx.db,
						links.map((l) => linkEntry(at, actor, 'unlinked', a.id, b.id, l.type)),
					);
					change.removedEdges!.push(...links);
					change.stamp = await bumpStamp(ctx.db);
					return unlinkOutput(links);
				},
				(out) => out,
			),
		);
		if (applied.replayed) return replayedOutput(applied.value, key!);
		const [first] = applied.value.removed;
		ctx.hub.emit({ kind: 'associations', ids: [first.memory1_id, first.memory2_id] });
		return applied.value;
	});
}

/** The activity entry of a link made or removed: both memories' histories show it, by title. */
export function linkEntry(at: string, actor: string, action: 'associated' | 'unlinked', from: string, to: string, type: string): ActivityEntry {
	return { at, actor, action, memory_id: from, memory_ids: [to], detail: `${type} → ${to}`, link: { from, to, type } };
}

function unlinkOutput(removed: AssociationRow[]): UnlinkOutput {
	return {
		success: true,
		message: `Removed ${removed.map((l) => l.type).join(', ')} from ${removed[0].from} to ${removed[0].to}`,
		removed_count: removed.length,
		removed: removed.map((l) => ({ memory1_id: l.from, memory2_id: l.to, type: l.type, strength: l.strength })),
	};
}

/**
 * Writes one item inside the caller's transaction, or describes why it failed. In single mode a
 * failure throws instead. Also used by store-linked.ts.
 */
export async function writeOne(
	ctx: EngineContext,
	item: AssociateItem,
	index: number,
	at: string,
	single: boolean,
): Promise<{ result: Succeeded; row: AssociationRow } | Failed> {
	const fail = (e: MemoryError): Failed => {
		if (single) throw e;
		return { index, memory1_id: item.memory1_id, memory2_id: item.memory2_id, code: e.code, error: e.message };
	};
	const prefix = single ? '' : `associations[${index}].`;
	const [a, b] = await Promise.all([getByRef(ctx.db, item.memory1_id), getByRef(ctx.db, item.memory2_id)]);
	if (!a) return fail(notFound(`${prefix}memory1_id`, item.memory1_id));
	if (!b) return fail(notFound(`${prefix}memory2_id`, item.memory2_id));
	if (a.id === b.id) return fail(new MemoryError('invalid_input', `${prefix}memory2_id: must differ from memory1_id (a memory cannot be linked to itself)`));
	const type: AuthorableAssociationType = item.type ?? 'RELATES_TO';
	const existing = linksOut(a).find((l) => l.to === b.id && l.type === type);
	const row = buildRow(existing, a.id, b.id, type, item, at);
	await putLinks(ctx.db, [row], new Map([[a.id, a]]));
	return {
		row,
		result: { index, memory1_id: a.id, memory2_id: b.id, type, strength: row.strength, status: existing ? 'updated' : 'created' },
	};
}

/** The stored row: a new one, or the existing one with the given fields replaced. */
function buildRow(
	existing: AssociationRow | undefined,
	from: string,
	to: string,
	type: AuthorableAssociationType,
	item: AssociateItem,
	at: string,
): AssociationRow {
	const row: AssociationRow = existing ? { ...existing, updated_at: at } : { from, to, type, strength: DEFAULT_STRENGTH, created_at: at };
	if (item.strength !== undefined) row.strength = item.strength;
	const fields = row as Record<string, unknown>;
	for (const f of FIELDS) if (item[f] !== undefined) fields[f] = item[f];
	return row;
}

function output(ok: Succeeded[], failed: Failed[]): AssociateOutput {
	const created = ok.filter((s) => s.status === 'created').length;
	const updated = ok.length - created;
	const parts = [`${created} created`, `${updated} updated`, `${failed.length} failed`];
	return {
		success: failed.length === 0,
		message:
			ok.length === 1 && failed.length === 0
				? `${ok[0].status === 'created' ? 'Created' : 'Updated'} ${ok[0].type} from ${ok[0].memory1_id} to ${ok[0].memory2_id} (strength ${ok[0].strength})`
				: `Associations: ${parts.join(', ')}${failed.length ? ` (first failure: ${failed[0].error})` : ''}`,
		created_count: created,
		updated_count: updated,
		failed_count: failed.length,
		succeeded: ok,
		failed,
	};
}

/**
 * A store and one link to what it stored, as one write: store_memory's single mode, then a link
 * from an existing memory to the memory stored (or to the one it duplicates), in the store's
 * IndexedDB transaction. Should the link fail (its source gone, no room), nothing is stored;
 * should the store fail, nothing is linked. AiAkiv's save_memory with prev_event_id is this op:
 * an event and the link from the previous event of its thread land together or not at all.
 *
 * The link is written as associate_memories writes one (created, or an existing link of that
 * type updated) with its `associated` activity entry. A link from the stored memory to itself
 * (the source is the near-duplicate found) is skipped, as a self-link is not a link.
 *
 * @example
 * await storeLinked(ctx, {
 * 	memory: { content: 'Billing moved to PgBouncer', summary: '…' },
 * 	link_from: { memory1_id: previousId, type: 'OCCURRED_BEFORE', strength: 1, reason: 'prev_event_id' },
 * });
 */
import { z } from 'zod';
import { MemoryError } from '../core/errors';
import { AssociateItemShape, type StoreInput } from '../core/schemas';
import { appendActivity } from '../store/activity';
import { getByRef } from '../store/memories';
import { linkEntry, writeOne } from './associate-ops';
import { nowIso, type EngineContext } from './context';
import { notFound } from './get-ops';
import { storeMemories } from './store-ops';
import type { StoreLinkedInput, StoreLinkedOutput } from './types';
import { parseInput } from './validate';

/** The link to add: from `memory1_id` (an existing memory) to the memory stored. */
const LinkFromSchema = z.object(AssociateItemShape).omit({ memory2_id: true });
const StoreLinkedLinkSchema = z.object({ link_from: LinkFromSchema.optional() });

/**
 * Stores `input.memory` and links `link_from.memory1_id` → it in one transaction; see the module
 * comment. Errors name the field: `link_from.memory1_id` for an unknown source, `memories` /
 * `request_id` when given (one memory, applied once by its transaction).
 */
export async function storeLinked(ctx: EngineContext, input: StoreLinkedInput, actor = 'agent'): Promise<StoreLinkedOutput> {
	const { link_from: link } = parseInput(StoreLinkedLinkSchema, { link_from: input.link_from });
	const memory = input.memory as StoreInput;
	if (memory.memories !== undefined) throw new MemoryError('invalid_input', 'memory.memories: one memory only (no batch)');
	if (memory.request_id !== undefined) throw new MemoryError('invalid_input', 'memory.request_id: not accepted here');
	let linked: StoreLinkedOutput['linked'];
	const out = await storeMemories(ctx, memory, actor, async ([r], change) => {
		if (!link) return;
		const to = r.duplicate_of ?? r.memory_id;
		const from = await getByRef(ctx.db, link.memory1_id);
		if (!from) throw notFound('link_from.memory1_id', link.memory1_id);
		// The source is the near-duplicate found: a memory is not linked to itself.
		if (from.id === to) return;
		const at = nowIso(ctx);
		const w = await writeOne(ctx, { ...link, memory1_id: from.id, memory2_id: to }, 0, at, true);
		if ('error' in w) return; // not reached: single mode throws instead
		const s = w.result;
		await appendActivity(ctx.db, [linkEntry(at, actor, 'associated', s.memory1_id, s.memory2_id, s.type)]);
		// The store has mirrored its change into the index already: add the edge there too. It is
		// in `change` as well, so a failed commit re-reads it and the cross-tab notice names it.
		change.edges.push(w.row);
		ctx.index.addEdge({ from: w.row.from, to: w.row.to, type: w.row.type, strength: w.row.strength });
		linked = s;
	});
	if (!linked) return out;
	ctx.hub.emit({ kind: 'associations', ids: [linked.memory1_id, linked.memory2_id] });
	return { ...out, linked };
}

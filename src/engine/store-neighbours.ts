/**
 * What store_memory compares a new memory with: its nearest stored memories (the index) and the
 * earlier items of its batch, for near-duplicates, SIMILAR_TO links and possible_update_of.
 * Split from store-ops.ts, which plans and writes; nothing here writes.
 */
import type { StoreItem } from '../core/schemas';
import { cosine } from '../core/vector';
import { normaliseContent } from '../store/derived';
import type { EntityKey } from '../store/entities';
import type { MemoryRow } from '../store/rows';
import { PREFILTER_MARGIN } from './batch-dots';
import type { EngineContext } from './context';
import { nearDuplicatePacked, possibleUpdatePacked, sameFact, UPDATE_MAX_CHARS, type PackedWords } from './duplicates';

/** How many SIMILAR_TO links a new memory gets at most (and how many neighbours it is compared with). */
export const MAX_SIMILAR = 5;

/** A memory ready to write: everything computed that needs no transaction. */
export interface Draft {
	index: number;
	row: Omit<MemoryRow, 'seq'>;
	norm: string;
	vector: Float32Array | null;
	/** The squared length of `vector` (0 without one): batch cosines reuse it. */
	sq: number;
	caller: Float32Array | null;
	keys: EntityKey[];
	item: StoreItem;
}

/** A memory written in this call (or found as its duplicate). */
export interface Written {
	draft: Draft;
	row: MemoryRow;
}

/** A memory near a draft, with its cosine (and its row when it is an earlier item of the batch). */
export type Neighbour = { id: string; cosine: number; row?: MemoryRow };

/** A memory a draft repeats, and how closely. */
export type Duplicate = { row: MemoryRow; similarity: number };

/** The key of a scope + session (or content key): PRECEDED_BY and turn contexts chain per key. */
export const scopeKey = (scope: string, key: string) => `${scope}\u0000${key}`;

/**
 * The MAX_SIMILAR stored memories nearest a draft in its scope (never the one it supersedes):
 * the candidates for both near-duplicates and SIMILAR_TO links.
 */
export function storedNeighbours(ctx: EngineContext, d: Draft, skip: string | undefined): Neighbour[] {
	if (!d.vector) return [];
	return ctx.index.nearest(d.vector, MAX_SIMILAR, { scope: d.row.scope, exclude: skip ? [skip] : [] });
}

/** storedNeighbours of every draft with a vector that supersedes nothing, in one index call. */
export function storedNeighboursOf(ctx: EngineContext, drafts: Draft[]): Map<Draft, Neighbour[]> {
	const asked = drafts.filter((d) => d.vector && d.item.supersedes_memory_id === undefined);
	const found = ctx.index.nearestMany(
		asked.map((d) => ({ vector: d.vector!, scope: d.row.scope })),
		MAX_SIMILAR,
	);
	return new Map(asked.map((d, i) => [d, found[i]]));
}

/**
 * Earlier items of the batch in the draft's scope close enough to matter (at or above the lower
 * of the similarity and duplicate thresholds), in batch order: each cosine is computed once.
 * `approx`, when given, holds approximate products of the draft's vector with every earlier
 * draft's, by draft index (BatchDots): a pair whose approximation is below the bound by more
 * than PREFILTER_MARGIN, far more than its error, is skipped without its exact product.
 */
export function batchNeighbours(ctx: EngineContext, d: Draft, batch: Written[], approx?: Float32Array): Neighbour[] {
	const v = d.vector;
	if (!v) return [];
	const min = Math.min(ctx.thresholds.similar, ctx.thresholds.duplicate);
	const out: Neighbour[] = [];
	for (const w of batch) {
		if (w.row.scope !== d.row.scope || !w.draft.vector) continue;
		// cosine() without its two norms: each draft's squared length is worked out once (draftOf).
		const u = w.draft.vector;
		if (u.length !== v.length) cosine(v, u); // throws, naming the lengths
		if (approx !== undefined) {
			const scale = Math.sqrt(d.sq * w.draft.sq);
			if (scale > 0 && approx[w.draft.index] < (min - PREFILTER_MARGIN) * scale) continue;
		}
		// Four products per step, added in the same order as one at a time (the same sum to the
		// bit): a 500-memory batch makes ~125k of these dot products.
		const n = v.length;
		let ab = 0;
		let i = 0;
		for (; i + 3 < n; i += 4) ab = ab + v[i] * u[i] + v[i + 1] * u[i + 1] + v[i + 2] * u[i + 2] + v[i + 3] * u[i + 3];
		for (; i < n; i++) ab += v[i] * u[i];
		const c = d.sq === 0 || w.draft.sq === 0 ? 0 : Math.max(-1, Math.min(1, ab / Math.sqrt(d.sq * w.draft.sq)));
		if (c >= min) out.push({ id: w.row.id, cosine: c, row: w.row });
	}
	return out;
}

/**
 * The MAX_SIMILAR nearest of `near` (stored and batch ones), best first, ties in their order in
 * `near`: what a stable sort by cosine then a cut gives, in one pass without sorting the list
 * (a batch item's earlier look-alikes can be hundreds).
 */
export function nearestOf(near: readonly Neighbour[]): Neighbour[] {
	const top: Neighbour[] = [];
	for (const n of near) {
		const c = n.cosine;
		if (top.length === MAX_SIMILAR && !(c > top[MAX_SIMILAR - 1].cosine)) continue;
		// After every kept one at least as near: an equal cosine keeps its order in `near`.
		let at = top.length;
		while (at > 0 && top[at - 1].cosine < c) at--;
		top.splice(at, 0, n);
		if (top.length > MAX_SIMILAR) top.pop();
	}
	return top;
}

/**
 * Up to MAX_SIMILAR nearest memories above the similarity threshold (stored and batch ones);
 * `nearest` is nearestOf(near) when the caller has it already.
 */
export function similarNeighbours(ctx: EngineContext, near: readonly Neighbour[], nearest = nearestOf(near)): Neighbour[] {
	const min = ctx.thresholds.similar;
	return nearest.filter((n) => n.cosine >= min);
}

/**
 * The content of every stored neighbour at or above the similarity threshold: what
 * possible_update_of compares a draft's words with. The index remembers the content of the
 * memories it indexed lately (most neighbours: the previous batches'); the rest are read in one
 * request. Reading every neighbour's row, vectors and links included, was a ninth of a batch
 * import's engine time.
 */
export async function contentsAbove(ctx: EngineContext, neighbours: Map<Draft, Neighbour[]>): Promise<Map<string, string>> {
	const min = ctx.thresholds.similar;
	const out = new Map<string, string>();
	const missing = new Set<string>();
	for (const [d, ns] of neighbours) {
		if (d.row.content.length > UPDATE_MAX_CHARS) continue;
		for (const n of ns) {
			if (n.cosine < min || out.has(n.id)) continue;
			const content = ctx.index.contentOf(n.id);
			if (content === undefined) missing.add(n.id);
			else out.set(n.id, content);
		}
	}
	if (missing.size === 0) return out;
	for (const r of await ctx.db.memories.bulkGet([...missing])) if (r) out.set(r.id, r.content);
	return out;
}

/**
 * Similar memories of the draft's scope (stored, or earlier in the batch) that it may replace:
 * the same subject with another number, name or negation (isPossibleUpdate), best match first.
 * Only the MAX_SIMILAR nearest are compared, stored and batch ones together, as if the batch's
 * earlier items had been stored one by one (a single store compares its MAX_SIMILAR nearest): in
 * a batch of look-alike lines every earlier item was a candidate, and a 500-memory store spent
 * most of its time comparing words. A superseding draft names its own; the memory it nearly
 * repeats is reported as that.
 */
export function possibleUpdates(
	ctx: EngineContext,
	d: Draft,
	near: Neighbour[],
	contents: Map<string, string>,
	skip: string | undefined,
	words: (text: string) => PackedWords,
	nearest = nearestOf(near),
): string[] {
	const th = ctx.thresholds.similar;
	if (d.row.content.length > UPDATE_MAX_CHARS) return [];
	// The draft's own words only once a neighbour is to be compared: a draft with no similar
	// neighbour scans its text no further here (2% of the bench corpus's 10k fill, so little).
	let mine: PackedWords | undefined;
	// The nearest of those above the threshold are those above it among the nearest (the
	// order is by cosine), so the caller's nearestOf(near) serves.
	return similarNeighbours(ctx, near, nearest)
		.filter((n) => {
			if (n.id === skip) return false;
			const content = n.row?.content ?? contents.get(n.id);
			return content !== undefined && possibleUpdatePacked(n.cosine, th, words(content), (mine ??= words(d.row.content)));
		})
		.map((n) => n.id);
}

/**
 * A stored memory or earlier batch item in the same scope with the same normalised content.
 * `batch` holds the earlier items by scopeKey(scope, normalised content), the first of each.
 */
export function exactDuplicate(
	d: Draft,
	batch: ReadonlyMap<string, Written>,
	exact: Map<string, MemoryRow[]>,
	skip: string | undefined,
): Duplicate | undefined {
	const scope = d.row.scope;
	const inBatch = batch.get(scopeKey(scope, d.norm));
	if (inBatch && sameFact(d.row.content, inBatch.row.content)) return { row: inBatch.row, similarity: 1 };
	const same = (exact.get(scopeKey(scope, d.row.content_key)) ?? []).find(
		(r) => r.id !== skip && normaliseContent(r.content) === d.norm && sameFact(d.row.content, r.content),
	);
	return same ? { row: same, similarity: 1 } : undefined;
}

/**
 * A near-parallel vector in the same scope with (nearly) the same words: earlier batch items
 * first, then the index; only candidates above the threshold are read from the store.
 */
export function nearDuplicate(
	ctx: EngineContext,
	d: Draft,
	batch: Neighbour[],
	stored: Neighbour[],
	words: (text: string) => PackedWords,
): Duplicate | undefined | Promise<Duplicate | undefined> {
	if (!d.vector) return undefined;
	const th = ctx.thresholds.duplicate;
	const mine = () => words(d.row.content);
	const folds = (cosine: number, content: string) => nearDuplicatePacked(cosine, th, mine(), words(content)) && sameFact(d.row.content, content);
	for (const n of batch) if (n.cosine >= th && folds(n.cosine, n.row!.content)) return { row: n.row!, similarity: n.cosine };
	const near = stored.filter((n) => n.cosine >= th);
	if (near.length === 0) return undefined;
	return ctx.db.memories.bulkGet(near.map((n) => n.id)).then((rows) => {
		const i = rows.findIndex((row, k) => row && folds(near[k].cosine, row.content));
		return i < 0 ? undefined : { row: rows[i]!, similarity: near[i].cosine };
	});
}

/** Rounds a similarity for output and storage (6 decimals is far below any threshold's precision). */
export function round(x: number): number {
	return Math.round(x * 1e6) / 1e6;
}

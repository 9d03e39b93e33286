/**
 * Relevance that flows along links: neighbouring turns (PRECEDED_BY within a session), authored
 * and system associations (strength-weighted), shared entities (rarity-weighted), and
 * current-only redirection along EVOLVED_INTO / INVALIDATED_BY chains. A memory reached this
 * way that retrieval did not find itself becomes an 'expanded' candidate with `via` set.
 */
import { askDiscount, candidateFor, substance, type Candidate } from './candidates';
import { TopKBy } from './top-k';
import type { IndexView } from './view';

/** Tunables of expansion; bounded so one recall's work stays small at any corpus size. */
export const EXPANSION = {
	/** Strongest direct candidates whose links are followed for graph expansion. */
	graphSources: 20,
	/** Strongest candidates whose adjacent turns get a neighbour share. */
	neighborSources: 60,
	/** Share of relevance passed to the turn 1, 2, … steps away (length = window). */
	neighborDecay: [1, 0.6],
	/** Factor for earlier turns relative to later ones (answers follow questions). */
	neighborBackward: 1,
	/**
	 * Share of a hit's relevance carried over a SIMILAR_TO link (times its strength). Lower
	 * than authored links: similarity is what the semantic component already measures.
	 */
	similarShare: 0.1,
	/** Entities mentioned by more memories than this are too common to connect anything. */
	entityFanout: 50,
	/** Share of a hit's relevance carried to a memory sharing one rare entity. */
	entityShare: 0.6,
	/** Hops followed along supersession chains (AutoMem's limit). */
	chainHops: 5,
};

/** A candidate's relevance in [0, 1], computed by the caller's fusion. */
export type RelevanceOf = (c: Candidate) => number;

/** Slots accepted by the filters (set by the caller). */
export type Accept = (slot: number) => boolean;

/**
 * Candidates sorted by relevance, best first (ties in the map's order), at most `n`. Each
 * relevance is computed once and only the best `n` are kept: sorting every candidate with a
 * comparator that recomputed both relevances took 5–6 ms of a 100k recall's ~20 (Chromium).
 */
export function strongest(cands: Map<number, Candidate>, rel: RelevanceOf, n: number, directOnly: boolean): Candidate[] {
	const list: Candidate[] = [];
	const score: number[] = [];
	for (const c of cands.values()) {
		if (directOnly && !c.direct) continue;
		const r = rel(c);
		if (r > 0) {
			list.push(c);
			score.push(r);
		}
	}
	const top = new TopKBy(n, (a, b) => score[a] > score[b] || (score[a] === score[b] && a < b));
	for (let i = 0; i < list.length; i++) top.push(i);
	return top.sorted().map((i) => list[i]);
}

/**
 * True when two memories are turns of one conversation (the same stated or implied session).
 * Notes without a session are chained by PRECEDED_BY too (the order they were stored in), but
 * a note stored after another is not its answer: relevance does not flow between them.
 */
function sameSession(view: IndexView, a: number, b: number): boolean {
	const sa = view.sessionOf(a);
	return sa !== undefined && sa === view.sessionOf(b);
}

/** The turn next to `slot` in one direction along PRECEDED_BY ('out' = earlier, 'in' = later). */
export function adjacentTurn(view: IndexView, slot: number, dir: 'out' | 'in', accept: Accept): number | undefined {
	for (const a of view.adj.of(view.metas[slot].id)) {
		if (a.type !== 'PRECEDED_BY' || a.dir !== dir) continue;
		const next = view.slotOf.get(a.other);
		if (next !== undefined && accept(next) && sameSession(view, slot, next)) return next;
	}
	return undefined;
}

/**
 * Gives the turns around each strong candidate (PRECEDED_BY chains, same session, up to
 * `neighborWindow` steps each way) a share of its relevance, decaying with distance: the answer
 * to a question often sits a turn or two after the turn that matches it. The share is scaled by
 * the receiving turn's substance ("WHAT. Where?" next to a hit holds no fact to find); a source
 * that ends with a question passes on its relevance before the question discount, since what it
 * asks is answered next to it.
 */
export function spreadToNeighbors(view: IndexView, cands: Map<number, Candidate>, rel: RelevanceOf, accept: Accept): void {
	for (const src of strongest(cands, rel, EXPANSION.neighborSources, false)) {
		const r = rel(src) / askDiscount(view, src);
		const id = view.metas[src.slot].id;
		for (const dir of ['out', 'in'] as const) {
			let cur: number | undefined = src.slot;
			for (let step = 0; step < EXPANSION.neighborDecay.length; step++) {
				cur = adjacentTurn(view, cur, dir, accept);
				if (cur === undefined) break;
				const c = candidateFor(cands, cur, false);
				const share = r * EXPANSION.neighborDecay[step] * (dir === 'in' ? 1 : EXPANSION.neighborBackward) * substance(view, c);
				if (share > c.neighbor) {
					c.neighbor = share;
					c.neighborVia = id;
					if (!c.direct) c.via = id;
				}
			}
		}
	}
}

/** Carries relevance over associations (not PRECEDED_BY) and rare shared entities. */
export function spreadOverGraph(
	view: IndexView,
	cands: Map<number, Candidate>,
	rel: RelevanceOf,
	accept: Accept,
	opts: { relations: boolean; entities: boolean },
): void {
	const sources = strongest(cands, rel, EXPANSION.graphSources, true);
	for (const src of sources) {
		const r = rel(src);
		const meta = view.metas[src.slot];
		if (opts.relations)
			for (const a of view.adj.of(meta.id)) {
				if (a.type === 'PRECEDED_BY') continue;
				const slot = view.slotOf.get(a.other);
				const share = r * clampStrength(a.strength) * (a.type === 'SIMILAR_TO' ? EXPANSION.similarShare : 1);
				if (slot !== undefined && accept(slot)) lift(view, cands, slot, share, meta.id);
			}
		if (opts.entities) spreadOverEntities(view, cands, src.slot, r, accept);
	}
}

/** The shared-entity part of graph expansion, weighted by how rare the entity is. */
function spreadOverEntities(view: IndexView, cands: Map<number, Candidate>, from: number, r: number, accept: Accept): void {
	const meta = view.metas[from];
	const logN = Math.log(Math.max(2, view.count));
	for (const e of meta.entities) {
		// Counted first: a common entity's set is never made just to be skipped.
		const size = view.entityDocs.count(e);
		if (size < 2 || size > EXPANSION.entityFanout) continue;
		const docs = view.entityDocs.get(e)!;
		const rarity = Math.max(0, Math.log(view.count / docs.size) / logN);
		const share = r * EXPANSION.entityShare * rarity;
		for (const id of docs) {
			const slot = view.slotOf.get(id);
			if (slot !== undefined && slot !== from && accept(slot)) lift(view, cands, slot, share, e);
		}
	}
}

/**
 * Raises a candidate's graph component to `share` × its substance (creating it as expanded when
 * new).
 */
function lift(view: IndexView, cands: Map<number, Candidate>, slot: number, share: number, via: string): void {
	const c = candidateFor(cands, slot, false);
	const s = share * substance(view, c);
	if (s > c.graph) {
		c.graph = s;
		c.graphVia = via;
		if (!c.direct) c.via = via;
	}
}

/** PRECEDED_BY and similar system links may carry strength 0 meaning "unweighted": count as 1. */
function clampStrength(s: number): number {
	return s > 0 ? Math.min(1, s) : 1;
}

/**
 * Current-only: every candidate that is no longer valid is replaced by the newest valid memory
 * of its EVOLVED_INTO / INVALIDATED_BY chain (≤ 5 hops), which inherits its relevance as a
 * graph share; candidates with no current successor are dropped.
 */
export function redirectToCurrent(view: IndexView, cands: Map<number, Candidate>, rel: RelevanceOf, accept: Accept, valid: (slot: number) => boolean): void {
	for (const c of [...cands.values()]) {
		if (valid(c.slot)) continue;
		cands.delete(c.slot);
		const target = newestSuccessor(view, c.slot, valid);
		if (target !== undefined && accept(target)) lift(view, cands, target, rel(c), view.metas[c.slot].id);
	}
}

/** Follows outgoing EVOLVED_INTO / INVALIDATED_BY edges to the first valid memory. */
function newestSuccessor(view: IndexView, slot: number, valid: (slot: number) => boolean): number | undefined {
	let cur = slot;
	const seen = new Set<number>([slot]);
	for (let hop = 0; hop < EXPANSION.chainHops; hop++) {
		const next = view.adj.of(view.metas[cur].id).find((a) => a.dir === 'out' && (a.type === 'EVOLVED_INTO' || a.type === 'INVALIDATED_BY'));
		const ns = next && view.slotOf.get(next.other);
		if (ns === undefined || seen.has(ns)) return undefined;
		if (valid(ns)) return ns;
		seen.add(ns);
		cur = ns;
	}
	return undefined;
}

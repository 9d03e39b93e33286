/**
 * Direct retrieval for recall: the lexical hits of every query phrasing and the semantic
 * nearest neighbours of every query vector, merged into one candidate map with each
 * candidate's best lexical score, cosine and ranks. Fusion into components happens later.
 */
import { processTerm, tokenize } from '../../core/text';
import { scanSlots } from './nearest';
import type { IndexView } from './view';

/** One candidate memory during ranking (slot-addressed). */
export interface Candidate {
	slot: number;
	/** Best BM25 score normalised by its phrasing's top score, 0–1. */
	lex: number;
	/** Best 0-based lexical rank over phrasings (Infinity when not matched). */
	lexRank: number;
	/** Best cosine over query vectors (NaN until computed). */
	cos: number;
	/** Best 0-based semantic rank (Infinity when outside the semantic pool). */
	semRank: number;
	/** Found by lexical or semantic retrieval itself (not through a link). */
	direct: boolean;
	graph: number;
	neighbor: number;
	tags: number;
	via?: string;
	/** Processed query terms it matched. */
	terms: Set<string>;
}

/** Caps that bound the work of one recall whatever the corpus size. */
export const POOL = {
	/** Lexical hits kept per phrasing. */
	lexical: 1000,
	/** Minimum semantic neighbours per query vector (grows with offset + limit). */
	semantic: 150,
};

/** A fresh candidate for `slot`. */
export function newCandidate(slot: number, direct: boolean): Candidate {
	return {
		slot,
		lex: 0,
		lexRank: Infinity,
		cos: NaN,
		semRank: Infinity,
		direct,
		graph: 0,
		neighbor: 0,
		tags: 0,
		terms: new Set(),
	};
}

/** Gets or creates the candidate for `slot`. */
export function candidateFor(cands: Map<number, Candidate>, slot: number, direct: boolean): Candidate {
	let c = cands.get(slot);
	if (!c) cands.set(slot, (c = newCandidate(slot, direct)));
	else if (direct) c.direct = true;
	return c;
}

/** Lexical hits of each phrasing into `cands`; returns true when any phrasing had a searchable term. */
export function addLexical(
	view: IndexView,
	phrasings: string[],
	accept: (slot: number) => boolean,
	cands: Map<number, Candidate>,
): boolean {
	let searchable = false;
	for (const q of phrasings) {
		if (!tokenize(q).some((t) => processTerm(t) !== null)) continue;
		searchable = true;
		const hits = view.lexical.search(
			q,
			(id) => {
				const s = view.slotOf.get(id);
				return s !== undefined && accept(s);
			},
			POOL.lexical,
		);
		const top = hits.length > 0 ? hits[0].score : 1;
		hits.forEach((h, rank) => {
			const c = candidateFor(cands, view.slotOf.get(h.id)!, true);
			c.lex = Math.max(c.lex, h.score / top);
			c.lexRank = Math.min(c.lexRank, rank);
			for (const t of h.queryTerms) c.terms.add(t);
		});
	}
	return searchable;
}

/** Semantic neighbours of each query vector into `cands`. */
export function addSemantic(
	view: IndexView,
	vectors: Float32Array[],
	k: number,
	accept: (slot: number) => boolean,
	cands: Map<number, Candidate>,
): void {
	for (const q of vectors) {
		scanSlots(view, q, k, accept).forEach((h, rank) => {
			const c = candidateFor(cands, h.slot, true);
			c.cos = Number.isNaN(c.cos) ? h.score : Math.max(c.cos, h.score);
			c.semRank = Math.min(c.semRank, rank);
		});
	}
}

/** Best cosine of a slot over the query vectors (0 without a stored vector or query vectors). */
export function bestCosine(view: IndexView, slot: number, vectors: Float32Array[]): number {
	if (vectors.length === 0 || !view.vectors.has(slot)) return 0;
	let best = -1;
	for (const q of vectors) best = Math.max(best, view.vectors.dot(slot, q));
	return best;
}

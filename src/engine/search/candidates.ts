/**
 * Direct retrieval for recall: the lexical hits of every query phrasing and the semantic
 * nearest neighbours of every query vector, merged into one candidate map with each
 * candidate's best lexical score, cosine and ranks. Fusion into components happens later.
 */
import { processTerm, tokenize } from '../../core/text';
import { CATEGORIES } from './categories';
import type { Collection } from './lexical';
import { probeSlots, scanSlots } from './nearest';
import type { IndexView } from './view';

/** One candidate memory during ranking (slot-addressed). */
export interface Candidate {
	slot: number;
	/** Best BM25 score normalised by its phrasing's top score, 0–1. */
	lex: number;
	/** Best 0-based lexical rank over phrasings (Infinity when not matched). */
	lexRank: number;
	/** Best raw cosine over query vectors (NaN until computed). */
	cos: number;
	/** Best normalised semantic score over query vectors, 0–1 (NaN until computed). */
	sem: number;
	/** Best 0-based semantic rank (Infinity when outside the semantic pool). */
	semRank: number;
	/** Found by lexical or semantic retrieval itself (not through a link). */
	direct: boolean;
	graph: number;
	neighbor: number;
	tags: number;
	/** Where an expanded candidate came from (the last share it took). */
	via?: string;
	/** The turn whose neighbour share it holds. */
	neighborVia?: string;
	/** The memory or entity whose graph share it holds. */
	graphVia?: string;
	/** Processed query terms it matched. */
	terms: Set<string>;
	/** The turn-length factor (see `substance`; NaN until computed). */
	substance: number;
	/** The entity-focus factor (entity-focus.ts; NaN until computed). */
	focus: number;
	/** Processed expansion terms it matched (category members, word neighbours), when recorded. */
	expansion?: Set<string>;
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
		sem: NaN,
		semRank: Infinity,
		direct,
		graph: 0,
		neighbor: 0,
		tags: 0,
		terms: new Set(),
		substance: NaN,
		focus: NaN,
	};
}

/** Tunables of the conversation-turn priors (measured on the dev set; docs/BENCHMARKS.md). */
export const TURNS = {
	/** Distinct words from which a conversation turn carries its full relevance (0 = off). */
	fullWords: 16,
	/**
	 * Share of its own relevance a turn that ends with a question carries, in (0, 1] (1 = off).
	 * Its neighbours still inherit from its whole relevance: the question points at the answer.
	 */
	question: 0.5,
};

/**
 * How much relevance a memory can carry, in (0, 1]: for a conversation turn (a memory with a
 * session) min(1, distinct words / TURNS.fullWords), times TURNS.question when it ends with a
 * question; 1 for every other memory. Short turns ("Haha", "WHAT. Where?", "You're a good dog
 * dad") are reactions that match a query through one shared word or a noisy short-text vector,
 * and a question ("How are the twins handling the move?") shares the words of the question asked
 * of recall while the answer is in the reply. Notes stored on their own keep their full weight
 * however short. Cached on the candidate.
 */
export function substance(view: IndexView, c: Candidate): number {
	if (Number.isNaN(c.substance)) {
		const m = view.metas[c.slot];
		const full = TURNS.fullWords;
		let s = 1;
		if (view.sessionOf(c.slot) !== undefined) {
			if (full > 0) s = Math.min(1, view.lexical.contentLength(m.id) / full);
			s *= askDiscount(view, c);
		}
		c.substance = s;
	}
	return c.substance;
}

/** TURNS.question for a conversation turn ending with a question, else 1. */
export function askDiscount(view: IndexView, c: Candidate): number {
	const m = view.metas[c.slot];
	return m.asks && view.sessionOf(c.slot) !== undefined ? Math.min(1, Math.max(0.01, TURNS.question)) : 1;
}

/**
 * When a hit counts as a strong match rather than a weaker one. Raw cosines of the embedded
 * model: unrelated memory pairs p50 0.147 (bench/calibrate-thresholds.ts); a short query and a
 * memory about it score 0.4–0.6. The rescaled score puts the cosine between the filtered set's
 * mean (0) and the best (1).
 */
export const STRENGTH = {
	/** Raw cosine a meaning-only hit needs. */
	cosine: 0.35,
	/** And its position between the mean and the best cosine of this recall. */
	rescaled: 0.5,
};

/**
 * Strong when retrieval found the memory itself with evidence: one of the query's words (or a
 * date token of its time phrase) in the memory, or a meaning clearly above the rest (both
 * STRENGTH bars). A memory carried only by faint meaning, a neighbour, a link, priority or the
 * priors is a weaker match.
 */
export function isStrong(c: Candidate): boolean {
	if (!c.direct) return false;
	if (c.lex > 0) return true;
	return c.sem >= STRENGTH.rescaled && c.cos >= STRENGTH.cosine;
}

/** Gets or creates the candidate for `slot`. */
export function candidateFor(cands: Map<number, Candidate>, slot: number, direct: boolean): Candidate {
	let c = cands.get(slot);
	if (!c) cands.set(slot, (c = newCandidate(slot, direct)));
	else if (direct) c.direct = true;
	return c;
}

/**
 * Lexical hits of each phrasing into `cands`; returns true when any phrasing had a searchable
 * term. Terms in `notDates` (month words read as names) do not match the `dates` field.
 */
export function addLexical(
	view: IndexView,
	phrasings: string[],
	accept: ((slot: number) => boolean) | undefined,
	cands: Map<number, Candidate>,
	scope?: string,
	notDates?: ReadonlySet<string>,
): boolean {
	let searchable = false;
	const within = scope === undefined ? undefined : scopeCollection(view, scope);
	for (const q of phrasings) {
		if (!tokenize(q).some((t) => processTerm(t) !== null)) continue;
		searchable = true;
		const filter = accept
			? (id: string) => {
					const s = view.slotOf.get(id);
					return s !== undefined && accept(s);
				}
			: undefined;
		const hits = view.lexical.search(q, filter, POOL.lexical, within, notDates);
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

/**
 * Lexical hits of a category expansion (categories.ts) into `cands`, each counting for `weight`
 * of its score relative to the expansion's best hit, added to the memory's direct lexical score
 * (CATEGORIES.add; else the larger counts): a member word is weaker evidence than the query's
 * own word. They take no lexical rank and no matched terms (the caller never said them); with
 * `record`, the expansion terms a memory matched are kept on it (`expansion`) for the coverage
 * stage (coverage.ts).
 */
export function addExpansion(
	view: IndexView,
	query: string,
	weight: number,
	accept: ((slot: number) => boolean) | undefined,
	cands: Map<number, Candidate>,
	scope?: string,
	record = false,
): void {
	if (query.length === 0 || weight <= 0) return;
	const within = scope === undefined ? undefined : scopeCollection(view, scope);
	const filter = accept
		? (id: string) => {
				const s = view.slotOf.get(id);
				return s !== undefined && accept(s);
			}
		: undefined;
	const hits = view.lexical.search(query, filter, POOL.lexical, within);
	const top = hits.length > 0 ? hits[0].score : 1;
	for (const h of hits) {
		const c = candidateFor(cands, view.slotOf.get(h.id)!, true);
		const x = (weight * h.score) / top;
		c.lex = CATEGORIES.add ? Math.min(1, c.lex + x) : Math.max(c.lex, x);
		if (record) for (const t of h.queryTerms) (c.expansion ??= new Set()).add(t);
	}
}

/**
 * A query vector with its baseline over the filtered memories: the mean cosine (what an
 * unrelated memory scores) and the best one. Raw cosines of a static model sit in a narrow band
 * that differs per query, so the semantic component is the cosine's position between the two.
 */
export interface SemanticQuery {
	q: Float32Array;
	mean: number;
	max: number;
	/** Share of its rescaled score a match counts for (feedback vectors; 1 when absent). */
	weight?: number;
	/**
	 * Blended rather than competing (the name-less question, nameless.ts): the candidate's semantic
	 * score becomes (1 − blend) × the best of the other vectors' + blend × this one's.
	 */
	blend?: number;
}

/** The memories of one scope as a BM25 collection. */
export function scopeCollection(view: IndexView, scope: string): Collection {
	const member = view.inScope(scope);
	return {
		size: view.scopeSize(scope),
		has: (id) => {
			const s = view.slotOf.get(id);
			return s !== undefined && member(s);
		},
	};
}

/** Semantic neighbours of each query vector into `cands`; returns each vector's baseline. */
export function addSemantic(
	view: IndexView,
	vectors: Float32Array[],
	k: number,
	accept: ((slot: number) => boolean) | undefined,
	cands: Map<number, Candidate>,
): SemanticQuery[] {
	return vectors.map((q) => {
		const { hits, mean } = semanticScan(view, q, k, accept);
		hits.forEach((h, rank) => {
			const c = candidateFor(cands, h.slot, true);
			c.semRank = Math.min(c.semRank, rank);
		});
		return { q, mean, max: hits.length > 0 ? hits[0].score : mean };
	});
}

/**
 * The `k` nearest slots and the mean cosine over the accepted ones. Unfiltered over a large
 * index, the quantiser's probed lists give the neighbours (about a twelfth of the scan; 10 of
 * 40 ms of a 100k ranking was the exact scan) and the running vector sum gives the exact mean.
 * Filtered recalls and smaller indexes scan exactly.
 */
function semanticScan(
	view: IndexView,
	q: Float32Array,
	k: number,
	accept: ((slot: number) => boolean) | undefined,
): { hits: { slot: number; score: number }[]; mean: number } {
	if (accept === undefined && view.ivf) {
		const hits = probeSlots(view, view.ivf, q, k);
		if (hits.length >= k) return { hits, mean: view.vectors.meanDot(q) };
	}
	return scanSlots(view, q, k, accept);
}

/** Fills a candidate's best raw cosine and normalised semantic score over the query vectors. */
export function scoreSemantic(view: IndexView, c: Candidate, queries: SemanticQuery[]): void {
	c.cos = 0;
	c.sem = 0;
	if (queries.length === 0 || !view.vectors.has(c.slot)) return;
	let best = -1;
	let blended = 0;
	let blend = 0;
	for (const sq of queries) {
		const cos = view.vectors.dot(c.slot, sq.q);
		const span = sq.max - sq.mean;
		const rescaled = span > 1e-6 ? Math.min(1, (cos - sq.mean) / span) : 0;
		if (sq.blend !== undefined) {
			// Every blended vector shares one blend weight: their best score is mixed in.
			blend = sq.blend;
			blended = Math.max(blended, rescaled);
			continue;
		}
		// The raw cosine (what isStrong reads) is the caller's query's, never a feedback vector's.
		if (sq.weight === undefined) best = Math.max(best, cos);
		if (span > 1e-6) c.sem = Math.max(c.sem, (sq.weight ?? 1) * rescaled);
	}
	if (blend > 0) c.sem = (1 - blend) * c.sem + blend * blended;
	c.cos = best;
}

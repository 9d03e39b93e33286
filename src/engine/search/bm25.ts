/**
 * minisearch's OR search, keeping only the best `cap` hits. minisearch scores every matching
 * document into an object with its own match map, then sorts them all: a query word found in a
 * third of 100k memories took 300–450 ms (Node) that way, most of a cold start's first recall.
 * Here scores add up in typed arrays by short id and only the best `cap` become objects.
 *
 * The arithmetic is minisearch 7's, step for step and in the same order (BM25+ per term, field
 * and document, summed per query term, then across query terms, times the number of query terms
 * matched), so ids, scores and their order are exactly what `MiniSearch.search` returns
 * (bm25.test.ts compares them on random corpora). Postings of discarded documents are cleaned up
 * on the way, as minisearch does.
 */
import type MiniSearch from 'minisearch';
import { PackedTermData } from './lexical-codec';
import { internalsOf } from './minisearch-internals';
import { TopKBy } from './top-k';

/** One hit: the document id, its score and the processed query terms it matched. */
export interface Bm25Hit {
	id: string;
	score: number;
	queryTerms: string[];
}

/** The options this search honours (the rest of minisearch's must be unset). */
export interface Bm25Options {
	filter?: (id: string) => boolean;
	prefix: (term: string) => boolean;
	weights: { prefix: number };
	bm25: { k: number; b: number; d: number };
	boostTerm?: (term: string) => number;
	fields?: string[];
	boost?: Record<string, number>;
	/** Query terms that do not match `field` (a month word read as a name, never the `dates` field). */
	except?: { field: string; terms: ReadonlySet<string> };
}

/** Query terms a search can tell apart (a bit each); longer queries go to minisearch itself. */
export const MAX_TERMS = 31;

/** Per-document working arrays by short id, reused across searches (each leaves them zeroed). */
interface Scratch {
	/** The document's score so far. */
	total: Float64Array;
	/** Its score within the current query term. */
	spec: Float64Array;
	/** Bit i: it matched distinct query term i. */
	matched: Uint32Array;
	/** Its order of first appearance (minisearch's result order, which breaks score ties); 0: none yet. */
	order: Int32Array;
	/** 1 while it has a score within the current query term. */
	specSeen: Uint8Array;
}

let shared: Scratch | undefined;

/** Working arrays for short ids below `size`. */
function scratch(size: number): Scratch {
	if (!shared || shared.total.length < size) {
		const n = Math.max(size, Math.ceil((shared?.total.length ?? 0) * 1.5), 1024);
		shared = { total: new Float64Array(n), spec: new Float64Array(n), matched: new Uint32Array(n), order: new Int32Array(n), specSeen: new Uint8Array(n) };
	}
	return shared;
}

/** minisearch's inverse document frequency of a term matching `matching` of `total` documents in a field. */
function invDocFreqOf(matching: number, total: number): number {
	return Math.log(1 + (total - matching + 0.5) / (matching + 0.5));
}

/** minisearch's BM25+ for one term in one field of one document, given the term's `invDocFreqOf`. */
function bm25(tf: number, invDocFreq: number, length: number, avgLength: number, p: Bm25Options['bm25']): number {
	return invDocFreq * (p.d + (tf * (p.k + 1)) / (tf + p.k * (1 - p.b + (p.b * length) / avgLength)));
}

/**
 * The best `cap` hits of `query` (OR of its terms), best first, as minisearch's `search` with
 * the same options would rank them; undefined for a query of more than MAX_TERMS distinct terms.
 */
export function searchTop(ms: MiniSearch<unknown>, query: string, opts: Bm25Options, cap: number): Bm25Hit[] | undefined {
	const s = internalsOf(ms);
	const o = s._options;
	const terms = o
		.tokenize(query)
		.flatMap((t) => o.processTerm(t))
		.filter((t): t is string => !!t);
	const distinct = [...new Set(terms)];
	if (distinct.length > MAX_TERMS) return undefined;
	// As minisearch reads them: the call's fields and boosts over the index's defaults, a missing or zero boost being 1.
	const boostOf = opts.boost ?? o.searchOptions.boost;
	const boosts = [...new Set(opts.fields ?? o.fields)].map((field) => ({
		fieldId: s._fieldIds[field],
		boost: (boostOf && Object.hasOwn(boostOf, field) && boostOf[field]) || 1,
	}));

	const { total, spec, matched, order, specSeen } = scratch(s._nextId);
	let appeared = 0;
	const touched: number[] = [];
	const inSpec: number[] = [];

	// A restored index's lengths answer without making an array per call (lexical-codec.ts).
	const lengths = s._fieldLength as Map<number, number[]> & { lengthOf?: (short: number, field: number) => number | undefined };
	const lengthOf = lengths.lengthOf ? (short: number, f: number) => lengths.lengthOf!(short, f)! : (short: number, f: number) => lengths.get(short)![f];
	const exceptField = opts.except && opts.except.terms.size > 0 ? s._fieldIds[opts.except.field] : undefined;
	const addTerm = (
		sourceBit: number,
		derived: string,
		weight: number,
		termBoost: number,
		data: Map<number, Map<number, number>> | undefined,
		skip?: number,
	) => {
		if (data == null) return;
		for (const { fieldId, boost } of boosts) {
			if (fieldId === skip) continue;
			// A restored term's postings are read from typed arrays while nothing has made its maps.
			const packed = data instanceof PackedTermData ? data.fieldPostings(fieldId) : null;
			const freqs = packed === null ? data.get(fieldId) : undefined;
			if (packed === undefined || (packed === null && freqs == null)) continue;
			let matching = packed ? packed.shortIds.length : freqs!.size;
			// Once per term and field, not per posting: the same value while `matching` stays.
			let invDocFreq = invDocFreqOf(matching, s._documentCount);
			const avgLength = s._avgFieldLength[fieldId];
			const post = (tf: number, shortId: number) => {
				if (!s._documentIds.has(shortId)) {
					s.removeTerm(fieldId, shortId, derived);
					matching -= 1;
					invDocFreq = invDocFreqOf(matching, s._documentCount);
					return;
				}
				const length = lengthOf(shortId, fieldId);
				const score = weight * termBoost * boost * bm25(tf, invDocFreq, length, avgLength, opts.bm25);
				if (specSeen[shortId]) spec[shortId] += score;
				else {
					specSeen[shortId] = 1;
					spec[shortId] = score;
					inSpec.push(shortId);
				}
				matched[shortId] |= sourceBit;
			};
			if (packed) {
				const { shortIds, tfs } = packed;
				for (let k = 0; k < shortIds.length; k++) post(tfs[k], shortIds[k]);
			} else freqs!.forEach(post);
		}
	};

	try {
		for (const term of terms) {
			const bit = 1 << distinct.indexOf(term);
			const termBoost = opts.boostTerm ? opts.boostTerm(term) : 1;
			const skip = exceptField !== undefined && opts.except!.terms.has(term) ? exceptField : undefined;
			addTerm(bit, term, 1, termBoost, s._index.get(term), skip);
			if (opts.prefix(term)) {
				for (const [derived, data] of s._index.atPrefix(term)) {
					const distance = derived.length - term.length;
					if (!distance) continue;
					const weight = (opts.weights.prefix * derived.length) / (derived.length + 0.3 * distance);
					addTerm(bit, derived, weight, termBoost, data, skip);
				}
			}
			// The term's scores join the totals, as minisearch combines one result map per term.
			for (const shortId of inSpec) {
				specSeen[shortId] = 0;
				if (order[shortId] === 0) {
					order[shortId] = ++appeared;
					total[shortId] = spec[shortId];
					touched.push(shortId);
				} else total[shortId] = total[shortId] + spec[shortId];
			}
			inSpec.length = 0;
		}
		// The score times the number of query terms matched, as minisearch's result has it.
		for (const shortId of touched) {
			let n = 0;
			for (let m = matched[shortId]; m; m &= m - 1) n++;
			total[shortId] = total[shortId] * (n || 1);
		}
		// Best first; equal scores in order of first appearance, as minisearch's stable sort leaves them.
		const top = new TopKBy(cap, (a, b) => total[a] > total[b] || (total[a] === total[b] && order[a] < order[b]));
		// Unfiltered, a document scoring below the cap-th best score has `cap` better ones: only the
		// rest reach the heap (a common word touches ~10k documents at 100k memories for a cap of 1,000).
		const floor = !opts.filter && touched.length > 2 * cap ? kthLargest(totalsOf(touched, total), cap) : -Infinity;
		for (const shortId of touched) if (total[shortId] >= floor && (!opts.filter || opts.filter(s._documentIds.get(shortId)!))) top.push(shortId);
		return top.sorted().map((shortId) => ({
			id: s._documentIds.get(shortId)!,
			score: total[shortId],
			queryTerms: distinct.filter((_, i) => matched[shortId] & (1 << i)),
		}));
	} finally {
		// Leave the arrays zeroed for the next search, whatever happened.
		for (const shortId of touched) {
			matched[shortId] = 0;
			order[shortId] = 0;
		}
		for (const shortId of inSpec) {
			specSeen[shortId] = 0;
			matched[shortId] = 0;
		}
	}
}

/** `total` at each of `shortIds`, as a fresh array. */
function totalsOf(shortIds: number[], total: Float64Array): Float64Array {
	const out = new Float64Array(shortIds.length);
	for (let i = 0; i < shortIds.length; i++) out[i] = total[shortIds[i]];
	return out;
}

/** The `k`-th largest of `xs` (1 ≤ k ≤ length; no NaN), by quickselect; reorders `xs`. */
export function kthLargest(xs: Float64Array, k: number): number {
	// The (k-1)-th position of a descending order.
	const want = k - 1;
	let lo = 0;
	let hi = xs.length - 1;
	while (lo < hi) {
		const pivot = xs[(lo + hi) >>> 1];
		let i = lo;
		let j = hi;
		while (i <= j) {
			while (xs[i] > pivot) i++;
			while (xs[j] < pivot) j--;
			if (i <= j) {
				const t = xs[i];
				xs[i] = xs[j];
				xs[j] = t;
				i++;
				j--;
			}
		}
		if (want <= j) hi = j;
		else if (want >= i) lo = i;
		else return xs[want];
	}
	return xs[want];
}

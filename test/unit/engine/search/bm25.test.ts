import MiniSearch, { type Options } from 'minisearch';
import { describe, expect, it } from 'vitest';
import { kthLargest, searchTop, type Bm25Options } from '../../../../src/engine/search/bm25';
import { prng as rng } from './fixtures';

// Words sharing prefixes, so prefix matches add up with exact ones; a few very common words.
const WORDS = [
	'ticket',
	'tickets',
	'ticketing',
	'meet',
	'meeting',
	'meetings',
	'budget',
	'budgets',
	'review',
	'reviewer',
	'lunch',
	'plan',
	'plans',
	'planning',
	'over',
	'the',
	'ana',
	'anatomy',
	'garden',
	'gardening',
	'trip',
	'tripod',
];
const FIELDS = ['content', 'summary', 'tags'];
const OPTIONS: Options = { fields: FIELDS, storeFields: [], searchOptions: { boost: { summary: 2, tags: 1.5 }, combineWith: 'OR' } };

/** Two identical indexes (a search may clean up postings of discarded documents, so each side gets its own). */
function corpora(seed: number, docs: number) {
	const r = rng(seed);
	const pick = (n: number) => Array.from({ length: n }, () => (r() < 0.3 ? WORDS[0] : WORDS[Math.floor(r() * WORDS.length)])).join(' ');
	const all = Array.from({ length: docs }, (_, i) => ({
		id: `m${i}`,
		content: pick(3 + Math.floor(r() * 20)),
		summary: r() < 0.3 ? pick(3) : '',
		tags: r() < 0.2 ? pick(1) : '',
	}));
	const gone = all.filter(() => r() < 0.1).map((d) => d.id);
	return [0, 1].map(() => {
		const ms = new MiniSearch(OPTIONS);
		ms.addAll(all);
		// Discarded, not removed: their postings stay until a search or vacuum meets them.
		for (const id of gone) ms.discard(id);
		return ms;
	});
}

/** minisearch's own answer, cut to `cap`. */
function reference(ms: MiniSearch, query: string, o: Bm25Options, cap: number) {
	return ms
		.search(query, {
			filter: o.filter ? (res) => o.filter!(res.id as string) : undefined,
			prefix: o.prefix,
			fuzzy: false,
			weights: { fuzzy: 0.45, prefix: o.weights.prefix },
			bm25: o.bm25,
			boostTerm: o.boostTerm,
			...(o.fields && { fields: o.fields }),
			...(o.boost && { boost: o.boost }),
		})
		.slice(0, cap)
		.map((h) => ({ id: h.id as string, score: h.score, queryTerms: h.queryTerms }));
}

describe('searchTop', () => {
	it('returns exactly what minisearch ranks first: ids, scores, order and matched terms', () => {
		const queries = [
			'ticket',
			'ticket over',
			'meet budget',
			'plan plan trip',
			'the',
			'nothing here',
			'gardening tickets review',
			'ana lunch meetings reviewer',
			'',
		];
		for (const seed of [1, 2, 3]) {
			const [mine, theirs] = corpora(seed, 600);
			const r = rng(seed * 31);
			for (const query of queries) {
				for (const variant of [0, 1, 2, 3]) {
					const o: Bm25Options = {
						prefix: (term) => term.length >= 4,
						weights: { prefix: 0.3 },
						bm25: { k: 1.2, b: 0.5, d: 0.5 },
						filter: variant === 1 ? (id) => Number(id.slice(1)) % 3 !== 0 : undefined,
						boostTerm: variant === 2 ? (term) => (term.startsWith('t') ? 0.5 + r() : 1) : undefined,
						...(variant === 3 && { fields: ['content', 'tags'], boost: { content: 1, tags: 3 } }),
					};
					const cap = [5, 50, 1000][(seed + variant) % 3];
					// boostTerm draws from the generator: give both sides the same draws.
					const fixed = new Map<string, number>();
					const boostTerm = o.boostTerm && ((term: string) => fixed.get(term) ?? (fixed.set(term, o.boostTerm!(term)), fixed.get(term)!));
					const got = searchTop(mine, query, { ...o, boostTerm }, cap);
					expect(got, `${seed} "${query}" ${variant}`).toEqual(reference(theirs, query, { ...o, boostTerm }, cap));
				}
			}
		}
	});

	it('keeps equal scores in minisearch’s order and leaves nothing behind between searches', () => {
		const docs = Array.from({ length: 40 }, (_, i) => ({ id: `d${i}`, content: i % 2 ? 'alpha beta' : 'beta alpha', summary: '', tags: '' }));
		const [a, b] = [0, 1].map(() => {
			const ms = new MiniSearch(OPTIONS);
			ms.addAll(docs);
			return ms;
		});
		const o: Bm25Options = { prefix: () => false, weights: { prefix: 0.3 }, bm25: { k: 1.2, b: 0.5, d: 0.5 } };
		const first = searchTop(a, 'alpha', o, 10)!;
		expect(first).toEqual(reference(b, 'alpha', o, 10));
		expect(new Set(first.map((h) => h.score)).size).toBe(1);
		// A second, different search starts clean.
		expect(searchTop(a, 'beta', o, 40)).toEqual(reference(b, 'beta', o, 40));
		expect(searchTop(a, 'alpha beta', o, 3)).toEqual(reference(b, 'alpha beta', o, 3));
	});

	it('hands queries of more distinct terms than it can track back to minisearch', () => {
		const [ms] = corpora(4, 10);
		const long = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
		expect(searchTop(ms, long, { prefix: () => false, weights: { prefix: 0.3 }, bm25: { k: 1.2, b: 0.5, d: 0.5 } }, 10)).toBeUndefined();
	});

	it('finds the k-th largest score, ties and all (the floor below which no hit reaches the heap)', () => {
		const r = rng(99);
		for (let t = 0; t < 2000; t++) {
			const n = 1 + Math.floor(r() * 200);
			const xs = Float64Array.from({ length: n }, () => (r() < 0.3 ? Math.floor(r() * 4) : r()));
			const k = 1 + Math.floor(r() * n);
			expect(kthLargest(Float64Array.from(xs), k), `${n} ${k}`).toBe([...xs].sort((a, b) => b - a)[k - 1]);
		}
	});
});

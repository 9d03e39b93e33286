import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_WEIGHTS, combine } from '../../../../src/core/scoring';
import type { IndexView } from '../../../../src/engine/search/view';
import { TURNS } from '../../../../src/engine/search/candidates';
import { EXPANSION } from '../../../../src/engine/search/expand';
import { createSearchIndex, restoreSearchIndex } from '../../../../src/engine/search/index';
import type { DocMeta, SearchIndex } from '../../../../src/engine/search/types';
import { meta, toyEmbed } from './fixtures';

const DIMS = 64;
const NOW = Date.parse('2024-06-01T00:00:00Z');
const DAY = 86_400_000;

/** A small realistic corpus: two people's chat turns over two sessions, plus notes. */
function corpus(): SearchIndex {
	const idx = createSearchIndex({ modelId: 'toy', dims: DIMS });
	const docs: [string, string, Partial<DocMeta>][] = [
		['t1', 'Caroline: I finally went to the pottery class on Saturday.', { session: 's1', tags: ['hobby'] }],
		['t2', 'Melanie: How did it go? Was the teacher nice?', { session: 's1' }],
		['t3', 'Caroline: I made a lopsided bowl but I loved it.', { session: 's1', tags: ['hobby', 'craft/pottery'] }],
		['t4', 'Melanie: My kids started swimming lessons this week.', { session: 's2', tags: ['family'] }],
		['t5', 'Caroline: Swimming is great exercise for them.', { session: 's2' }],
		['n1', 'Project Atlas uses Postgres for storage.', { scope: 'work', type: 'Decision', tags: ['db'] }],
		['n2', 'Project Atlas moved from Postgres to SQLite.', { scope: 'work', type: 'Decision', tags: ['db'] }],
	];
	docs.forEach(([id, content, over], i) =>
		idx.upsert(meta(id, { scope: 'chat', timestamp: NOW - (10 - i) * DAY, ...over }), { content }, toyEmbed(content, DIMS)),
	);
	idx.addEdge({ from: 't2', to: 't1', type: 'PRECEDED_BY', strength: 1 });
	idx.addEdge({ from: 't3', to: 't2', type: 'PRECEDED_BY', strength: 1 });
	idx.addEdge({ from: 't5', to: 't4', type: 'PRECEDED_BY', strength: 1 });
	return idx;
}

const rank = (idx: SearchIndex, input: Parameters<SearchIndex['rank']>[0], text?: string) =>
	idx.rank(input, { vectors: text === undefined ? [] : [toyEmbed(text, DIMS)] }, NOW);

describe('SearchIndex.rank', () => {
	// The turn-length prior is tested on its own below; the other mechanisms are tested without it.
	const savedTurns = { ...TURNS };
	beforeEach(() => Object.assign(TURNS, { fullWords: 0, question: 1 }));
	afterEach(() => Object.assign(TURNS, savedTurns));

	it('puts the memory matching both lexically and semantically first, with its components', () => {
		const page = rank(corpus(), { query: 'pottery class', scope: 'chat' }, 'pottery class');
		expect(page.hits[0].id).toBe('t1');
		const h = page.hits[0];
		expect(h.match).toBe('direct');
		expect(h.matched_terms).toEqual(['pottery', 'class']);
		expect(h.components.lexical).toBe(1);
		expect(h.score).toBeCloseTo(combine(h.components, DEFAULT_WEIGHTS), 10);
		expect(page.lexical_only).toBe(false);
	});

	it('gives the adjacent turn of a strong hit a neighbour share, within the session only', () => {
		const page = rank(corpus(), { query: 'pottery class', scope: 'chat', limit: 10 }, 'pottery class');
		const t2 = page.hits.find((h) => h.id === 't2')!;
		expect(t2.components.neighbor).toBeGreaterThan(0.5);
		const t4 = page.hits.find((h) => h.id === 't4');
		expect(t4?.components.neighbor ?? 0).toBe(0);
	});

	it('switches a signal off when its weight is 0', () => {
		const page = rank(corpus(), { query: 'pottery', scope: 'chat', weights: { neighbor: 0 } });
		// t3 matches through its tag craft/pottery; t2 would come only as t1's neighbour.
		expect(page.hits.map((h) => h.id).sort()).toEqual(['t1', 't3']);
		expect(page.hits.every((h) => h.components.neighbor === 0)).toBe(true);
		expect(page.lexical_only).toBe(true);
	});

	it('filters by scope, types, tags (any/all, prefix) and exclude_tags', () => {
		const idx = corpus();
		const ids = (input: Parameters<SearchIndex['rank']>[0]) =>
			rank(idx, { limit: 50, ...input })
				.hits.map((h) => h.id)
				.sort();
		expect(ids({ scope: 'work' })).toEqual(['n1', 'n2']);
		expect(ids({ types: ['Decision'], scope: 'work' })).toEqual(['n1', 'n2']);
		expect(ids({ tags: ['hobby', 'family'] })).toEqual(['t1', 't3', 't4']);
		expect(ids({ tags: ['hobby', 'craft/pottery'], tag_mode: 'all' })).toEqual(['t3']);
		expect(ids({ tags: ['craft'], tag_match: 'prefix' })).toEqual(['t3']);
		expect(ids({ scope: 'chat', exclude_tags: ['hobby'] })).toEqual(['t2', 't4', 't5']);
	});

	it('filters by time range, end exclusive', () => {
		const page = rank(corpus(), {
			start: new Date(NOW - 8 * DAY).toISOString(),
			end: new Date(NOW - 6 * DAY).toISOString(),
		});
		expect(page.hits.map((h) => h.id).sort()).toEqual(['t3', 't4']);
	});

	it('follows EVOLVED_INTO to the current memory with current_only', () => {
		const idx = corpus();
		idx.upsert(
			meta('n1', { scope: 'work', type: 'Decision', tags: ['db'], t_invalid: NOW - DAY, timestamp: NOW - 5 * DAY }),
			{ content: 'Project Atlas uses Postgres for storage.' },
			toyEmbed('Project Atlas uses Postgres for storage.', DIMS),
		);
		idx.addEdge({ from: 'n1', to: 'n2', type: 'EVOLVED_INTO', strength: 0.9 });
		const all = rank(idx, { query: 'postgres storage', scope: 'work' });
		expect(all.hits[0].id).toBe('n1');
		const cur = rank(idx, { query: 'postgres storage', scope: 'work', current_only: true });
		expect(cur.hits.map((h) => h.id)).toEqual(['n2']);
	});

	it('surfaces a memory linked to a strong hit as expanded, with via', () => {
		const idx = corpus();
		idx.addEdge({ from: 't1', to: 'n1', type: 'RELATES_TO', strength: 0.8 });
		const page = rank(idx, { query: 'pottery', weights: { neighbor: 0 } });
		const n1 = page.hits.find((h) => h.id === 'n1')!;
		expect(n1.match).toBe('expanded');
		expect(n1.via).toBe('t1');
		const t1 = page.hits.find((h) => h.id === 't1')!;
		// Lexical-only recall: t1's relevance is its lexical score, carried at the link's strength.
		expect(n1.components.graph).toBeCloseTo(0.8 * t1.components.lexical, 5);
	});

	it('paginates with offset/limit and reports the total', () => {
		const idx = corpus();
		const first = rank(idx, { scope: 'chat', sort: 'time_asc', limit: 2 });
		const second = rank(idx, { scope: 'chat', sort: 'time_asc', limit: 2, offset: 2 });
		expect(first.total).toBe(5);
		expect([...first.hits, ...second.hits].map((h) => h.id)).toEqual(['t1', 't2', 't3', 't4']);
	});

	it('drops hits under min_score', () => {
		const page = rank(corpus(), { query: 'pottery class', min_score: 1 }, 'pottery class');
		expect(page.hits.every((h) => h.score >= 1)).toBe(true);
		expect(page.hits.length).toBeGreaterThan(0);
	});

	it('ranks "more like this" by the seed memory vector and never returns the seed', () => {
		const page = rank(corpus(), { memory_id: 't4', scope: 'chat' });
		expect(page.hits.map((h) => h.id)).not.toContain('t4');
		expect(page.hits[0].id).toBe('t5');
	});

	it('rejects a caller embedding of the wrong size, naming the field', () => {
		expect(() => rank(corpus(), { embedding: [1, 2, 3] })).toThrow("embedding: must have 64 dimensions (the active model's), got 3");
	});
});

describe('SearchIndex.rank: turn-length prior', () => {
	it('gives a short reply a smaller neighbour share than a long turn at the same distance', () => {
		const idx = createSearchIndex({ modelId: 'toy', dims: DIMS });
		const turns: [string, string][] = [
			['a', 'Sofia: Worst week. My laptop got stolen on Wednesday'],
			['b', 'Jamal: WHAT. Where?'],
			['c', 'Sofia: At the café near the studio. I went to grab a napkin and it was gone in ten seconds'],
		];
		turns.forEach(([id, content]) => idx.upsert(meta(id, { scope: 'chat', session: 's1' }), { content }, toyEmbed(content, DIMS)));
		idx.addEdge({ from: 'b', to: 'a', type: 'PRECEDED_BY', strength: 1 });
		idx.addEdge({ from: 'c', to: 'b', type: 'PRECEDED_BY', strength: 1 });
		const hits = rank(idx, { query: 'laptop stolen', scope: 'chat', weights: { semantic: 0 } }).hits;
		const share = (id: string) => hits.find((h) => h.id === id)!.components.neighbor;
		// The hit (9 distinct words) carries 9/16 of its relevance; b, one step away (decay 1) with 3
		// words and a question, takes 3/16 × TURNS.question of that; c, two steps away (decay 0.6)
		// and long, takes 0.6 of it.
		const r = 9 / TURNS.fullWords;
		expect(hits[0].id).toBe('a');
		expect(hits[0].components.lexical).toBeCloseTo(r, 5);
		expect(share('b')).toBeCloseTo(((r * 3) / TURNS.fullWords) * TURNS.question, 5);
		expect(share('c')).toBeCloseTo(r * EXPANSION.neighborDecay[1], 5);
	});

	it('scales only conversation turns by length: a short note without a session keeps its full weight', () => {
		const idx = createSearchIndex({ modelId: 'toy', dims: DIMS });
		idx.upsert(meta('note', { scope: 'x' }), { content: 'Atlas uses Postgres' }, toyEmbed('Atlas uses Postgres', DIMS));
		idx.upsert(meta('turn', { scope: 'x', session: 's' }), { content: 'Ana: Postgres!' }, toyEmbed('Ana: Postgres!', DIMS));
		const hits = rank(idx, { query: 'postgres', scope: 'x' }, 'postgres').hits;
		expect(hits.map((h) => h.id)).toEqual(['note', 'turn']);
		// The turn is shorter, so its raw BM25 is the higher one; the note is not scaled down.
		expect(hits[0].components.lexical).toBeGreaterThan(0.9);
		expect(hits[1].components.lexical).toBeCloseTo(2 / TURNS.fullWords, 5);
	});

	it('treats memories sharing scope and timestamp as one session when metadata names none, and a lone note as a note', () => {
		const idx = createSearchIndex({ modelId: 'toy', dims: DIMS });
		const put = (id: string, content: string, group: string) => idx.upsert(meta(id, { scope: 'x', group }), { content }, toyEmbed(content, DIMS));
		put('t1', 'Ana: Postgres!', 'x@2023-05-08');
		put('t2', 'Ben: Since when do you like databases', 'x@2023-05-08');
		put('note', 'Atlas uses Postgres', 'x@2024-01-01T10:00:00.123Z');
		const view = idx as unknown as IndexView;
		const slot = (id: string) => view.slotOf.get(id)!;
		expect(view.sessionOf(slot('t1'))).toBe('x@2023-05-08');
		expect(view.sessionOf(slot('note'))).toBeUndefined();
		const hits = rank(idx, { query: 'postgres', scope: 'x', weights: { neighbor: 0, graph: 0 } }, 'postgres').hits;
		expect(hits.find((h) => h.id === 'note')!.components.lexical).toBeGreaterThan(0.9);
		expect(hits.find((h) => h.id === 't1')!.components.lexical).toBeCloseTo(2 / TURNS.fullWords, 5);
		// Once its only partner is gone, the remaining turn is a note again.
		idx.remove('t2');
		expect(view.sessionOf(slot('t1'))).toBeUndefined();
	});

	it('tells the same sessions apart after a restore, and as restored memories gain and lose partners', async () => {
		const idx = createSearchIndex({ modelId: 'toy', dims: DIMS });
		const put = (into: SearchIndex, id: string, content: string, group: string) =>
			into.upsert(meta(id, { scope: 'x', group }), { content }, toyEmbed(content, DIMS));
		put(idx, 't1', 'Ana: Postgres!', 'x@2023-05-08');
		put(idx, 't2', 'Ben: Since when do you like databases', 'x@2023-05-08');
		put(idx, 'note', 'Atlas uses Postgres', 'x@2024-01-01T10:00:00.123Z');
		put(idx, 'plain', 'No group at all', undefined as unknown as string);
		const restored = restoreSearchIndex(idx.snapshot());
		const view = restored as unknown as IndexView;
		const sessionOf = (id: string) => view.sessionOf(view.slotOf.get(id)!);
		expect(['t1', 't2', 'note', 'plain'].map(sessionOf)).toEqual(['x@2023-05-08', 'x@2023-05-08', undefined, undefined]);
		// A new memory with the lone note's key makes both one session; a removal undoes a pair.
		put(restored, 'reply', 'Atlas moved to MySQL', 'x@2024-01-01T10:00:00.123Z');
		restored.remove('t2');
		expect(['t1', 'note', 'reply', 'plain'].map(sessionOf)).toEqual([undefined, 'x@2024-01-01T10:00:00.123Z', 'x@2024-01-01T10:00:00.123Z', undefined]);
		// Settling (made after a page load) keeps the counts.
		const settled = restoreSearchIndex(idx.snapshot());
		await settled.settle(async () => undefined);
		put(settled, 't3', 'Ana: Since forever', 'x@2023-05-08');
		expect((settled as unknown as IndexView).sessionOf((settled as unknown as IndexView).slotOf.get('t3')!)).toBe('x@2023-05-08');
	});

	it('discounts a turn that asks a question, and passes its whole relevance to the reply', () => {
		const idx = createSearchIndex({ modelId: 'toy', dims: DIMS });
		const turns: [string, string][] = [
			['q', 'Priya: So how are the twins handling the move to the new bungalow in Land Park, are they sleeping okay at night?'],
			['a', 'Tom: Ollie loves it but June keeps asking when we are going home, every night is a small crisis'],
		];
		turns.forEach(([id, content]) => idx.upsert(meta(id, { scope: 'chat', session: 's1' }), { content }, toyEmbed(content, DIMS)));
		idx.addEdge({ from: 'a', to: 'q', type: 'PRECEDED_BY', strength: 1 });
		const hits = rank(idx, { query: 'twins move', scope: 'chat', weights: { semantic: 0 } }).hits;
		const q = hits.find((h) => h.id === 'q')!;
		const a = hits.find((h) => h.id === 'a')!;
		// q is long (16+ distinct words: substance 1 before the discount) and the only lexical hit.
		expect(q.components.lexical).toBeCloseTo(TURNS.question, 5);
		expect(a.components.neighbor).toBeCloseTo(1, 5);
	});
});

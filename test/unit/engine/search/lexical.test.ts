import { afterEach, describe, expect, it } from 'vitest';
import MiniSearch from 'minisearch';
import { processTerm, tokenize } from '../../../../src/core/text';
import { LEXICAL_TUNING, LexicalIndex, RECENT_CONTENT_CHARS, RECENT_CONTENT_MAX_CHARS, RECENT_ENTRY_CHARS } from '../../../../src/engine/search/lexical';
import { PackedTermData } from '../../../../src/engine/search/lexical-codec';
import { PackedTermIndex } from '../../../../src/engine/search/term-index';

const saved = { ...LEXICAL_TUNING };
const doc = (id: string, content: string) => ({ id, content, summary: '', tags: '', entities: '', dates: '', metadata: '', context: '' });

/** 20 memories about meetings, one of which mentions the budget; one about lunch. */
function corpus(): LexicalIndex {
	const l = new LexicalIndex();
	for (let i = 0; i < 20; i++) l.upsert(doc(`m${i}`, `weekly meeting number ${i}${i === 7 ? ' about the budget' : ''}`));
	l.upsert(doc('x', 'lunch with Ana'));
	return l;
}

/** minisearch's internal state, as lexical-codec.ts reads it. */
type Internals = { _index: Iterable<[string, Map<number, Map<number, number>>]>; _documentIds: Map<number, string>; _fieldLength: Map<number, number[]> };

/** Slots named as a restore names them. */
function slotNames(ids: string[]) {
	return { ids, slotOf: new Map(ids.map((id, slot) => [id, slot])) };
}

/** What an index holds, independent of term order and short ids (a rebuilt radix tree may list terms differently). */
function canonical(l: LexicalIndex) {
	const ms = (l as unknown as { ms: Internals }).ms;
	const docs: Record<string, number[]> = {};
	for (const [short, id] of ms._documentIds) docs[id] = ms._fieldLength.get(short)!;
	const terms: Record<string, string[]> = {};
	for (const [term, fields] of ms._index) {
		const postings: string[] = [];
		for (const [field, docsOf] of fields) for (const [short, tf] of docsOf) postings.push(`${field}:${ms._documentIds.get(short)}:${tf}`);
		if (postings.length) terms[term] = postings.sort();
	}
	return { docs, terms };
}

describe('LexicalIndex', () => {
	afterEach(() => Object.assign(LEXICAL_TUNING, saved));

	describe('search', () => {
		it('drops a word most memories contain when the query has a rarer one', () => {
			Object.assign(LEXICAL_TUNING, { pruneMinDocs: 10 });
			expect(
				corpus()
					.search('meeting budget', undefined, 50)
					.map((h) => h.id),
			).toEqual(['m7']);
		});

		it('keeps a common word when it is all the query has', () => {
			Object.assign(LEXICAL_TUNING, { pruneMinDocs: 10 });
			expect(corpus().search('meetings', undefined, 50)).toHaveLength(20);
		});

		it('never prunes in small collections', () => {
			expect(corpus().search('meeting budget', undefined, 50)).toHaveLength(20);
		});

		it('computes idf over the collection it is restricted to', () => {
			const l = corpus();
			const within = { size: 2, has: (id: string) => id === 'm7' || id === 'x' };
			const accept = (id: string) => within.has(id);
			const global = l.search('meeting lunch', accept, 10);
			const local = l.search('meeting lunch', accept, 10, within);
			// Globally "meeting" is common and "lunch" rare; within {m7, x} both occur once.
			expect(global[0].id).toBe('x');
			expect(local.find((h) => h.id === 'm7')!.score).toBeGreaterThan(global.find((h) => h.id === 'm7')!.score);
		});
	});

	describe('upsert', () => {
		it("indexes exactly what minisearch's own add does: postings, term frequencies, field lengths and averages", () => {
			const fields = ['content', 'summary', 'tags', 'entities', 'dates', 'metadata', 'context'];
			const plain = new MiniSearch({ idField: 'id', fields, storeFields: [], tokenize: (t) => tokenize(t), processTerm: (t) => processTerm(t) });
			const l = new LexicalIndex();
			const docs = [
				{ ...doc('a', 'The cat and the other cat; the CAT!'), dates: 'may 2023 monday m202305 d20230501', context: 'where is the cat' },
				{ ...doc('b', 'Dvořák’s cats, 3pm'), dates: 'may 2023 monday m202305 d20230501', tags: 'pets pets', summary: 'a summary' },
				{ ...doc('c', ''), dates: 'june 2023 friday m202306 d20230602', entities: 'Dvořák Ana', metadata: 'ana' },
				{ ...doc('d', 'the the the'), dates: 'may 2023 monday m202305 d20230501' },
			];
			for (const d of docs) {
				plain.add(d);
				l.upsert(d);
			}
			const ours = (l as unknown as { ms: Internals & { _avgFieldLength: number[]; _documentCount: number } }).ms;
			const theirs = plain as unknown as Internals & { _avgFieldLength: number[]; _documentCount: number };
			const postings = (ms: Internals) => [...ms._index].map(([term, byField]) => [term, [...byField].map(([f, m]) => [f, [...m]])]);
			expect(postings(ours)).toEqual(postings(theirs));
			expect([...ours._fieldLength]).toEqual([...theirs._fieldLength]);
			expect(ours._avgFieldLength).toEqual(theirs._avgFieldLength);
			expect(ours._documentCount).toBe(theirs._documentCount);
			expect(() => l.upsert(docs[1])).not.toThrow();
			expect(l.size).toBe(4);
		});

		it('indexes a term again after a clean-up dropped it from the term tree', () => {
			const l = new LexicalIndex();
			for (let i = 0; i < 30; i++) l.upsert(doc(`u${i}`, `unique${i} shared`));
			for (let i = 0; i < 25; i++) l.remove(`u${i}`);
			// 25 discarded of 30: the clean-up ran and dropped unique0…unique24 from the tree.
			expect((l as unknown as { ms: { _index: { has(t: string): boolean } } }).ms._index.has('unique3')).toBe(false);
			l.upsert(doc('again', 'unique3 shared'));
			expect(l.search('unique3', undefined, 10).map((h) => h.id)).toEqual(['again']);
			expect(
				l
					.search('shared', undefined, 10)
					.map((h) => h.id)
					.sort(),
			).toEqual(['again', 'u25', 'u26', 'u27', 'u28', 'u29']);
			l.clear();
			l.upsert(doc('fresh', 'unique27'));
			expect(l.search('unique27', undefined, 10).map((h) => h.id)).toEqual(['fresh']);
		});

		it('remembers the content of the latest documents, as last indexed, until removed', () => {
			const l = new LexicalIndex();
			l.upsert(doc('a', 'first'));
			l.upsert(doc('b', 'second'));
			l.upsert(doc('a', 'first, edited'));
			expect([l.contentOf('a'), l.contentOf('b'), l.contentOf('c')]).toEqual(['first, edited', 'second', undefined]);
			l.remove('b');
			expect(l.contentOf('b')).toBeUndefined();
			expect(LexicalIndex.unpack(l.pack()).contentOf('a')).toBeUndefined();
			// As many contents of the longest remembered length as the budget holds are all remembered.
			const long = 'x'.repeat(RECENT_CONTENT_MAX_CHARS);
			const fit = Math.floor(RECENT_CONTENT_CHARS / (RECENT_CONTENT_MAX_CHARS + RECENT_ENTRY_CHARS));
			for (let i = 0; i < fit; i++) l.upsert(doc(`n${i}`, long));
			expect([l.contentOf('n0'), l.contentOf(`n${fit - 1}`)]).toEqual([long, long]);
			// Re-indexed, n0 is the newest; more push out the oldest first: 'a', then n1.
			l.upsert(doc('n0', 'x'));
			let more = 0;
			while (l.contentOf('n1') !== undefined && more < 5) l.upsert(doc(`more${more++}`, long));
			expect([l.contentOf('a'), l.contentOf('n0'), l.contentOf('n1'), l.contentOf('n2'), l.contentOf(`more${more - 1}`)]).toEqual([
				undefined,
				'x',
				undefined,
				long,
				long,
			]);
			l.clear();
			expect(l.contentOf('n0')).toBeUndefined();
		});

		it('remembers contents by their length, not their count: more than 16,384 short ones, and 100k of a few sentences', () => {
			const l = new LexicalIndex();
			for (let i = 0; i < 20_000; i++) l.upsert(doc(`m${i}`, `note ${i}`));
			expect([l.contentOf('m0'), l.contentOf('m19999')]).toEqual(['note 0', 'note 19999']);
			// The bench corpus's memories average about 210 characters: a 100k import's all fit.
			expect(100_000 * (250 + RECENT_ENTRY_CHARS)).toBeLessThanOrEqual(RECENT_CONTENT_CHARS);
		});

		it('does not remember a content too long for possible_update_of to compare, even one edited to that length', () => {
			const l = new LexicalIndex();
			const long = 'word '.repeat(RECENT_CONTENT_MAX_CHARS / 5 + 1);
			l.upsert(doc('a', 'short'));
			l.upsert(doc('b', long));
			l.upsert(doc('a', long));
			expect([l.contentOf('a'), l.contentOf('b')]).toEqual([undefined, undefined]);
		});
	});

	describe('contentLength', () => {
		it('counts the distinct words of a content, before and after pack / unpack', () => {
			const l = corpus();
			l.upsert(doc('y', 'Jamal: WHAT. Where? What?'));
			expect(l.contentLength('y')).toBe(3);
			expect(l.contentLength('x')).toBe(3);
			expect(LexicalIndex.unpack(l.pack()).contentLength('y')).toBe(3);
			expect(l.contentLength('nope')).toBe(0);
		});
	});

	describe('pack / unpack', () => {
		it('restores an index that answers exactly like the original', () => {
			const l = corpus();
			l.remove('m3');
			const back = LexicalIndex.unpack(l.pack());
			for (const q of ['meeting budget', 'lunch', 'number 12', 'weekly']) expect(back.search(q, undefined, 50)).toEqual(l.search(q, undefined, 50));
			expect(back.size).toBe(l.size);
			back.upsert(doc('n', 'budget review'));
			expect(
				back
					.search('budget', undefined, 50)
					.map((h) => h.id)
					.sort(),
			).toEqual(['m7', 'n']);
		});

		it('round-trips postings in any order and documents named by slot', () => {
			const l = corpus();
			// Postings in descending short-id order somewhere (negative deltas in the packed form).
			const ms = (l as unknown as { ms: Internals }).ms;
			for (const [, fields] of ms._index)
				for (const [, postings] of fields) {
					const entries = [...postings].reverse();
					postings.clear();
					for (const [k, v] of entries) postings.set(k, v);
				}
			expect(canonical(LexicalIndex.unpack(l.pack()))).toEqual(canonical(l));
			const ids = [...ms._documentIds.values()].reverse();
			const bySlot = l.pack(new Map(ids.map((id, slot) => [id, slot])));
			expect(bySlot.bySlot).toBe(true);
			expect(bySlot.ids).toBe('');
			expect(canonical(LexicalIndex.unpack(bySlot, slotNames(ids)))).toEqual(canonical(l));
			expect(() => LexicalIndex.unpack(bySlot)).toThrow('names documents by slot');
			// A slot map missing a document falls back to writing ids.
			expect(l.pack(new Map([[ids[0], 0]])).bySlot).toBe(false);
		});

		it.each([
			['ids', false],
			['slots', true],
		])('keeps unread postings packed and answers like the original through reads, changes and packs (documents by %s)', (_, bySlot) => {
			const l = corpus();
			const ids = [...(l as unknown as { ms: Internals }).ms._documentIds.values()];
			const slotOf = new Map(ids.map((id, slot) => [id, slot]));
			const back = bySlot ? LexicalIndex.unpack(l.pack(slotOf), slotNames(ids)) : LexicalIndex.unpack(l.pack());
			// Packing before anything was read copies the packed postings as they are.
			expect(canonical(LexicalIndex.unpack(back.pack()))).toEqual(canonical(l));
			const terms = (x: LexicalIndex) => (x as unknown as { ms: { _index: Map<string, unknown> } }).ms._index;
			const same = () => {
				for (const q of ['meeting budget', 'lunch ana', 'number 12', 'weekly', 'review', 'meet'])
					expect(back.search(q, undefined, 50), q).toEqual(l.search(q, undefined, 50));
				expect(canonical(LexicalIndex.unpack(back.pack()))).toEqual(canonical(l));
			};
			// Searches and packs answer from the sorted terms, without making minisearch's tree.
			same();
			expect(terms(back)).toBeInstanceOf(PackedTermIndex);
			expect((terms(back) as unknown as PackedTermIndex).made).toBe(false);
			const packedCount = () => [...terms(back).values()].filter((d) => d instanceof PackedTermData && d.packed()).length;
			const fresh = bySlot ? LexicalIndex.unpack(l.pack(slotOf), slotNames(ids)) : LexicalIndex.unpack(l.pack());
			expect([...terms(fresh).values()].filter((d) => d instanceof PackedTermData && d.packed()).length).toBe(terms(fresh).size);
			// A query reads the postings it needs from their packed form ('meet' also reads 'meeting'
			// by prefix): no term's maps are made until something writes to it.
			expect(packedCount()).toBe(terms(back).size);
			for (const x of [l, back]) {
				x.remove('m3');
				x.upsert(doc('m5', 'weekly budget review with Ana'));
				x.upsert(doc('n', 'number 12 meeting moved'));
			}
			same();
		});
	});
});

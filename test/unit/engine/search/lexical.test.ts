import { afterEach, describe, expect, it } from 'vitest';
import { LEXICAL_TUNING, LexicalIndex } from '../../../../src/engine/search/lexical';

const saved = { ...LEXICAL_TUNING };
const doc = (id: string, content: string) => ({ id, content, summary: '', tags: '', entities: '', dates: '', metadata: '' });

/** 20 memories about meetings, one of which mentions the budget; one about lunch. */
function corpus(): LexicalIndex {
	const l = new LexicalIndex();
	for (let i = 0; i < 20; i++) l.upsert(doc(`m${i}`, `weekly meeting number ${i}${i === 7 ? ' about the budget' : ''}`));
	l.upsert(doc('x', 'lunch with Ana'));
	return l;
}

describe('LexicalIndex', () => {
	afterEach(() => Object.assign(LEXICAL_TUNING, saved));

	describe('search', () => {
		it('drops a word most memories contain when the query has a rarer one', () => {
			Object.assign(LEXICAL_TUNING, { pruneMinDocs: 10 });
			expect(corpus().search('meeting budget', undefined, 50).map((h) => h.id)).toEqual(['m7']);
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
			for (const q of ['meeting budget', 'lunch', 'number 12', 'weekly'])
				expect(back.search(q, undefined, 50)).toEqual(l.search(q, undefined, 50));
			expect(back.size).toBe(l.size);
			back.upsert(doc('n', 'budget review'));
			expect(back.search('budget', undefined, 50).map((h) => h.id).sort()).toEqual(['m7', 'n']);
		});
	});
});

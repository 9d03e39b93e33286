import { describe, expect, it } from 'vitest';
import { describeDate, WEEKDAYS, weekdayOf } from '../../../../src/core/time';
import { dateWords, nameMonthTerms, queryDateWords } from '../../../../src/engine/search/date-words';
import { createSearchIndex } from '../../../../src/engine/search/index';
import { meta } from './fixtures';

const NOW = Date.parse('2023-11-20T12:00:00Z');

describe('dateWords', () => {
	it('gives the month name, year, weekday and canonical tokens of a timestamp (UTC)', () => {
		expect(dateWords(Date.parse('2023-05-08T18:30:00Z'))).toBe('may 2023 monday m202305 d20230508');
		expect(dateWords(NaN)).toBe('');
	});

	it('names the weekday as core/time does (one convention: Monday first), on every day of a week', () => {
		const monday = Date.parse('2024-01-01T00:00:00Z');
		for (let i = 0; i < 7; i++) {
			const ms = monday + i * 86_400_000 + 23 * 3_600_000;
			expect(weekdayOf(ms)).toBe(i);
			expect(dateWords(ms).split(' ')[2]).toBe(WEEKDAYS[i]);
			expect(describeDate(new Date(ms).toISOString())[3]).toBe(WEEKDAYS[i]);
		}
		expect(WEEKDAYS[0]).toBe('monday');
	});
});

describe('queryDateWords', () => {
	it('turns a month with its year into its month token', () => {
		expect(queryDateWords('What did Maya do in May 2023?', NOW)).toBe('m202305');
		expect(queryDateWords('Why was Jupiter so bright in late September 2022?', NOW)).toBe('m202209');
	});

	it('turns a date into its day token and a week into seven', () => {
		expect(queryDateWords('What happened on 8 May 2023?', NOW)).toBe('d20230508');
		expect(queryDateWords('What happened last week?', NOW).split(' ')).toEqual([
			'd20231113',
			'd20231114',
			'd20231115',
			'd20231116',
			'd20231117',
			'd20231118',
			'd20231119',
		]);
	});

	it('resolves a phrase without a year against now, like a memory against its timestamp', () => {
		expect(queryDateWords('What did we decide last June?', NOW)).toBe('m202306');
		expect(queryDateWords('How did it go in the fall?', NOW)).toBe('m202309 m202310 m202311');
	});

	it('gives nothing for a query without a time phrase, a modal "may" or a whole year', () => {
		expect(queryDateWords('What is the name of their daughter?', NOW)).toBe('');
		expect(queryDateWords('What may happen next?', NOW)).toBe('');
		expect(queryDateWords('What did Tom do in 2023?', NOW)).toBe('');
	});
});

describe('recall with a time phrase', () => {
	it('finds the memory of the named month through its date tokens, even for "May"', () => {
		const idx = createSearchIndex({ modelId: 'toy', dims: 4 });
		const at = (iso: string) => ({ timestamp: Date.parse(iso), updated_at: Date.parse(iso) });
		idx.upsert(meta('april', at('2023-04-10T10:00:00Z')), { content: 'We went to the lake' }, null);
		idx.upsert(meta('may', at('2023-05-08T10:00:00Z')), { content: 'We went to the lake again' }, null);
		const hits = idx.rank({ query: 'lake in May 2023' }, { vectors: [] }, NOW).hits;
		expect(hits[0].id).toBe('may');
		expect(hits[0].matched_terms).toEqual(['lake', '2023']);
	});
});

describe("a month word that is a name (conv-12's June)", () => {
	it('names the month words no time phrase covers', () => {
		expect([...nameMonthTerms('What crafts has June taken up?', NOW)]).toEqual(['june']);
		expect([...nameMonthTerms("What has happened to June's grandson this school year?", NOW)]).toEqual(['june']);
		expect([...nameMonthTerms('What did June say in May?', NOW)]).toEqual(['june']);
		expect([...nameMonthTerms('What did we do in June?', NOW)]).toEqual([]);
		expect([...nameMonthTerms('Where did Farid go?', NOW)]).toEqual([]);
		expect(queryDateWords('What crafts has June taken up?', NOW)).toBe('');
	});

	it('does not rank every memory of a June above the one about June herself', () => {
		const idx = createSearchIndex({ modelId: 'toy', dims: 4 });
		const at = (iso: string) => ({ timestamp: Date.parse(iso), updated_at: Date.parse(iso), scope: 'chat' });
		idx.upsert(meta('gull', at('2024-06-16T18:00:00Z')), { content: 'Farid: A gull had my chips off the fork on the pier.' }, null);
		idx.upsert(meta('pier', at('2024-06-16T18:01:00Z')), { content: 'Farid: The pier was packed, the whole town was out.' }, null);
		idx.upsert(
			meta('rug', at('2023-10-15T10:00:00Z')),
			{ content: "June: I've started making a rag rug from Ken's old shirts, it's a craft I love." },
			null,
		);
		const page = idx.rank({ query: 'What crafts has June taken up?', scope: 'chat', limit: 10 }, { vectors: [] }, NOW);
		// Only the turn that says "June" (and "craft") matches: the June-dated turns' date words do not.
		expect(page.hits.map((h) => h.id)).toEqual(['rug']);
		// A time phrase still finds the month's memories by their date words, first.
		const inJune = idx.rank({ query: 'What happened at the pier in June?', scope: 'chat', limit: 10 }, { vectors: [] }, NOW);
		expect(inJune.hits.slice(0, 2).map((h) => h.id)).toEqual(['pier', 'gull']);
	});
});

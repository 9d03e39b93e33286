/** The words an empty list uses to say which filters emptied it. */
import { describe, expect, it } from 'vitest';
import { filterWords } from '../../../src/ui/words';

const none = { tags: [], tagMode: 'any' as const, excludeTags: [], types: [], scope: '', currentOnly: false };

describe('filterWords', () => {
	it('says nothing when nothing is set', () => {
		expect(filterWords(none, { phrase: '' })).toEqual([]);
	});

	it('names every filter set, tags exactly as written, with how several tags combine', () => {
		expect(
			filterWords(
				{ tags: ['c++', 'Food & Drink'], tagMode: 'all', excludeTags: ['ops', 'c#'], types: ['Decision', 'Habit'], scope: 'work', currentOnly: true },
				{ phrase: 'last week', window: 'Mon 23 Nov – Sun 29 Nov 2026' },
			),
		).toEqual([
			'tagged with all of #c++, #Food & Drink',
			'not tagged #ops or #c#',
			'of type Decision or Habit',
			'in scope work',
			'dated Mon 23 Nov – Sun 29 Nov 2026 (“last week”)',
			'that are current (superseded ones hidden)',
		]);
		expect(filterWords({ ...none, tags: ['a', 'b'] })).toEqual(['tagged with any of #a, #b']);
		expect(filterWords({ ...none, tags: ['a'], tagMode: 'all' })).toEqual(['tagged #a']);
	});
});

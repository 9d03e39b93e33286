/**
 * The When field's error for a range typed end first: it says the range ends before it starts and
 * offers the phrase the right way round (before, it said only "not a time I can read").
 */
import { describe, expect, it } from 'vitest';
import { parseTimeQuery } from '../../../src/core/time';
import { rangeEnds, whenError } from '../../../src/ui/time-words';

const NOW = Date.parse('2026-12-07T12:00:00Z');
const read = (p: string) => parseTimeQuery(p, NOW);

describe('whenError', () => {
	it('names a range whose end is before its start, with the phrase to use', () => {
		expect(whenError('from 2025-01-01 to 2024-01-01', read)).toBe(
			'“from 2025-01-01 to 2024-01-01” ends before it starts: 2024-01-01 is earlier than 2025-01-01. Try “from 2024-01-01 to 2025-01-01”.',
		);
		expect(whenError('between 2025-03-01 and 2024-03-01', read)).toMatch(
			/ends before it starts: 2024-03-01 is earlier than 2025-03-01\. Try “from 2024-03-01 to 2025-03-01”/,
		);
		// The phrase it offers does read.
		expect(read('from 2024-01-01 to 2025-01-01')).not.toBeNull();
	});

	it('gives examples, a range among them, for anything else', () => {
		expect(whenError('when pigs fly', read)).toMatch(/^“when pigs fly” is not a time I can read\. Try “last week”.*“from 2024-01-01 to 2024-06-30”/);
		expect(whenError('2024-13-45', read)).toMatch(/is not a time I can read/);
		// Both ends unreadable: not called reversed.
		expect(whenError('from soon to later', read)).toMatch(/is not a time I can read/);
	});

	it('splits range phrases at to, and, until and ..', () => {
		expect(rangeEnds('from May 2025 to March 2024')).toEqual(['May 2025', 'March 2024']);
		expect(rangeEnds('2025-01-01..2024-01-01')).toEqual(['2025-01-01', '2024-01-01']);
		expect(rangeEnds('last week')).toBeUndefined();
	});
});

describe('whenError for dates written with slashes', () => {
	it('asks for the year-first form, naming each reading that is a date', () => {
		expect(whenError('05/08/2023', read)).toBe(
			'“05/08/2023” can be read two ways round (month first or day first): write it year first, “2023-05-08” or “2023-08-05”.',
		);
		// Only one reading is a date: 13 cannot be a month.
		expect(whenError('13/08/2023', read)).toBe('“13/08/2023” can be read two ways round (month first or day first): write it year first, “2023-08-13”.');
		expect(whenError('7/7/2023', read)).toMatch(/write it year first, “2023-07-07”\.$/);
		expect(whenError('31/31/2023', read)).toMatch(/is not a time I can read/);
	});
});

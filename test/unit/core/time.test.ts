import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MemoryError } from '../../../src/core/errors';
import { describeDate, extractTimeMentions, humanAge, parseTimeQuery } from '../../../src/core/time';

const at = (iso: string) => Date.parse(iso);
/** Wednesday 13 March 2024, 15:30 UTC (a leap year; DST starts in the US that week). */
const NOW = at('2024-03-13T15:30:00Z');
const DAY = 86_400_000;
const range = (start?: string, end?: string) => ({
	...(start ? { start: `${start}${start.length === 10 ? 'T00:00:00.000Z' : ''}` } : {}),
	...(end ? { end: `${end}${end.length === 10 ? 'T00:00:00.000Z' : ''}` } : {}),
});
const q = (text: string, now = NOW) => parseTimeQuery(text, now);

describe('time', () => {
	describe('humanAge', () => {
		it('says "just now" within 45 seconds either way', () => {
			expect(humanAge('2024-03-13T15:29:20Z', NOW)).toBe('just now');
			expect(humanAge('2024-03-13T15:30:30Z', NOW)).toBe('just now');
		});

		it('counts minutes, hours, yesterday, days, weeks, months and years', () => {
			expect(humanAge('2024-03-13T15:29:00Z', NOW)).toBe('1 minute ago');
			expect(humanAge('2024-03-13T15:20:00Z', NOW)).toBe('10 minutes ago');
			expect(humanAge('2024-03-13T14:30:00Z', NOW)).toBe('1 hour ago');
			expect(humanAge('2024-03-12T16:30:00Z', NOW)).toBe('23 hours ago');
			expect(humanAge('2024-03-12T10:00:00Z', NOW)).toBe('yesterday');
			expect(humanAge('2024-03-09T10:00:00Z', NOW)).toBe('4 days ago');
			expect(humanAge('2024-03-06T15:30:00Z', NOW)).toBe('1 week ago');
			expect(humanAge('2024-02-20T10:00:00Z', NOW)).toBe('3 weeks ago');
			expect(humanAge('2024-02-12T10:00:00Z', NOW)).toBe('1 month ago');
			expect(humanAge('2024-01-10T10:00:00Z', NOW)).toBe('2 months ago');
			expect(humanAge('2023-03-14T10:00:00Z', NOW)).toBe('11 months ago');
			expect(humanAge('2023-03-13T10:00:00Z', NOW)).toBe('1 year ago');
			expect(humanAge('2014-03-13T10:00:00Z', NOW)).toBe('10 years ago');
		});

		it('counts calendar months across month ends and leap days', () => {
			expect(humanAge('2024-01-31T00:00:00Z', at('2024-03-01T00:00:00Z'))).toBe('1 month ago');
			expect(humanAge('2020-02-29T00:00:00Z', at('2021-02-27T00:00:00Z'))).toBe('11 months ago');
			// In a common year, February 28 is the anniversary of a leap day.
			expect(humanAge('2020-02-29T00:00:00Z', at('2021-02-28T00:00:00Z'))).toBe('1 year ago');
		});

		it('describes future dates', () => {
			expect(humanAge('2024-03-13T15:35:00Z', NOW)).toBe('in 5 minutes');
			expect(humanAge('2024-03-13T18:30:00Z', NOW)).toBe('in 3 hours');
			expect(humanAge('2024-03-14T16:30:00Z', NOW)).toBe('tomorrow');
			expect(humanAge('2024-03-16T15:30:00Z', NOW)).toBe('in 3 days');
			expect(humanAge('2024-06-13T15:30:00Z', NOW)).toBe('in 3 months');
		});

		it('throws invalid_input naming iso for an unparseable date', () => {
			expect(() => humanAge('not a date', NOW)).toThrow(MemoryError);
			expect(() => humanAge('not a date', NOW)).toThrow('iso: must be an ISO 8601 date, got "not a date"');
			try {
				humanAge('', NOW);
			} catch (err) {
				expect((err as MemoryError).code).toBe('invalid_input');
			}
			expect(() => humanAge('2024-03-13T15:00:00Z', Number.NaN)).toThrow('nowMs: must be a finite number, got NaN');
		});
	});

	describe('parseTimeQuery', () => {
		it('parses today and yesterday as whole UTC days', () => {
			expect(q('today')).toEqual(range('2024-03-13', '2024-03-14'));
			expect(q('yesterday')).toEqual(range('2024-03-12', '2024-03-13'));
		});

		it('parses "last week" as the previous Monday–Sunday', () => {
			expect(q('last week')).toEqual(range('2024-03-04', '2024-03-11'));
			expect(q('this week')).toEqual(range('2024-03-11', '2024-03-18'));
			expect(q('next week')).toEqual(range('2024-03-18', '2024-03-25'));
		});

		it('parses "past week" as the last seven days, open-ended', () => {
			expect(q('past week')).toEqual(range('2024-03-06T15:30:00.000Z'));
		});

		it('treats Sunday as the last day of its week', () => {
			const sunday = at('2024-03-17T23:00:00Z');
			expect(q('this week', sunday)).toEqual(range('2024-03-11', '2024-03-18'));
			expect(q('last week', sunday)).toEqual(range('2024-03-04', '2024-03-11'));
		});

		it('parses this, last and past month and year', () => {
			expect(q('this month')).toEqual(range('2024-03-01', '2024-04-01'));
			expect(q('last month')).toEqual(range('2024-02-01', '2024-03-01'));
			expect(q('past month')).toEqual(range('2024-02-13T15:30:00.000Z'));
			expect(q('this year')).toEqual(range('2024-01-01', '2025-01-01'));
			expect(q('last year')).toEqual(range('2023-01-01', '2024-01-01'));
			expect(q('past year')).toEqual(range('2023-03-13T15:30:00.000Z'));
		});

		it('handles month ends: last month on March 31 is February, past month clamps to Feb 29', () => {
			const march31 = at('2024-03-31T12:00:00Z');
			expect(q('last month', march31)).toEqual(range('2024-02-01', '2024-03-01'));
			expect(q('past month', march31)).toEqual(range('2024-02-29T12:00:00.000Z'));
			expect(q('past month', at('2023-03-31T12:00:00Z'))).toEqual(range('2023-02-28T12:00:00.000Z'));
		});

		it('crosses year boundaries', () => {
			const jan3 = at('2024-01-03T09:00:00Z');
			expect(q('last month', jan3)).toEqual(range('2023-12-01', '2024-01-01'));
			expect(q('last week', jan3)).toEqual(range('2023-12-25', '2024-01-01'));
			expect(q('yesterday', at('2024-01-01T00:00:00Z'))).toEqual(range('2023-12-31', '2024-01-01'));
		});

		it('uses exact 24-hour days across daylight-saving changes', () => {
			// Europe and the US change clocks on these dates; UTC does not.
			expect(q('yesterday', at('2024-04-01T12:00:00Z'))).toEqual(range('2024-03-31', '2024-04-01'));
			expect(q('3 days ago', at('2024-11-04T12:00:00Z'))).toEqual(range('2024-11-01', '2024-11-02'));
		});

		it('parses last N days, weeks, months, years and hours as rolling windows', () => {
			expect(q('last 7 days')).toEqual(range('2024-03-06T15:30:00.000Z'));
			expect(q('past 24 hours')).toEqual(range('2024-03-12T15:30:00.000Z'));
			expect(q('last 3 months')).toEqual(range('2023-12-13T15:30:00.000Z'));
			expect(q('last two weeks')).toEqual(range('2024-02-28T15:30:00.000Z'));
			expect(q('in the last 2 years')).toEqual(range('2022-03-13T15:30:00.000Z'));
			expect(q('the past few days')).toEqual(range('2024-03-10T15:30:00.000Z'));
		});

		it('parses N days ago as that day and N weeks ago as that week', () => {
			expect(q('3 days ago')).toEqual(range('2024-03-10', '2024-03-11'));
			expect(q('twenty-one days ago')).toEqual(range('2024-02-21', '2024-02-22'));
			expect(q('2 weeks ago')).toEqual(range('2024-02-26', '2024-03-04'));
			expect(q('a fortnight ago')).toEqual(range('2024-02-26', '2024-03-04'));
			expect(q('a month ago')).toEqual(range('2024-02-01', '2024-03-01'));
			expect(q('2 years ago')).toEqual(range('2022-01-01', '2023-01-01'));
		});

		it('parses hours and minutes ago with a tolerance', () => {
			expect(q('2 hours ago')).toEqual(range('2024-03-13T12:30:00.000Z', '2024-03-13T14:30:00.000Z'));
			expect(q('20 minutes ago')).toEqual(range('2024-03-13T15:05:00.000Z', '2024-03-13T15:15:00.000Z'));
		});

		it('parses since, after, before and until', () => {
			expect(q('since March 2024')).toEqual(range('2024-03-01'));
			expect(q('since 2024-03-05')).toEqual(range('2024-03-05'));
			expect(q('after 2024-03-01')).toEqual(range('2024-03-02'));
			expect(q('before 2024-03-01')).toEqual(range(undefined, '2024-03-01'));
			expect(q('until last week')).toEqual(range(undefined, '2024-03-11'));
			expect(q('since last week')).toEqual(range('2024-03-04'));
		});

		it('parses between X and Y and from X to Y', () => {
			expect(q('between March 1 and March 10')).toEqual(range('2024-03-01', '2024-03-11'));
			expect(q('from jan 2024 to feb 2024')).toEqual(range('2024-01-01', '2024-03-01'));
			expect(q('from 2023-12-24 until 2024-01-02')).toEqual(range('2023-12-24', '2024-01-03'));
			expect(q('jan - mar 2024')).toEqual(range('2024-01-01', '2024-04-01'));
			expect(q('2024-03-01/2024-03-05')).toEqual(range('2024-03-01', '2024-03-06'));
		});

		it('resolves "March to May" asked in March as the last finished span', () => {
			expect(q('March to May')).toEqual(range('2023-03-01', '2023-06-01'));
		});

		it('rejects a range that ends before it starts', () => {
			expect(q('between 2024-03-10 and 2024-03-01')).toBeNull();
		});

		it('parses month names with and without a year', () => {
			expect(q('in March 2024')).toEqual(range('2024-03-01', '2024-04-01'));
			expect(q('during March 2024')).toEqual(range('2024-03-01', '2024-04-01'));
			expect(q('March 2024')).toEqual(range('2024-03-01', '2024-04-01'));
			expect(q('Sept 2023')).toEqual(range('2023-09-01', '2023-10-01'));
			// The most recent past March, the current one included; April has not come yet.
			expect(q('March')).toEqual(range('2024-03-01', '2024-04-01'));
			expect(q('April')).toEqual(range('2023-04-01', '2023-05-01'));
			expect(q('last March')).toEqual(range('2023-03-01', '2023-04-01'));
			expect(q('in december')).toEqual(range('2023-12-01', '2024-01-01'));
		});

		it('parses days of a month', () => {
			expect(q('March 5')).toEqual(range('2024-03-05', '2024-03-06'));
			expect(q('5th of March 2023')).toEqual(range('2023-03-05', '2023-03-06'));
			expect(q('December 25')).toEqual(range('2023-12-25', '2023-12-26'));
			expect(q('on the 14th')).toEqual(range('2024-02-14', '2024-02-15'));
		});

		it('handles leap days', () => {
			expect(q('Feb 29')).toEqual(range('2024-02-29', '2024-03-01'));
			expect(q('Feb 29', at('2023-06-01T00:00:00Z'))).toEqual(range('2020-02-29', '2020-03-01'));
			expect(q('2024-02-29')).toEqual(range('2024-02-29', '2024-03-01'));
			expect(q('2023-02-29')).toBeNull();
			expect(q('February 2024')).toEqual(range('2024-02-01', '2024-03-01'));
		});

		it('parses quarters and years', () => {
			expect(q('Q1 2024')).toEqual(range('2024-01-01', '2024-04-01'));
			expect(q('2023 q4')).toEqual(range('2023-10-01', '2024-01-01'));
			expect(q('Q2')).toEqual(range('2023-04-01', '2023-07-01'));
			expect(q('last quarter')).toEqual(range('2023-10-01', '2024-01-01'));
			expect(q('this quarter')).toEqual(range('2024-01-01', '2024-04-01'));
			expect(q('2024')).toEqual(range('2024-01-01', '2025-01-01'));
			expect(q('in 2019')).toEqual(range('2019-01-01', '2020-01-01'));
		});

		it('parses ISO dates, months and date-times, reading a zoneless time as UTC', () => {
			expect(q('2024-03')).toEqual(range('2024-03-01', '2024-04-01'));
			expect(q('2024-03-05')).toEqual(range('2024-03-05', '2024-03-06'));
			expect(q('2024-03-05T10:00:00Z')).toEqual(range('2024-03-05T10:00:00.000Z', '2024-03-05T10:00:01.000Z'));
			expect(q('2024-03-05T10:00')).toEqual(range('2024-03-05T10:00:00.000Z', '2024-03-05T10:01:00.000Z'));
			expect(q('2024-03-05T10:00:00+02:00')).toEqual(range('2024-03-05T08:00:00.000Z', '2024-03-05T08:00:01.000Z'));
			expect(q('since 2024-03-05T10:00:00Z')).toEqual(range('2024-03-05T10:00:00.000Z'));
		});

		it('parses weekday names', () => {
			// NOW is a Wednesday.
			expect(q('last Tuesday')).toEqual(range('2024-03-12', '2024-03-13'));
			expect(q('on Tuesday')).toEqual(range('2024-03-12', '2024-03-13'));
			expect(q('Friday')).toEqual(range('2024-03-08', '2024-03-09'));
			expect(q('Wednesday')).toEqual(range('2024-03-13', '2024-03-14'));
			expect(q('last Wednesday')).toEqual(range('2024-03-06', '2024-03-07'));
			expect(q('this Friday')).toEqual(range('2024-03-15', '2024-03-16'));
			expect(q('next monday')).toEqual(range('2024-03-18', '2024-03-19'));
		});

		it('parses parts of days and earlier today', () => {
			expect(q('this morning')).toEqual(range('2024-03-13', '2024-03-13T12:00:00.000Z'));
			expect(q('yesterday evening')).toEqual(range('2024-03-12T17:00:00.000Z', '2024-03-13'));
			expect(q('last night')).toEqual(range('2024-03-12T18:00:00.000Z', '2024-03-13T06:00:00.000Z'));
			expect(q('earlier today')).toEqual(range('2024-03-13', '2024-03-13T15:30:00.000Z'));
		});

		it('parses last weekend as the Saturday and Sunday before this week', () => {
			expect(q('last weekend')).toEqual(range('2024-03-09', '2024-03-11'));
			expect(q('this weekend')).toEqual(range('2024-03-16', '2024-03-18'));
			// On a Sunday, "last weekend" is the one before the current one.
			expect(q('last weekend', at('2024-03-17T10:00:00Z'))).toEqual(range('2024-03-09', '2024-03-11'));
		});

		it('parses early, mid and late parts and weeks of a month', () => {
			expect(q('early March')).toEqual(range('2024-03-01', '2024-03-11'));
			expect(q('late February 2024')).toEqual(range('2024-02-21', '2024-03-01'));
			expect(q('end of last month')).toEqual(range('2024-02-21', '2024-03-01'));
			expect(q('mid-2023')).toEqual(range('2023-05-01', '2023-09-01'));
			expect(q('first week of May 2023')).toEqual(range('2023-05-01', '2023-05-08'));
			expect(q('last week of February 2024')).toEqual(range('2024-02-23', '2024-03-01'));
		});

		it('parses seasons (northern meteorological)', () => {
			expect(q('last summer')).toEqual(range('2023-06-01', '2023-09-01'));
			expect(q('winter 2023')).toEqual(range('2023-12-01', '2024-03-01'));
			// Mid-March, the winter that ended on March 1 is "last winter".
			expect(q('last winter')).toEqual(range('2023-12-01', '2024-03-01'));
			expect(q('last winter', at('2024-02-10T00:00:00Z'))).toEqual(range('2022-12-01', '2023-03-01'));
			expect(q('this summer')).toEqual(range('2024-06-01', '2024-09-01'));
		});

		it('reads "the last week" and "this past week" as rolling, "this past weekend" as the last one', () => {
			expect(q('in the last week')).toEqual(range('2024-03-06T15:30:00.000Z'));
			expect(q('this past week')).toEqual(range('2024-03-06T15:30:00.000Z'));
			expect(q('this past weekend')).toEqual(range('2024-03-09', '2024-03-11'));
			expect(q('this coming week')).toEqual(range('2024-03-18', '2024-03-25'));
		});

		it('parses recently, ISO weeks, halves and decades', () => {
			expect(q('recently')).toEqual(range('2024-02-12T15:30:00.000Z'));
			expect(q('2024-W10')).toEqual(range('2024-03-04', '2024-03-11'));
			expect(q('2020-W53')).toEqual(range('2020-12-28', '2021-01-04'));
			expect(q('2021-W53')).toBeNull();
			expect(q('H1 2024')).toEqual(range('2024-01-01', '2024-07-01'));
			expect(q('second half of 2023')).toEqual(range('2023-07-01', '2024-01-01'));
			expect(q('the 90s')).toEqual(range('1990-01-01', '2000-01-01'));
			expect(q('the 1920s')).toEqual(range('1920-01-01', '1930-01-01'));
		});

		it('parses holidays, with and without a year', () => {
			expect(q('Christmas 2023')).toEqual(range('2023-12-25', '2023-12-26'));
			expect(q('christmas eve')).toEqual(range('2023-12-24', '2023-12-25'));
			expect(q("new year's eve")).toEqual(range('2023-12-31', '2024-01-01'));
			expect(q('Easter 2024')).toEqual(range('2024-03-31', '2024-04-01'));
			expect(q('easter 2025')).toEqual(range('2025-04-20', '2025-04-21'));
			expect(q('Thanksgiving 2023')).toEqual(range('2023-11-23', '2023-11-24'));
			expect(q("valentine's day")).toEqual(range('2024-02-14', '2024-02-15'));
			expect(q('since Christmas')).toEqual(range('2023-12-25'));
		});

		it('parses clock times after a day as the hour from then', () => {
			expect(q('yesterday at 3pm')).toEqual(range('2024-03-12T15:00:00.000Z', '2024-03-12T16:00:00.000Z'));
			expect(q('Tuesday at 14:30')).toEqual(range('2024-03-12T14:30:00.000Z', '2024-03-12T15:30:00.000Z'));
			expect(q('today at 25:00')).toBeNull();
			expect(q('today at 13pm')).toBeNull();
		});

		it('parses the week before last, N weekends ago, this time last year and year ranges', () => {
			expect(q('week before last')).toEqual(range('2024-02-26', '2024-03-04'));
			expect(q('the weekend before last')).toEqual(range('2024-03-02', '2024-03-04'));
			expect(q('two weekends ago')).toEqual(range('2024-03-02', '2024-03-04'));
			expect(q('this time last year')).toEqual(range('2023-03-06', '2023-03-21'));
			expect(q('2020-2022')).toEqual(range('2020-01-01', '2023-01-01'));
			expect(q('prior week')).toEqual(range('2024-03-04', '2024-03-11'));
			expect(q('past couple weeks')).toEqual(range('2024-02-28T15:30:00.000Z'));
		});

		it('parses more and less than N units ago', () => {
			expect(q('more than 2 weeks ago')).toEqual(range(undefined, '2024-02-28T15:30:00.000Z'));
			expect(q('less than 3 days ago')).toEqual(range('2024-03-10T15:30:00.000Z'));
		});

		it('ignores case, filler words and edge punctuation', () => {
			expect(q('  LAST   WEEK. ')).toEqual(range('2024-03-04', '2024-03-11'));
			expect(q('memories from last week?')).toEqual(range('2024-03-04', '2024-03-11'));
			expect(q('"yesterday"')).toEqual(range('2024-03-12', '2024-03-13'));
		});

		it('returns null for phrases it does not understand', () => {
			for (const text of [
				'',
				'   ',
				'gibberish',
				'last blorp',
				'next tuesday-ish',
				'Feb 30 2024',
				'2024-13',
				'2024-00-10',
				'since whenever',
				'between now and then',
				'the 32nd',
				'?!',
				'x'.repeat(201),
			]) {
				expect(q(text), text).toBeNull();
			}
		});

		it('never throws on arbitrary text and returns null or ordered ISO bounds (property)', () => {
			const words = [
				'last',
				'next',
				'the',
				'of',
				'between',
				'and',
				'since',
				'to',
				'March',
				'2024',
				'Q5',
				'31st',
				'week',
				'ago',
				'-',
				'/',
				'..',
				'early',
				'0',
				'99999',
				'W60',
				'h3',
			];
			const text = fc.oneof(
				fc.string({ maxLength: 60 }),
				fc.array(fc.constantFrom(...words), { maxLength: 8 }).map((w) => w.join(' ')),
			);
			fc.assert(
				fc.property(text, fc.integer({ min: -8.64e15, max: 8.64e15 }), (t, now) => {
					const r = parseTimeQuery(t, now);
					if (r === null) return;
					if (r.start) expect(Number.isFinite(Date.parse(r.start))).toBe(true);
					if (r.end) expect(Number.isFinite(Date.parse(r.end))).toBe(true);
					if (r.start && r.end) expect(Date.parse(r.start)).toBeLessThan(Date.parse(r.end));
				}),
				{ numRuns: 1000 },
			);
		});

		it('leaves a side open, or declines, when the window reaches past the last representable date', () => {
			const nearEnd = 8_579_520_604_800_001; // a Wednesday in the year 273,840
			const r = parseTimeQuery('next 99999 week', nearEnd);
			expect(r?.end).toBeUndefined();
			expect(Date.parse(r?.start ?? '')).toBeGreaterThan(nearEnd - 7 * 86_400_000);
			expect(parseTimeQuery('next week', 8.64e15)).toBeNull();
			expect(parseTimeQuery('last 99999 years', -8.6e15)).toBeNull();
			expect(extractTimeMentions('see you in 99999 weeks', nearEnd)).toEqual([]);
		});

		it('throws invalid_input for a non-finite now', () => {
			expect(() => parseTimeQuery('today', Number.POSITIVE_INFINITY)).toThrow('nowMs: must be a finite number, got Infinity');
		});

		it('always yields ordered, parseable bounds, and "last N days" starts N days ago (property)', () => {
			const phrases = [
				'today',
				'yesterday',
				'last week',
				'this month',
				'last month',
				'past year',
				'March',
				'Q3',
				'last Tuesday',
				'last weekend',
				'early June',
				'last summer',
				'3 weeks ago',
				'between March and May',
				'first week of May',
			];
			const nowArb = fc.integer({
				min: at('1990-01-01T00:00:00Z'),
				max: at('2100-01-01T00:00:00Z'),
			});
			fc.assert(
				fc.property(nowArb, fc.constantFrom(...phrases), fc.integer({ min: 1, max: 400 }), (now, phrase, n) => {
					const r = parseTimeQuery(phrase, now);
					expect(r).not.toBeNull();
					if (r!.start && r!.end) expect(Date.parse(r!.start)).toBeLessThan(Date.parse(r!.end));
					expect(parseTimeQuery(`last ${n} days`, now)).toEqual({
						start: new Date(now - n * DAY).toISOString(),
					});
					const week = parseTimeQuery('last week', now)!;
					expect(new Date(week.start!).getUTCDay()).toBe(1);
					expect(Date.parse(week.end!) - Date.parse(week.start!)).toBe(7 * DAY);
					expect(Date.parse(week.end!)).toBeLessThanOrEqual(now);
					expect(now - Date.parse(week.end!)).toBeLessThan(7 * DAY);
				}),
				{ numRuns: 400 },
			);
		});
	});

	describe('parseTimeQuery: runs of days and the week holding a day', () => {
		const NOW2 = Date.parse('2026-12-07T12:00:00Z');
		const win = (p: string) => {
			const r = parseTimeQuery(p, NOW2);
			return r && [r.start, r.end];
		};
		it('reads "May 8-10, 2023" and "8–10 May 2023" as those three days', () => {
			const three = ['2023-05-08T00:00:00.000Z', '2023-05-11T00:00:00.000Z'];
			expect(win('May 8-10, 2023')).toEqual(three);
			expect(win('may 8 to 10 2023')).toEqual(three);
			expect(win('8–10 May 2023')).toEqual(three);
			expect(win('8th-10th of May 2023')).toEqual(three);
			// Without a year: the latest such run on or before today.
			expect(win('Nov 2-4')).toEqual(['2026-11-02T00:00:00.000Z', '2026-11-05T00:00:00.000Z']);
			// Backwards, or past the month's end: not a window.
			expect(win('May 10-8, 2023')).toBeNull();
			expect(win('Feb 27-30, 2023')).toBeNull();
		});
		it('reads "the week of May 8, 2023" as Monday to Sunday around it', () => {
			const week = ['2023-05-08T00:00:00.000Z', '2023-05-15T00:00:00.000Z'];
			expect(win('the week of May 8 2023')).toEqual(week);
			expect(win('week of 2023-05-10')).toEqual(week);
			expect(win('the week of the 14th of May 2023')).toEqual(week);
			expect(win('week starting May 8, 2023')).toEqual(week);
		});
		it('leaves free text as it was: no mention is read from "May 8-10 2023" or "the week of May 8"', () => {
			expect(extractTimeMentions('Booked the cabin for May 8-10 2023', NOW2)).toEqual([]);
			expect(extractTimeMentions('I was ill the week of May 8', NOW2).map((m) => m.phrase)).not.toContain('the week of May 8');
		});
	});

	describe('extractTimeMentions', () => {
		/** Monday 8 May 2023, 18:30 UTC. */
		const ANCHOR = at('2023-05-08T18:30:00Z');
		const m = (phrase: string, start: string, end: string) => ({ phrase, ...range(start, end) });

		it('resolves "last week" in a chat turn to the week before the anchor', () => {
			expect(extractTimeMentions('I adopted a dog last week!', ANCHOR)).toEqual([m('last week', '2023-05-01', '2023-05-08')]);
		});

		it('finds several relative expressions, numbers written as words included', () => {
			expect(extractTimeMentions('Two weeks ago I started pottery; yesterday I fired a bowl. 2 years ago I lived in Oslo.', ANCHOR)).toEqual([
				m('Two weeks ago', '2023-04-24', '2023-05-01'),
				m('yesterday', '2023-05-07', '2023-05-08'),
				m('2 years ago', '2021-01-01', '2022-01-01'),
			]);
		});

		it('resolves weekdays backwards in past sentences and forwards in future ones', () => {
			expect(extractTimeMentions('We went hiking on Saturday.', ANCHOR)).toEqual([m('on Saturday', '2023-05-06', '2023-05-07')]);
			expect(extractTimeMentions("We'll go hiking on Saturday.", ANCHOR)).toEqual([m('on Saturday', '2023-05-13', '2023-05-14')]);
			expect(extractTimeMentions('I am flying out Friday.', ANCHOR)).toEqual([m('Friday', '2023-05-12', '2023-05-13')]);
			expect(extractTimeMentions('Last Monday was rough.', ANCHOR)).toEqual([m('Last Monday', '2023-05-01', '2023-05-02')]);
		});

		it('resolves months by the direction of their sentence', () => {
			expect(extractTimeMentions('I went to Lisbon in June.', ANCHOR)).toEqual([m('in June', '2022-06-01', '2022-07-01')]);
			expect(extractTimeMentions('I will visit Paris in June.', ANCHOR)).toEqual([m('in June', '2023-06-01', '2023-07-01')]);
			expect(extractTimeMentions('We met in May 2021.', ANCHOR)).toEqual([m('in May 2021', '2021-05-01', '2021-06-01')]);
			expect(extractTimeMentions('next month we move', ANCHOR)).toEqual([m('next month', '2023-06-01', '2023-07-01')]);
		});

		it('resolves days of the month and full dates', () => {
			expect(extractTimeMentions('On the 14th of April my sister got married.', ANCHOR)).toEqual([m('the 14th of April', '2023-04-14', '2023-04-15')]);
			expect(extractTimeMentions('Rent was due on the 3rd.', ANCHOR)).toEqual([m('on the 3rd', '2023-05-03', '2023-05-04')]);
			// No tense cue: the nearest 20th (12 days ahead rather than 18 days back).
			expect(extractTimeMentions('The launch is on the 20th.', ANCHOR)).toEqual([m('on the 20th', '2023-05-20', '2023-05-21')]);
			expect(extractTimeMentions('The launch happened on the 20th.', ANCHOR)).toEqual([m('on the 20th', '2023-04-20', '2023-04-21')]);
			expect(extractTimeMentions('The launch will be on the 20th.', ANCHOR)).toEqual([m('on the 20th', '2023-05-20', '2023-05-21')]);
			expect(extractTimeMentions('Deadline: 2023-05-20, kickoff March 3rd, 2023.', ANCHOR)).toEqual([
				m('2023-05-20', '2023-05-20', '2023-05-21'),
				m('March 3rd, 2023', '2023-03-03', '2023-03-04'),
			]);
		});

		it('resolves a date without a tense cue to its nearest occurrence', () => {
			const june20 = at('2023-06-20T12:00:00Z');
			expect(extractTimeMentions('Moving in July 1st', june20)).toEqual([m('July 1st', '2023-07-01', '2023-07-02')]);
			expect(extractTimeMentions('We met on July 1st', june20)).toEqual([m('July 1st', '2022-07-01', '2022-07-02')]);
			expect(extractTimeMentions('January 16. Bill rearranged the house', at('2023-11-26T12:00:00Z'))).toEqual([
				m('January 16', '2024-01-16', '2024-01-17'),
			]);
			expect(extractTimeMentions('Rent was due on the 3rd.', ANCHOR)).toEqual([m('on the 3rd', '2023-05-03', '2023-05-04')]);
		});

		it('reads a bare day of the month in the month the text named before it', () => {
			expect(extractTimeMentions('March 13 to 17. My talk is on the 15th', at('2022-12-20T12:00:00Z'))).toEqual([
				m('March 13', '2023-03-13', '2023-03-14'),
				m('on the 15th', '2023-03-15', '2023-03-16'),
			]);
		});

		it('understands "N weeks since", "the end of the month" and skips "in N days of"', () => {
			expect(extractTimeMentions('Three weeks since they let me go', at('2023-02-11T12:00:00Z'))).toEqual([
				m('Three weeks since', '2023-01-16', '2023-01-23'),
			]);
			expect(extractTimeMentions('We got into the festival at the end of the month.', at('2023-08-02T12:00:00Z'))).toEqual([
				m('the end of the month', '2023-08-21', '2023-09-01'),
			]);
			expect(extractTimeMentions('I have aged ten years in four days of driving practice', ANCHOR)).toEqual([]);
		});

		it('resolves holidays in free text but not a greeting or "a new year"', () => {
			const jan7 = at('2024-01-07T09:00:00Z');
			expect(extractTimeMentions('We spent Christmas with my parents.', jan7)).toEqual([m('Christmas', '2023-12-25', '2023-12-26')]);
			expect(extractTimeMentions("Happy New Year! It's a new year of school.", jan7)).toEqual([]);
			expect(extractTimeMentions("We met on New Year's Eve 2022.", jan7)).toEqual([m("New Year's Eve 2022", '2022-12-31', '2023-01-01')]);
		});

		it('maps "last night" to the previous day', () => {
			expect(extractTimeMentions('Just got back from Osaka last night', at('2024-01-07T09:00:00Z'))).toEqual([
				m('last night', '2024-01-06', '2024-01-07'),
			]);
		});

		it('resolves seasons, years, the weekend and parts of days to whole days', () => {
			expect(extractTimeMentions('Last summer was great. Back in 2019 I lived in Berlin. I saw her over the weekend, this morning too.', ANCHOR)).toEqual(
				[
					m('Last summer', '2022-06-01', '2022-09-01'),
					m('Back in 2019', '2019-01-01', '2020-01-01'),
					m('over the weekend', '2023-05-06', '2023-05-08'),
					m('this morning', '2023-05-08', '2023-05-09'),
				],
			);
		});

		it('closes rolling windows at the end of the anchor day', () => {
			expect(extractTimeMentions('I have been sick for the past 3 days.', ANCHOR)).toEqual([
				m('for the past 3 days', '2023-05-05T18:30:00.000Z', '2023-05-09'),
			]);
		});

		it('applies early, mid and late', () => {
			expect(extractTimeMentions("Early June I'll be busy; it rained in late April.", ANCHOR)).toEqual([
				m('Early June', '2023-06-01', '2023-06-11'),
				m('late April', '2023-04-21', '2023-05-01'),
			]);
		});

		it('ignores numbers, modal "may", "march" as a verb and bare years', () => {
			expect(extractTimeMentions('I may bring 2019 cookies; we march 3 miles; the next day we rested.', ANCHOR)).toEqual([]);
		});

		it('reads a bare month word with a possessive as a name ("June\'s grandson"), a dated one as a time', () => {
			expect(extractTimeMentions("What is June's grandson called? since May’s wedding", ANCHOR)).toEqual([]);
			expect(extractTimeMentions("June 2023's report", ANCHOR)).toEqual([m('June 2023', '2023-06-01', '2023-07-01')]);
		});

		it('reads a capitalised bare month word as a name when it is the subject of a question or of a speech verb', () => {
			for (const text of [
				'What crafts has June taken up?',
				'Is June going deaf?',
				'Does June live by the coast?',
				'June said she would call.',
				'Did April ring?',
				'Ask August about the boat.',
			])
				expect(extractTimeMentions(text, ANCHOR), text).toEqual([]);
			// A month with a preposition, a day or a year, in lower case, or after "it was", stays a time.
			expect(extractTimeMentions('What did June say in May?', ANCHOR)).toEqual([m('in May', '2023-05-01', '2023-06-01')]);
			expect(extractTimeMentions('It was June and hot.', ANCHOR)).toEqual([m('June', '2022-06-01', '2022-07-01')]);
			expect(extractTimeMentions('has june been busy', ANCHOR)).toEqual([m('june', '2023-06-01', '2023-07-01')]);
			expect(extractTimeMentions('Since June I have been running.', ANCHOR)).toEqual([m('Since June', '2022-06-01', '2022-07-01')]);
		});

		it('keeps the longest of overlapping expressions', () => {
			expect(extractTimeMentions('the first week of May 2023 was busy', ANCHOR)).toEqual([m('the first week of May 2023', '2023-05-01', '2023-05-08')]);
		});

		it('returns nothing for empty text or text without time words', () => {
			expect(extractTimeMentions('', ANCHOR)).toEqual([]);
			expect(extractTimeMentions('😀 just a note about Maya', ANCHOR)).toEqual([]);
		});

		it('throws invalid_input for a non-finite anchor', () => {
			expect(() => extractTimeMentions('yesterday', Number.NaN)).toThrow('anchorMs: must be a finite number, got NaN');
		});

		it('completes on a 50,000-character text', () => {
			const text = 'Two weeks ago I adopted a dog; last summer we went to Lisbon in June. '.repeat(720).slice(0, 50_000);
			const out = extractTimeMentions(text, ANCHOR);
			expect(out.length).toBeGreaterThan(2000);
			expect(out[0]).toEqual(m('Two weeks ago', '2023-04-24', '2023-05-01'));
		});

		it('completes on 50,000 characters made of thousands of mentions in one clause', () => {
			const out = extractTimeMentions('last week '.repeat(5_000), ANCHOR);
			expect(out).toHaveLength(5_000);
			expect(out[4_999]).toEqual(m('last week', '2023-05-01', '2023-05-08'));
			expect(extractTimeMentions('the '.repeat(12_500), ANCHOR)).toEqual([]);
		});

		it('returns phrases found verbatim in the text with ordered bounds (property)', () => {
			const words = [
				'I',
				'went',
				'will',
				'go',
				'last',
				'next',
				'week',
				'June',
				'in',
				'on',
				'the',
				'14th',
				'two',
				'days',
				'ago',
				'Friday',
				'summer',
				'2021',
				'yesterday',
				'early',
				'of',
				'.',
				',',
			];
			fc.assert(
				fc.property(fc.array(fc.constantFrom(...words), { maxLength: 30 }), fc.integer({ min: 0, max: 4e12 }), (parts, anchor) => {
					const text = parts.join(' ');
					for (const x of extractTimeMentions(text, anchor)) {
						expect(text).toContain(x.phrase);
						expect(Date.parse(x.start)).toBeLessThan(Date.parse(x.end));
					}
				}),
				{ numRuns: 400 },
			);
		});
	});

	describe('describeDate', () => {
		it('gives year, month, month and year, weekday, ISO date, ISO month and quarter tokens', () => {
			expect(describeDate('2023-05-08T18:30:00Z')).toEqual(['2023', 'may', 'may 2023', 'monday', '2023-05-08', '2023-05', 'q2 2023']);
		});

		it('uses the UTC date', () => {
			expect(describeDate('2023-12-31T23:30:00-02:00')).toEqual(['2024', 'january', 'january 2024', 'monday', '2024-01-01', '2024-01', 'q1 2024']);
		});

		it('throws invalid_input naming iso for an unparseable date', () => {
			expect(() => describeDate('someday')).toThrow('iso: must be an ISO 8601 date, got "someday"');
		});
	});
});

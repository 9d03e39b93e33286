/**
 * A When phrase read in the person's time zone, across a daylight-saving change. Each end of a
 * window takes the offset of its own date, not the one at the moment of reading: in December,
 * "8 March 2026" in New York (clocks went forward that day) ran to 01:00 on the 9th.
 */
import { describe, expect, it } from 'vitest';

// Each test file runs in its own process; the zone must be set before any date is read.
process.env.TZ = 'America/New_York';
const { localWindow } = await import('../../../src/ui/time-words');

const DEC = Date.parse('2026-12-07T15:00:00Z');
const JUL = Date.parse('2026-07-01T15:00:00Z');

describe('localWindow across daylight saving', () => {
	it('a day the clocks go forward runs local midnight to local midnight (23 hours)', () => {
		expect(localWindow('8 March 2026', DEC)).toEqual({ start: '2026-03-08T05:00:00.000Z', end: '2026-03-09T04:00:00.000Z' });
		expect(localWindow('on 2026-03-09', DEC)).toEqual({ start: '2026-03-09T04:00:00.000Z', end: '2026-03-10T04:00:00.000Z' });
	});

	it('a day the clocks go back runs 25 hours, read in summer', () => {
		expect(localWindow('1 November 2026', JUL)).toEqual({ start: '2026-11-01T04:00:00.000Z', end: '2026-11-02T05:00:00.000Z' });
	});

	it('"yesterday" is still local midnight to midnight on an ordinary day', () => {
		expect(localWindow('yesterday', DEC)).toEqual({ start: '2026-12-06T05:00:00.000Z', end: '2026-12-07T05:00:00.000Z' });
		expect(localWindow('not a time', DEC)).toBeNull();
	});
});

/**
 * A day without a time, handed to the engine directly (a tool's `timestamp`, `start` or `end`, a
 * JSON record), is that day's midnight where the person is, as the Import screen's CSV and notes
 * dates are. Read as `Date.parse` reads it, it was UTC midnight: in New York "2024-05-02" showed
 * as 1 May, 20:00, and the When filter's "2 May 2024" did not find it.
 */
import { describe, expect, it } from 'vitest';

// Each test file runs in its own process; the zone must be set before any date is read.
process.env.TZ = 'America/New_York';
const { toIso } = await import('../../../src/core/schemas/primitives');
const { dateMs, inclusiveDateEnd } = await import('../../../src/core/time');
const { RecallInputSchema } = await import('../../../src/core/schemas/recall');
const { localWindow } = await import('../../../src/ui/time-words');
const { useEngines } = await import('./helpers');

const engines = useEngines();

describe('a bare day is local midnight', () => {
	it('in store, import and the time window of recall and timeline', async () => {
		const e = await engines();
		await e.store({ content: 'Dentist appointment for the crown', timestamp: '2024-05-02' });
		await e.importMemories({
			format: 'jsonl',
			data: JSON.stringify({ content: 'Billing moved to PostgreSQL', tags: ['billing'], type: 'Decision', timestamp: '2024-05-02' }),
		});
		const { memories } = await e.timeline({ start: '2024-05-02', end: '2024-05-03' });
		expect(memories.map((m) => [m.content, m.timestamp]).sort()).toEqual([
			['Billing moved to PostgreSQL', '2024-05-02T04:00:00.000Z'],
			['Dentist appointment for the crown', '2024-05-02T04:00:00.000Z'],
		]);
		// The When filter's day, made in the page, holds both.
		const day = localWindow('2 May 2024', Date.parse('2026-12-07T15:00:00Z'))!;
		expect((await e.timeline({ start: day.start, end: day.end })).memories).toHaveLength(2);
		// A day's evening here is after that day's UTC end, and the next day's first hour before it.
		await e.store({ content: 'Dentist called back about the crown in the evening', timestamp: '2024-05-02T22:00' });
		await e.store({ content: 'Dentist sent the crown invoice after midnight', timestamp: '2024-05-03T00:30' });
		const recalled = await e.recall({ query: 'dentist crown', start: '2024-05-02', end: '2024-05-02' });
		expect(
			recalled.results
				.map((x) => x.memory.content)
				.filter((c) => c.startsWith('Dentist'))
				.sort(),
		).toEqual(['Dentist appointment for the crown', 'Dentist called back about the crown in the evening']);
		const listed = await e.timeline({ start: '2024-05-02', end: '2024-05-02' });
		expect(listed.memories.map((m) => m.content).sort()).toEqual([
			'Billing moved to PostgreSQL',
			'Dentist appointment for the crown',
			'Dentist called back about the crown in the evening',
		]);
		const r = await e.recall({ query: 'dentist', start: '2024-05-02', end: '2024-05-02T23:59' });
		expect(r.results.map((x) => x.memory.content)).toContain('Dentist appointment for the crown');
		expect((await e.recall({ query: 'dentist', end: '2024-05-01T23:59' })).results).toEqual([]);
	});

	it('a time of day is read as written, and a day compares with one in start and end', () => {
		expect(toIso('2024-05-02T09:30')).toBe('2024-05-02T13:30:00.000Z');
		expect(toIso('2024-05-02T09:30Z')).toBe('2024-05-02T09:30:00.000Z');
		expect(toIso('0099-01-01').slice(0, 10)).toBe('0099-01-01');
		// 22:00 on 1 May here is before 2 May starts here, though after 2 May's UTC midnight.
		expect(RecallInputSchema.safeParse({ query: 'x', start: '2024-05-01T22:00', end: '2024-05-02' }).success).toBe(true);
		expect(RecallInputSchema.safeParse({ query: 'x', start: '2024-05-02T02:00', end: '2024-05-02' }).success).toBe(false);
		// The last day JavaScript holds is out of range once it starts west of UTC.
		expect(Number.isNaN(dateMs('+275760-09-13'))).toBe(true);
		// Through a day is to the next day's start here, across the clocks going back (3 Nov 2024).
		expect(inclusiveDateEnd('2024-11-03')).toBe('2024-11-04T05:00:00.000Z');
		expect(inclusiveDateEnd('2024-11-03T12:00')).toBe('2024-11-03T12:00');
		expect(RecallInputSchema.safeParse({ query: 'x', start: '+275760-09-13' }).error?.issues[0].message).toMatch(/out of range/);
	});
});

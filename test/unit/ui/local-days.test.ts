/**
 * A bare day in a spreadsheet or a note's front matter is that day where the person is. Read as a
 * date alone it was UTC midnight: in New York a note created on 1 May showed as 30 April, 20:00,
 * and the When filter's "1 May 2024" did not find it.
 */
import { describe, expect, it } from 'vitest';

// Each test file runs in its own process; the zone must be set before any date is read.
process.env.TZ = 'America/New_York';
const { csvBundle, importBundle, notesBundle } = await import('../../../src/ui/transfer');
const { parseCsv } = await import('../../../src/engine/import-csv');
const { localWindow } = await import('../../../src/ui/time-words');
const { useEngines } = await import('../engine/helpers');
type Proxy = import('../../../src/ui/state/engine-proxy').EngineProxy;

const engines = useEngines();
const task = { cancelled: false, progress() {} };

describe('bare days imported in the person’s zone', () => {
	it('a CSV row’s day and a note’s created day start at local midnight, and the When filter finds them on that day', async () => {
		const e = await engines();
		const csv = csvBundle(parseCsv('note,date\nDentist on Tuesday,01.05.2024\n'), { content: 'note', date: 'date', dateOrder: 'dmy' });
		await importBundle(e as unknown as Proxy, csv, 'csv', { onConflict: 'skip' }, task);
		const notes = notesBundle([{ path: 'Lisbon.md', text: '---\ncreated: 2024-05-01\nupdated: 2024-05-02 09:30\n---\nStay in Alfama.' }]);
		await importBundle(e as unknown as Proxy, notes, 'notes', { onConflict: 'skip' }, task);
		const { memories } = JSON.parse((await e.exportMemories({ format: 'json' })).data) as {
			memories: { content: string; timestamp: string; updated_at: string }[];
		};
		const at = (start: string) => memories.find((m) => m.content.startsWith(start))!;
		expect(at('Dentist').timestamp).toBe('2024-05-01T04:00:00.000Z');
		expect(at('Stay in Alfama').timestamp).toBe('2024-05-01T04:00:00.000Z');
		// A time of day is the person's wall clock, as it was.
		expect(at('Stay in Alfama').updated_at).toBe('2024-05-02T13:30:00.000Z');
		const day = localWindow('1 May 2024', Date.parse('2026-12-07T15:00:00Z'))!;
		const found = await e.timeline({ start: day.start, end: day.end });
		expect(found.memories.map((m) => m.content).sort()).toEqual(['Dentist on Tuesday', 'Stay in Alfama.']);
	});
});

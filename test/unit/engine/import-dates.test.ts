/**
 * A JSON or JSONL record's date written as other tools write it is read when it reads one way
 * only, as a CSV date cell is: a whole file of "2024-12-07 10:00" or Unix times was refused
 * record by record. A date that reads two ways (12/07/2024) or not at all is still refused,
 * naming the field.
 */
import { describe, expect, it } from 'vitest';
import { parseJson, parseJsonl } from '../../../src/engine/import-formats';

describe('dates in plain JSON records', () => {
	it('reads dates other tools write that read one way only', () => {
		const b = parseJson(
			JSON.stringify([
				{ content: 'iso', timestamp: '2024-12-07T10:00:00Z' },
				{ content: 'space (already read)', timestamp: '2024-12-07 10:00' },
				{ content: 'words', timestamp: '7 Dec 2024' },
				{ content: 'month first', timestamp: 'December 7, 2024' },
				{ content: 'dots', timestamp: '07.12.2024' },
				{ content: 'us, unambiguous', timestamp: '12/31/2024' },
				{ content: 'unix seconds', timestamp: 1733565600 },
				{ content: 'unix ms', timestamp: 1733565600000 },
				{ content: 'unix ms text', timestamp: '1733565600000' },
			]),
		);
		expect(b.errors.list()).toEqual([]);
		expect(b.memories.map((m) => [m.value.content, m.value.timestamp])).toEqual([
			['iso', '2024-12-07T10:00:00Z'],
			['space (already read)', '2024-12-07 10:00'],
			['words', '2024-12-07'],
			['month first', '2024-12-07'],
			['dots', '2024-12-07'],
			['us, unambiguous', '2024-12-31'],
			['unix seconds', '2024-12-07T10:00:00.000Z'],
			['unix ms', '2024-12-07T10:00:00.000Z'],
			['unix ms text', '2024-12-07T10:00:00.000Z'],
		]);
	});

	it('refuses a date that reads two ways or not at all, naming the field, and keeps the other records', () => {
		const b = parseJsonl(
			[
				'{"content": "which month?", "timestamp": "12/07/2024"}',
				'{"content": "words", "timestamp": "yesterday"}',
				'{"content": "fine", "timestamp": "7 Dec 2024"}',
				'{"content": "negative", "timestamp": -5}',
			].join('\n'),
		);
		expect(b.memories.map((m) => m.value.content)).toEqual(['fine']);
		expect(b.errors.list().map((e) => [e.line, e.error.split(':').slice(0, 2).join(':')])).toEqual([
			[1, 'memory.timestamp: must be an ISO 8601 date or date-time, e.g. 2024-03-01 or 2024-03-01T09'],
			[2, 'memory.timestamp: must be an ISO 8601 date or date-time, e.g. 2024-03-01 or 2024-03-01T09'],
			[4, 'memory.timestamp: must be a string (got number)'],
		]);
	});
});

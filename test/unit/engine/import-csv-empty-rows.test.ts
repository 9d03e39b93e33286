/**
 * A spreadsheet's export ends with rows of empty cells (",,") wherever a cell was once formatted;
 * Google Sheets and Excel write them. Before, each was counted as a row, refused for its empty
 * content column, and a clean file came in as "Partly imported: 2 imported, 1 refused".
 */
import { describe, expect, it } from 'vitest';
import { csvRecords, guessColumns, parseCsv } from '../../../src/engine/import-csv';

describe('parseCsv', () => {
	describe('rows of empty cells', () => {
		it('skips a row whose every cell is empty or blank, as it skips a blank line', () => {
			const table = parseCsv('content,tags,created\r\nFirst row,"a,b",2024-05-01\r\n,,\r\nSecond row,,2024-05-02\r\n , ,""\r\n,,,\r\n');
			expect(table.rows.map((r) => [r.line, r.cells[0]])).toEqual([
				[2, 'First row'],
				[4, 'Second row'],
			]);
			const { records, errors } = csvRecords(table, guessColumns(table.header));
			expect(errors).toEqual([]);
			expect(records.map((r) => r.record.content)).toEqual(['First row', 'Second row']);
		});

		it('keeps a row with any cell filled, and refuses it by line when its content cell is empty', () => {
			const table = parseCsv('content;tags\n;orphan-tag\n');
			expect(csvRecords(table, guessColumns(table.header)).errors).toEqual([{ line: 2, error: 'content: the content column is empty in this row' }]);
		});
	});
});

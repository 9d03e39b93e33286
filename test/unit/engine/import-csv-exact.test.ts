/**
 * A CSV's content cells come in exactly as the file has them: leading and trailing spaces, tabs,
 * CRLF inside a quoted cell, doubled quotes and a BOM before the header (before, the content was
 * trimmed, so "  indented  " came back as "indented").
 */
import { describe, expect, it } from 'vitest';
import { csvRecords, parseCsv } from '../../../src/engine/import-csv';

describe('CSV content is kept exactly', () => {
	it('keeps spaces, tabs, quoted line breaks and quotes of the content cell', () => {
		const csv =
			'\ufeffid,text,tags\r\n1,"Line one\r\nline two, with comma","a;b"\r\n2,"He said ""hi""  ",x\r\n3,  leading and trailing  ,\r\n4,"\tTabbed",\r\n5,   ,\r\n';
		const { records, errors } = csvRecords(parseCsv(csv), { content: 'text', tags: 'tags' });
		expect(records.map((r) => r.record.content)).toEqual(['Line one\r\nline two, with comma', 'He said "hi"  ', '  leading and trailing  ', '\tTabbed']);
		// A cell of only spaces is refused, naming the line and the column.
		expect(errors).toEqual([{ line: 7, error: 'text: the content column is empty in this row' }]);
	});

	it('says that nothing after an unclosed quote was read', () => {
		const { records, errors } = csvRecords(parseCsv('text\nfirst\n"second\nthird\n'), { content: 'text' });
		expect(records.map((r) => r.record.content)).toEqual(['first']);
		expect(errors).toEqual([{ line: 3, error: 'a quote opened on line 3 is never closed, so nothing from line 3 on was read' }]);
	});
});

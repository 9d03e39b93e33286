/**
 * A JSON syntax error is told in the file's own lines and columns. The parser counts inside the
 * text it was given, so for line 2 of a JSONL file it said "(line 1 column 21)"; and a broken
 * JSON document was reported on line 1 wherever the mistake was.
 */
import { describe, expect, it } from 'vitest';
import { parseJson, parseJsonl } from '../../../src/engine/import-formats';

describe('JSON syntax errors', () => {
	it('names the JSONL line and the column on that line, and no other line', () => {
		const b = parseJsonl('{"content":"first"}\n  {"content":"second",}\n{"content":"third"}\n');
		expect(b.errors.list()).toEqual([{ line: 2, error: 'not valid JSON: expected double-quoted property name (column 23)' }]);
		expect(b.memories.map((m) => m.value.content)).toEqual(['first', 'third']);
	});

	it('names the line of a JSON document where the mistake is, and the end for a cut-off file', () => {
		const broken = parseJson('{\n  "memories": [\n    {"content": "a"},\n    {"content": "b",}\n  ]\n}');
		expect(broken.errors.list()).toEqual([{ line: 4, error: 'data: not valid JSON: expected double-quoted property name (column 21)' }]);
		const cut = parseJson('{\n  "memories": [\n    {"content": "a"}');
		expect(cut.errors.list()).toEqual([{ line: 3, error: "data: not valid JSON: expected ',' or ']' after array element (column 21)" }]);
	});
});

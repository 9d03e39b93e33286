/**
 * Text handed to the import with a byte order mark in front (as agents pass a file saved "with
 * BOM" by Windows tools): JSON is read (before: refused whole, "not valid JSON"), and a Markdown file's first heading is still a heading (before: imported as a memory
 * "# Title", its bullets losing the tag).
 */
import { describe, expect, it } from 'vitest';
import { detectFormat, parseGraphJsonl, parseJson, parseJsonl, parseMarkdownBundle } from '../../../src/engine/import-formats';

const BOM = '\uFEFF';

describe('a leading byte order mark', () => {
	it('JSON documents and mem0 exports are read', () => {
		const doc = `${BOM}{"memories":[{"content":"a"},{"content":"b"}]}`;
		expect(detectFormat(doc)).toBe('json');
		const b = parseJson(doc);
		expect(b.errors.list()).toEqual([]);
		expect(b.memories.map((m) => m.value.content)).toEqual(['a', 'b']);
		const mem0 = parseJson(`${BOM}{"results":[{"id":"1","memory":"Likes tea"}]}`);
		expect(mem0.memories.map((m) => m.value.content)).toEqual(['Likes tea']);
	});

	it('a Markdown file keeps its first heading as the tag', () => {
		const b = parseMarkdownBundle(`${BOM}# Title\n\n- item\n`);
		expect(b.memories.map((m) => [m.value.content, m.value.tags])).toEqual([['item', ['Title']]]);
	});

	it('JSONL and server-memory lines are read', () => {
		expect(parseJsonl(`${BOM}{"content":"a"}\n`).memories.map((m) => m.value.content)).toEqual(['a']);
		expect(parseGraphJsonl(`${BOM}{"type":"entity","name":"A","entityType":"t","observations":["x"]}\n`).entities).toHaveLength(1);
	});
});

/**
 * The Import screen says before the import what a file of records will bring in. Before, every
 * JSON file "looked like JSON records (Engram or plain)" — a package.json, a ChatGPT export's
 * user.json, a fine-tuning JSONL — and only the import, run, said that nothing could come in.
 */
import { describe, expect, it } from 'vitest';
import { markdownPreview, recordsPreview } from '../../../src/ui/transfer';

describe('recordsPreview', () => {
	it('counts the memories, links and entities a file holds', () => {
		expect(recordsPreview('[{"content":"a"},{"content":"b","tags":["x"]}]', 'json', 'mine.json')).toEqual({ says: '2 memories', nothing: false });
		const engram = JSON.stringify({ version: 1, memories: [{ id: 'm1', content: 'a' }], associations: [{ from: 'm1', to: 'm1', type: 'RELATES_TO' }] });
		expect(recordsPreview(engram, 'json', 'engram.json').says).toBe('1 memory, 1 link');
		expect(recordsPreview('{"content":"a"}\n{"content":"b"}\n', 'jsonl', 'x.jsonl').says).toBe('2 memories');
	});

	it('says how many records will be refused beside those imported', () => {
		expect(recordsPreview('[{"content":"a"},{"text":"b"},{"content":"  "}]', 'json', 'x.json')).toEqual({
			says: '1 memory; 2 records will be refused (the result says why)',
			nothing: false,
		});
		expect(recordsPreview('{"content":"a"}\n{"messages":[]}\nnot json\n', 'jsonl', 'x.jsonl').says).toBe(
			'1 memory; 2 records will be refused (the result says why)',
		);
	});

	it('says nothing will be imported from a JSON object that is not a list of records, naming its keys', () => {
		expect(recordsPreview('{"name":"x","version":"1.0.0","dependencies":{}}', 'json', 'package.json')).toEqual({
			says: 'Nothing to import: this JSON is not a list of records (its top level has "name", "version", "dependencies"). Engram reads [{"content": "…"}] records or {"memories": [...]}.',
			nothing: true,
		});
	});

	it('names where the chats are for a file of a ChatGPT or Claude export that holds none', () => {
		expect(recordsPreview('{"id":"user-1","email":"a@b.c"}', 'json', 'user.json').says).toBe(
			'Nothing to import: this JSON is not a list of records (its top level has "id", "email"). Engram reads [{"content": "…"}] records or {"memories": [...]}. user.json is part of a ChatGPT export: its chats are in conversations.json beside it (or choose the export\'s .zip).',
		);
		expect(recordsPreview('[{"uuid":"p1","name":"Garden","docs":[]}]', 'json', 'projects.json').says).toBe(
			'Nothing to import: its one record has no text in "content" (it has "uuid", "name", "docs"). projects.json is part of a Claude export: its chats are in conversations.json beside it (or choose the export\'s .zip).',
		);
	});

	it('says no record has "content" in records of another tool, and no line is JSON in a file of none', () => {
		const finetune = '{"messages":[{"role":"user","content":"Hi"}]}\n{"messages":[]}\n';
		expect(recordsPreview(finetune, 'jsonl', 'train.jsonl')).toEqual({
			says: 'Nothing to import: none of its 2 records has its text in "content" (the first has "messages").',
			nothing: true,
		});
		expect(recordsPreview('{oops\n{still not\n', 'jsonl', 'x.jsonl').says).toBe(
			'Nothing to import: no line of this file is a JSON record (the import names each line and what is wrong).',
		);
	});
});

describe('markdownPreview', () => {
	it('says a foreign note comes in as one memory per list item or paragraph, tagged with its heading', () => {
		expect(markdownPreview('# Groceries\n\n- milk\n- eggs\n\n# Ideas\n\nBuild a **birdhouse**.\n')).toEqual({
			says: '3 memories (each list item or paragraph is one, tagged with the heading it is under)',
			nothing: false,
		});
	});
});

describe('markdownPreview of sections', () => {
	it("only counts the memories of Engram's own Markdown export", () => {
		const own = '# Engram memories\n\nExported 2024-01-01T00:00:00.000Z · 1 memories · 0 links\n\n## Tea, not coffee\n\nTea, not coffee.\n';
		expect(markdownPreview(own)?.says).toMatch(/^\d+ memor(y|ies)$/);
	});
});

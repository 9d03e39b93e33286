/**
 * The parsers that bring in what people already have: detection by content, plain records with no
 * `kind`, mem0's export shapes, CSV edge cases (RFC 4180), front matter and wiki links, and the
 * outcome the Import screen shows.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, parseJson, parseJsonl } from '../../../src/engine/import-formats';
import { mem0List, mem0Memory } from '../../../src/engine/import-mem0';
import { csvRecords, dateOrderOf, guessColumns, hasAmbiguousDates, localDateOrder, parseCsv, readCsvDate, splitTags } from '../../../src/engine/import-csv';
import { frontMatterTags, readNotes, splitFrontMatter, wikiLinks } from '../../../src/engine/import-notes';
import { importOutcome } from '../../../src/ui/transfer';
import { storedLinks, useEngines } from './helpers';
import { LIMITS } from '../../../src/core/schemas';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'imports');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const engines = useEngines();

describe('detectFormat', () => {
	it('tells JSON from JSONL by content, not by the first byte', () => {
		expect(detectFormat(fixture('plain.jsonl'))).toBe('jsonl');
		expect(detectFormat(fixture('plain.json'))).toBe('json');
		expect(detectFormat('{"content": "one line, one record"}')).toBe('jsonl');
		expect(detectFormat('{\n  "memories": [{"content": "x"}]\n}')).toBe('json');
		expect(detectFormat(fixture('mem0.json'))).toBe('mem0-json');
		expect(detectFormat('[{"memory": "x", "user_id": "u"}]')).toBe('mem0-json');
		expect(detectFormat('{"type":"entity","name":"A","entityType":"p","observations":[]}')).toBe('server-memory-jsonl');
		expect(detectFormat('{\n  "memories": [ oops\n}')).toBe('json');
		expect(detectFormat('# Notes\n- a')).toBe('markdown');
		expect(detectFormat(fixture('chatgpt-conversations.json'))).toBe('chat-json');
		expect(detectFormat(fixture('claude-conversations.json'))).toBe('chat-json');
	});
});

describe('chat exports', () => {
	it("reads ChatGPT's conversations along the branch each ended on: user and assistant text, times, sessions, speakers", () => {
		const b = parseJson(fixture('chatgpt-conversations.json'));
		expect(b.errors.count).toBe(0);
		expect(b.memories.map((m) => [m.line, m.value.metadata?.speaker, m.value.content, m.value.timestamp])).toEqual([
			[1, 'user', 'I want to visit Lisbon in May with my sister Ana. She is vegetarian.', '2024-05-01T10:00:01.500Z'],
			[1, 'assistant', 'Lisbon in May is lovely. For vegetarian food try Ao 26 in Chiado.', '2024-05-01T10:00:10.000Z'],
			[1, 'user', 'Here is the hotel we booked, near Alfama.', '2024-05-01T10:01:40.000Z'],
			[1, 'assistant', 'Alfama is a great base: walk to the Castelo in ten minutes.', '2024-05-01T10:01:50.000Z'],
			[2, 'user', "My road bike's rear derailleur skips on the 28-tooth cog.", '2024-06-01T10:00:01.000Z'],
			[2, 'assistant', 'Adjust the B-tension screw a quarter turn, then the barrel adjuster.', '2024-06-01T10:00:05.000Z'],
		]);
		expect(b.memories[0].value).toMatchObject({
			id: 'chatgpt-u1',
			tags: ['chatgpt'],
			source: 'chatgpt',
			metadata: { conversation_id: 'c-lisbon', chatgpt: { conversation: 'Lisbon trip with Ana', message_id: 'u1' } },
		});
		// The hidden system message and the tool's output are not memories; the regenerated answer is off the branch, and said so.
		expect(b.notImported.list()).toEqual([
			{
				text: '1 message on other branches: earlier versions of edited messages and regenerated answers (only the branch each conversation ended on is imported)',
			},
			{ text: '2 system, tool, hidden or empty messages (not something anyone said)' },
			{ text: '1 attached image or file whose content the export does not hold (only the name)' },
		]);
		expect(b.associations.map((a) => [a.value.from, a.value.type, a.value.to])).toEqual([
			['chatgpt-a1', 'PRECEDED_BY', 'chatgpt-u1'],
			['chatgpt-u2', 'PRECEDED_BY', 'chatgpt-a1'],
			['chatgpt-a2', 'PRECEDED_BY', 'chatgpt-u2'],
			['chatgpt-e', 'PRECEDED_BY', 'chatgpt-q'],
		]);
	});

	it("reads Claude's conversations, taking the text parts when a message's text is empty", () => {
		const b = parseJson(fixture('claude-conversations.json'));
		expect(b.memories.map((m) => [m.value.metadata?.speaker, m.value.content, m.value.timestamp, m.value.metadata?.conversation_id])).toEqual([
			['user', 'My starter peaks about 6 hours after feeding at 24°C.', '2024-09-02T08:00:05.000Z', '9b1c'],
			['assistant', 'Then feed it at 10pm and mix the dough at 4am.', '2024-09-02T08:00:20.000Z', '9b1c'],
		]);
		expect(b.notImported.count).toBe(1);
	});

	it('refuses a message longer than a memory holds, by conversation and message, and keeps the rest', () => {
		const long = 'x'.repeat(LIMITS.contentChars + 1);
		const doc = [
			{
				uuid: 'c',
				name: 'Long paste',
				chat_messages: [
					{ uuid: 'm1', sender: 'human', text: long },
					{ uuid: 'm2', sender: 'assistant', text: 'Short answer' },
				],
			},
		];
		const b = parseJson(JSON.stringify(doc));
		expect(b.errors.list()).toEqual([
			{
				line: 1,
				error: `message m1 of "Long paste": content is ${long.length.toLocaleString()} characters, over the ${LIMITS.contentChars.toLocaleString()} a memory holds`,
			},
		]);
		expect(b.memories.map((m) => m.value.content)).toEqual(['Short answer']);
	});

	it('refuses a message with a lone surrogate by itself, linking the next turn past it', () => {
		const doc = [
			{
				uuid: 'c',
				name: 'Odd',
				chat_messages: [
					{ uuid: 'm1', sender: 'human', text: 'first' },
					{ uuid: 'm2', sender: 'assistant', text: 'bad \ud800 text' },
					{ uuid: 'm3', sender: 'human', text: 'third' },
				],
			},
		];
		const b = parseJson(JSON.stringify(doc));
		expect(b.errors.list()).toEqual([{ line: 1, error: expect.stringMatching(/^message m2 of "Odd": content .*surrogate/) }]);
		expect(b.memories.map((m) => m.value.content)).toEqual(['first', 'third']);
		expect(b.associations.map((a) => [a.value.from, a.value.to])).toEqual([['claude-m3', 'claude-m1']]);
	});
});

describe('plain records', () => {
	it('reads JSONL lines of content plus known fields with no kind as memories', () => {
		const b = parseJsonl(fixture('plain.jsonl'));
		expect(b.errors.count).toBe(0);
		expect(b.memories.map((m) => [m.line, m.value.tags])).toEqual([
			[1, ['style', 'ui']],
			[2, ['ops']],
			[4, ['billing']],
		]);
	});

	it('refuses a line with neither kind nor content, naming the field and the rule', () => {
		const b = parseJsonl('{"tags": ["x"]}\n{"kind": "memory", "content": "ok"}');
		expect(b.errors.list()).toEqual([{ line: 1, error: 'content: missing; a memory record needs its text in "content" (this record has "tags")' }]);
		expect(b.memories).toHaveLength(1);
	});

	it('says which key to rename, or what the file looks like, when a record has no content', () => {
		const jsonl = parseJsonl('{"text": "lives in Porto"}\n{"kind": "memory", "memory": "allergic to peanuts"}\n{}');
		expect(jsonl.errors.list()).toEqual([
			{ line: 1, error: 'content: missing; a memory record needs its text in "content"; rename "text" to "content"' },
			{ line: 2, error: 'content: missing; a memory record needs its text in "content"; rename "memory" to "content"' },
			{ line: 3, error: 'content: missing; a memory record needs its text in "content" (this record has no fields)' },
		]);
		const chat = parseJson('[{"title": "Trip", "mapping": {}}, {"uuid": "1", "chat_messages": []}]');
		expect(chat.errors.list().map((e) => e.error)).toEqual([
			expect.stringContaining('looks like a ChatGPT conversations export'),
			expect.stringContaining('looks like a Claude conversations export'),
		]);
		expect(chat.memories).toHaveLength(0);
	});

	it('takes tags given as one string, split on , ; or | as in CSV', () => {
		const b = parseJsonl('{"content": "a", "tags": "billing, ops|ops"}\n{"content": "b", "tags": ""}');
		expect(b.errors.count).toBe(0);
		expect(b.memories.map((m) => m.value.tags)).toEqual([['billing', 'ops'], []]);
	});

	it('names the type a field was given, not "is required", when a present field has the wrong type', () => {
		const b = parseJsonl('{"content": "a", "tags": 5}\n{"content": "b", "importance": "high"}\n{"content": "c", "tags": [1]}');
		expect(b.errors.list()).toEqual([
			{ line: 1, error: 'memory.tags: must be an array (got number)' },
			{ line: 2, error: 'memory.importance: must be a finite number (got string)' },
			{ line: 3, error: 'memory.tags[0]: must be a string (got number)' },
		]);
	});

	it('reads a JSON array and {memories: [...]} of plain records', () => {
		expect(parseJson(fixture('plain.json')).memories.map((m) => m.value.content)).toEqual([
			'Alice Chen owns the payments API.',
			'Use pnpm workspaces for the monorepo.',
		]);
		expect(parseJson('{"memories": [{"content": "x", "kind": "memory"}]}').memories.map((m) => m.value.content)).toEqual(['x']);
	});
});

describe('mem0', () => {
	it('finds the list under results, memories, or a bare array', () => {
		expect(mem0List({ results: [{ memory: 'a' }] })?.key).toBe('results');
		expect(mem0List({ memories: [{ memory: 'a' }] })?.key).toBe('memories');
		expect(mem0List([{ memory: 'a' }])?.key).toBe('');
		expect(mem0List([{ content: 'a', memory: 'b' }])).toBeUndefined();
		expect(mem0List({ results: [] })).toBeUndefined();
	});

	it('maps memory, categories, dates and ids; refuses a record with no text', () => {
		const r = mem0Memory({
			id: 'm',
			memory: 'Likes tea',
			categories: ['food', 3, ''],
			created_at: '2024-01-02T03:04:05Z',
			updated_at: null,
			user_id: 'u',
			metadata: { k: 1 },
		});
		expect(r).toEqual({
			// The categories that are not tags (3, a blank) are not dropped: the list is kept whole.
			record: {
				content: 'Likes tea',
				tags: ['food'],
				timestamp: '2024-01-02T03:04:05Z',
				metadata: { k: 1, mem0: { id: 'm', categories: ['food', 3, ''], user_id: 'u' } },
			},
		});
		// Every field mem0 adds is kept (score, expiration_date, …).
		expect(mem0Memory({ id: 'x', memory: 'Tea', categories: ['food'], score: 0.42, expiration_date: '2030-01-01', immutable: false })).toEqual({
			record: { content: 'Tea', tags: ['food'], metadata: { mem0: { id: 'x', score: 0.42, expiration_date: '2030-01-01', immutable: false } } },
		});
		expect(mem0Memory({ memory: '  ' })).toEqual({ error: 'memory: a mem0 record needs its "memory" text (it is empty or missing)' });
		const b = parseJson(fixture('mem0.json'));
		expect(b.memories).toHaveLength(2);
		expect(b.errors.list()).toEqual([{ line: 3, error: 'memory: a mem0 record needs its "memory" text (it is empty or missing)' }]);
	});
});

describe('CSV', () => {
	it('reads quoted fields with separators, doubled quotes, embedded newlines, CRLF and a BOM', () => {
		const t = parseCsv('\ufeffa,b\r\n"x, y","say ""hi"""\r\n"two\r\nlines",z\r\n\r\n');
		expect(t.header).toEqual(['a', 'b']);
		expect(t.rows).toEqual([
			{ line: 2, cells: ['x, y', 'say "hi"'] },
			{ line: 3, cells: ['two\r\nlines', 'z'] },
		]);
		expect(t.errors).toEqual([]);
	});

	it('uses the separator the header has most of, and reports a quote never closed', () => {
		expect(parseCsv('a;b\n1;2').rows[0].cells).toEqual(['1', '2']);
		expect(parseCsv('a\tb\n1\t2').rows[0].cells).toEqual(['1', '2']);
		expect(parseCsv('a,b\n1,"open\n2,3').errors).toEqual([
			{ line: 2, error: 'a quote opened on line 2 is never closed, so nothing from line 2 on was read' },
		]);
	});

	it('splits tags on ; , or |, guesses columns, and refuses rows with no content or a bad date by line and column', () => {
		expect(splitTags('a; b|c ,a,,')).toEqual(['a', 'b', 'c']);
		const t = parseCsv(fixture('people.csv'));
		const cols = guessColumns(t.header);
		expect(cols).toEqual({ content: 'note', tags: 'labels', date: 'when' });
		const { records, errors } = csvRecords(t, cols);
		expect(records.map((r) => r.line)).toEqual([2, 3]);
		expect(records[0].record).toEqual({
			content: 'Alice Chen owns the "payments" API',
			tags: ['people', 'billing'],
			timestamp: '2024-05-01',
			metadata: { csv: { source: 'wiki' } },
		});
		expect(errors.map((e) => e.line)).toEqual([5, 6]);
		expect(errors[0].error).toMatch(/^when: "not a date" is not a date Engram reads: write it as 2024-03-01/);
		expect(errors[1].error).toBe('note: the content column is empty in this row');
	});

	it('reads the dates spreadsheets write, each to one ISO date', () => {
		const read = (c: string, o?: 'mdy' | 'dmy') => readCsvDate(c, o);
		expect(read('2023-05-07')).toEqual({ ok: '2023-05-07' });
		expect(read('2023-05-07T09:30:00Z')).toEqual({ ok: '2023-05-07T09:30:00Z' });
		expect(read('2023/5/7')).toEqual({ ok: '2023-05-07' });
		expect(read('07.05.2023')).toEqual({ ok: '2023-05-07' });
		expect(read('7.5.2023 14:30')).toEqual({ ok: '2023-05-07T14:30:00' });
		expect(read('05/07/2023', 'mdy')).toEqual({ ok: '2023-05-07' });
		expect(read('05/07/2023', 'dmy')).toEqual({ ok: '2023-07-05' });
		expect(read('05-07-2023 2:30 PM', 'mdy')).toEqual({ ok: '2023-05-07T14:30:00' });
		expect(read('12/31/2023 12:05 am', 'dmy')).toEqual({ ok: '2023-12-31T00:05:00' });
		expect(read('25/12/2023')).toEqual({ ok: '2023-12-25' });
		expect(read('7 May 2023')).toEqual({ ok: '2023-05-07' });
		expect(read('07-May-2023')).toEqual({ ok: '2023-05-07' });
		expect(read('May 7, 2023')).toEqual({ ok: '2023-05-07' });
		expect(read('Sept. 7th, 2023')).toEqual({ ok: '2023-09-07' });
		expect(read('Sun, 07 May 2023 18:30:00')).toEqual({ ok: '2023-05-07T18:30:00' });
		expect(read('1683484200')).toEqual({ ok: '2023-05-07T18:30:00.000Z' });
		expect(read('1683484200000')).toEqual({ ok: '2023-05-07T18:30:00.000Z' });
	});

	it('refuses what it cannot read one way, naming the value and the rule', () => {
		expect(readCsvDate('05/07/2023', undefined)).toEqual({ error: '"05/07/2023" can be read month first or day first: choose the date order' });
		expect(readCsvDate('31/02/2023', undefined)).toEqual({ error: '"31/02/2023": no such day' });
		expect(readCsvDate('13/13/2023', 'dmy')).toEqual({ error: '"13/13/2023": no such day' });
		expect(readCsvDate('7 Mayo 2023', undefined)).toMatchObject({ error: expect.stringMatching(/^"7 Mayo 2023" is not a date Engram reads/) });
		expect(readCsvDate('07.05.2023 25:00', undefined)).toEqual({ error: '"07.05.2023 25:00": no such time' });
		expect(readCsvDate('05/07/2023 13:00 PM', 'mdy')).toEqual({ error: '"05/07/2023 13:00 PM": no such time' });
		expect(readCsvDate('12345', undefined)).toMatchObject({ error: expect.stringMatching(/is not a date Engram reads/) });
	});

	it('takes a column’s date order from a value only one order can read, and rows follow it', () => {
		const t = parseCsv('text,date\na,05/07/2023\nb,25/12/2023\nc,2023-01-02');
		expect(hasAmbiguousDates(t, 'date')).toBe(true);
		expect(dateOrderOf(t, 'date')).toBe('dmy');
		expect(csvRecords(t, { content: 'text', date: 'date' }).records.map((r) => r.record.timestamp)).toEqual(['2023-07-05', '2023-12-25', '2023-01-02']);
		// A column that shows neither order asks; the chosen order reads every row.
		const u = parseCsv('text,date\na,05/07/2023\nb,01/02/2023');
		expect(dateOrderOf(u, 'date')).toBeUndefined();
		expect(csvRecords(u, { content: 'text', date: 'date' }).errors.map((e) => e.error)).toEqual([
			'date: "05/07/2023" can be read month first or day first: choose the date order',
			'date: "01/02/2023" can be read month first or day first: choose the date order',
		]);
		expect(csvRecords(u, { content: 'text', date: 'date', dateOrder: 'mdy' }).records.map((r) => r.record.timestamp)).toEqual(['2023-05-07', '2023-01-02']);
		// Both orders shown (a mixed-up column): not guessed.
		expect(dateOrderOf(parseCsv('t,d\na,25/12/2023\nb,12/25/2023'), 'd')).toBeUndefined();
		expect(hasAmbiguousDates(parseCsv('t,d\na,2023-01-02\nb,07.05.2023'), 'd')).toBe(false);
	});

	it('takes a title column as the summary; a title over the summary limit stays in metadata', () => {
		const t = parseCsv(`Title,Content,Tags\nTrip to Porto,Drove down and stayed 3 nights,travel\n${'x'.repeat(501)},Long-titled note,\n,Untitled note,`);
		const cols = guessColumns(t.header);
		expect(cols).toEqual({ content: 'Content', summary: 'Title', tags: 'Tags' });
		const { records, errors } = csvRecords(t, cols);
		expect(errors).toEqual([]);
		expect(records.map((r) => r.record)).toEqual([
			{ content: 'Drove down and stayed 3 nights', summary: 'Trip to Porto', tags: ['travel'] },
			{ content: 'Long-titled note', metadata: { csv: { Title: 'x'.repeat(501) } } },
			{ content: 'Untitled note' },
		]);
	});

	it('asks the browser’s language for its date order', () => {
		expect(localDateOrder('en-US')).toBe('mdy');
		expect(localDateOrder('en-GB')).toBe('dmy');
		expect(localDateOrder('de-DE')).toBe('dmy');
	});

	it('keeps a short row refused as missing content, and cells past the header in metadata', () => {
		const { records, errors } = csvRecords(parseCsv('text,tags\nonly one cell\n,x\nfull,t,extra'), { content: 'text', tags: 'tags' });
		expect(records.map((r) => r.record)).toEqual([
			{ content: 'only one cell' },
			{ content: 'full', tags: ['t'], metadata: { csv: { 'column 3': 'extra' } } },
		]);
		expect(errors).toEqual([{ line: 3, error: 'text: the content column is empty in this row' }]);
		expect(csvRecords(parseCsv('a\n1'), { content: 'nope' }).errors).toEqual([{ line: 1, error: 'content: there is no column "nope"' }]);
	});
});

describe('notes', () => {
	it('splits front matter and reads tags as a list or a string', () => {
		expect(splitFrontMatter('---\ntags: a\n---\nbody')).toEqual({ yaml: 'tags: a', body: 'body', bodyLine: 4 });
		expect(splitFrontMatter('---\nno end\nbody').yaml).toBeUndefined();
		expect(frontMatterTags(['a', '#b', 3])).toEqual(['a', 'b', '3']);
		expect(frontMatterTags('a, b #c')).toEqual(['a', 'b', 'c']);
	});

	it('finds [[links]], [[link|alias]] and [[link#heading]], not ![[embeds]]', () => {
		expect(wikiLinks('see [[A]], [[B|bee]], [[C#part]] and ![[pic.png]] [[unclosed')).toEqual(['A', 'B', 'C']);
	});

	it('makes one memory per note, links resolved after all notes by name, path or alias, and lists what is left out', () => {
		let n = 0;
		const out = readNotes(
			[
				{ path: 'v/A.md', text: '---\ntitle: Alpha\ntags: [x]\ncreated: 2024-01-02\nstatus: draft\n---\nLinks [[b]] and [[Nowhere]] and [[Bee]].' },
				{ path: 'v/sub/B.md', text: '---\naliases: [Bee]\ndate: someday\n---\nBack to [[v/A|a]].' },
				{ path: 'v/C.md', text: '---\ntitle: "broken\n---\nx' },
				{ path: 'v/D.md', text: '---\ntags: [y]\n---\n' },
				{ path: 'v/img.png', text: '' },
			],
			() => `id-${++n}`,
		);
		expect(out.memories.map((m) => m.record)).toEqual([
			{
				id: 'id-1',
				content: 'Links [[b]] and [[Nowhere]] and [[Bee]].',
				tags: ['x'],
				source: 'v/A.md',
				summary: 'Alpha',
				timestamp: '2024-01-02',
				metadata: { frontmatter: { status: 'draft' } },
			},
			{
				id: 'id-2',
				content: 'Back to [[v/A|a]].',
				tags: [],
				source: 'v/sub/B.md',
				summary: 'B',
				metadata: { frontmatter: { date: 'someday', aliases: ['Bee'] } },
			},
		]);
		expect(out.links.map((l) => [l.record.from, l.record.to])).toEqual([
			['id-1', 'id-2'],
			['id-2', 'id-1'],
		]);
		expect(out.errors).toHaveLength(2);
		expect(out.errors[0]).toMatch(/^v\/C\.md: front matter: /);
		expect(out.errors[1]).toBe('v/D.md: the note has no text below its front matter');
		expect(out.notImported).toEqual(['v/img.png: not a Markdown note (.md)', 'v/A.md: [[Nowhere]]: no note of that name, so no link']);
	});
});

describe('importOutcome', () => {
	const r = (imported: number, refused: number, skipped = 0) => ({ imported, replaced: 0, skipped, associations: 0, refused });
	it('is a warning when nothing was imported, partial when some was refused, success otherwise', () => {
		expect(importOutcome(r(0, 3))).toBe('nothing');
		expect(importOutcome(r(0, 0))).toBe('nothing');
		expect(importOutcome(r(2, 1))).toBe('partial');
		expect(importOutcome(r(2, 0))).toBe('success');
		expect(importOutcome(r(0, 0, 4))).toBe('unchanged');
	});
});

describe('Engine', () => {
	describe('importMemories (what people have)', () => {
		it('says a blank file is empty before any format guess', async () => {
			const engine = await engines();
			for (const data of [' ', '\n\t\n'])
				await expect(engine.importMemories({ data })).rejects.toThrow('data: The file is empty: there is nothing to import.');
		});

		it('imports plain JSONL and mem0 JSON, and lists foreign Markdown parts it left out', async () => {
			const engine = await engines();
			expect(await engine.importMemories({ data: fixture('plain.jsonl') })).toMatchObject({ imported: 3, refused: 0 });
			expect(await engine.importMemories({ data: fixture('mem0.json') })).toMatchObject({ imported: 2, refused: 1 });
			const md = await engine.importMemories({ data: fixture('foreign.md') });
			expect(md).toMatchObject({ imported: 3, refused: 0 });
			expect(md.not_imported).toEqual([
				{ line: 6, text: '"---": a horizontal rule' },
				{ line: 12, text: '"## Empty section": a heading with nothing under it' },
			]);
		});

		it('imports a ChatGPT export as conversation turns, each conversation a session linked in order', async () => {
			const engine = await engines();
			const out = await engine.importMemories({ data: fixture('chatgpt-conversations.json') });
			expect(out).toMatchObject({ imported: 6, associations: 4, refused: 0 });
			const rows = await engine.db.memories.orderBy('seq').toArray();
			expect(new Set(rows.map((r) => r.session))).toEqual(new Set(['c-lisbon', 'c-bike']));
			const preceded = (await storedLinks(engine)).filter((l) => l.type === 'PRECEDED_BY');
			expect(preceded).toHaveLength(4);
			const hit = await engine.recall({ query: 'vegetarian restaurant in Lisbon', limit: 3 });
			expect(hit.results.map((r) => r.memory.content)).toContain('Lisbon in May is lovely. For vegetarian food try Ao 26 in Chiado.');
			// The same export again: every message is already there.
			expect(await engine.importMemories({ data: fixture('chatgpt-conversations.json') })).toMatchObject({ imported: 0, skipped: 6, refused: 0 });
			expect(await engine.db.memories.count()).toBe(6);
		});

		it('still round-trips its own Markdown export exactly', async () => {
			const engine = await engines();
			await engine.importMemories({ data: fixture('foreign.md') });
			const md = (await engine.exportMemories({ format: 'markdown' })).data;
			const other = await engines();
			const res = await other.importMemories({ data: md });
			expect(res).toMatchObject({ imported: 3, refused: 0 });
			expect(res.not_imported).toBeUndefined();
			const rows = async (e: typeof engine) => (await e.db.memories.orderBy('seq').toArray()).map((m) => [m.id, m.seq, m.content, m.tags, m.timestamp]);
			expect(await rows(other)).toEqual(await rows(engine));
		});
	});
});

/**
 * The Markdown reader on hostile and unusual input: linear time on runs of code spans (a line of
 * 250,000 `` `a` `` once ran for minutes), capped lines and items refused with their line, and no
 * text dropped without a word.
 */
import { describe, expect, it } from 'vitest';
import { MARKDOWN_LIMITS, parseMarkdown } from '../../../src/engine/markdown-format';
import { Clock, useEngines } from './helpers';

const clock = new Clock();
const engines = useEngines();

/** Runs `f`, failing when it takes longer than `ms` (generous: the machine is shared). */
function within<T>(ms: number, f: () => T): T {
	const t = performance.now();
	const out = f();
	expect(performance.now() - t).toBeLessThan(ms);
	return out;
}

/** An Engram record section with the given items and content. */
function record(items: string[], content = 'Body'): string {
	return ['## #1 · Title', '', '- **id:** `m-1`', ...items, '', '```text', content, '```', ''].join('\n');
}

describe('parseMarkdown', () => {
	describe('hostile input', () => {
		it('reads the 250,000-span entities line in linear time and refuses it as over the line cap', () => {
			const line = `- **entities:** ${'`a`'.repeat(250_000)}`;
			const out = within(2_000, () => parseMarkdown(record([line])));
			expect(out.memories).toEqual([]);
			expect(out.errors).toEqual([
				{ line: 4, error: 'memory: this line is 750,016 characters, over the 64,000 a line may have: break it into shorter lines or paragraphs' },
			]);
		});

		it('reads a line of unmatched code spans just under the caps in linear time', () => {
			for (const value of ['`a`'.repeat(13_000), '`'.repeat(39_000), Array.from({ length: 270 }, (_, i) => `${'`'.repeat(i + 1)}a`).join('')]) {
				for (const key of ['entities', 'tags', 'summary', 'link', 'metadata']) {
					const out = within(2_000, () => parseMarkdown(record([`- **${key}:** ${value}`])));
					expect(out.memories.length + out.errors.length).toBe(1);
				}
			}
		});

		it('refuses an item over the item cap naming the item', () => {
			const out = parseMarkdown(record([`- **summary:** ${'x'.repeat(MARKDOWN_LIMITS.itemChars + 1)}`]));
			expect(out.errors).toEqual([{ line: 4, error: 'memory: the summary item is 40001 characters, over the 40000 an item may have' }]);
		});

		it('refuses an over-long line in a plain notes file instead of cutting it', () => {
			const out = parseMarkdown(`intro\n${'y'.repeat(MARKDOWN_LIMITS.lineChars + 1)}\n`);
			expect(out).toEqual({
				memories: [],
				associations: [],
				errors: [
					{ line: 2, error: 'memory: this line is 64,001 characters, over the 64,000 a line may have: break it into shorter lines or paragraphs' },
				],
			});
		});

		it('does not throw on a heading with a line separator, NUL or lone surrogate', () => {
			const out = parseMarkdown('## a\u2028b\u0000\ud800\nbody\n');
			expect(out.memories).toEqual([{ line: 2, record: { content: 'body', tags: ['a\u2028b\u0000\ud800'] } }]);
		});
	});

	describe('no silent loss', () => {
		it('keeps an unknown bold item in a notes section as text (one memory per item)', () => {
			const out = parseMarkdown('## Meeting\n- **Decision:** ship on Tuesday\n- **Owner:** Maria\n');
			expect(out.memories).toEqual([
				{ line: 2, record: { content: '**Decision:** ship on Tuesday', tags: ['Meeting'] } },
				{ line: 3, record: { content: '**Owner:** Maria', tags: ['Meeting'] } },
			]);
		});

		it('keeps an indented block indented on its first line as on the others', () => {
			expect(parseMarkdown('## Code\n\n    if ready:\n        start()\n').memories.map((m) => m.record)).toEqual([
				{ content: '    if ready:\n        start()', tags: ['Code'] },
			]);
		});

		it('keeps text before the first section as a memory (a # title is a tag, not one)', () => {
			expect(parseMarkdown('# Notes\n\n## A\nx\n').memories.map((m) => m.record)).toEqual([{ content: 'x', tags: ['Notes', 'A'] }]);
			expect(parseMarkdown('# Notes\nSome intro.\n\n## A\nx\n').memories.map((m) => m.record)).toEqual([
				{ content: 'Some intro.', tags: ['Notes'] },
				{ content: 'x', tags: ['Notes', 'A'] },
			]);
		});

		it('reads a line underlined with === or --- as a heading that tags what follows, not as text and a rule', () => {
			const out = parseMarkdown('Project Falcon\n==============\n\nIntro.\n\nBilling\n-------\nMoved to PostgreSQL.\n\nSupport\n---\n\n- Ana on call\n');
			expect(out.memories.map((m) => m.record)).toEqual([
				{ content: 'Intro.', tags: ['Project Falcon'] },
				{ content: 'Moved to PostgreSQL.', tags: ['Project Falcon', 'Billing'] },
				{ content: 'Ana on call', tags: ['Project Falcon', 'Support'] },
			]);
			expect(out.skipped).toBeUndefined();
			// A rule after a blank line stays a rule.
			expect(parseMarkdown('Text.\n\n---\n\nMore.\n').skipped).toEqual([{ line: 3, text: '"---": a horizontal rule' }]);
		});

		it('keeps `## ` lines inside the content fence as content', () => {
			const out = parseMarkdown(record([], 'Plan\n## not a heading\nmore'));
			expect(out.memories).toEqual([{ line: 1, record: { seq: 1, id: 'm-1', content: 'Plan\n## not a heading\nmore' } }]);
		});

		it('imports a truncated record (fence never closed) whole as notes', () => {
			const out = parseMarkdown('## #1 · T\n- **id:** `m-1`\n```text\nhalf a memo');
			expect(out.memories).toEqual([{ line: 1, record: { seq: 1, content: 'T\n- **id:** `m-1`\n```text\nhalf a memo' } }]);
		});

		it('refuses a record with an unreadable link, metadata or repeated item, with the line', () => {
			expect(parseMarkdown(record(['- **link:** RELATES_TO → nowhere'])).errors).toEqual([
				{ line: 4, error: 'association: the link item is not in the form "TYPE → `id` (strength) — reason"' },
			]);
			expect(parseMarkdown(record(['- **metadata:** `{oops`'])).errors).toEqual([{ line: 4, error: 'memory: the metadata item is not valid JSON' }]);
			expect(parseMarkdown(record(['- **type:** Decision', '- **type:** Pattern'])).errors).toEqual([
				{ line: 5, error: 'memory: "type" is given twice' },
			]);
		});

		it('reads a record from a file converted to CRLF line endings without \\r in its content', () => {
			const out = parseMarkdown(record(['- **summary:** `Sum`'], 'two\nlines').replaceAll('\n', '\r\n'));
			expect(out.memories[0].record).toMatchObject({ id: 'm-1', summary: 'Sum', content: 'two\nlines' });
		});

		it('reads code values with spaces and backticks back exactly', () => {
			const out = parseMarkdown(
				record([
					'- **summary:** `` `tick` ``',
					'- **source:** ` padded `',
					'- **tags:** ` lead`, `x`',
					'- **link:** RELATES_TO → `` a`b `` (0.5) — why `code` here',
				]),
			);
			expect(out.memories[0].record).toMatchObject({ summary: '`tick`', source: 'padded', tags: [' lead', 'x'] });
			expect(out.associations).toEqual([{ line: 7, record: { from: 'm-1', to: 'a`b', type: 'RELATES_TO', strength: 0.5, reason: 'why `code` here' } }]);
		});
	});
});

describe('Engine', () => {
	describe('importMemories (Markdown)', () => {
		it('round-trips summaries and sources that begin or end with spaces', async () => {
			const engine = await engines({ now: clock.now });
			await engine.store({ memories: [{ content: 'One', summary: ' starts with a space', source: '  both  ' }] });
			const md = await engine.exportMemories({ format: 'markdown' });
			await engine.wipe();
			const res = await engine.importMemories({ data: md.data });
			expect(res).toMatchObject({ imported: 1, refused: 0 });
			expect((await engine.db.memories.toArray())[0]).toMatchObject({ summary: ' starts with a space', source: '  both  ' });
		});

		it('round-trips ids, summaries, sources, scopes, tags, entities and links holding line breaks, and CRLF content', async () => {
			const engine = await engines({ now: clock.now });
			const odd = {
				id: 'id\nwith break',
				summary: 'Title: first line\nsecond line',
				source: 'src\r\nline',
				scope: 'scope\nline',
				tags: ['tag\nline', 'plain'],
			};
			// A caller may not give a new memory an id holding a line break (an invisible character);
			// an imported file may, and it must round-trip.
			const seeded = await engine.importMemories({
				data: JSON.stringify({
					memories: [{ ...odd, content: 'Windows text\r\nkept as written\r\n', entities: [{ name: 'Name\nbroken', type: 'person' }] }],
				}),
			});
			expect(seeded).toMatchObject({ imported: 1, refused: 0 });
			await engine.store({ memories: [{ id: 'other', content: 'A second memory about something else', scope: '"quoted"' }] });
			await engine.associate({ memory1_id: odd.id, memory2_id: 'other', type: 'CONTRADICTS', reason: 'first\nsecond', resolution: 'keep both' });
			await engine.associate({ memory1_id: 'other', memory2_id: odd.id, type: 'PART_OF', role: 'chapter', context: 'the book' });
			const rows = async () => {
				const lines = (await engine.exportMemories({ format: 'jsonl' })).data.trim().split('\n').slice(1);
				return lines.map((l) => JSON.parse(l) as Record<string, unknown>).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
			};
			const before = await rows();
			const md = await engine.exportMemories({ format: 'markdown' });
			await engine.wipe();
			const res = await engine.importMemories({ data: md.data });
			expect(res).toMatchObject({ imported: 2, refused: 0, errors: [] });
			expect(await rows()).toEqual(before);
		});
	});
});

/**
 * A fuzz of the Markdown and JSONL importers with hostile generators: long runs of markup
 * characters, deep nesting, huge lines, lone surrogates, NUL bytes, CRLF/CR mixes and files of
 * bad records. Each input must be read within a time budget (generous: the machine is shared; the
 * old Markdown reader took minutes on one line), never throw, and account for every record:
 * imported + replaced + skipped + links + refused = records.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/engine/engine';
import { parseJsonl, parseMarkdownBundle } from '../../../src/engine/import-formats';
import { parseMarkdown } from '../../../src/engine/markdown-format';
import { Clock, useEngines } from './helpers';

const clock = new Clock();
const engines = useEngines();
/** Per-input budget for reading (parsing) and for a whole import through the engine. */
const PARSE_MS = 2_000;
const IMPORT_MS = 3_000;
const PARSE_RUNS = 300;
const IMPORT_RUNS = 40;

const MARKUP = ['`', '*', '_', '-', '#', '~', '[', ']', '(', ')', '\\', ' ', '\t', '>', '|', ':', '!', '"', "'", '{', '}', ',', '.', '→', '—', '·'];
const ODD = ['\u0000', '\ud800', '\udfff', '\ud83d\ude00', '\u2028', '\ufeff', '\r', 'é', 'a', 'Z', '7'];

/** Short strings of markup and odd characters. */
const noise = fc.string({ unit: fc.constantFrom(...MARKUP, ...ODD), maxLength: 40 });
/** One character or pattern repeated up to ~70k times (past the line cap). */
const run = fc
	.tuple(
		fc.constantFrom('`', '`a`', '*', '**', '_', '- ', '#', '~', ' ', '"', '1', '\\', '{', '[', '`` ', '`a` (p), ', '\u0000', '\ud800'),
		fc.integer({ min: 1, max: 70_000 }),
	)
	.map(([p, n]) => p.repeat(Math.ceil(n / p.length)));
const key = fc.constantFrom(
	'id',
	'type',
	'scope',
	'tags',
	'importance',
	'confidence',
	'created',
	'updated',
	'source',
	'summary',
	'entities',
	'metadata',
	'link',
	'accessed',
	'valid from',
	'Decision',
);
const item = fc.tuple(key, fc.oneof(noise, run)).map(([k, v]) => `- **${k}:** ${v}`);
const line = fc.oneof(
	{ weight: 4, arbitrary: noise },
	{ weight: 2, arbitrary: item },
	{ weight: 1, arbitrary: run },
	{ weight: 2, arbitrary: fc.tuple(fc.constantFrom('## ', '## #12 · ', '# ', '```text', '````', '```', '~~~'), noise).map(([a, b]) => a + b) },
	{ weight: 1, arbitrary: fc.constantFrom('- **id:** `m-1`', '- **id:** `m-2`', '- **link:** RELATES_TO → `m-2` (0.5) — because', '```text', '```', '') },
);
const newline = fc.constantFrom('\n', '\r\n', '\r', '\n\n');

/** A document from lines joined by a mix of newlines. */
function doc(lines: fc.Arbitrary<string>, max: number): fc.Arbitrary<string> {
	return fc.array(fc.tuple(lines, newline), { minLength: 1, maxLength: max }).map((parts) => parts.map(([l, n]) => l + n).join(''));
}

/** An Engram export section, possibly damaged. */
const record = fc
	.record({ id: fc.constantFrom('m-1', 'm-2', 'm-3', 'a`b', ' pad '), content: fc.oneof(noise, run), items: fc.array(item, { maxLength: 4 }) })
	.map(({ id, content, items }) => ['## #1 · Title', '', `- **id:** \`${id}\``, ...items, '', '````text', content, '````', ''].join('\n'));
const markdown = fc.oneof(
	doc(line, 60),
	fc.array(fc.oneof(record, doc(line, 10)), { maxLength: 8 }).map((p) => p.join('\n')),
);

const HEADER = '{"kind":"header","format":"engram","version":1}';
const deep = fc.integer({ min: 1, max: 60_000 }).map((n) => `{"kind":"memory","content":"deep","metadata":${'{"a":'.repeat(n)}1${'}'.repeat(n)}}`);
const memoryLine = fc
	.record({
		id: fc.option(fc.constantFrom('j-1', 'j-2', 'j-3', 'j-4', 'j\ud800', 'j\u0000'), { nil: undefined }),
		content: fc.oneof(fc.string({ maxLength: 80 }), noise, run),
		tags: fc.option(fc.array(noise, { maxLength: 3 }), { nil: undefined }),
		importance: fc.option(fc.oneof(fc.double(), fc.constant(0.5)), { nil: undefined }),
	})
	.map((m) => JSON.stringify({ kind: 'memory', ...m }));
const linkLine = fc
	.record({
		from: fc.constantFrom('j-1', 'j-2', 'ghost'),
		to: fc.constantFrom('j-3', 'j-4', 'ghost'),
		type: fc.constantFrom('RELATES_TO', 'NOPE'),
		strength: fc.double({ min: 0, max: 1, noNaN: true }),
	})
	.map((a) => JSON.stringify({ kind: 'association', ...a }));
const jsonlLine = fc.oneof(
	{ weight: 4, arbitrary: memoryLine },
	{ weight: 2, arbitrary: linkLine },
	{ weight: 2, arbitrary: noise },
	{ weight: 1, arbitrary: run },
	{ weight: 1, arbitrary: deep },
	{ weight: 2, arbitrary: fc.json({ maxDepth: 4 }) },
	{
		weight: 1,
		arbitrary: fc.constantFrom('{bad}', '{"kind":"widget"}', '{"kind":"memory"}', '[]', 'null', '{"kind":"memory","content":"x","timestamp":"1"}'),
	},
);
const jsonl = doc(jsonlLine, 40).map((d) => `${HEADER}\n${d}`);

/** Non-blank lines that are records (not the header), as the importer splits them. */
function jsonlRecords(data: string): number {
	return data.split(/\r?\n/).filter((l) => {
		const t = l.trim();
		if (t === '') return false;
		if (!t.startsWith('{')) return true;
		try {
			return (JSON.parse(l) as { kind?: unknown } | null)?.kind !== 'header';
		} catch {
			return true;
		}
	}).length;
}

function timed<T>(ms: number, f: () => T): T {
	const t = performance.now();
	const out = f();
	expect(performance.now() - t).toBeLessThan(ms);
	return out;
}

async function importWithin(engine: Engine, data: string, format: 'jsonl' | 'markdown', onConflict: 'skip' | 'replace') {
	const t = performance.now();
	const res = await engine.importMemories({ data, format, on_conflict: onConflict });
	expect(performance.now() - t).toBeLessThan(IMPORT_MS);
	expect(res.errors.length).toBeLessThanOrEqual(50);
	return res;
}

describe('import fuzz', () => {
	describe('parseMarkdown', () => {
		it(`reads ${PARSE_RUNS} hostile documents within ${PARSE_MS} ms each, accounting for every section`, () => {
			fc.assert(
				fc.property(markdown, (text) => {
					const md = timed(PARSE_MS, () => parseMarkdown(text));
					const lines = text.split(/\r?\n/).length;
					for (const r of [...md.memories, ...md.associations, ...md.errors]) {
						expect(r.line).toBeGreaterThanOrEqual(1);
						expect(r.line).toBeLessThanOrEqual(lines);
					}
					// Every memory, refused record and left-out part starts on a line of its own (links come only from memories).
					const starts = [...md.memories, ...md.errors, ...(md.skipped ?? [])].map((r) => r.line);
					expect(new Set(starts).size).toBe(starts.length);
					const b = parseMarkdownBundle(text);
					expect(b.memories.length + b.associations.length + b.errors.count).toBe(md.memories.length + md.associations.length + md.errors.length);
				}),
				{ numRuns: PARSE_RUNS },
			);
		});
	});

	describe('parseJsonl', () => {
		it(`reads ${PARSE_RUNS} hostile files within ${PARSE_MS} ms each: every record kept or refused`, () => {
			fc.assert(
				fc.property(jsonl, (text) => {
					const b = timed(PARSE_MS, () => parseJsonl(text));
					expect(b.memories.length + b.associations.length + b.entities.length + b.vectors.length + b.errors.count).toBe(jsonlRecords(text));
				}),
				{ numRuns: PARSE_RUNS },
			);
		});

		it('reads a 1,000,000-line file of bad records, CRLF and CR mixed, all counted', () => {
			const text = `${HEADER}\r\n${'oops\r\n{"kind":1}\n\r\n\u0000\r{bad\n[1]\r\n'.repeat(250_000)}`;
			const b = timed(20_000, () => parseJsonl(text));
			expect(b.errors.count).toBe(jsonlRecords(text));
			expect(b.errors.count).toBe(1_000_000);
			expect(b.errors.list()).toHaveLength(50);
		});
	});

	describe('importMemories', () => {
		it(`imports ${IMPORT_RUNS} hostile JSONL files within ${IMPORT_MS} ms each: imported + replaced + skipped + links + refused = records`, async () => {
			const engine = await engines({ now: clock.now });
			await fc.assert(
				fc.asyncProperty(jsonl, fc.constantFrom('skip' as const, 'replace' as const), async (data, onConflict) => {
					const r = await importWithin(engine, data, 'jsonl', onConflict);
					expect(r.imported + r.replaced + r.skipped + r.associations + r.refused).toBe(jsonlRecords(data));
				}),
				{ numRuns: IMPORT_RUNS },
			);
		});

		it(`imports ${IMPORT_RUNS} hostile Markdown files within ${IMPORT_MS} ms each: every record accounted for`, async () => {
			const engine = await engines({ now: clock.now });
			await fc.assert(
				fc.asyncProperty(markdown, fc.constantFrom('skip' as const, 'replace' as const), async (data, onConflict) => {
					fc.pre(data.trim() !== ''); // empty or blank data is refused whole, as a bad argument
					const md = parseMarkdown(data);
					const r = await importWithin(engine, data, 'markdown', onConflict);
					expect(r.imported + r.replaced + r.skipped + r.associations + r.refused).toBe(
						md.memories.length + md.associations.length + md.errors.length,
					);
				}),
				{ numRuns: IMPORT_RUNS },
			);
		});
	});
});

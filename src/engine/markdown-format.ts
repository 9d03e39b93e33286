/**
 * The Markdown export: one `##` heading per memory, a metadata list, the content in a fence
 * (so any Markdown inside it survives), and the memory's outgoing links. It reads well as a
 * document and parses back: `parseMarkdown` restores memories and links from it, and reads any
 * other Markdown as notes (import-markdown-notes.ts: one memory per list item and per paragraph,
 * the headings above as tags, what is not a memory listed as not imported). A section headed like
 * an Engram record (`## #12 · Title`) that doesn't read as one is imported whole. Reading is linear
 * in the text (a scanner, no backtracking regexes); a line over `MARKDOWN_LIMITS.lineChars` or an
 * item over `itemChars` refuses its record with an error: no text is dropped without a word.
 */
import type { Association, AssociationType } from '../core/schemas';
import type { ExportBundle, ExportedMemory } from './export-bundle';
import { MarkdownNotes } from './import-markdown-notes';

/** Renders an export page as Markdown. */
export function renderMarkdown(b: ExportBundle, exportedAt: string): string {
	const out = [`# Engram memories`, '', `Exported ${exportedAt} · ${b.memories.length} memories · ${b.associations.length} links`, ''];
	const linksFrom = new Map<string, Association[]>();
	for (const a of b.associations) {
		const list = linksFrom.get(a.from);
		if (list) list.push(a);
		else linksFrom.set(a.from, [a]);
	}
	for (const m of b.memories) out.push(...renderMemory(m, linksFrom.get(m.id) ?? []));
	return out.join('\n');
}

function headline(m: ExportedMemory): string {
	const first = (m.summary ?? m.content)
		.split(/[\r\n]/)[0]
		.replace(/^#+\s*/, '')
		.trim();
	return first.length > 80 ? `${first.slice(0, 79)}…` : first;
}

function renderMemory(m: ExportedMemory, links: Association[]): string[] {
	const item = (k: string, v: string) => `- **${k}:** ${v}`;
	const scope = BREAK.test(m.scope) || m.scope.startsWith('"') ? JSON.stringify(m.scope) : m.scope;
	const lines = [`## #${m.seq} · ${headline(m)}`, '', item('id', oneLine(m.id)), item('type', m.type), item('scope', scope)];
	if (m.tags.length) lines.push(item('tags', m.tags.some((t) => BREAK.test(t)) ? JSON.stringify(m.tags) : m.tags.map(code).join(', ')));
	lines.push(item('importance', String(m.importance)), item('confidence', String(m.confidence)));
	lines.push(item('created', m.timestamp), item('updated', m.updated_at));
	if (m.source !== undefined) lines.push(item('source', oneLine(m.source)));
	if (m.summary !== undefined) lines.push(item('summary', oneLine(m.summary)));
	if (m.t_valid) lines.push(item('valid from', m.t_valid));
	if (m.t_invalid) lines.push(item('valid until', m.t_invalid));
	if (m.last_accessed) lines.push(item('last accessed', m.last_accessed));
	lines.push(item('accessed', `${m.access_count} times`));
	if (m.entities.length) {
		// The readable form puts the type in plain text: a backtick there would open a code span.
		const plain = m.entities.every((e) => !BREAK.test(e.name) && !BREAK.test(e.type) && !e.type.includes('`'));
		// Entities found in the text are listed apart from the caller's: an import must not make
		// them given (a given list is never re-extracted when the content is edited).
		lines.push(
			item(
				m.entities_given ? 'entities' : 'found entities',
				plain ? m.entities.map((e) => `${code(e.name)} (${e.type})`).join(', ') : JSON.stringify(m.entities.map(({ name, type }) => ({ name, type }))),
			),
		);
	}
	if (Object.keys(m.metadata).length) lines.push(item('metadata', code(JSON.stringify(m.metadata))));
	for (const a of links) lines.push(item('link', linkText(a)));
	const fence = '`'.repeat(Math.max(3, longestRun(m.content, '`') + 1));
	lines.push('', `${fence}text`, m.content, fence, '');
	return lines;
}

/** A line break: a value holding one cannot sit on an item's line as it is. */
const BREAK = /[\r\n]/;

/**
 * An id, source or summary: inline code, or a JSON string when it holds a line break or is empty
 * (an empty code span is two backticks, which CommonMark and the reader take as text).
 */
function oneLine(s: string): string {
	return BREAK.test(s) || s === '' ? JSON.stringify(s) : code(s);
}

/** Association fields the readable link form (`TYPE → \`to\` (strength) — reason`) carries. */
const READABLE_LINK_KEYS = new Set(['from', 'to', 'type', 'strength', 'reason', 'created_at', 'updated_at']);

/**
 * A link item: the readable form, or a JSON object with every field when the link has fields
 * that form cannot carry (role, context, observations, …) or a line break in its target or reason.
 */
function linkText(a: Association): string {
	// An empty reason reads as none in the readable form: only the JSON form keeps it.
	const readable =
		Object.entries(a).every(([k, v]) => v === undefined || READABLE_LINK_KEYS.has(k)) &&
		!BREAK.test(a.to) &&
		!BREAK.test(a.reason ?? '') &&
		a.reason !== '';
	if (readable) return `${a.type} → ${code(a.to)} (${a.strength})${a.reason ? ` — ${a.reason}` : ''}`;
	const { from: _from, created_at: _created, updated_at: _updated, ...rest } = a;
	return JSON.stringify(rest);
}

function longestRun(s: string, ch: string): number {
	let best = 0;
	let cur = 0;
	for (const c of s) {
		cur = c === ch ? cur + 1 : 0;
		best = Math.max(best, cur);
	}
	return best;
}

/** Inline code that survives any backticks in `s`, and reads back as `s` (CommonMark's space rule). */
function code(s: string): string {
	const ticks = '`'.repeat(longestRun(s, '`') + 1);
	const spaced = s.startsWith(' ') && s.endsWith(' ') && s.trim() !== '';
	const pad = s.startsWith('`') || s.endsWith('`') || spaced ? ' ' : '';
	return `${ticks}${pad}${s}${pad}${ticks}`;
}

/** Caps on what the Markdown reader reads; a longer line or item is a per-record error, never cut. */
export const MARKDOWN_LIMITS = {
	/** Characters in one line (a memory holds at most LIMITS.contentChars, 50k). */
	lineChars: 64_000,
	/** Characters in one metadata item's value (the longest, `metadata`, is ≤ 32 KB of JSON). */
	itemChars: 40_000,
} as const;

/** A memory (partial record) or link read back from Markdown, with its line number. */
export interface MarkdownRecords {
	memories: { line: number; record: Record<string, unknown> }[];
	associations: { line: number; record: Record<string, unknown> }[];
	/** Records refused while reading (one per record), with the line at fault. */
	errors: { line: number; error: string }[];
	/** Text that is not a memory (a rule, an empty heading), with why; absent when none. */
	skipped?: { line: number; text: string }[];
}

/** A part of an item's value: plain text, or the inside of a code span. */
interface Segment {
	code: boolean;
	text: string;
	/** Where the segment ends in the value (after a span's closing backticks). */
	end: number;
}

/**
 * Splits `v` into text and code spans in one pass (CommonMark's rule: a span closes at the next
 * backtick run of the same length; one space is stripped from each side when both are there).
 * Regexes for this (`(`+) ?([\s\S]*?) ?\1`) backtrack quadratically on runs of unmatched spans.
 */
function segments(v: string): Segment[] {
	const runs: { at: number; n: number }[] = [];
	for (let i = 0; i < v.length;) {
		if (v.charCodeAt(i) !== 96) {
			i++;
			continue;
		}
		const at = i;
		while (v.charCodeAt(i) === 96) i++;
		runs.push({ at, n: i - at });
	}
	// For each run length, the runs of that length in order, and how far openers have looked.
	const byLength = new Map<number, { list: number[]; next: number }>();
	runs.forEach((r, k) => {
		const e = byLength.get(r.n) ?? { list: [], next: 0 };
		e.list.push(k);
		byLength.set(r.n, e);
	});
	const out: Segment[] = [];
	let textFrom = 0;
	for (let k = 0; k < runs.length;) {
		const open = runs[k];
		const same = byLength.get(open.n)!;
		while (same.next < same.list.length && same.list[same.next] <= k) same.next++;
		if (same.next === same.list.length) {
			k++;
			continue;
		}
		const q = same.list[same.next];
		if (open.at > textFrom) out.push({ code: false, text: v.slice(textFrom, open.at), end: open.at });
		let inner = v.slice(open.at + open.n, runs[q].at);
		if (inner.length >= 2 && inner.startsWith(' ') && inner.endsWith(' ') && inner.trim() !== '') inner = inner.slice(1, -1);
		textFrom = runs[q].at + open.n;
		out.push({ code: true, text: inner, end: textFrom });
		k = q + 1;
	}
	if (textFrom < v.length) out.push({ code: false, text: v.slice(textFrom), end: v.length });
	return out;
}
/** Parses Markdown into memory records (see the module comment). Linear in the text's length. */
export function parseMarkdown(text: string): MarkdownRecords {
	// Lines end at \n; a \r before it is the file's line ending. Content fences read the raw lines
	// (parseSection), so a memory's own \r\n comes back exactly from a file with \n endings.
	const raw = text.split('\n');
	const lines = raw.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
	const out: MarkdownRecords = { memories: [], associations: [], errors: [] };
	const notes = new MarkdownNotes();
	const starts = sectionStarts(lines);
	const first = starts[0] ?? lines.length;
	if (!isExportHeader(lines.slice(0, first))) readNotes(lines, 0, first, out, notes);
	starts.forEach((s, k) => parseSection(lines, raw, s, starts[k + 1] ?? lines.length, out, notes));
	notes.finish();
	out.memories.push(...notes.memories);
	out.memories.sort((a, b) => a.line - b.line);
	if (notes.leftOut.length) out.skipped = notes.leftOut;
	return out;
}

/** Lines [from, to) as notes; a line over the cap refuses the whole range (it is never cut). */
function readNotes(lines: string[], from: number, to: number, out: MarkdownRecords, notes: MarkdownNotes): void {
	const long = longLine(lines, from, to);
	if (long) return void out.errors.push(long);
	notes.read(lines, from, to);
}

/** Lines that open a `##` section: those outside fenced code (content may hold `## ` lines). */
function sectionStarts(lines: string[]): number[] {
	const starts: number[] = [];
	let fence: { ch: string; n: number } | undefined;
	lines.forEach((l, i) => {
		if (fence) {
			if (closesFence(l, fence)) fence = undefined;
		} else if (l.startsWith('## ')) starts.push(i);
		else fence = openingFence(l);
	});
	return starts;
}

function runOf(l: string, ch: string): number {
	let n = 0;
	while (l[n] === ch) n++;
	return n;
}

function openingFence(l: string): { ch: string; n: number } | undefined {
	const ch = l[0];
	if (ch !== '`' && ch !== '~') return undefined;
	const n = runOf(l, ch);
	return n >= 3 ? { ch, n } : undefined;
}

function closesFence(l: string, f: { ch: string; n: number }): boolean {
	const n = runOf(l, f.ch);
	return n >= f.n && l.slice(n).trim() === '';
}

/** Text before the first section that is only an Engram export's title and "Exported …" line (or nothing). */
function isExportHeader(pre: string[]): boolean {
	const rest = pre.filter((l) => l.trim() !== '');
	return rest.length === 0 || (rest[0] === '# Engram memories' && (rest.length === 1 || (rest.length === 2 && rest[1].startsWith('Exported '))));
}

/** The first line in [from, to) over the line cap, as a record error; undefined when none. */
function longLine(lines: string[], from: number, to: number): { line: number; error: string } | undefined {
	for (let i = from; i < to; i++) {
		if (lines[i].length > MARKDOWN_LIMITS.lineChars) {
			return {
				line: i + 1,
				error: `memory: this line is ${lines[i].length.toLocaleString('en')} characters, over the ${MARKDOWN_LIMITS.lineChars.toLocaleString('en')} a line may have: break it into shorter lines or paragraphs`,
			};
		}
	}
	return undefined;
}

/** Lines [from, to) as one memory (text kept as it is, trimmed); nothing when blank. */
function plainMemory(lines: string[], from: number, to: number, out: MarkdownRecords, rec: Record<string, unknown> = {}, first?: string): void {
	const long = longLine(lines, from, to);
	if (long) return void out.errors.push(long);
	const body = lines.slice(first === undefined ? from : from + 1, to);
	const content = (first === undefined ? body : [first, ...body]).join('\n').trim();
	if (content) out.memories.push({ line: from + 1, record: { ...rec, content } });
}

const KEYS: Record<string, string> = {
	type: 'type',
	scope: 'scope',
	importance: 'importance',
	confidence: 'confidence',
	created: 'timestamp',
	updated: 'updated_at',
	'valid from': 't_valid',
	'valid until': 't_invalid',
	'last accessed': 'last_accessed',
};
const ITEM_KEYS = new Set([...Object.keys(KEYS), 'id', 'source', 'summary', 'tags', 'accessed', 'metadata', 'entities', 'found entities', 'link']);

/** `- **key:** value` → [key, value]; undefined for any other line. */
function itemOf(l: string): [string, string] | undefined {
	if (!l.startsWith('- **')) return undefined;
	const end = l.indexOf(':** ', 4);
	return end > 4 ? [l.slice(4, end), l.slice(end + 4)] : undefined;
}

/** `## #12 · Title` → seq 12 and the title; other headings → the whole text. */
function headingOf(l: string): { seq?: number; title: string } {
	const h = l.slice(3);
	const dot = h.indexOf(' · ');
	const digits = h.slice(1, dot);
	if (h.startsWith('#') && dot > 1 && /^\d+$/.test(digits)) return { seq: Number(digits), title: h.slice(dot + 3) };
	return { title: h };
}

/**
 * One `##` section [s, e). An Engram memory when it reads as one: metadata items from `id` on, the
 * content in a `text` fence, nothing after it. Any other section is heading + body, kept whole.
 */
function parseSection(lines: string[], raw: string[], s: number, e: number, out: MarkdownRecords, notes: MarkdownNotes): void {
	const { seq, title } = headingOf(lines[s]);
	const rec: Record<string, unknown> = seq !== undefined ? { seq } : {};
	// A damaged Engram record is kept whole; any other section is notes.
	const asNotes = () => (seq !== undefined ? plainMemory(lines, s, e, out, rec, title) : readNotes(lines, s, e, out, notes));
	const long = longLine(lines, s, e);
	if (long) return void out.errors.push(long);
	const items: { line: number; key: string; value: string }[] = [];
	let i = s + 1;
	for (; i < e && !/^`{3,}text$/.test(lines[i]); i++) {
		if (lines[i].trim() === '') continue;
		const it = itemOf(lines[i]);
		if (!it || (items.length === 0 && it[0] !== 'id')) return asNotes();
		items.push({ line: i + 1, key: it[0], value: it[1] });
	}
	if (i === e || items.length === 0) return asNotes();
	const fence = lines[i].slice(0, -4);
	let close = i + 1;
	while (close < e && lines[close] !== fence) close++;
	// After the fence: nothing, or the title of the next export page (pages joined as they came).
	if (close === e || !isExportHeader(lines.slice(close + 1, e))) return asNotes();
	const links: { line: number; record: Record<string, unknown> }[] = [];
	const seen = new Set<string>();
	for (const it of items) {
		const error = it.key === 'link' || !seen.has(it.key) ? readItem(it.key, it.value, rec, links, it.line) : `memory: "${it.key}" is given twice`;
		if (error) return void out.errors.push({ line: it.line, error });
		seen.add(it.key);
	}
	// A file whose own lines end in \r\n (its fence line too) had them converted: its content lines
	// do not keep the \r. Otherwise a \r in the content is the memory's own.
	rec.content = (raw[i].endsWith('\r') ? lines : raw).slice(i + 1, close).join('\n');
	out.memories.push({ line: s + 1, record: rec });
	out.associations.push(...links);
}

/** Code spans only, separated by `sep`-like text; undefined when anything else is there. */
function spansOnly(v: string): string[] | undefined {
	const segs = segments(v);
	const codes: string[] = [];
	for (const g of segs) {
		if (g.code) codes.push(g.text);
		else if (g.text.replace(/[, ]/g, '') !== '') return undefined;
	}
	return codes;
}

/** A single value: one code span, or text without backticks. */
function single(v: string): string | undefined {
	const segs = segments(v);
	if (segs.length === 1 && segs[0].code) return segs[0].text;
	return v.includes('`') ? undefined : v;
}

function num(v: string): number {
	return v.trim() === '' ? NaN : Number(v);
}

/** Reads one metadata item into `rec` (links into `links`); returns an error text when it can't. */
function readItem(
	key: string,
	value: string,
	rec: Record<string, unknown>,
	links: { line: number; record: Record<string, unknown> }[],
	line: number,
): string | undefined {
	if (!ITEM_KEYS.has(key)) return `memory: "${key.slice(0, 60)}" is not an Engram metadata item`;
	if (value.length > MARKDOWN_LIMITS.itemChars)
		return `memory: the ${key} item is ${value.length} characters, over the ${MARKDOWN_LIMITS.itemChars} an item may have`;
	const bad = `memory: the ${key} item is not in the form Engram exports it`;
	if (key === 'id' || key === 'source' || key === 'summary') {
		const v = jsonOf(value, isString) ?? single(value);
		if (v === undefined) return bad;
		rec[key] = v;
	} else if (key === 'scope') {
		rec.scope = jsonOf(value, isString) ?? value;
	} else if (key === 'tags') {
		const tags = value.startsWith('[') ? jsonOf(value, (v) => Array.isArray(v) && v.every(isString)) : spansOnly(value);
		if (!tags) return bad;
		rec.tags = tags;
	} else if (key === 'accessed') {
		const n = value.endsWith(' times') ? value.slice(0, -6) : value;
		if (!/^\d{1,15}$/.test(n)) return bad;
		rec.access_count = Number(n);
	} else if (key === 'metadata') {
		const v = single(value);
		try {
			rec.metadata = JSON.parse(v ?? '') as unknown;
		} catch {
			return `memory: the metadata item is not valid JSON`;
		}
	} else if (key === 'entities' || key === 'found entities') {
		if ('entities' in rec) return `memory: "entities" and "found entities" are both given`;
		const entities = value.startsWith('[') ? jsonOf(value, isEntityList) : entitiesOf(value);
		if (!entities) return bad;
		rec.entities = entities;
		rec.entities_given = key === 'entities';
	} else if (key === 'link') {
		const a = value.startsWith('{') ? jsonLinkOf(value, rec.id as string) : linkOf(value, rec.id as string);
		if (!a) return `association: the link item is not in the form "TYPE → \`id\` (strength) — reason"`;
		links.push({ line, record: a });
	} else rec[KEYS[key]] = key === 'importance' || key === 'confidence' ? num(value) : value;
	return undefined;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isEntityList = (v: unknown): v is { name: string; type: string }[] =>
	Array.isArray(v) &&
	v.every((e) => e !== null && typeof e === 'object' && isString((e as { name?: unknown }).name) && isString((e as { type?: unknown }).type));

/** `value` as JSON when it starts like the JSON form the writer uses and passes `ok`; else undefined. */
function jsonOf<T>(value: string, ok: (v: unknown) => v is T): T | undefined {
	if (!'"[{'.includes(value[0] ?? 'x')) return undefined;
	try {
		const v = JSON.parse(value) as unknown;
		return ok(v) ? v : undefined;
	} catch {
		return undefined;
	}
}

/** A link in the JSON form (renderMemory's linkText); its fields are checked by the import schema. */
function jsonLinkOf(value: string, from: string): Partial<Association> | undefined {
	const a = jsonOf(value, (v): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v));
	if (!a || !isString(a.type) || !isString(a.to) || typeof a.strength !== 'number') return undefined;
	return { ...a, from } as Partial<Association>;
}

/** `` `name` (type), `name` (type) `` → entity refs; undefined when it doesn't read. */
function entitiesOf(value: string): { name: string; type: string }[] | undefined {
	const segs = segments(value);
	const out: { name: string; type: string }[] = [];
	for (let k = 0; k < segs.length; k += 2) {
		const name = segs[k];
		const after = segs[k + 1]?.text ?? '';
		const last = k + 2 >= segs.length;
		const tail = last ? ')' : '), ';
		if (!name.code || segs[k + 1]?.code || !after.startsWith(' (') || !after.endsWith(tail) || after.length < 2 + tail.length + 1) return undefined;
		out.push({ name: name.text, type: after.slice(2, -tail.length) });
	}
	return out;
}

/** `TYPE → `to` (0.7) — reason` → a link from `from`; undefined when it doesn't read. */
function linkOf(value: string, from: string): Partial<Association> | undefined {
	const arrow = value.indexOf(' → ');
	const type = value.slice(0, arrow);
	if (arrow < 1 || !/^\w+$/.test(type)) return undefined;
	const target = value.slice(arrow + 3);
	const segs = segments(target);
	if (!segs[0]?.code) return undefined;
	const rest = target.slice(segs[0].end);
	if (!rest.startsWith(' (')) return undefined;
	const close = rest.indexOf(')');
	const strength = rest.slice(2, close);
	const reason = rest.slice(close + 1);
	// As String(number) writes it: 0.7, 1, 1e-7.
	if (close < 3 || !/^\d+(\.\d+)?(e[+-]\d+)?$/.test(strength) || (reason !== '' && !reason.startsWith(' — '))) return undefined;
	const a: Partial<Association> = { from, to: segs[0].text, type: type as AssociationType, strength: Number(strength) };
	if (reason.length > 3) a.reason = reason.slice(3);
	return a;
}

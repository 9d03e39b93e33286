/**
 * Foreign Markdown (any notes file that is not an Engram export) as memories. The rule, also
 * written on the Import screen:
 *
 * - one memory per list item (its nested items and continuation lines stay with it) and one per
 *   paragraph; a fenced code block stays with the paragraph or item just before it (else it is a
 *   memory of its own);
 * - the headings above a memory become its tags (`# Project` then `## Billing` → tags
 *   `Project`, `Billing`; a line underlined with `===` or `---` is a heading too); a heading
 *   over the tag length is a memory of its own instead;
 * - what is not a memory is listed as not imported, with why: a horizontal rule, an empty list
 *   item, a heading with nothing under it.
 *
 * One pass over the lines, no backtracking regexes; the caller checks line lengths.
 */
import { LIMITS } from '../core/schemas';

/** A memory read from notes: its 1-based line and its record (content, tags). */
export interface NoteMemory {
	line: number;
	record: { content: string; tags?: string[] };
}

/** Text left out, with its 1-based line: `"---": a horizontal rule`. */
export interface LeftOut {
	line: number;
	text: string;
}

const ITEM = /^ {0,3}([-*+]|\d{1,9}[.)])(?:[ \t]+|$)/;
const RULE = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+|$)/;
/** A setext heading's underline, under its text: `===` (level 1) or `---` (level 2). */
const UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;

function fenceOf(l: string): { ch: string; n: number } | undefined {
	const t = l.replace(/^ {0,3}/, '');
	const ch = t[0];
	if (ch !== '`' && ch !== '~') return undefined;
	let n = 0;
	while (t[n] === ch) n++;
	return n >= 3 ? { ch, n } : undefined;
}

function closes(l: string, f: { ch: string; n: number }): boolean {
	const t = l.replace(/^ {0,3}/, '');
	let n = 0;
	while (t[n] === f.ch) n++;
	return n >= f.n && t.slice(n).trim() === '';
}

/** Whether a line starts a block (and so ends a paragraph). */
function startsBlock(l: string): boolean {
	return HEADING.test(l) || RULE.test(l) || ITEM.test(l) || fenceOf(l) !== undefined;
}

function indentOf(l: string): number {
	let n = 0;
	while (l[n] === ' ') n++;
	return n;
}

/** A heading's text without its closing sequence (`## Title ##`), by scanning (a regex was quadratic on long runs of spaces). */
function titleOf(raw: string): string {
	const t = raw.trim();
	let k = t.length;
	while (k > 0 && t[k - 1] === '#') k--;
	if (k === 0) return '';
	return k < t.length && (t[k - 1] === ' ' || t[k - 1] === '\t') ? t.slice(0, k).trim() : t;
}

/** A line as shown in a not-imported entry. */
function quote(l: string): string {
	const t = l.trim();
	return JSON.stringify(t.length > 80 ? `${t.slice(0, 79)}…` : t);
}

/** Reads notes sections of one file in order; headings carry over between calls. */
export class MarkdownNotes {
	readonly memories: NoteMemory[] = [];
	readonly leftOut: LeftOut[] = [];
	#stack: { level: number; tag?: string; line: number; text: string; used: boolean }[] = [];
	/** The memory a following code block joins (none after a heading or rule), and the line after it. */
	#last: NoteMemory | undefined;
	#lastEnd = 0;

	/** Reads lines [from, to) of `lines`. */
	read(lines: string[], from: number, to: number): void {
		let i = from;
		this.#last = undefined;
		while (i < to) {
			const l = lines[i];
			if (l.trim() === '') {
				i++;
				continue;
			}
			const h = HEADING.exec(l);
			if (h) {
				this.#heading(h[1].length, l.slice(h[0].length), i);
				i++;
				continue;
			}
			if (RULE.test(l)) {
				this.leftOut.push({ line: i + 1, text: `${quote(l)}: a horizontal rule` });
				this.#last = undefined;
				i++;
				continue;
			}
			const f = fenceOf(l);
			if (f) {
				let e = i + 1;
				while (e < to && !closes(lines[e], f)) e++;
				e = Math.min(e + 1, to);
				const code = lines.slice(i, e).join('\n').trim();
				const last = this.#last as NoteMemory | undefined;
				if (last && i - this.#lastEnd <= 1) last.record.content += `\n\n${code}`;
				else this.#emit(i, code);
				this.#last = undefined;
				i = e;
				continue;
			}
			const m = ITEM.exec(l);
			i = m ? this.#item(lines, i, to, m[0].length) : this.#paragraph(lines, i, to);
		}
	}

	/** Notes every heading left with nothing under it; call once after the last `read`. */
	finish(): void {
		while (this.#stack.length) this.#pop();
	}

	#heading(level: number, raw: string, i: number): void {
		while (this.#stack.length && this.#stack[this.#stack.length - 1].level >= level) this.#pop();
		const text = titleOf(raw);
		const fits = text !== '' && text.length <= LIMITS.tagChars;
		this.#stack.push({ level, line: i, text: `${'#'.repeat(level)} ${text}`, used: !fits, ...(fits && { tag: text }) });
		this.#last = undefined;
		if (text !== '' && !fits) this.#emit(i, text);
	}

	#pop(): void {
		const h = this.#stack.pop()!;
		if (!h.used) this.leftOut.push({ line: h.line + 1, text: `${quote(h.text)}: a heading with nothing under it` });
	}

	#emit(i: number, content: string): NoteMemory {
		const tags = this.#stack.flatMap((h) => (h.tag ? [h.tag] : []));
		for (const h of this.#stack) h.used = true;
		const m: NoteMemory = { line: i + 1, record: tags.length ? { content, tags } : { content } };
		this.memories.push(m);
		return m;
	}

	/** A list item from line i (its marker `width` characters wide); returns the line after it. */
	#item(lines: string[], i: number, to: number, width: number): number {
		const body = [lines[i].slice(width)];
		let e = i + 1;
		let gap = false;
		for (; e < to; e++) {
			const l = lines[e];
			if (l.trim() === '') {
				gap = true;
				continue;
			}
			if (indentOf(l) >= width) body.push(...(gap ? [''] : []), l.slice(width));
			else if (!gap && !startsBlock(l)) body.push(l.trim());
			else break;
			gap = false;
		}
		const content = body.join('\n').trim();
		if (content === '') {
			this.leftOut.push({ line: i + 1, text: `${quote(lines[i])}: an empty list item` });
			this.#last = undefined;
		} else this.#last = this.#emit(i, content);
		// Blank lines after the item belong to no one.
		while (e > i + 1 && lines[e - 1].trim() === '') e--;
		this.#lastEnd = e;
		return e;
	}

	/**
	 * A paragraph from line i; returns the line after it. Underlined with `===` or `---`, it is a
	 * heading (setext), whose text tags what follows as a `#` heading's does.
	 */
	#paragraph(lines: string[], i: number, to: number): number {
		let e = i + 1;
		while (e < to && lines[e].trim() !== '' && !startsBlock(lines[e]) && !UNDERLINE.test(lines[e])) e++;
		const under = e < to ? UNDERLINE.exec(lines[e]) : null;
		if (under) {
			this.#heading(
				under[1][0] === '=' ? 1 : 2,
				lines
					.slice(i, e)
					.map((l) => l.trim())
					.join(' '),
				i,
			);
			return e + 1;
		}
		// trimEnd, not trim: the first line keeps its indentation as the others do ("    code\n    more").
		this.#last = this.#emit(i, lines.slice(i, e).join('\n').trimEnd());
		this.#lastEnd = e;
		return e;
	}
}

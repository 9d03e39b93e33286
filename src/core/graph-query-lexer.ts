/**
 * The tokenizer of query_memory_graph's pattern language, and the syntax error every stage of
 * the parser throws (line, column, offset, what was expected and what was found).
 */
import { MemoryError } from './errors';

/** One token: a word, string, number, $param, symbol, or the end of the query. */
export interface Token {
	t: 'word' | 'str' | 'num' | 'param' | 'sym' | 'end';
	v: string;
	pos: number;
	/** Where the token's source ends (after a string's closing quote); set by tokenize. */
	end?: number;
}

const SYMBOLS = ['..', '<=', '>=', '<>', '!=', '(', ')', '[', ']', '{', '}', ':', ',', '.', '-', '<', '>', '=', '*', '|'];

/** The tokens of `src`, ending with an `end` token; throws a syntax error on a stray character. */
export function tokenize(src: string): Token[] {
	const out: Token[] = [];
	let i = 0;
	while (i < src.length) {
		const c = src[i];
		const n = out.length;
		if (/\s/.test(c)) i++;
		else if (src.startsWith('//', i)) i = skipLine(src, i);
		else if (c === '"' || c === "'") i = readString(src, i, out);
		else if (/[0-9]/.test(c)) i = readMatch(src, i, /^[0-9]+(?:\.[0-9]+)?/, 'num', out);
		else if (c === '$') i = readParam(src, i, out);
		else if (c === '`') i = readQuoted(src, i, out);
		else if (/[A-Za-z_]/.test(c)) i = readMatch(src, i, /^[A-Za-z_][A-Za-z0-9_]*/, 'word', out);
		else i = readSymbol(src, i, out);
		if (out.length > n) out[out.length - 1].end = i;
	}
	out.push({ t: 'end', v: '', pos: src.length });
	return out;
}

function skipLine(src: string, i: number): number {
	const nl = src.indexOf('\n', i);
	return nl === -1 ? src.length : nl;
}

function readMatch(src: string, i: number, re: RegExp, t: Token['t'], out: Token[]): number {
	const v = re.exec(src.slice(i))![0];
	out.push({ t, v, pos: i });
	return i + v.length;
}

function readParam(src: string, i: number, out: Token[]): number {
	const m = /^\$([A-Za-z_][A-Za-z0-9_]*)/.exec(src.slice(i));
	if (!m) throw syntaxError(src, i, 'a parameter name after "$"', src[i + 1] ?? 'end of query');
	out.push({ t: 'param', v: m[1], pos: i });
	return i + m[0].length;
}

function readQuoted(src: string, i: number, out: Token[]): number {
	const end = src.indexOf('`', i + 1);
	if (end === -1) throw syntaxError(src, i, 'a closing "`"', 'end of query');
	out.push({ t: 'word', v: src.slice(i + 1, end), pos: i });
	return end + 1;
}

function readString(src: string, i: number, out: Token[]): number {
	const quote = src[i];
	let s = '';
	let j = i + 1;
	while (j < src.length && src[j] !== quote) {
		if (src[j] === '\\' && j + 1 < src.length) {
			const e = src[j + 1];
			s += e === 'n' ? '\n' : e === 't' ? '\t' : e;
			j += 2;
		} else s += src[j++];
	}
	if (j >= src.length) throw syntaxError(src, i, `a closing ${quote} for the string`, 'end of query');
	out.push({ t: 'str', v: s, pos: i });
	return j + 1;
}

function readSymbol(src: string, i: number, out: Token[]): number {
	const sym = SYMBOLS.find((s) => src.startsWith(s, i));
	if (!sym) throw syntaxError(src, i, 'a keyword, name, value or symbol', `"${src[i]}"`);
	out.push({ t: 'sym', v: sym === '!=' ? '<>' : sym, pos: i });
	return i + sym.length;
}

/** A parse error naming the line, column, offset, what was expected and what was found. */
export function syntaxError(src: string, pos: number, expected: string, found: string): MemoryError {
	const before = src.slice(0, pos);
	const line = before.split('\n').length;
	const col = pos - before.lastIndexOf('\n');
	return new MemoryError('invalid_input', `query: at line ${line}, column ${col} (offset ${pos}): expected ${expected}, found ${found}`, {
		position: pos,
		line,
		column: col,
	});
}

/** How an error message names a token. */
export function describe(tok: Token): string {
	if (tok.t === 'end') return 'end of query';
	if (tok.t === 'str') return `string "${tok.v}"`;
	if (tok.t === 'param') return `$${tok.v}`;
	return `"${tok.v}"`;
}

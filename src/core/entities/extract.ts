/**
 * {@link extractEntities}: the passes over a text, in order (code, URLs, paths, handles and tags,
 * identifiers, quoted terms, then proper names in names.ts), each claiming what it finds so a
 * later pass does not take it again; then merging and capping.
 */
import { BARE_FILE_NAMES, FILE_EXTENSION_SET, FILE_EXTENSIONS, FUNCTION_WORDS, PATH_ROOTS, STOP_WORDS, URL_TLDS } from '../data/entity-lexicons';
import { LIMITS, type EntityRef } from '../schemas';
import { plainKey } from './gazetteer';
import { isCapitalised, scanWords } from './names';
import { mergeEntities, mergeKey, trimEnd, typeRank } from './normalise';
import { claim, emit, isFree, known, type Mention, type Scan } from './scan';
import type { EntityType } from './types';

/** Options of {@link extractEntities}. */
export interface ExtractOptions {
	/** Most entities returned (default and ceiling: the schema's entity limit, 100). */
	max?: number;
}

const FENCED_CODE = /```[\s\S]*?(?:```|$)/g;
const INLINE_CODE = /`([^`\n]{1,120})`/g;
/** A data: URL (an image pasted into the text): its base64 reads as names and identifiers. One quantifier per run: linear. */
const DATA_URL_RE = /\bdata:[\w.+-]{1,100}\/[\w.+-]{1,100}[^,\s]{0,200},[^\s)"'<>]*/gi;
const URL_RE = new RegExp(
	String.raw`(?:\b[hH][tT][tT][pP][sS]?:\/\/|\b[wW][wW][wW]\.)[^\s<>"'\x60]+|(?<![\w@.\/-])(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+(?:${URL_TLDS})(?![\w-])(?:\/[^\s<>"'\x60]*)?`,
	'g',
);
const EMAIL_RE = /(?<![\w.+-])[\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?![\w-])/gi;
const WINDOWS_PATH_RE = /(?<![\w\\])[A-Za-z]:\\(?:[^\\\s"'`<>|*?,;]+\\?)*/g;
const UNIX_PATH_RE = /(?<![\w/\\.~@:-])(?:(?:~|\.{1,2})?\/[\w.@+-]+(?:\/[\w.@+-]+)*\/?|(?:~|\.{1,2})\/|[\w@+-][\w.@+-]*(?:\/[\w.@+-]+)+\/?)/g;
const FILE_NAME_RE = new RegExp(
	String.raw`(?<![\w.\/\\@-])(?:[\w-]+(?:\.[\w-]+)*\.(?:${FILE_EXTENSIONS})|\.[a-z][\w.-]*rc|\.env(?:\.[\w-]+)?|\.git(?:ignore|attributes)|\.dockerignore|\.editorconfig)(?![\w-])`,
	'gi',
);
const TECH_SYMBOL_RE = /(?<![\w#+.])(?:C\+\+|C#|F#|\.NET|ASP\.NET|Objective-C)(?![\w#+])/g;
const HANDLE_RE = /(?<![\w@.])@[A-Za-z0-9_](?:[\w.-]{0,48}\w)?(?:\/[\w.-]*\w)?/g;
const HASHTAG_RE = /(?<![\w#&/])#[\p{L}_][\p{L}\p{N}_-]*/gu;
/** "U.S.A" and "e.g" end in a letter that is also a file extension; they are not files. */
const ACRONYM_DOTS = /^(?:[A-Za-z]\.)+[A-Za-z]$/;
const HEX_COLOUR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const CALL_RE = /(?<![\w$.])[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\((?=[^)\n]{0,60}\))/g;
const DOTTED_RE = /(?<![\w.$])[A-Za-z_$][\w$]+(?:\.[A-Za-z_$][\w$]+)+(?![\w$])/g;
const CAMEL_RE = /(?<![\w$])(?:[a-z]+[0-9]*(?:[A-Z][a-z0-9]*)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)*[A-Z][a-z0-9]*)(?![\w$])/g;
const KEBAB_RE = /(?<![\w$.-])[A-Za-z][A-Za-z0-9.]*(?:-[A-Za-z0-9][A-Za-z0-9.]*)+(?![\w$-])/g;
const SNAKE_RE = /(?<![\w$])_*[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+_*(?![\w$])/g;
const QUOTE_RE = /"([^"\n]{2,80})"|“([^”\n]{2,80})”|(?<![\p{L}\p{N}])'([^'\n]{2,60})'(?![\p{L}\p{N}])|‘([^’\n]{2,60})’/gu;
const TRAILING_PUNCT = /[.,;:!?)\]}'"’”>]/;

/**
 * What a pattern needs somewhere in the text to match at all: two characters side by side that
 * every match holds (a lowercase letter or digit then a capital for camelCase, a word character,
 * a dot and a letter for a dotted name…). Most memories are prose, where these pairs are rare:
 * testing for them first skips a pass that would find nothing, for far less than the pattern's
 * lookbehinds cost at every position.
 */
const NEEDS = {
	url: /:\/\/|[wW][wW][wW]\.|[A-Za-z0-9]\.[a-z]/,
	fileName: /\.\w/,
	dotted: /[\w$]\.[A-Za-z_$]/,
	kebab: /[A-Za-z0-9.]-[A-Za-z0-9]/,
	camel: /[a-z0-9][A-Z]/,
};

/** Whether QUOTE_RE can match: a double or curly quote, or a straight one after no letter or digit. */
function mayQuote(text: string): boolean {
	if (text.includes('"') || text.includes('“') || text.includes('‘')) return true;
	for (let i = text.indexOf("'"); i >= 0; i = text.indexOf("'", i + 1))
		if (i === 0 || !LETTER_OR_DIGIT_BEFORE.test(text.slice(Math.max(0, i - 2), i))) return true;
	return false;
}

/** The last code point of a string is a letter or digit. */
const LETTER_OR_DIGIT_BEFORE = /[\p{L}\p{N}]$/u;

/** Leading Mc/Mac/O'/De… names are names, not PascalCase identifiers. */
const NAME_PREFIX = /^(?:Mc|Mac|O'|O’|De|Di|Da|La|Le|Van|Von|Du)[A-Z]/;

/**
 * Finds the entities a text mentions, merged and capped. Deterministic and model-free.
 *
 * @example extractEntities('Maya Chen moved our API from Postgres to DynamoDB, see #infra')
 * // → person "Maya Chen", tool "PostgreSQL", tool "DynamoDB", tag "#infra"
 */
export function extractEntities(text: string, opts: ExtractOptions = {}): EntityRef[] {
	const max = Math.max(0, Math.min(opts.max ?? LIMITS.entities, LIMITS.entities));
	if (!text || max === 0) return [];
	const scan: Scan = { text, mask: new Uint8Array(text.length), out: [] };
	scanCode(scan);
	scanDataUrls(scan);
	scanUrls(scan);
	scanPaths(scan);
	scanHandlesAndTags(scan);
	scanIdentifiers(scan);
	scanQuotes(scan);
	scanWords(scan);
	return selectTop(scan.out, max);
}

/** Merges mentions, keeps the `max` most mentioned (then most specific), in order of appearance. */
function selectTop(mentions: Mention[], max: number): EntityRef[] {
	mentions.sort((a, b) => a.pos - b.pos);
	const valid = mentions.filter((m) => m.name.length <= LIMITS.entityNameChars && m.name.trim());
	const merged = mergeEntities(valid);
	if (merged.length <= max) return merged;
	const counts = new Map<string, number>();
	for (const m of valid) counts.set(mergeKey(m), (counts.get(mergeKey(m)) ?? 0) + 1);
	const ranked = merged
		.map((ref, i) => ({ ref, i, n: counts.get(mergeKey(ref)) ?? 0 }))
		.sort((a, b) => b.n - a.n || typeRank(b.ref.type) - typeRank(a.ref.type) || a.i - b.i)
		.slice(0, max)
		.sort((a, b) => a.i - b.i);
	return ranked.map((r) => r.ref);
}

// --- code-shaped passes ----------------------------------------------------------------------

/** A data: URL names nothing: its span is claimed, so no pass reads its base64 as a name. */
function scanDataUrls(scan: Scan): void {
	if (!/data:/i.test(scan.text)) return;
	for (const m of scan.text.matchAll(DATA_URL_RE)) claim(scan, m.index, m.index + m[0].length);
}

/** Backticked code is one identifier (or file/url/tool); fenced blocks are code-only regions. */
function scanCode(scan: Scan): void {
	if (!scan.text.includes('`')) return;
	for (const m of scan.text.matchAll(FENCED_CODE)) claim(scan, m.index, m.index + m[0].length, 2);
	for (const m of scan.text.matchAll(INLINE_CODE)) {
		if (!isFree(scan, m.index, m.index + m[0].length, false)) continue;
		const inner = m[1].trim();
		if (!inner) continue;
		emit(scan, inner, classifyCode(inner), m.index, m.index + m[0].length);
	}
}

function classifyCode(code: string): EntityType {
	if (known(code)?.type === 'tool') return 'tool';
	if (/^(?:https?:\/\/|www\.)/i.test(code)) return 'url';
	if (looksLikePath(code) || isFileName(code)) return 'file';
	return 'identifier';
}

function scanUrls(scan: Scan): void {
	if (!scan.text.includes('.')) return; // every URL and e-mail address has a dot
	if (scan.text.includes('@'))
		for (const m of scan.text.matchAll(EMAIL_RE)) {
			if (isFree(scan, m.index, m.index + m[0].length)) emit(scan, m[0], 'handle', m.index);
		}
	if (!NEEDS.url.test(scan.text)) return;
	for (const m of scan.text.matchAll(URL_RE)) {
		const url = trimTrailing(m[0]);
		if (!isFree(scan, m.index, m.index + url.length)) continue;
		const hit = known(url);
		if (hit?.type === 'tool') emit(scan, hit.display, 'tool', m.index, m.index + url.length);
		else if (!isFileName(url) || /[:/]/.test(url)) emit(scan, shortenUrl(url), 'url', m.index, m.index + url.length);
	}
}

/** Drops the query and fragment of an over-long URL so it fits the entity name limit. */
function shortenUrl(url: string): string {
	return url.length <= LIMITS.entityNameChars ? url : url.replace(/[?#].*$/, '');
}

/** Strips sentence punctuation and unbalanced closing brackets from a match's end. */
function trimTrailing(s: string): string {
	let out = trimEnd(s, TRAILING_PUNCT);
	if (out.length < s.length && s[out.length] === ')' && out.includes('(')) {
		out += ')'; // keep the bracket of "…/Foo_(bar)" that opened inside the match
		out = out.replace(/[.,;:!?]+$/, '');
	}
	return out;
}

function scanPaths(scan: Scan): void {
	const { text } = scan;
	if (text.includes('#') || text.includes('++') || text.includes('.NET') || text.includes('Objective-C')) {
		for (const m of text.matchAll(TECH_SYMBOL_RE)) {
			if (isFree(scan, m.index, m.index + m[0].length)) emit(scan, m[0], 'tool', m.index);
		}
	}
	if (text.includes('/') || text.includes(':\\')) scanPathLike(scan);
	if (!text.includes('.') || !NEEDS.fileName.test(text)) return;
	for (const m of text.matchAll(FILE_NAME_RE)) {
		const name = m[0];
		if (!isFree(scan, m.index, m.index + name.length) || ACRONYM_DOTS.test(name)) continue;
		const hit = known(name);
		emit(scan, hit?.display ?? name, hit?.type ?? 'file', m.index, m.index + name.length);
	}
}

function scanPathLike(scan: Scan): void {
	for (const re of [WINDOWS_PATH_RE, UNIX_PATH_RE]) {
		for (const m of scan.text.matchAll(re)) {
			const path = trimTrailing(m[0]);
			if (!isFree(scan, m.index, m.index + path.length)) continue;
			if (re === WINDOWS_PATH_RE || looksLikePath(path)) emit(scan, path, 'file', m.index);
		}
	}
}

/** True for strings a person would call a path: rooted, or with an extension, or deep enough. */
function looksLikePath(s: string): boolean {
	if (/^[A-Za-z]:\\/.test(s)) return true;
	if (!/[\p{L}]/u.test(s) || !s.includes('/')) return false;
	if (/^(?:~|\.{1,2})\//.test(s)) return true;
	const parts = s.split('/').filter(Boolean);
	if (s.startsWith('/')) return parts.length >= 2 || isFileName(parts[0] ?? '');
	if (isFileName(parts[parts.length - 1] ?? '') || parts.length >= 3) return true;
	return PATH_ROOTS.has(parts[0].toLowerCase()) || s.endsWith('/');
}

function isFileName(s: string): boolean {
	const lower = s.toLowerCase();
	if (BARE_FILE_NAMES.has(lower)) return true;
	const dot = lower.lastIndexOf('.');
	return dot > 0 && FILE_EXTENSION_SET.has(lower.slice(dot + 1)) && !known(s);
}

function scanHandlesAndTags(scan: Scan): void {
	if (scan.text.includes('@'))
		for (const m of scan.text.matchAll(HANDLE_RE)) {
			if (!isFree(scan, m.index, m.index + m[0].length)) continue;
			// "@scope/package" is an npm package, i.e. a tool.
			emit(scan, m[0], m[0].includes('/') ? 'tool' : 'handle', m.index);
		}
	if (scan.text.includes('#'))
		for (const m of scan.text.matchAll(HASHTAG_RE)) {
			if (HEX_COLOUR.test(m[0]) || !isFree(scan, m.index, m.index + m[0].length)) continue;
			emit(scan, m[0], 'tag', m.index);
		}
}

function scanIdentifiers(scan: Scan): void {
	const { text } = scan;
	if (text.includes('('))
		for (const m of text.matchAll(CALL_RE)) {
			const name = m[0].slice(0, -1);
			const open = m.index + m[0].length;
			const end = text.indexOf(')', open) + 1;
			if (!isCallLike(name, text.slice(open, end - 1))) continue;
			// Only the name is claimed: the arguments may hold identifiers of their own.
			if (isFree(scan, m.index, end)) emit(scan, `${name}()`, 'identifier', m.index, m.index + name.length);
		}
	// A pattern runs only when the text has the character it needs (a cheap scan per pass).
	const passes = [
		text.includes('.') && NEEDS.dotted.test(text) && DOTTED_RE,
		text.includes('_') && SNAKE_RE,
		text.includes('-') && NEEDS.kebab.test(text) && KEBAB_RE,
		NEEDS.camel.test(text) && CAMEL_RE,
	];
	for (const re of passes) if (re) scanIdentifierPass(scan, re);
}

function scanIdentifierPass(scan: Scan, re: RegExp): void {
	for (const m of scan.text.matchAll(re)) {
		const token = m[0];
		if (!isFree(scan, m.index, m.index + token.length)) continue;
		if (re === KEBAB_RE && !isKebabCode(token)) continue;
		if (re === CAMEL_RE && (NAME_PREFIX.test(token) || STOP_WORDS.has(token.toLowerCase()))) continue;
		const hit = known(token);
		// A known capitalised name ("GitHub") is left to the word scanner, which sees the whole
		// name it may start ("GitHub Actions").
		if (hit && re === CAMEL_RE && isCapitalised(token)) continue;
		if (hit) emit(scan, hit.display, hit.type, m.index, m.index + token.length);
		else if (re !== DOTTED_RE || isCodeShaped(token)) emit(scan, token, 'identifier', m.index);
	}
}

/**
 * Kebab-case names with digits or inner capitals are model, region and package names
 * ("all-MiniLM-L6-v2", "eu-west-1", "bge-m3"); "state-of-the-art", "mid-2023", "COVID-19" are not.
 */
function isKebabCode(token: string): boolean {
	const parts = token.split('-');
	const mixed = parts.some((p) => (/\d/.test(p) && /[a-z]/i.test(p)) || /[a-z][A-Z]/.test(p));
	return mixed || (parts.length >= 3 && /\d/.test(token));
}

/** "fn()", "parse(text)", "fetch(url, opts)" are calls; "item(s)" and "Maya(she)" are prose. */
function isCallLike(name: string, args: string): boolean {
	if (args === '' || isCodeShaped(name)) return true;
	if (/^(?:s|es|ies|en|e|er|or|a|an)$/i.test(args)) return false;
	return !/\s/.test(args) || args.includes(',');
}

/** camelCase, PascalCase with inner capitals, snake_case, dotted paths whose parts aren't words. */
function isCodeShaped(name: string): boolean {
	if (name.includes('_') || /[a-z][A-Z]/.test(name)) return true;
	const parts = name.split('.');
	// "e.g" and "i.e" are prose; "os.path" and "Array.prototype" are code.
	return parts.length > 1 && parts.every((p) => p.length >= 2);
}

/** Short quoted phrases become terms; their content is left free so names inside still count. */
function scanQuotes(scan: Scan): void {
	if (!mayQuote(scan.text)) return;
	for (const m of scan.text.matchAll(QUOTE_RE)) {
		const raw = m[1] ?? m[2] ?? m[3] ?? m[4];
		const inner = raw.replace(/[\s.,;:!?]+$/, '').trim();
		if (!inner || !isFree(scan, m.index, m.index + m[0].length, false)) continue;
		if (!isTermLike(inner, raw)) continue;
		scan.out.push({ name: inner, type: 'term', pos: m.index });
	}
}

/**
 * A quoted phrase is a term when short and not an utterance: at most six words, at most half of
 * them function words ("Ship it" yes, "I'll do it tomorrow" no), not ending in ? or !, without
 * commas, not shouted; a single word needs three letters and must not be a stop word.
 */
function isTermLike(inner: string, raw: string): boolean {
	const words = inner.split(/\s+/);
	if (words.length > 6 || !/\p{L}/u.test(inner) || /[?!]\s*$/.test(raw)) return false;
	if (words.length === 1) return !STOP_WORDS.has(plainKey(inner)) && inner.length >= 3;
	if (/[,;]/.test(inner)) return false; // "curious now, not smug" is a remark, not a term
	if (inner === inner.toUpperCase()) return false; // "GO DAD GO" is a cheer
	const stops = words.filter((w) => FUNCTION_WORDS.has(plainKey(w))).length;
	return stops * 2 <= words.length;
}

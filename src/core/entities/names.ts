/**
 * The proper-name pass: lowercase tool names, and runs of capitalised words typed by the
 * gazetteer, the shape of the name (suffixes, honorifics, first names) and the words around it.
 */
import {
	KIN,
	ORG_BEFORE,
	PERSON_AFTER,
	PERSON_BEFORE,
	PLACE_BEFORE,
	PLACE_PREPOSITIONS,
	POSSESSED,
	PROJECT_AFTER,
	PROJECT_BEFORE,
	WEAK_PLACE_BEFORE,
} from '../data/entity-cues';
import {
	CALENDAR_WORDS,
	CAPS_STOP,
	COMMON_WORD_TOOLS,
	FAMILY_NAMES,
	FIRST_NAMES,
	FUNCTION_WORDS,
	HONORIFICS,
	NAME_CONNECTORS,
	ORG_PREFIXES,
	ORG_SUFFIXES,
	PLACE_PREFIXES,
	PLACE_SUFFIXES,
	STOP_WORDS,
} from '../data/entity-lexicons';
import { GAZETTEER, LOWERCASE_TOOLS, plainKey } from './gazetteer';
import { POSSESSIVE } from './normalise';
import { emit, isFree, type Scan } from './scan';
import type { EntityType } from './types';

interface Token {
	text: string;
	start: number;
	end: number;
	key: string;
}

/** A word: letters and digits, joined by an apostrophe, ampersand or hyphen ("O'Brien", "AT&T"). */
const WORD_RE = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*(?:['’&-][\p{L}\p{N}\p{M}]+)*/gu;

/** Most words in a run of capitalised words that can still be a name ("Rocky Mountain National Park"). */
const MAX_RUN = 8;

/** Words scanner: lowercase tool names and runs of capitalised words (proper names). */
export function scanWords(scan: Scan): void {
	const shouting = isShouting(scan.text);
	let run: Token[] = [];
	// Longer runs of capitals are headings or shouting, not names; dropping them also keeps
	// trimRun's lookups from growing with the square of a 10,000-word run.
	let overflow = false;
	const words = wordsIn(scan.text);
	for (let w = 0; w < words.length; w += 2) {
		const start = words[w] as number;
		const text = words[w + 1] as string;
		// Most words are lowercase outside any run: all they can be is a lowercase tool name, so
		// they skip the claim check, the token and the run logic (the same answer, for less).
		if (run.length === 0 && (shouting || !isCapitalised(text))) {
			const key = shouting ? plainKey(text) : text;
			if (LOWERCASE_TOOLS.has(key) && isFree(scan, start, start + text.length, false))
				lowercaseTool(scan, { text, start, end: start + text.length, key });
			continue;
		}
		const free = isFree(scan, start, start + text.length, false);
		const capital = free && !shouting && isCapitalised(text);
		// Only capitalised words need a lookup key; lowercase ones are compared as written.
		const token: Token = {
			text,
			start,
			end: start + text.length,
			key: capital || shouting ? plainKey(text) : text,
		};
		const joins = run.length > 0 && continuesRun(scan.text, run[run.length - 1], token);
		// Lowercase connectors stay in the run only if a capitalised word follows (see trimRun).
		if (joins && (capital || (free && NAME_CONNECTORS.has(text)))) {
			if (run.length < MAX_RUN) run.push(token);
			else overflow = true;
			continue;
		}
		if (!overflow) flushRun(scan, run);
		overflow = false;
		run = capital ? [token] : [];
		if (!capital && free && LOWERCASE_TOOLS.has(token.key)) lowercaseTool(scan, token);
	}
	if (!overflow) flushRun(scan, run);
}

/** A character outside plain ASCII text (printable, tabs and line breaks) other than the typographic apostrophe. */
const NOT_PLAIN = /[^\t\n\r -~’]/;

const isAsciiWordChar = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);

/**
 * WORD_RE's words of a text, as start offset then word, flat. Plain ASCII text is scanned
 * character by character (letters and digits, then any run of ' ’ & or - and letters or
 * digits: the pattern's words there), twice as fast as the pattern, which runs Unicode's
 * classes at every position; any other text goes through the pattern.
 */
export function wordsIn(text: string): (number | string)[] {
	const out: (number | string)[] = [];
	if (NOT_PLAIN.test(text)) {
		for (const m of text.matchAll(WORD_RE)) out.push(m.index, m[0]);
		return out;
	}
	const n = text.length;
	let i = 0;
	while (i < n) {
		if (!isAsciiWordChar(text.charCodeAt(i))) {
			i++;
			continue;
		}
		const from = i;
		while (i < n && isAsciiWordChar(text.charCodeAt(i))) i++;
		for (;;) {
			const c = text.charCodeAt(i);
			if ((c !== 39 && c !== 0x2019 && c !== 38 && c !== 45) || !isAsciiWordChar(text.charCodeAt(i + 1))) break;
			i += 2;
			while (i < n && isAsciiWordChar(text.charCodeAt(i))) i++;
		}
		out.push(from, text.slice(from, i));
	}
	return out;
}

/** A text written mostly in capitals is shouting; its capitals say nothing about names. */
function isShouting(text: string): boolean {
	let upper = 0;
	let lower = 0;
	for (let i = 0; i < text.length && upper + lower < 400; i++) {
		const c = text.charCodeAt(i);
		if (c >= 65 && c <= 90) upper++;
		else if (c >= 97 && c <= 122) lower++;
	}
	return upper + lower >= 20 && upper > lower * 2;
}

/** Whether `word` starts with a capital letter (ASCII or any script with case). */
export function isCapitalised(word: string): boolean {
	const c = word.charCodeAt(0);
	if (c < 128) return c >= 65 && c <= 90; // ASCII fast path: no string allocation
	const first = word[0];
	return first !== first.toLowerCase() && first === first.toUpperCase();
}

function isAllCaps(word: string): boolean {
	return word.length >= 2 && word === word.toUpperCase() && word !== word.toLowerCase();
}

/** Two words belong to one name when one space (or " & ", as in "Bath & Body Works") separates them. */
function continuesRun(text: string, prev: Token, next: Token): boolean {
	const gap = next.start - prev.end;
	if (gap === 3) return text.startsWith(' & ', prev.end);
	if (gap !== 1) return false;
	const c = text[prev.end];
	if (c !== ' ' && c !== '\u00a0' && c !== '\t') return false;
	// "Maya's Team": a possessive ends the name, except in holidays ("New Year's Eve").
	return !POSSESSIVE.test(prev.text) || next.text === 'Day' || next.text === 'Eve';
}

/** True when a word opens a sentence, a line, a list item or a quotation. */
function isSentenceStart(text: string, pos: number): boolean {
	for (let i = pos - 1; i >= 0; i--) {
		const c = text[i];
		if (c === ' ' || c === '\t' || c === '\u00a0') continue;
		if (c === '\n' || c === '\r') return true;
		if ('!?:;-*•>#"“‘(['.includes(c)) return true;
		if (c === '.') return true;
		if (c >= '0' && c <= '9') return lineStartNumber(text, i);
		return false;
	}
	return true;
}

/** "1) Maya" and "2. Maya" at line start are list items. */
function lineStartNumber(text: string, i: number): boolean {
	while (i >= 0 && text[i] >= '0' && text[i] <= '9') i--;
	return i < 0 || text[i] === '\n';
}

/** Distinctive tool names count even in lowercase ("moved from postgres to dynamodb"). */
function lowercaseTool(scan: Scan, token: Token): void {
	const hit = GAZETTEER.get(token.key);
	if (hit) emit(scan, hit.display, 'tool', token.start, token.end);
}

/** Turns a run of capitalised words into zero or more named entities. */
function flushRun(scan: Scan, run: Token[]): void {
	if (run.length === 0) return;
	const initial = isSentenceStart(scan.text, run[0].start);
	let tokens = trimRun(run, initial);
	// A sentence-opening verb ("Adopted Luna", "Visiting Kyoto") is not part of the name.
	let stillInitial = initial && tokens[0] === run[0];
	if (stillInitial && tokens.length > 1 && looksLikeVerb(tokens[0]) && !GAZETTEER.has(runKey(tokens))) {
		tokens = trimRun(tokens.slice(1), false);
		stillInitial = false;
	}
	for (const part of splitRun(tokens)) {
		const mention = nameMention(scan, part, stillInitial && part[0] === tokens[0]);
		if (mention) emit(scan, mention.name, mention.type, part[0].start, part[part.length - 1].end);
	}
}

function looksLikeVerb(t: Token): boolean {
	return t.text.length >= 5 && /(?:ing|ed|ly)$/.test(t.key) && !FIRST_NAMES.has(t.key);
}

/** A word that cannot stand at a name's edge: a stop word, calendar word or honorific. */
function isEdgeJunk(t: Token, next: Token | undefined, initial: boolean): boolean {
	if (NAME_CONNECTORS.has(t.key)) return true;
	if (isAllCaps(t.text)) return CAPS_STOP.has(t.key);
	// "Will Smith", "May Chen": a first name followed by a surname is kept.
	if (FIRST_NAMES.has(t.key) && next && !STOP_WORDS.has(next.key) && !CALENDAR_WORDS.has(next.key)) return false;
	// "Mom" and "Grandma" alone are people; "Uncle" in "Uncle Bob" is a title.
	if (FAMILY_NAMES.has(t.key)) return next !== undefined;
	if (CALENDAR_WORDS.has(t.key) || HONORIFICS.has(t.key)) return true;
	// "Go ahead" opens a sentence with a verb; "React Redux" opens it with a list of tools.
	if (initial && COMMON_WORD_TOOLS.has(t.key)) return !next || !GAZETTEER.has(next.key);
	if (initial) return STOP_WORDS.has(t.key);
	// Mid-sentence capitals mark a proper noun: "I write Go", "ask Will", "the New Deal"; only
	// pronouns and articles ("I", "The") are dropped.
	return FUNCTION_WORDS.has(t.key) && !GAZETTEER.has(t.key) && !FIRST_NAMES.has(t.key);
}

/**
 * Shouting inside normal text ("NO WAY", "GO DAD GO", "PASSED") is not a name: several capitals-only
 * words, or one of five letters or more, that no lexicon knows. Short acronyms ("AWS", "CPA") stay.
 */
function isShoutedRun(tokens: Token[]): boolean {
	if (!tokens.every((t) => isAllCaps(t.text)) || GAZETTEER.has(runKey(tokens))) return false;
	// "AWS MSK" and "GCP IAM" are acronyms side by side; "NO WAY" and "GO DAD GO" have words.
	const shouted = (t: Token) => STOP_WORDS.has(t.key) || (t.key.length >= 5 && !FIRST_NAMES.has(t.key) && /^[a-z]+$/.test(t.key));
	return tokens.length > 1 ? tokens.some((t) => shouted(t) || t.key.length >= 5) : shouted(tokens[0]);
}

/** "Memorial Day", "Christmas Eve", "Mother's Day", "New Year": holidays are dates, not entities. */
function isHoliday(tokens: Token[]): boolean {
	const last = tokens[tokens.length - 1].key;
	return tokens.length > 1 && (last === 'day' || last === 'eve' || runKey(tokens) === 'new year');
}

/** Drops stop words, calendar words and connectors from the ends of a run (keeping "New York"). */
function trimRun(run: Token[], initial: boolean): Token[] {
	if (run.length > 1 && GAZETTEER.has(runKey(run))) return run;
	let a = 0;
	let b = run.length;
	while (a < b && isEdgeJunk(run[a], run[a + 1], initial && a === 0)) {
		a++;
		if (b - a > 1 && GAZETTEER.has(runKey(run.slice(a, b)))) return run.slice(a, b);
	}
	while (b > a && isEdgeJunk(run[b - 1], undefined, false)) b--;
	return run.slice(a, b);
}

function runKey(tokens: Token[]): string {
	return tokens.map((t) => t.key).join(' ');
}

/**
 * Splits a run into separate names when the whole is unknown but every word is a known name
 * ("React Redux TypeScript", "Paris France"); otherwise keeps it whole ("Maya Chen").
 */
function splitRun(tokens: Token[]): Token[][] {
	if (tokens.length < 2 || GAZETTEER.has(runKey(tokens))) return tokens.length ? [tokens] : [];
	const allKnown = tokens.every((t) => GAZETTEER.has(t.key) && !FIRST_NAMES.has(t.key));
	return allKnown ? tokens.map((t) => [t]) : [tokens];
}

/** The words next to a name, lowercase: nearest first before it, in reading order after it. */
interface NameContext {
	before: string[];
	after: string[];
	/** The word before ends in a dot ("Dr."), so only an honorific can be a cue. */
	dotted: boolean;
	personCue: boolean;
	firstName: boolean;
}

const isWordCode = (c: number): boolean =>
	(c >= 97 && c <= 122) ||
	(c >= 65 && c <= 90) ||
	(c >= 48 && c <= 57) ||
	c === 39 ||
	c === 45 ||
	c === 0x2019 ||
	(c > 127 && /\p{L}/u.test(String.fromCharCode(c)));

/** Up to `max` words on one side of [start, end), separated by blanks only; stops at punctuation. */
function wordsNear(text: string, from: number, dir: 1 | -1, max: number): string[] {
	const out: string[] = [];
	let i = dir < 0 ? from - 1 : from;
	while (out.length < max) {
		const blankStart = i;
		while (i >= 0 && i < text.length && (text[i] === ' ' || text[i] === '\t')) i += dir;
		if (i === blankStart) break; // punctuation or text edge: the context ends here
		let j = i;
		while (j >= 0 && j < text.length && isWordCode(text.charCodeAt(j))) j += dir;
		if (j === i) break;
		out.push((dir < 0 ? text.slice(j + 1, i + 1) : text.slice(i, j)).toLowerCase());
		i = j;
	}
	return out;
}

/** The lowercase word that ends just before index `end`. */
function wordEndingAt(text: string, end: number): string {
	let i = end;
	while (i > 0 && isWordCode(text.charCodeAt(i - 1))) i--;
	return text.slice(i, end).toLowerCase();
}

function nameContext(text: string, tokens: Token[]): NameContext {
	const start = tokens[0].start;
	const last = tokens[tokens.length - 1];
	const dotted = start >= 2 && text[start - 1] === ' ' && text[start - 2] === '.';
	const before = dotted ? [wordEndingAt(text, start - 2)] : wordsNear(text, start, -1, 2);
	const after = wordsNear(text, last.end, 1, 2);
	const ctx: NameContext = {
		before,
		after,
		dotted,
		personCue: false,
		firstName: FIRST_NAMES.has(tokens[0].key),
	};
	const strong = HONORIFICS.has(before[0] ?? '') || (!dotted && (PERSON_BEFORE.has(before[0]) || (before[1] === 'my' && KIN.has(before[0]))));
	// "in Racine and I had a shift": a following verb says less than a preceding preposition, and
	// "MRI says" is an acronym, not a person.
	const weak =
		!PLACE_PREPOSITIONS.has(before[0]) &&
		!isAllCaps(tokens[0].text) &&
		(hasCue(PERSON_AFTER, after, true) || (POSSESSIVE.test(last.text) && POSSESSED.has(after[0])));
	// "the Sicilian", "in English": demonyms and languages are not people.
	ctx.personCue = (strong || weak) && !(tokens.length === 1 && !ctx.firstName && DEMONYM.test(tokens[0].key));
	return ctx;
}

/** True when the nearest one or two words (in text order) form a phrase of `set`. */
function hasCue(set: Set<string>, ws: string[], forward = false): boolean {
	if (ws.length === 0) return false;
	if (set.has(ws[0])) return true;
	return ws.length > 1 && set.has(forward ? `${ws[0]} ${ws[1]}` : `${ws[1]} ${ws[0]}`);
}

const DEMONYM = /(?:ian|ese|ish)$/;

const cueBefore = (set: Set<string>, ctx: NameContext) => !ctx.dotted && hasCue(set, ctx.before);

/** Type and display name of a run of capitalised words, or nothing when it is not a name. */
function nameMention(scan: Scan, tokens: Token[], initial: boolean): { name: string; type: EntityType } | undefined {
	const start = tokens[0].start;
	const end = tokens[tokens.length - 1].end;
	const name = scan.text.slice(start, end).replace(POSSESSIVE, '');
	const ctx = nameContext(scan.text, tokens);
	const hit = lexiconHit(tokens);
	if (hit) return { name: hit.display, type: knownType(hit.type, tokens, ctx) };
	if (isShoutedRun(tokens) || isHoliday(tokens)) return undefined;
	const type = inferType(tokens, ctx);
	if (type === 'concept' && initial && !acceptInitialUnknown(tokens)) return undefined;
	if (type === 'concept' && tokens.length === 1 && (tokens[0].text.length < 2 || STOP_WORDS.has(tokens[0].key))) return undefined;
	return { name, type };
}

/**
 * The lexicon entry for a run, unless the writing contradicts it: a tool written in lowercase
 * ("pip", "npm") capitalised as a name ("Pip the otter") is the name.
 */
function lexiconHit(tokens: Token[]): { display: string; type: EntityType } | undefined {
	const hit = GAZETTEER.get(runKey(tokens));
	if (!hit || hit.type !== 'tool' || tokens.length > 1) return hit;
	const text = tokens[0].text;
	const titleCase = text.length > 1 && text.slice(1) === text.slice(1).toLowerCase();
	return titleCase && hit.display === hit.display.toLowerCase() ? undefined : hit;
}

/** A gazetteer hit, unless context says otherwise ("Jordan Smith", "with Sofia", "Phoenix app"). */
function knownType(type: EntityType, tokens: Token[], ctx: NameContext): EntityType {
	if (type === 'place' && ctx.firstName) {
		if (tokens.length > 1 || ctx.personCue) return 'person';
		if (!cueBefore(PLACE_BEFORE, ctx) && !cueBefore(PLACE_PREPOSITIONS, ctx)) return 'person';
	}
	if (type !== 'tool' && (cueBefore(PROJECT_BEFORE, ctx) || PROJECT_AFTER.has(ctx.after[0]))) return 'project';
	return type;
}

function inferType(tokens: Token[], ctx: NameContext): EntityType {
	const first = tokens[0].key;
	const last = tokens[tokens.length - 1].key;
	const multi = tokens.length > 1;
	if (multi && (ORG_SUFFIXES.has(last) || ORG_PREFIXES.has(first))) return 'organisation';
	if (first === 'project' || cueBefore(PROJECT_BEFORE, ctx) || PROJECT_AFTER.has(ctx.after[0])) return 'project';
	if (cueBefore(ORG_BEFORE, ctx)) return 'organisation';
	if (ctx.personCue) return 'person';
	// "Sky Islands", "Mason Street": a place suffix outweighs a first name.
	if (multi && (PLACE_SUFFIXES.has(last) || PLACE_PREFIXES.has(first))) return 'place';
	if ((ctx.firstName && tokens.length <= 4) || FAMILY_NAMES.has(first)) return 'person';
	if (cueBefore(PLACE_BEFORE, ctx)) return 'place';
	// "in Racine", "near Florianópolis": an unknown name after a locative preposition.
	if (!ctx.dotted && WEAK_PLACE_BEFORE.has(ctx.before[0]) && tokens.length <= 3 && !DEMONYM.test(last)) return 'place';
	const head = GAZETTEER.get(first);
	// "Google Maps", "Azure Functions": a product of a known company or platform.
	if (multi && head && (head.type === 'organisation' || head.type === 'tool')) return 'tool';
	return 'concept';
}

/**
 * A capitalised word opening a sentence is usually just a word ("Deploy", "Meanwhile"): keep an
 * unknown one only when it is an acronym or starts a multi-word name ("Blue Harbor Cafe").
 */
function acceptInitialUnknown(tokens: Token[]): boolean {
	return tokens.length > 1 || isAllCaps(tokens[0].text);
}

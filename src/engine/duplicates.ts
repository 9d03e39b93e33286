/**
 * Near-duplicate detection. Two memories in the same scope are duplicates when their normalised
 * content is equal, or when their vectors are nearly parallel AND every word of the new one
 * (articles aside) is one of the stored one's: it drops words, never adds or swaps one. The word check matters: averaged word vectors put "deploys happen on
 * Tuesday" and "… on Thursday", "limit 100" and "limit 1000", "is enabled" and "is not enabled"
 * at cosine 0.96–1.0 (bench/calibrate-thresholds.ts), and merging those would lose a fact.
 * The subset rule alone folded "Meeting with team A at 3pm" into "… team B …" ("a" read as the
 * article), and "Lunch with Alice and Bob" into "Lunch with Alice": so a word that names or
 * counts (a number, a single letter, a capitalised name, a negation) that only one of the two
 * texts holds keeps them apart, whatever the cosine. Comparing content words only (function
 * words dropped) folded "Alice moved to Berlin" into "… from Berlin", "He prefers the window
 * seat" into "She …" and "The cat sleeps on the sofa" into "… under the sofa": a swapped word,
 * however small, is another fact. And a new text adding a word ("Alice likes green tea" after
 * "Alice likes tea", "push images to the private registry") was folded into the shorter one,
 * losing the detail; a new text that only drops words loses nothing.
 * A missed duplicate only costs a second, SIMILAR_TO-linked copy; a false merge loses data.
 */
import { tokenize } from '../core/text';

/** A word as core/text's tokenizer sees one, found in the text as written (case kept). */
const WORD_RE = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

/**
 * Words that say little about what a memory is about: articles, prepositions, pronouns and
 * auxiliaries. They do not count towards one subject (possible updates) or as names; they do
 * count in the duplicate guard, where only ARTICLES are ignored ("from" is not "to"). Quantifiers
 * ("all", "only", "both", "some") and negations are NOT here: "tagged with both" and "tagged
 * with x only" are different facts.
 */
const FUNCTION_WORDS = new Set(
	(
		'a an the of to in on at for with by from into onto about as and or but so then than that this these those it its ' +
		'i me my we us our you your he him his she her they them their is are was were be been being am do does did ' +
		'has have had will would shall should can could may might must there here which who whom whose what'
	).split(' '),
);

/** The only words whose swap or absence leaves a duplicate one: "a meeting" is "the meeting". */
const ARTICLES: ReadonlySet<string> = new Set(['a', 'an', 'the']);

/**
 * Words that make a statement another one, not a fuller one: hedges and modals ("Bob almost won
 * the race"), what used to be or was only tried ("The server was previously in Frankfurt", "Alice
 * tried to quit smoking"), exclusivity ("Only admins can delete projects"), frequency, and bounds
 * ("Upload up to 10 files", "Children under 12 ride free"). A new
 * text that drops one of them from a stored text says something the stored one does not ("Bob
 * won the race"), so it is kept, though every word of it is the stored text's.
 */
const MODIFIERS: ReadonlySet<string> = new Set(
	(
		'almost nearly barely hardly scarcely maybe perhaps possibly probably likely unlikely allegedly supposedly apparently ' +
		'reportedly presumably might may could should would must can shall used formerly former previously once ex stopped ' +
		'quit ceased longer anymore try tries tried trying attempt attempted attempts plan plans planned planning want wants ' +
		'wanted hope hopes hoped intend intends intended expect expects expected supposed only except unless excluding ' +
		'failed fails fail unable refused declined rejected cancelled canceled fake false wrong incorrect mistakenly rumored ' +
		'rumoured rarely seldom sometimes occasionally usually often stop stops avoid avoids avoided avoiding anti ' +
		// Bounds and approximations of a number or kind: "at most 10", "more than 50", "under 12",
		// "about 3 hours", "every other Monday", "half German", "step-mother" are not their number or kind.
		'about around approximately approx roughly circa least most more less fewer over under above below beyond up other half step'
	).split(' '),
);

/** Words that flip a statement's meaning: a restatement with one more or one fewer is not a duplicate. */
export const NEGATIONS: ReadonlySet<string> = new Set([
	'not',
	'no',
	'never',
	'none',
	'nothing',
	'without',
	'dont',
	'doesnt',
	'didnt',
	'isnt',
	'arent',
	'wasnt',
	'werent',
	'cant',
	'cannot',
	'wont',
	'shouldnt',
	'nor',
	'non',
	// Other languages' "not", "no" and "never" (as the tokenizer has them, accents dropped): a
	// text that drops "niet" or "não" from a stored one says the opposite.
	'nicht',
	'kein',
	'keine',
	'keinen',
	'keinem',
	'keiner',
	'keines',
	'nie',
	'niemals',
	'niet',
	'geen',
	'nooit',
	'inte',
	'ikke',
	'ej',
	'aldrig',
	'aldri',
	'ne',
	'pas',
	'jamais',
	'aucun',
	'aucune',
	'nao',
	'nunca',
	'jamas',
	'mai',
	'nigdy',
	'не',
	'нет',
	'никогда',
]);

/**
 * Symbols that change what a text says though no word holds them: currency and other symbols, #,
 * %, @, &, *, slashes, a question mark and a minus sign before a number. Words and edge
 * punctuation drop them, so "-5 degrees" and "5 degrees", "Price: €5" and "Price: $5", "C#" and
 * "C", "The server is down?" and "The server is down" read as one fact.
 */
const MARK_RE = /[\p{S}#%@&*/\\?¿]|(?<![\p{L}\p{N}])[-\u2212](?=\p{N})/gu;

/** The distinct symbols of MARK_RE in `text`, sorted. */
function marksOf(text: string): string {
	return [...new Set(text.normalize('NFKC').match(MARK_RE) ?? [])].sort().join('');
}

/** Each word but an article, lower-cased, in the order they first appear. */
function wordOrder(text: string): string[] {
	const out: string[] = [];
	const seen = new Set<string>();
	for (const m of text.matchAll(WORD_RE)) {
		const w = m[0].toLowerCase();
		if (ARTICLES.has(w) || seen.has(w)) continue;
		seen.add(w);
		out.push(w);
	}
	return out;
}

/** Superscript digits: NFKC reads "10²" as "102" and "x²" as "x2". */
const SUPERSCRIPT_RE = /[\u00b2\u00b3\u00b9\u2070\u2074-\u2079]/gu;

/**
 * A number as written: digits joined by . , : / or - ("10.0.0.1", "1/11/11", "10:10", "1,000"),
 * a superscript digit marked "^", and a prime after it (6′ is feet).
 */
const NUMBER_RE = /(?:\^?\p{N})+(?:[.,:/-](?:\^?\p{N})+)*[\u2032\u2033]*/gu;

/** The distinct numbers of `text` as written (NUMBER_RE), in the order they first appear. */
function numbersOf(text: string): string[] {
	const s = text.replace(SUPERSCRIPT_RE, (c) => `^${c.normalize('NFKC')}`).normalize('NFKC');
	return [...new Set(s.match(NUMBER_RE) ?? [])];
}

/**
 * A word with a digit and a capital after a small letter ("AbC123", "aB3x"): a key or code, whose
 * case is part of what it names. Names alone ("PostgreSQL", "iPhone") are restated in any case.
 */
const CASE_MARKED_RE = /^(?=.*\p{N}).*\p{Ll}\p{Lu}/u;

/** Whether every case-marked word of `a` (CASE_MARKED_RE) that `b` holds in any case, `b` holds as written. */
function keepsCase(a: string, b: string): boolean {
	let lower: Set<string> | undefined;
	let exact: Set<string> | undefined;
	for (const m of a.matchAll(WORD_RE)) {
		const w = m[0];
		if (!CASE_MARKED_RE.test(w)) continue;
		exact ??= new Set(b.match(WORD_RE) ?? []);
		lower ??= new Set([...exact].map((x) => x.toLowerCase()));
		if (!exact.has(w) && lower.has(w.toLowerCase())) return false;
	}
	return true;
}

/** The indentation of each non-blank line after the first, or null for a text of one line. */
function indentsOf(text: string): string[] | null {
	const lines = text.trim().split(/\r\n?|[\n\u2028\u2029]/);
	if (lines.length < 2) return null;
	return lines.slice(1).flatMap((l) => (l.trim() === '' ? [] : [/^[ \t]*/.exec(l)![0]]));
}

/** Words joined by hyphens ("mother-in-law", "non-smoking", "read-only"), lower-cased. */
const COMPOUND_RE = /[\p{L}\p{N}]+(?:[-\u2010\u2011][\p{L}\p{N}]+)+/gu;

/**
 * Whether each hyphenated compound of `a` is one of `b`'s too, or `b` holds none of its parts: a
 * compound is one word, and "mother" is not "mother-in-law", nor "smoking" "non-smoking".
 */
function keepsCompounds(a: string, b: string): boolean {
	const mine = a.toLowerCase().match(COMPOUND_RE);
	if (!mine) return true;
	const other = b.toLowerCase();
	const theirs = new Set(other.match(COMPOUND_RE) ?? []);
	let words: Set<string> | undefined;
	for (const c of mine) {
		if (theirs.has(c)) continue;
		words ??= new Set(other.match(WORD_RE) ?? []);
		if (c.split(/[-\u2010\u2011]/).some((p) => words!.has(p))) return false;
	}
	return true;
}

/** Whether the words `a` and `b` both hold come in the same order in each. */
function sameOrder(a: string[], b: string[]): boolean {
	const inA = new Set(a);
	const inB = new Set(b);
	const ca = a.filter((w) => inB.has(w));
	const cb = b.filter((w) => inA.has(w));
	return ca.length === cb.length && ca.every((w, i) => w === cb[i]);
}

/**
 * The last check before two texts the other checks call duplicates are folded: the same symbols
 * (MARK_RE), the same numbers as written, the words both hold in the same order ("Alice manages
 * Bob" is not "Bob manages Alice", "convert celsius to fahrenheit" not "… fahrenheit to celsius",
 * "It is done." not "Is it done?"), a code like "AbC123" in the same case, a hyphenated
 * compound whole or not at all ("mother-in-law" is not "mother"), and,
 * when both run over several lines, the same indentation (code). Numbers as written, because
 * words split them: "10.0.0.1" and "10.0.1.0", "1.1.0" and "1.0.1", "1/1/11" and "1/11/11",
 * "2.2" and "2.2.2" hold the same words in the same order; and NFKC makes "10²" "102". Run only
 * on a found duplicate, so its cost is not on the path of every comparison. A miss costs a
 * second, linked copy.
 */
export function sameFact(a: string, b: string): boolean {
	if (marksOf(a) !== marksOf(b)) return false;
	const na = numbersOf(a);
	const nb = numbersOf(b);
	if (na.length !== nb.length || na.some((n, i) => n !== nb[i])) return false;
	if (!sameOrder(wordOrder(a), wordOrder(b)) || !keepsCase(a, b) || !keepsCase(b, a)) return false;
	if (!keepsCompounds(a, b) || !keepsCompounds(b, a)) return false;
	const ia = indentsOf(a);
	const ib = indentsOf(b);
	return ia === null || ib === null || (ia.length === ib.length && ia.every((x, i) => x === ib[i]));
}

/** Lower-cased words that carry meaning (function words dropped). */
export function contentWords(text: string): Set<string> {
	return new Set(tokenize(text).filter((w) => !FUNCTION_WORDS.has(w)));
}

/** Whether every word of `a` but an article is one of `b`'s, and `a` drops none of `b`'s MODIFIERS. */
function wordSubset(a: Set<string>, b: Set<string>): boolean {
	for (const w of a) if (!b.has(w) && !ARTICLES.has(w)) return false;
	for (const w of b) if (MODIFIERS.has(w) && !a.has(w)) return false;
	return true;
}

/** The pronoun "I" and its contractions (I'm, I'll, I've, I'd), capitalised anywhere. */
const PRONOUN_I = /^I(?:['’]\p{L}+)?$/u;

/** A word of ASCII letters and digits only. */
const PLAIN = /^[A-Za-z0-9]+$/;

/** Whether text[from, to) — what lies between two words — holds a . ! ? : ; or line break, so the second starts a sentence. */
function endsSentence(text: string, from: number, to: number): boolean {
	for (let i = from; i < to; i++) {
		const c = text.charCodeAt(i);
		// . ! ? : ; \n
		if (c === 46 || c === 33 || c === 63 || c === 58 || c === 59 || c === 10) return true;
	}
	return false;
}

/**
 * The lower-cased words of `text` that name or count: any with a digit ("3pm", "v2"), a single
 * letter other than the article "a" and the pronoun "i" ("plan x"; "team A" mid-sentence counts
 * as a name), a word capitalised mid-sentence other than "I" (a name), and negations. A word
 * capitalised only at a sentence's start is not a name ("All tests must pass").
 */
export function sharpWords(text: string): Set<string> {
	const out = new Set<string>();
	let end = 0;
	for (const m of text.matchAll(WORD_RE)) {
		const raw = m[0];
		const start = end === 0 || endsSentence(text, end, m.index);
		end = m.index + raw.length;
		// A plain ASCII word is its own token, lower-cased (the tokenizer's answer, without a
		// regex run per word: this loop ran for every word of every text a batch compares).
		const w = PLAIN.test(raw) ? raw.toLowerCase() : tokenize(raw)[0];
		if (w === undefined) continue;
		const first = raw[0];
		const capital = first !== first.toLowerCase();
		// A one-letter word names ("plan x"); a Chinese or Japanese character (tokenize's first of a run) does not.
		const letter = w.length === 1 && w !== 'a' && w !== 'i' && w.charCodeAt(0) < 0x2e80;
		if (/\p{N}/u.test(w) || NEGATIONS.has(w) || letter || (capital && !start && !PRONOUN_I.test(raw))) out.add(w);
	}
	return out;
}

/**
 * Whether a word that names or counts in one text is missing from the other's words. A single
 * letter counts as present only where it also names something there: "team A" is not in "a team",
 * whose "a" is the article.
 */
function loses(sharp: Set<string>, words: Set<string>, otherSharp: Set<string>): boolean {
	for (const w of sharp) if (w.length === 1 ? !otherSharp.has(w) : !words.has(w)) return true;
	return false;
}

/** The word sets the duplicate checks compare, worked out once per text (see wordsOf). */
export interface Words {
	/** The text's length in characters. */
	chars: number;
	tokens: Set<string>;
	sharp: Set<string>;
	content: Set<string>;
}

/** The word sets of `text` (tokens, sharpWords, contentWords). */
export function wordsOf(text: string): Words {
	if (!NOT_PLAIN.test(text)) return plainWordsOf(text);
	const tokens = tokenize(text);
	return { chars: text.length, tokens: new Set(tokens), sharp: sharpWords(text), content: new Set(tokens.filter((w) => !FUNCTION_WORDS.has(w))) };
}

/**
 * A character outside plain text: printable ASCII, tabs, line breaks and the typographic
 * apostrophe, whose lower case keeps every offset.
 */
const NOT_PLAIN = /[^\t\n\r -~’]/;

/**
 * The words of plain text (see NOT_PLAIN) in one pass, character by character (WORD_RE's words:
 * ASCII letters and digits, then any run of an apostrophe and letters): the tokenizer's tokens
 * are these words lower-cased (its lower-casing moves no word boundary), so tokens and sharp
 * words need not each run the word pattern (the two passes were most of a batch store's
 * duplicate checks). `visit` gets each word's token and whether it is sharp (a digit, a negation,
 * a single letter but a/i, or a capital not starting a sentence).
 */
function scanPlainWords(text: string, visit: (token: string, sharp: boolean) => void): void {
	const n = text.length;
	let end = 0;
	let i = 0;
	while (i < n) {
		if (!isAsciiWordChar(text.charCodeAt(i))) {
			i++;
			continue;
		}
		const from = i;
		// Only the first run of a word (before any apostrophe) can hold digits.
		let digit = false;
		for (let c = text.charCodeAt(i); i < n && isAsciiWordChar(c); c = text.charCodeAt(++i)) if (c <= 57) digit = true;
		let apostrophe = false;
		for (;;) {
			const a = text.charCodeAt(i);
			if ((a !== 39 && a !== 0x2019) || !isAsciiLetter(text.charCodeAt(i + 1))) break;
			apostrophe = true;
			i += 2;
			while (i < n && isAsciiLetter(text.charCodeAt(i))) i++;
		}
		const raw = text.slice(from, i);
		const start = end === 0 || endsSentence(text, end, from);
		end = i;
		const lower = raw.toLowerCase();
		// tokenize()'s token for the word: possessive 's dropped, other apostrophes joined.
		const w = apostrophe ? lower.replace(/['’]s$/, '').replace(/['’]/g, '') : lower;
		if (w.length === 0) continue;
		const first = raw.charCodeAt(0);
		const capital = first >= 65 && first <= 90;
		visit(w, digit || NEGATIONS.has(w) || (w.length === 1 && w !== 'a' && w !== 'i') || (capital && !start && !PRONOUN_I.test(raw)));
	}
}

/** wordsOf for plain text (see NOT_PLAIN). */
function plainWordsOf(text: string): Words {
	const tokens = new Set<string>();
	const content = new Set<string>();
	const sharp = new Set<string>();
	scanPlainWords(text, (w, isSharp) => {
		tokens.add(w);
		if (!FUNCTION_WORDS.has(w)) content.add(w);
		if (isSharp) sharp.add(w);
	});
	return { chars: text.length, tokens, sharp, content };
}

/**
 * packWords(wordsOf(text)) for plain text (see NOT_PLAIN), in the same one pass: each word is
 * interned as found and kept as its number, and no set of content words is built (a packed set
 * derives them from the word flags). The numbers may differ from packWords' (interned in another
 * order), never the answers: only their order within one vocabulary is compared. Working out the
 * new texts' words was most of a batch store's possible-update checks.
 */
function plainPackedWords(text: string): PackedWords {
	const tokens: number[] = [];
	const sharp: number[] = [];
	scanPlainWords(text, (w, isSharp) => {
		const id = wordId(w);
		tokens.push(id);
		if (isSharp) sharp.push(id);
	});
	return packIds(text.length, distinct(sharp), distinct(tokens));
}

/** The distinct numbers of `ids`, ascending. */
function distinct(ids: number[]): Int32Array {
	const a = Int32Array.from(ids).sort();
	let k = 0;
	for (let i = 0; i < a.length; i++) if (i === 0 || a[i] !== a[k - 1]) a[k++] = a[i];
	return k === a.length ? a : a.slice(0, k);
}

const isAsciiLetter = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
const isAsciiWordChar = (c: number) => isAsciiLetter(c) || (c >= 48 && c <= 57);

/** Texts whose word sets are remembered between calls (wordCache); the oldest go first. */
export const WORD_CACHE_SIZE = 8_192;

const remembered = new Map<string, Words>();

/**
 * wordsOf, remembered per text (up to WORD_CACHE_SIZE texts, shared by every store: the word sets
 * are a pure function of the text). A batch compares each of its texts with many others, and
 * working out a text's words again for every pair was most of a 500-memory store (the tokenizer
 * and sharpWords ran ~100 times per memory); a batch's items are then the stored neighbours of
 * the next batch's.
 */
export function wordCache(): (text: string) => Words {
	return (text) => {
		let w = remembered.get(text);
		if (!w) {
			if (remembered.size >= WORD_CACHE_SIZE) remembered.delete(remembered.keys().next().value!);
			remembered.set(text, (w = wordsOf(text)));
		}
		return w;
	};
}

/**
 * True when a new text `incoming`, a vector match at `cosine` of the `stored` text, is its
 * near-duplicate: at or above `threshold`, no word that names or counts in only one of them
 * (sharpWords), and every word of `incoming` but an article one of `stored`'s (it may drop
 * words, never add or swap one: folding it then loses nothing it says).
 */
export function isNearDuplicate(cosine: number, threshold: number, incoming: string, stored: string): boolean {
	return cosine >= threshold && nearDuplicateWords(cosine, threshold, wordsOf(incoming), wordsOf(stored));
}

/** isNearDuplicate on texts' word sets (wordsOf). */
export function nearDuplicateWords(cosine: number, threshold: number, incoming: Words, stored: Words): boolean {
	if (cosine < threshold) return false;
	if (loses(incoming.sharp, stored.tokens, stored.sharp) || loses(stored.sharp, incoming.tokens, incoming.sharp)) return false;
	return wordSubset(incoming.tokens, stored.tokens);
}

/** Share of the shorter text's other content words the longer must hold for one subject. */
const UPDATE_OVERLAP = 0.5;

/**
 * Texts longer than this are documents, not a stated value: never compared (a batch of 210
 * 40k-character notes took minutes of word analysis on a loaded 2-core machine).
 */
export const UPDATE_MAX_CHARS = 2000;

/**
 * True when `b` may state a changed value of what `a` states (store_memory's
 * `possible_update_of`): a vector match at or above `threshold`, a word that names or counts
 * (sharpWords) in only one of them, and at least half of the shorter's other content words in
 * the longer — one subject, a different number, name or negation ("deploys happen on Tuesday" →
 * "… on Thursday", "the limit is 100" → "… 1000", "is enabled" → "is not enabled"). Says
 * nothing about which is true: the agent decides whether to supersede. Texts over
 * UPDATE_MAX_CHARS are never flagged.
 */
export function isPossibleUpdate(cosine: number, threshold: number, a: string, b: string): boolean {
	if (cosine < threshold || a.length > UPDATE_MAX_CHARS || b.length > UPDATE_MAX_CHARS) return false;
	return possibleUpdateWords(cosine, threshold, wordsOf(a), wordsOf(b));
}

/** isPossibleUpdate on texts' word sets (wordsOf). */
export function possibleUpdateWords(cosine: number, threshold: number, a: Words, b: Words): boolean {
	if (cosine < threshold || a.chars > UPDATE_MAX_CHARS || b.chars > UPDATE_MAX_CHARS) return false;
	const sa = a.sharp;
	const sb = b.sharp;
	if (!loses(sa, b.tokens, sb) && !loses(sb, a.tokens, sa)) return false;
	// The other content words of each (neither's sharp words), counted without building the
	// sets: the words they share, over the shorter one's count (this ran for every similar pair).
	let na = 0;
	let shared = 0;
	for (const w of a.content) {
		if (sa.has(w) || sb.has(w)) continue;
		na++;
		if (b.content.has(w)) shared++;
	}
	let nb = 0;
	for (const w of b.content) if (!sa.has(w) && !sb.has(w)) nb++;
	const short = Math.min(na, nb);
	return short > 0 && shared >= UPDATE_OVERLAP * short;
}

// ---------------------------------------------------------------- packed word sets

/**
 * A text's word sets packed for a store's checks (packedWordCache): its words as numbers
 * (interned: one number per distinct word while the vocabulary lasts), as
 * [chars, number of sharp words, sharp words ascending, tokens ascending]. The content words
 * are the tokens that are not function words (as wordsOf has them). A few hundred bytes instead
 * of three Sets, so a store can remember the words of every memory a 100k import compares with:
 * past the 8,192 texts wordCache keeps, most of a large import's neighbours had theirs worked
 * out again in every batch (a tenth of a batch at 100k memories).
 */
export type PackedWords = Int32Array;

/** Interned words (packWords), and per word: 1 when a function word, 2 when a single character, 4 when an article, 8 when a modifier. */
const vocabulary = new Map<string, number>();
let wordFlags = new Uint8Array(1024);
const FUNCTION_WORD = 1;
const SINGLE = 2;
const ARTICLE = 4;
const MODIFIER = 8;

/**
 * Distinct words interned before packedWordCache starts over (ids and packed sets both go): ~30 MB
 * of words at most; 100k bench-corpus memories hold ~71k.
 */
export const PACKED_VOCABULARY_MAX = 1 << 19;
/**
 * What packedWordCache remembers, in Int32 slots (each text counting PACKED_ENTRY_SLOTS more for
 * its entry): ~25 MB, the words of 100k memories of a few sentences.
 */
export const PACKED_CACHE_SLOTS = 6 << 20;
export const PACKED_ENTRY_SLOTS = 16;

const packed = new Map<string, PackedWords>();
let packedSlots = 0;

function wordId(w: string): number {
	let id = vocabulary.get(w);
	if (id === undefined) {
		id = vocabulary.size;
		vocabulary.set(w, id);
		if (id >= wordFlags.length) {
			const more = new Uint8Array(wordFlags.length * 2);
			more.set(wordFlags);
			wordFlags = more;
		}
		wordFlags[id] =
			(FUNCTION_WORDS.has(w) ? FUNCTION_WORD : 0) | (w.length === 1 ? SINGLE : 0) | (ARTICLES.has(w) ? ARTICLE : 0) | (MODIFIERS.has(w) ? MODIFIER : 0);
	}
	return id;
}

/** `w` packed (see PackedWords), its words interned. */
export function packWords(w: Words): PackedWords {
	return packIds(w.chars, Int32Array.from(w.sharp, wordId), Int32Array.from(w.tokens, wordId));
}

/** A PackedWords of `chars` characters from its words' numbers (sorted here). */
function packIds(chars: number, sharp: Int32Array, tokens: Int32Array): PackedWords {
	sharp.sort();
	tokens.sort();
	const out = new Int32Array(2 + sharp.length + tokens.length);
	out[0] = chars;
	out[1] = sharp.length;
	out.set(sharp, 2);
	out.set(tokens, 2 + sharp.length);
	return out;
}

/** packWords(wordsOf(text)), in one pass for plain text. */
export function packedWordsOf(text: string): PackedWords {
	return NOT_PLAIN.test(text) ? packWords(wordsOf(text)) : plainPackedWords(text);
}

/** Whether the ascending p[from, to) holds `id`. */
function holds(p: PackedWords, from: number, to: number, id: number): boolean {
	let lo = from;
	let hi = to;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		const v = p[mid];
		if (v === id) return true;
		if (v < id) lo = mid + 1;
		else hi = mid;
	}
	return false;
}

const tokensFrom = (p: PackedWords) => 2 + p[1];
const holdsSharp = (p: PackedWords, id: number) => holds(p, 2, 2 + p[1], id);
const holdsToken = (p: PackedWords, id: number) => holds(p, 2 + p[1], p.length, id);

/** loses() on packed sets: a word that names or counts in `a` missing from `b`. */
function losesPacked(a: PackedWords, b: PackedWords): boolean {
	for (let i = 2, end = tokensFrom(a); i < end; i++) {
		const id = a[i];
		if ((wordFlags[id] & SINGLE) !== 0 ? !holdsSharp(b, id) : !holdsToken(b, id)) return true;
	}
	return false;
}

/** Whether every word of `a` but an article is one of `b`'s, dropping no modifier (wordSubset). */
function wordSubsetPacked(a: PackedWords, b: PackedWords): boolean {
	let j = tokensFrom(b);
	for (let i = tokensFrom(a); i < a.length; i++) {
		const id = a[i];
		if ((wordFlags[id] & ARTICLE) !== 0) continue;
		while (j < b.length && b[j] < id) j++;
		if (j === b.length || b[j] !== id) return false;
	}
	for (let i = tokensFrom(b); i < b.length; i++) if ((wordFlags[b[i]] & MODIFIER) !== 0 && !holdsToken(a, b[i])) return false;
	return true;
}

/** nearDuplicateWords on packed sets (the same answer). */
export function nearDuplicatePacked(cosine: number, threshold: number, incoming: PackedWords, stored: PackedWords): boolean {
	if (cosine < threshold) return false;
	if (losesPacked(incoming, stored) || losesPacked(stored, incoming)) return false;
	return wordSubsetPacked(incoming, stored);
}

/** possibleUpdateWords on packed sets (the same answer). */
export function possibleUpdatePacked(cosine: number, threshold: number, a: PackedWords, b: PackedWords): boolean {
	if (cosine < threshold || a[0] > UPDATE_MAX_CHARS || b[0] > UPDATE_MAX_CHARS) return false;
	if (!losesPacked(a, b) && !losesPacked(b, a)) return false;
	let na = 0;
	let shared = 0;
	for (let i = tokensFrom(a); i < a.length; i++) {
		const id = a[i];
		if ((wordFlags[id] & FUNCTION_WORD) !== 0 || holdsSharp(a, id) || holdsSharp(b, id)) continue;
		na++;
		if (holdsToken(b, id)) shared++;
	}
	let nb = 0;
	for (let i = tokensFrom(b); i < b.length; i++) {
		const id = b[i];
		if ((wordFlags[id] & FUNCTION_WORD) === 0 && !holdsSharp(a, id) && !holdsSharp(b, id)) nb++;
	}
	const short = Math.min(na, nb);
	return short > 0 && shared >= UPDATE_OVERLAP * short;
}

/**
 * Packed word sets, remembered per text (up to PACKED_CACHE_SLOTS, shared by every store; the
 * oldest go first). One per store call: the vocabulary only starts over between calls, so the
 * sets a call compares always share their numbering.
 */
export function packedWordCache(): (text: string) => PackedWords {
	if (vocabulary.size >= PACKED_VOCABULARY_MAX) {
		vocabulary.clear();
		packed.clear();
		packedSlots = 0;
	}
	return (text) => {
		let p = packed.get(text);
		if (p === undefined) {
			p = packedWordsOf(text);
			packedSlots += p.length + PACKED_ENTRY_SLOTS;
			for (const [t, old] of packed) {
				if (packedSlots <= PACKED_CACHE_SLOTS) break;
				packed.delete(t);
				packedSlots -= old.length + PACKED_ENTRY_SLOTS;
			}
			packed.set(text, p);
		}
		return p;
	};
}

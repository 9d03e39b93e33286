/**
 * Pure text processing for the lexical index: tokenising, stop words and a light English
 * stemmer. The index and every query go through the same `processTerm`, so what matters most
 * is consistency; the stemmer is deliberately conservative (it conflates inflections such as
 * plurals, -ing and -ed, never distinct words), because over-stemming hurts BM25 precision more
 * than a missed conflation hurts recall, and the semantic side covers paraphrase.
 */

/**
 * English function words dropped from the index and from queries. Kept small on purpose:
 * pronouns and question words carry little for BM25, but negations ("not", "never") and
 * quantities are kept since they change meaning.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
	(
		'a an the and or but if then else of at by for with about against between into through during ' +
		'before after above below to from up down in out on off over under again further once here there ' +
		'when where why how what which who whom whose this that these those am is are was were be been being ' +
		'have has had having do does did doing i me my myself we our ours ourselves you your yours yourself ' +
		'yourselves he him his himself she her hers herself it its itself they them their theirs themselves ' +
		'would should could can will shall may might must ought s t d ll m re ve y just so than too very ' +
		'all any both each few more most other some such only own same as until while also im ive id youre ' +
		'its thats theres whats hes shes theyre weve youve dont doesnt didnt isnt arent wasnt werent ' +
		'yeah oh ok okay hey hi um uh really'
	).split(/\s+/),
);

const WORD_RE = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

/**
 * Splits text into lower-cased word tokens (letters and digits; internal apostrophes joined, so
 * "don't" → "dont" and "Caroline's" → "caroline"). Returns tokens in order, duplicates kept.
 */
export function tokenize(text: string): string[] {
	const out: string[] = [];
	for (const m of text.toLowerCase().matchAll(WORD_RE)) {
		const w = m[0];
		// Possessive 's is noise for retrieval; other contractions are joined into one token.
		const t = w.replace(/['’]s$/, '').replace(/['’]/g, '');
		if (t.length > 0) out.push(t);
	}
	return out;
}

const VOWEL = /[aeiouy]/;

/** True when `s` has a vowel (the stem must keep one to stay a word). */
function hasVowel(s: string): boolean {
	return VOWEL.test(s);
}

/** Undo consonant doubling after removing -ing/-ed ("running" → "run", but not "fall"). */
function undouble(s: string): string {
	const n = s.length;
	if (n >= 3 && s[n - 1] === s[n - 2] && !'lsz'.includes(s[n - 1]) && !VOWEL.test(s[n - 1]))
		return s.slice(0, -1);
	return s;
}

/** Strips a verbal suffix and repairs the stem; `null` when the word is too short for it. */
function stripVerbal(w: string, suffix: string): string | null {
	if (!w.endsWith(suffix)) return null;
	const stem = w.slice(0, -suffix.length);
	if (stem.length < 3 || !hasVowel(stem)) return null;
	return undouble(stem);
}

/**
 * A light English stemmer: plurals, -ing, -ed, -ly, -ies/-ied, and the -e that those strip
 * ("hiking" and "hike" → "hik", "studies" and "studied" → "studi"). Digits and short words pass
 * unchanged. Deterministic and idempotent enough for index/query symmetry.
 */
export function stem(word: string): string {
	let w = word;
	if (w.length <= 3 || /\d/.test(w)) return w;
	if (w.endsWith('ies') || w.endsWith('ied')) w = w.slice(0, -3) + 'i';
	else if (w.endsWith('sses')) w = w.slice(0, -2);
	else if (w.endsWith('es') && /(ch|sh|x|zz)es$/.test(w)) w = w.slice(0, -2);
	else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
	w = stripVerbal(w, 'ing') ?? stripVerbal(w, 'ed') ?? w;
	if (w.length > 4 && w.endsWith('ly')) w = w.slice(0, -2);
	if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
	if (w.length > 3 && w.endsWith('y')) w = w.slice(0, -1) + 'i';
	return w;
}

/**
 * The lexical index's term processor: lower-cases, drops stop words, stems. Returns null for a
 * term that should not be indexed or searched (minisearch's `processTerm` contract).
 */
export function processTerm(term: string): string | null {
	const t = term.toLowerCase().replace(/['’]s$/, '').replace(/['’]/g, '');
	if (t.length === 0 || STOP_WORDS.has(t)) return null;
	return stem(t);
}

/** Tokenises and processes a text: the terms the index would store for it, in order. */
export function analyze(text: string): string[] {
	const out: string[] = [];
	for (const tok of tokenize(text)) {
		const t = processTerm(tok);
		if (t !== null) out.push(t);
	}
	return out;
}

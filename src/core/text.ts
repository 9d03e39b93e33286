/**
 * Pure text processing for the lexical index: tokenising, stop words and a light English
 * stemmer. The index and every query go through the same `processTerm`, so what matters most
 * is consistency; the stemmer is deliberately conservative (it conflates inflections such as
 * plurals, -ing, -ed and irregular past tenses, never distinct words), because over-stemming
 * hurts BM25 precision more than a missed conflation hurts recall, and the semantic side covers
 * paraphrase.
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

/** `text` without a leading byte order mark (files saved "with BOM" by Windows tools: JSON.parse refuses one, and it hides a first heading or header). */
export function withoutBom(text: string): string {
	return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** A word, or one pictograph (an emoji is a word of its own: "🚀" finds "Deploys happen on Tuesdays 🚀"). */
const WORD_RE = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*|\p{Extended_Pictographic}/gu;

/** Whether a word holds an apostrophe (most do not, and two regular expressions cost more than this look). */
function hasApostrophe(w: string): boolean {
	return w.includes("'") || w.includes('’');
}

/**
 * Splits text into lower-cased word tokens (letters and digits; internal apostrophes joined, so
 * "don't" → "dont" and "Caroline's" → "caroline"; each emoji a token of its own; Latin accents
 * folded, "café" → "cafe"; Chinese and Japanese as characters and pairs, see pushCjk). Returns
 * tokens in order, duplicates kept.
 */
export function tokenize(text: string): string[] {
	const lower = text.toLowerCase();
	return scanPlain(lower) ?? tokenizeByPattern(lower);
}

/** Whether a UTF-16 code unit is an ASCII lower-case letter or digit (a lower-cased ASCII word's characters). */
const isWordChar = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);

/**
 * tokenize() of lower-cased text that is ASCII but for typographic apostrophes, scanned character
 * by character: the same tokens as WORD_RE (letters and digits, then any run of an apostrophe
 * and letters), about twice as fast. Undefined when the text holds any other character, which
 * the pattern reads with Unicode's letter and digit classes.
 */
function scanPlain(lower: string): string[] | undefined {
	const out: string[] = [];
	const n = lower.length;
	let i = 0;
	while (i < n) {
		const c = lower.charCodeAt(i);
		if (!isWordChar(c)) {
			if (c > 127 && c !== 0x2019) return undefined;
			i++;
			continue;
		}
		const start = i;
		while (i < n && isWordChar(lower.charCodeAt(i))) i++;
		let apostrophe = false;
		for (;;) {
			const a = lower.charCodeAt(i);
			const next = lower.charCodeAt(i + 1);
			// An apostrophe joins only when a letter (not a digit) follows it.
			if ((a !== 39 && a !== 0x2019) || !(next >= 97 && next <= 122)) break;
			apostrophe = true;
			i += 2;
			while (i < n && lower.charCodeAt(i) >= 97 && lower.charCodeAt(i) <= 122) i++;
		}
		const w = lower.slice(start, i);
		const t = apostrophe ? w.replace(/['’]s$/, '').replace(/['’]/g, '') : w;
		if (t.length > 0) out.push(t);
	}
	return out;
}

/** tokenize() of lower-cased text, by WORD_RE. */
function tokenizeByPattern(lower: string): string[] {
	const out: string[] = [];
	for (const m of lower.matchAll(WORD_RE)) {
		let w = m[0];
		// Possessive 's is noise for retrieval; other contractions are joined into one token.
		if (hasApostrophe(w)) w = w.replace(/['’]s$/, '').replace(/['’]/g, '');
		if (w.length === 0) continue;
		if (!SPECIAL.test(w)) out.push(w);
		else if (!CJK.test(w)) out.push(foldLatin(w));
		else pushCjk(foldLatin(w), out);
	}
	return out;
}

/** A Latin letter with a diacritic (or ß, æ, ø …), or a Chinese or Japanese character: words that need more than lower-casing. */
const SPECIAL = /[\u00c0-\u024f\u1e00-\u1eff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[\u{20000}-\u{2fa1f}]/u;

/** Han ideographs, hiragana and katakana: scripts written without spaces between words. */
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u{20000}-\u{2fa1f}]/u;
const CJK_RUNS = /([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u{20000}-\u{2fa1f}]+)/u;

/** Latin letters that are not a base letter plus marks. */
const LATIN_SPECIAL: Readonly<Record<string, string>> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i', ħ: 'h', ŧ: 't' };
const LATIN_FOLDED = new Map<string, string>();

/**
 * A word with Latin diacritics folded away ("café" → "cafe", "München" → "munchen", "Straße" →
 * "strasse"), as search engines' ASCII folding does: people type words without their accents.
 * Other scripts keep their marks (Hangul, Devanagari and Arabic spell with them).
 */
export function foldLatin(w: string): string {
	return w.replace(/[\u00c0-\u024f\u1e00-\u1eff]/g, (ch) => {
		let f = LATIN_FOLDED.get(ch);
		if (f === undefined) {
			f = LATIN_SPECIAL[ch] ?? ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
			LATIN_FOLDED.set(ch, f);
		}
		return f;
	});
}

/**
 * Chinese and Japanese are written without spaces, so a run of their characters is indexed as
 * each character and each overlapping pair ("寿司を食べた" → 寿, 寿司, 司, 司を, …): the usual
 * bigram indexing of CJK search engines. A query's "寿司" then finds it, and a one-character
 * word ("猫") still matches. Letters and digits beside the run stay one word.
 */
function pushCjk(w: string, out: string[]): void {
	for (const part of w.split(CJK_RUNS)) {
		if (part.length === 0) continue;
		if (!CJK.test(part)) {
			out.push(part);
			continue;
		}
		const chars = [...part];
		for (let i = 0; i < chars.length; i++) {
			out.push(chars[i]);
			if (i + 1 < chars.length) out.push(chars[i] + chars[i + 1]);
		}
	}
}

/**
 * Irregular past tenses and participles → their base verb, so a question in the present ("What
 * did Blanche break?", "Who taught her?") meets an answer told in the past ("She broke Andre's
 * mug", "my grandmother taught me"). Forms that are also common other words are left out
 * ("left", "rose", "fell", "shot", "lay", "bit", "ground").
 */
const IRREGULAR: ReadonlyMap<string, string> = new Map(
	(
		'awoke:awake began:begin begun:begin bent:bend bled:bleed blew:blow blown:blow broke:break ' +
		'broken:break brought:bring built:build burnt:burn bought:buy caught:catch chose:choose ' +
		'chosen:choose came:come became:become dealt:deal dug:dig drew:draw drawn:draw dreamt:dream drank:drink ' +
		'drunk:drink drove:drive driven:drive ate:eat eaten:eat fed:feed felt:feel fought:fight ' +
		'found:find fled:flee flew:fly flown:fly forgot:forget forgotten:forget forgave:forgive ' +
		'forgiven:forgive froze:freeze frozen:freeze got:get gotten:get gave:give given:give went:go ' +
		'gone:go grew:grow grown:grow hung:hang heard:hear hid:hide hidden:hide held:hold kept:keep ' +
		'knew:know known:know laid:lay led:lead learnt:learn lent:lend lost:lose made:make meant:mean ' +
		'met:meet paid:pay ran:run rode:ride ridden:ride rang:ring rung:ring said:say saw:see seen:see ' +
		'sought:seek sold:sell sent:send shook:shake shaken:shake shone:shine shown:show shrank:shrink ' +
		'sang:sing sung:sing sank:sink sunk:sink sat:sit slept:sleep slid:slide spoke:speak ' +
		'spoken:speak spent:spend spun:spin stood:stand stole:steal stolen:steal stuck:stick ' +
		'struck:strike swore:swear sworn:swear swept:sweep swam:swim swum:swim took:take taken:take ' +
		'taught:teach tore:tear torn:tear told:tell thought:think threw:throw thrown:throw ' +
		'understood:understand woke:wake woken:wake wore:wear worn:wear won:win wrote:write ' +
		'written:write'
	)
		.split(/\s+/)
		.map((pair) => pair.split(':') as [string, string]),
);

const VOWEL = /[aeiouy]/;
/** A stem ending consonant–vowel–consonant with one vowel group ("hik", "writ", "car"). */
const SHORT_CVC = /^[^aeiouy]*[aeiouy][^aeiouywx]$/;

/** A stem of at least two vowel–consonant groups ("retir", "decid", "practic"; not "car", "hik"). */
const LONG_STEM = /^[^aeiouy]*[aeiouy]+[^aeiouy]+[aeiouy]+[^aeiouy]+/;

/** True when `s` has a vowel (the stem must keep one to stay a word). */
function hasVowel(s: string): boolean {
	return VOWEL.test(s);
}

/**
 * Strips -ing / -ed and repairs the stem: undoubles a doubled consonant ("running" → "run"),
 * or restores the silent e of a short stem ("hiking" → "hike", "caring" → "care", so "car"
 * stays apart). Null when the word does not end so or the stem would be too short.
 */
function stripVerbal(w: string, suffix: string): string | null {
	if (!w.endsWith(suffix)) return null;
	const stem = w.slice(0, -suffix.length);
	if (stem.length < 3 || !hasVowel(stem)) return null;
	const n = stem.length;
	if (stem[n - 1] === stem[n - 2] && !'lsz'.includes(stem[n - 1]) && !VOWEL.test(stem[n - 1])) return stem.slice(0, -1);
	return SHORT_CVC.test(stem) ? `${stem}e` : stem;
}

/**
 * A light English stemmer: irregular past tenses ("broke", "broken" → "break"), plurals, -ing,
 * -ed, -ly and -ies/-ied/-y ("hiking", "hiked" and "hike" → "hike"; "studies", "studied" and
 * "study" → "studi"). Base words keep their final e,
 * so "care" and "car" stay apart. Digits and words of three letters or fewer pass unchanged.
 */
export function stem(word: string): string {
	let w = IRREGULAR.get(word) ?? word;
	if (w.length <= 3 || /\d/.test(w)) return w;
	if (w.endsWith('ies') || w.endsWith('ied')) w = w.length > 4 ? w.slice(0, -3) + 'i' : w.slice(0, -1);
	else if (w.length > 5 && w.endsWith('eed')) w = w.slice(0, -1);
	else {
		// Plural first, then the verbal suffix it may hide ("meetings" → "meeting" → "meet").
		if (w.endsWith('sses')) w = w.slice(0, -2);
		else if (/(ch|sh|x|zz)es$/.test(w)) w = w.slice(0, -2);
		else if (w.endsWith('s') && !/(ss|us|is|ews)$/.test(w)) w = w.slice(0, -1);
		w = stripVerbal(w, 'ing') ?? stripVerbal(w, 'ed') ?? w;
	}
	if (w.length >= 7 && w.endsWith('ly')) w = w.slice(0, -2);
	if (w.length > 3 && w.endsWith('y')) w = w.slice(0, -1) + 'i';
	// A silent e after two syllables goes, as it does when -ed/-ing is stripped ("retire",
	// "retired" → "retir"); short stems keep it, so "care" and "car" stay apart.
	if (w.endsWith('e') && !w.endsWith('ee') && LONG_STEM.test(w.slice(0, -1))) w = w.slice(0, -1);
	return w;
}

/**
 * The lexical index's term processor: lower-cases, drops stop words, stems. Returns null for a
 * term that should not be indexed or searched (minisearch's `processTerm` contract).
 */
export function processTerm(term: string): string | null {
	const known = PROCESSED.get(term);
	if (known !== undefined) return known;
	const lower = term.toLowerCase();
	const t = hasApostrophe(lower) ? lower.replace(/['’]s$/, '').replace(/['’]/g, '') : lower;
	const out = t.length === 0 || STOP_WORDS.has(t) ? null : stem(t);
	if (PROCESSED.size >= PROCESSED_MAX) PROCESSED.clear();
	PROCESSED.set(term, out);
	return out;
}

/**
 * processTerm's answers for the words seen lately. Text repeats its words (Zipf), so indexing
 * looks most of them up here instead of stemming them again: indexing 20k bench memories' content
 * spent 336 of 1,552 ms in processTerm before. Cleared when full, so it stays a few MB.
 */
const PROCESSED = new Map<string, string | null>();
const PROCESSED_MAX = 50_000;

/** Tokenises and processes a text: the terms the index would store for it, in order. */
export function analyze(text: string): string[] {
	const out: string[] = [];
	for (const tok of tokenize(text)) {
		const t = processTerm(tok);
		if (t !== null) out.push(t);
	}
	return out;
}

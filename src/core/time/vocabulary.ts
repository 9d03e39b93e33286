/**
 * The words of time phrases (months, weekdays, numbers, ordinals, seasons, holidays), their
 * values, and the regex fragments built from them that every pattern shares.
 */
import { type Unit } from './calendar';

/** Month names, lowercase, January first (index = UTC month). */
/** A month name or abbreviation ("sept.", "Mar"). */
export const MONTHS: readonly string[] = [
	'january',
	'february',
	'march',
	'april',
	'may',
	'june',
	'july',
	'august',
	'september',
	'october',
	'november',
	'december',
];
/** Weekday names, lowercase, Monday first: index = calendar.ts `weekdayOf` (ISO weeks start on Monday). */
/** A weekday name or abbreviation ("thurs", "Fri."). */
export const WEEKDAYS: readonly string[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
/** Number words zero to nineteen (index = value). */
export const ONES = [
	'zero',
	'one',
	'two',
	'three',
	'four',
	'five',
	'six',
	'seven',
	'eight',
	'nine',
	'ten',
	'eleven',
	'twelve',
	'thirteen',
	'fourteen',
	'fifteen',
	'sixteen',
	'seventeen',
	'eighteen',
	'nineteen',
];
/** Tens words (index × 10 = value; 0 and 1 empty). */
export const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const ORDINAL_ONES = [
	'',
	'first',
	'second',
	'third',
	'fourth',
	'fifth',
	'sixth',
	'seventh',
	'eighth',
	'ninth',
	'tenth',
	'eleventh',
	'twelfth',
	'thirteenth',
	'fourteenth',
	'fifteenth',
	'sixteenth',
	'seventeenth',
	'eighteenth',
	'nineteenth',
];
/** First month (0–11) of each season (northern hemisphere, meteorological). */
/** A season word. */
export const SEASONS: Record<string, number> = { spring: 2, summer: 5, autumn: 8, fall: 8, winter: 11 };

/** Month index (0–11) of a name or abbreviation ("sept", "Mar."). */
export function monthIndex(word: string): number {
	const w = word.toLowerCase().replace(/\.$/, '');
	return w === 'sept' ? 8 : MONTHS.findIndex((m) => m.startsWith(w.slice(0, 3)));
}

/** Weekday index (Monday = 0) of a name or abbreviation ("thurs", "Fri."). */
export function weekdayIndex(word: string): number {
	const w = word.toLowerCase().replace(/\.$/, '');
	return WEEKDAYS.findIndex((d) => d.startsWith(w.slice(0, 3)));
}

/** Value of "3", "three", "twenty-one", "a", "a couple of", "a few", "several". */
export function numberValue(word: string): number {
	const w = word
		.toLowerCase()
		.replace(/\s+of$/, '')
		.trim();
	if (/^\d+$/.test(w)) return Number(w);
	if (w === 'a' || w === 'an') return 1;
	if (/couple/.test(w)) return 2;
	if (/few|several/.test(w)) return 3;
	if (w === 'fortnight') return 2;
	const [tens, ones] = w.split(/[-\s]/);
	const t = TENS.indexOf(tens);
	if (t >= 2) return t * 10 + (ones ? ONES.indexOf(ones) : 0);
	return ONES.indexOf(w);
}

/** Day of month (1–31) of "14", "14th", "fourteenth", "twenty-first". */
export function ordinalValue(word: string): number {
	const w = word.toLowerCase();
	const digits = /^(\d{1,2})(?:st|nd|rd|th)?$/.exec(w);
	if (digits) return Number(digits[1]);
	const i = ORDINAL_ONES.indexOf(w);
	if (i > 0) return i;
	if (w === 'twentieth') return 20;
	if (w === 'thirtieth') return 30;
	const m = /^(twenty|thirty)[-\s](\w+)$/.exec(w);
	return m ? TENS.indexOf(m[1]) * 10 + ORDINAL_ONES.indexOf(m[2]) : -1;
}

function unitOf(word: string): Unit | 'fortnight' {
	const w = word.toLowerCase();
	if (w.startsWith('fortnight')) return 'fortnight';
	if (w.startsWith('min')) return 'minute';
	if (w.startsWith('h')) return 'hour';
	if (w.startsWith('d')) return 'day';
	if (w.startsWith('w')) return 'week';
	if (w.startsWith('mo')) return 'month';
	return 'year';
}

/** Count and unit of "3 days", "a fortnight", "two weeks" (a fortnight is two weeks). */
export function amount(n: string | undefined, unitWord: string): { n: number; unit: Unit } | null {
	const unit = unitOf(unitWord);
	const count = n === undefined ? 1 : numberValue(n);
	if (!Number.isFinite(count) || count < 0 || count > 100_000) return null;
	return unit === 'fortnight' ? { n: count * 2, unit: 'week' } : { n: count, unit };
}

/** Month abbreviations, in the order the MONTH fragment tries them after the full names. */
export const MONTH_ABBREVIATIONS: readonly string[] = 'jan feb mar apr jun jul aug sept sep oct nov dec'.split(' ');
/** Weekday abbreviations, longest spelling of each first. */
const WEEKDAY_ABBREVIATIONS = 'mon tues tue wed thurs thur thu fri sat sun'.split(' ');
/** Holidays holiday() knows, as regex sources (an apostrophe may be left out). */
const HOLIDAYS = [
	'christmas eve',
	String.raw`christmas(?:\s+day)?`,
	"new year'?s eve",
	String.raw`new\s+year'?s(?:\s+day)?`,
	'new year',
	'halloween',
	String.raw`valentine'?s(?:\s+day)?`,
	'thanksgiving',
	String.raw`easter(?:\s+sunday)?`,
];

/**
 * One regex alternation of words and phrases, each phrase's spaces matching any run of white
 * space: `anyOf(['last', 'this past'])` is `last|this\s+past`. Long alternatives are written as
 * word lists and joined here, so no pattern is one unreadable line.
 */
export function anyOf(...lists: readonly (string | readonly string[])[]): string {
	return lists
		.flat()
		.map((w) => w.replace(/ /g, String.raw`\s+`))
		.join('|');
}

// Regex fragments shared by every pattern.
const NUM_WORDS = anyOf(ONES.slice(1), TENS.slice(2));
/** "twenty-one", "thirty five". */
const TENS_AND_ONES = String.raw`(?:${anyOf(TENS.slice(2))})[-\s](?:${anyOf(ONES.slice(1, 10))})`;
/** Vague counts: "a couple of", "a few", "several", "a". */
const FEW = anyOf(['an? couple(?: of)?', 'couple(?: of)?', 'an? few', 'few', 'several', 'an?']);
/** A count: digits, number words ("twenty-one") or vague counts ("a couple of"). */
export const NUM = String.raw`(?:\d{1,5}|${TENS_AND_ONES}|${NUM_WORDS}|${FEW})`;
/** A unit word, singular or plural, with its abbreviations. */
export const UNIT = String.raw`(?:minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|fortnights?|months?|mos?|years?|yrs?)`;
export const MONTH = String.raw`(?:${anyOf(MONTHS, MONTH_ABBREVIATIONS)})\b\.?`;
export const WEEKDAY = String.raw`(?:${anyOf(WEEKDAYS, WEEKDAY_ABBREVIATIONS)})\b\.?`;
/** Ordinal words first to thirtieth, as an alternation. */
/** A day of the month: "3", "3rd", "third", "twenty-first". */
export const ORD_WORDS = anyOf(ORDINAL_ONES.slice(1), ['twentieth', 'thirtieth']);
/** "twenty-first", "thirty first". */
const TENS_AND_ORDINALS = String.raw`(?:twenty|thirty)[-\s](?:${anyOf(ORDINAL_ONES.slice(1, 10))})`;
export const ORD = String.raw`(?:\d{1,2}(?:st|nd|rd|th)?|${TENS_AND_ORDINALS}|${ORD_WORDS})`;
/** A four-digit year. */
export const YEAR = String.raw`\d{4}`;
export const SEASON = String.raw`(?:spring|summer|autumn|fall|winter)`;
/** A part of the day. */
export const PART = String.raw`(?:morning|afternoon|evening|night)`;
const AM_PM = String.raw`am|pm|a\.m\.|p\.m\.`;
/** A clock time after a day: "at 3pm", "around 14:30" (an hour from then, UTC). */
export const CLOCK = String.raw`\s+(?:at|around|about)\s+(?<hh>\d{1,2})` + String.raw`(?:(?::(?<mm>\d{2}))\s*(?<ap>${AM_PM})?|\s*(?<ap2>${AM_PM}))`;
/** A holiday name, in group `hol`. */
export const HOLIDAY = `(?<hol>${anyOf(HOLIDAYS)})`;

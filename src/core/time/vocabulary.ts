/**
 * The words of time phrases (months, weekdays, numbers, ordinals, seasons, holidays), their
 * values, and the regex fragments built from them that every pattern shares.
 */
import { type Unit } from './calendar';

/** Month names, lowercase, January first (index = UTC month). */
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
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
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
export const SEASONS: Record<string, number> = { spring: 2, summer: 5, autumn: 8, fall: 8, winter: 11 };

/** Month index (0–11) of a name or abbreviation ("sept", "Mar."). */
export function monthIndex(word: string): number {
	const w = word.toLowerCase().replace(/\.$/, '');
	return w === 'sept' ? 8 : MONTHS.findIndex((m) => m.startsWith(w.slice(0, 3)));
}

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

// Regex fragments shared by every pattern below.
const NUM_WORDS = [...ONES.slice(1), ...TENS.slice(2)].join('|');
export const NUM = String.raw`(?:\d{1,5}|(?:${TENS.slice(2).join('|')})[-\s](?:${ONES.slice(1, 10).join('|')})|${NUM_WORDS}|an?\s+couple(?:\s+of)?|couple(?:\s+of)?|an?\s+few|few|several|an?)`;
export const UNIT = String.raw`(?:minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|fortnights?|months?|mos?|years?|yrs?)`;
export const MONTH = String.raw`(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\b\.?`;
export const WEEKDAY = String.raw`(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|tue|wed|thurs|thur|thu|fri|sat|sun)\b\.?`;
export const ORD_WORDS = [...ORDINAL_ONES.slice(1), 'twentieth', 'thirtieth'].join('|');
export const ORD = String.raw`(?:\d{1,2}(?:st|nd|rd|th)?|(?:twenty|thirty)[-\s](?:${ORDINAL_ONES.slice(1, 10).join('|')})|${ORD_WORDS})`;
export const YEAR = String.raw`\d{4}`;
export const SEASON = String.raw`(?:spring|summer|autumn|fall|winter)`;
export const PART = String.raw`(?:morning|afternoon|evening|night)`;
/** A clock time after a day: "at 3pm", "around 14:30" (an hour from then, UTC). */
export const CLOCK = String.raw`\s+(?:at|around|about)\s+(?<hh>\d{1,2})(?:(?::(?<mm>\d{2}))\s*(?<ap>am|pm|a\.m\.|p\.m\.)?|\s*(?<ap2>am|pm|a\.m\.|p\.m\.))`;
export const HOLIDAY = String.raw`(?<hol>christmas\s+eve|christmas(?:\s+day)?|new\s+year'?s\s+eve|new\s+year'?s(?:\s+day)?|new\s+year|halloween|valentine'?s(?:\s+day)?|thanksgiving|easter(?:\s+sunday)?)`;

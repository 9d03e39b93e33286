/**
 * Time in words: ages ("4 days ago"), natural time filters ("last week", "since March 2024") and
 * time expressions inside free text ("I adopted a dog last week"), resolved against a given
 * instant. Pure and deterministic: every function takes "now" (or an anchor) as milliseconds and
 * never reads the clock.
 *
 * All calendar arithmetic is in UTC: a day runs 00:00–24:00 UTC, weeks start on Monday, and there
 * is no daylight-saving shift to get wrong. Ranges are half-open: `start` is inclusive and `end`
 * exclusive, matching recall's "at or after start, before end".
 */
import { MemoryError } from './errors';

/** A time window as ISO strings (UTC); either side may be open. */
export interface TimeRange {
	start?: string;
	end?: string;
}

/** A time expression found in text, with the window it denotes. */
export interface TimeMention {
	phrase: string;
	start: string;
	end: string;
}

// ---------------------------------------------------------------------------------------------
// UTC calendar arithmetic.
// ---------------------------------------------------------------------------------------------

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;

/** A half-open window [s, e) in epoch milliseconds. */
interface Span {
	s: number;
	e: number;
}

/** Midnight UTC of a date; month and day overflow roll over, and years 0–99 stay literal. */
function utc(y: number, m: number, d = 1): number {
	const date = new Date(0);
	date.setUTCFullYear(y, m, d);
	return date.getTime();
}
const dayStart = (ms: number): number => Math.floor(ms / DAY) * DAY;
const yearOf = (ms: number): number => new Date(ms).getUTCFullYear();
const monthOf = (ms: number): number => new Date(ms).getUTCMonth();
/** Day of week with Monday = 0 … Sunday = 6. */
const weekdayOf = (ms: number): number => (new Date(ms).getUTCDay() + 6) % 7;
const weekStart = (ms: number): number => dayStart(ms) - weekdayOf(ms) * DAY;
const daysInMonth = (y: number, m: number): number => new Date(utc(y, m + 1, 0)).getUTCDate();

function daySpan(ms: number): Span {
	const s = dayStart(ms);
	return { s, e: s + DAY };
}
function weekSpan(ms: number): Span {
	const s = weekStart(ms);
	return { s, e: s + WEEK };
}
function monthSpan(y: number, m: number): Span {
	return { s: utc(y, m), e: utc(y, m + 1) };
}
function yearSpan(y: number): Span {
	return { s: utc(y, 0), e: utc(y + 1, 0) };
}
function quarterSpan(y: number, q: number): Span {
	return { s: utc(y, 3 * q), e: utc(y, 3 * q + 3) };
}

/** `ms` moved by whole months, the day clamped to the target month (Mar 31 − 1 month = Feb 28/29). */
function addMonths(ms: number, n: number): number {
	const d = new Date(ms);
	const total = d.getUTCFullYear() * 12 + d.getUTCMonth() + n;
	const y = Math.floor(total / 12);
	const m = total - y * 12;
	const day = Math.min(d.getUTCDate(), daysInMonth(y, m));
	return utc(y, m, day) + (ms - dayStart(ms));
}

type Unit = 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year';

/** `ms` moved by `n` units (months and years clamp the day of month). */
function shift(ms: number, unit: Unit, n: number): number {
	switch (unit) {
		case 'minute':
			return ms + n * MINUTE;
		case 'hour':
			return ms + n * HOUR;
		case 'day':
			return ms + n * DAY;
		case 'week':
			return ms + n * WEEK;
		case 'month':
			return addMonths(ms, n);
		case 'year':
			return addMonths(ms, 12 * n);
	}
}

/** The calendar unit containing `ms`: that day, that Monday–Sunday week, that month, that year. */
function unitSpan(ms: number, unit: Unit): Span {
	switch (unit) {
		case 'minute':
			return { s: Math.floor(ms / MINUTE) * MINUTE, e: Math.floor(ms / MINUTE) * MINUTE + MINUTE };
		case 'hour':
			return { s: Math.floor(ms / HOUR) * HOUR, e: Math.floor(ms / HOUR) * HOUR + HOUR };
		case 'day':
			return daySpan(ms);
		case 'week':
			return weekSpan(ms);
		case 'month':
			return monthSpan(yearOf(ms), monthOf(ms));
		case 'year':
			return yearSpan(yearOf(ms));
	}
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The farthest instant a Date can hold either side of 1970 (ECMAScript's ±100,000,000 days). */
const DATE_LIMIT = 8.64e15;
const representable = (ms: number): boolean => Math.abs(ms) <= DATE_LIMIT;

// ---------------------------------------------------------------------------------------------
// Vocabulary.
// ---------------------------------------------------------------------------------------------

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
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const ONES = [
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
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
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
const SEASONS: Record<string, number> = { spring: 2, summer: 5, autumn: 8, fall: 8, winter: 11 };

/** Month index (0–11) of a name or abbreviation ("sept", "Mar."). */
function monthIndex(word: string): number {
	const w = word.toLowerCase().replace(/\.$/, '');
	return w === 'sept' ? 8 : MONTHS.findIndex((m) => m.startsWith(w.slice(0, 3)));
}

function weekdayIndex(word: string): number {
	const w = word.toLowerCase().replace(/\.$/, '');
	return WEEKDAYS.findIndex((d) => d.startsWith(w.slice(0, 3)));
}

/** Value of "3", "three", "twenty-one", "a", "a couple of", "a few", "several". */
function numberValue(word: string): number {
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
function ordinalValue(word: string): number {
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
function amount(n: string | undefined, unitWord: string): { n: number; unit: Unit } | null {
	const unit = unitOf(unitWord);
	const count = n === undefined ? 1 : numberValue(n);
	if (!Number.isFinite(count) || count < 0 || count > 100_000) return null;
	return unit === 'fortnight' ? { n: count * 2, unit: 'week' } : { n: count, unit };
}

// Regex fragments shared by every pattern below.
const NUM_WORDS = [...ONES.slice(1), ...TENS.slice(2)].join('|');
const NUM = String.raw`(?:\d{1,5}|(?:${TENS.slice(2).join('|')})[-\s](?:${ONES.slice(1, 10).join('|')})|${NUM_WORDS}|an?\s+couple(?:\s+of)?|couple(?:\s+of)?|an?\s+few|few|several|an?)`;
const UNIT = String.raw`(?:minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|fortnights?|months?|mos?|years?|yrs?)`;
const MONTH = String.raw`(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\b\.?`;
const WEEKDAY = String.raw`(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|tue|wed|thurs|thur|thu|fri|sat|sun)\b\.?`;
const ORD_WORDS = [...ORDINAL_ONES.slice(1), 'twentieth', 'thirtieth'].join('|');
const ORD = String.raw`(?:\d{1,2}(?:st|nd|rd|th)?|(?:twenty|thirty)[-\s](?:${ORDINAL_ONES.slice(1, 10).join('|')})|${ORD_WORDS})`;
const YEAR = String.raw`\d{4}`;
const SEASON = String.raw`(?:spring|summer|autumn|fall|winter)`;
const PART = String.raw`(?:morning|afternoon|evening|night)`;
/** A clock time after a day: "at 3pm", "around 14:30" (an hour from then, UTC). */
const CLOCK = String.raw`\s+(?:at|around|about)\s+(?<hh>\d{1,2})(?:(?::(?<mm>\d{2}))\s*(?<ap>am|pm|a\.m\.|p\.m\.)?|\s*(?<ap2>am|pm|a\.m\.|p\.m\.))`;
const HOLIDAY = String.raw`(?<hol>christmas\s+eve|christmas(?:\s+day)?|new\s+year'?s\s+eve|new\s+year'?s(?:\s+day)?|new\s+year|halloween|valentine'?s(?:\s+day)?|thanksgiving|easter(?:\s+sunday)?)`;

// ---------------------------------------------------------------------------------------------
// Period grammar: each pattern matches one phrase and resolves it to a window.
// ---------------------------------------------------------------------------------------------

/**
 * Which way an expression without its own direction ("in June", "on Tuesday") points: its
 * clause's tense, or, with no tense cue, the nearest occurrence (dates and months) or the past
 * (weekdays, seasons, quarters: chat mostly recounts).
 */
type Direction = 'past' | 'future' | 'nearest';

interface Context {
	/** The reference instant: "now" for queries, the memory's timestamp for mentions. */
	now: number;
	dir: Direction;
	/** Query mode: a bare period may include the current one ("March" in March is this March). */
	query: boolean;
	/** The month a text last named, for a later "on the 15th" ("March 13 to 17; my talk is on the 15th"). */
	month?: { y: number; m: number };
}

type Groups = Record<string, string | undefined>;

interface Pattern {
	/** Regex source with named groups; anchored for queries, word-bounded for mentions. */
	src: string;
	resolve: (g: Groups, c: Context) => Span | null;
	/** Stricter source for free text, where e.g. a bare "2019" or "may" is too ambiguous. */
	mention?: string | false;
}

/** Rolling windows end at "now": queries leave them open, mentions close them at the day's end. */
const OPEN_END = Number.POSITIVE_INFINITY;

const PATTERNS: Pattern[] = [
	{
		src: String.raw`(?<iso>\d{4}-\d{2}-\d{2}[t\s]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}:?\d{2})?)`,
		resolve: (g) => isoInstant(g.iso!),
	},
	{
		src: String.raw`(?<y>\d{4})[-/](?<m>\d{1,2})[-/](?<d>\d{1,2})`,
		resolve: (g) => dateSpan(+g.y!, +g.m! - 1, +g.d!),
	},
	{
		src: String.raw`(?<y>\d{4})-(?<m>\d{2})`,
		resolve: (g) => (+g.m! >= 1 && +g.m! <= 12 ? monthSpan(+g.y!, +g.m! - 1) : null),
	},
	{
		src: String.raw`(?:the\s+)?(?<which>day\s+before\s+yesterday|day\s+after\s+tomorrow|today|tonight|tomorrow|yesterday)(?:\s+(?<part>${PART})|${CLOCK})?`,
		resolve: (g, c) => atClock(relativeDay(g.which!, g.part, c), g),
	},
	{
		src: String.raw`(?<which>this|last)\s+(?<part>${PART})`,
		resolve: (g, c) => partOfDay(g.which!, g.part!, c),
	},
	{
		src: String.raw`earlier\s+(?:today|(?:this\s+)?(?<unit>week|month|year))`,
		resolve: (g, c) => earlierThis(g.unit, c),
	},
	{
		src: String.raw`(?:the\s+)?(?<unit>week|weekend|month|year)\s+before\s+last`,
		resolve: (g, c) => beforeLast(g.unit!.toLowerCase(), c),
	},
	{
		src: String.raw`(?<n>${NUM})\s+weekends?\s+ago`,
		resolve: (g, c) => weekendsAgo(numberValue(g.n!), c),
	},
	{
		src: String.raw`this\s+time\s+last\s+(?<unit>year|month|week)`,
		resolve: (g, c) => sameTimeLast(g.unit!.toLowerCase() as Unit, c),
	},
	{
		src: String.raw`${HOLIDAY}(?:,?\s+(?<y>${YEAR}))?`,
		resolve: (g, c) => holiday(g.hol!, g.y, c),
		// "a new year of school" is not New Year's Day.
		mention: String.raw`(?!new\s+year\b(?!'))${HOLIDAY}(?:,?\s+(?<y>${YEAR}))?`,
	},
	{
		src: String.raw`(?:recently|lately|of\s+late)`,
		resolve: (_g, c) => ({ s: shift(c.now, 'day', -RECENT_DAYS), e: OPEN_END }),
		mention: false,
	},
	{ src: String.raw`(?<y>\d{4})-?w(?<w>\d{1,2})`, resolve: (g) => isoWeek(+g.y!, +g.w!) },
	{
		src: String.raw`(?:the\s+)?(?<h>h[12]|first\s+half|second\s+half)\s+(?:of\s+)?(?<y>${YEAR})`,
		resolve: (g) => half(g.h!, +g.y!),
	},
	{
		src: String.raw`(?:the\s+)?(?<dec>(?:1[89]|2[01])?\d0)'?s`,
		resolve: (g) => decade(g.dec!),
		mention: false,
	},
	{
		src: String.raw`(?:the\s+)?other\s+day`,
		resolve: (_g, c) => ({ s: dayStart(c.now) - 6 * DAY, e: dayStart(c.now) - DAY }),
	},
	{
		src: String.raw`(?:(?:over|in|within|during|for)\s+)?(?:the\s+)?(?<which>last|past|previous|next|coming)\s+(?<n>${NUM})\s+(?<unit>${UNIT})`,
		resolve: (g, c) => rolling(g.which!, g.n!, g.unit!, c),
	},
	{
		src: String.raw`(?<n>${NUM})\s+(?<unit>${UNIT})\s+(?<dir>ago|back|before|earlier|prior|since|later|after|from\s+now|hence)`,
		resolve: (g, c) => unitsAway(g.n!, g.unit!, g.dir!, c),
	},
	// Not "in four days of practice", a duration.
	{
		src: String.raw`in\s+(?<n>${NUM})\s+(?<unit>${UNIT})(?!\s+of\b)`,
		resolve: (g, c) => unitsAway(g.n!, g.unit!, 'later', c),
	},
	{
		src: String.raw`(?:(?:over|during|in|within)\s+)?(?<the>the\s+)?(?<which>this\s+past|this\s+coming|this|last|past|previous|prior|next|coming)\s+(?<unit>week|weekend|month|quarter|year|decade|fortnight|day|hour)`,
		resolve: (g, c) => relativeUnit(g.which!, g.unit!, c, g.the !== undefined),
		// "the next day" in a story is not the day after the memory was written.
		mention: String.raw`(?:(?:over|during|in|within)\s+)?(?<the>the\s+)?(?<which>this\s+past|this\s+coming|this|last|past|previous|next|coming)\s+(?<unit>week|weekend|month|quarter|year|decade|fortnight)`,
	},
	{
		src: String.raw`(?:this|the)\s+(?<unit>week|month|year)`,
		resolve: (g, c) => unitSpan(c.now, g.unit!.toLowerCase() as Unit),
		// In free text only after "end of", "beginning of", …: "the week" alone is too vague.
		mention: String.raw`(?<=(?:beginning|start|middle|end)\s+of\s+)(?:this|the)\s+(?<unit>week|month|year)`,
	},
	{
		src: String.raw`(?:over\s+)?the\s+weekend`,
		resolve: (_g, c) => nearestWeekend(c),
		mention: String.raw`(?:over|on|at|during)\s+the\s+weekend`,
	},
	{
		src: String.raw`(?:the\s+)?(?<nth>first|second|third|fourth|last|1st|2nd|3rd|4th)\s+week\s+(?:of|in)\s+(?:(?<which>last|this|next)\s+)?(?<month>${MONTH})(?:,?\s+(?<y>${YEAR}))?`,
		resolve: (g, c) => weekOfMonth(g.nth!, resolveMonth(g.month!, g.y, g.which, c)),
	},
	{
		src: String.raw`(?:(?<which>last|this|next|this\s+past|this\s+coming|on)\s+)?(?<wd>${WEEKDAY})(?:\s+(?<part>${PART})|${CLOCK})?`,
		resolve: (g, c) => atClock(weekday(g.wd!, g.which, g.part, c), g),
		mention: String.raw`(?:(?<which>last|this|next|this\s+past|this\s+coming|on)\s+)?(?<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?:\s+(?<part>${PART}))?`,
	},
	{
		src: String.raw`(?<month>${MONTH})\s+(?<d>${ORD})(?:,?\s+(?<y>${YEAR}))?`,
		resolve: (g, c) => monthDay(g.month!, ordinalValue(g.d!), g.y, c),
	},
	{
		src: String.raw`(?:the\s+)?(?<d>${ORD})\s+(?:of\s+)?(?<month>${MONTH})(?:,?\s+(?<y>${YEAR}))?`,
		resolve: (g, c) => monthDay(g.month!, ordinalValue(g.d!), g.y, c),
	},
	{
		src: String.raw`(?:on\s+)?the\s+(?<d>${ORD})`,
		resolve: (g, c) => dayOfMonth(ordinalValue(g.d!), c),
		mention: String.raw`(?:on|by|since|until|before|after)\s+the\s+(?<d>${ORD})`,
	},
	{
		src: String.raw`(?:(?<which>last|this|next)\s+)?(?<month>${MONTH})(?:,?\s+(?<y>${YEAR}))?`,
		resolve: (g, c) => resolveMonth(g.month!, g.y, g.which, c),
		mention: String.raw`(?:(?:(?<which>last|this|next)|in|during|since|until|till|by|of|early|mid|late|through|throughout|from|before|after|around)\s+(?:the\s+month\s+of\s+)?(?<month>january|february|march|april|may|june|july|august|september|october|november|december)(?:,?\s+(?<y>${YEAR}))?|(?<month2>january|february|march|april|june|july|august|september|october|november|december|may(?=,?\s+${YEAR}))(?:,?\s+(?<y2>${YEAR}))?)`,
	},
	{
		src: String.raw`(?:the\s+)?(?<nth>first|second|third|fourth|1st|2nd|3rd|4th|q[1-4])\s+(?:quarter\s+)?(?:of\s+)?(?<y>${YEAR})|(?<y2>${YEAR})\s+(?<nth2>q[1-4])|(?<nth3>q[1-4])`,
		resolve: (g, c) => quarter(g.nth ?? g.nth2 ?? g.nth3!, g.y ?? g.y2, c),
	},
	{
		src: String.raw`(?:(?<which>last|this|next)\s+|(?:in\s+|during\s+)?the\s+)?(?<season>${SEASON})(?:\s+(?:of\s+)?(?<y>${YEAR}))?`,
		resolve: (g, c) => season(g.season!, g.y, g.which, c),
		mention: String.raw`(?:(?<which>last|this|next)\s+|(?:in|during|over|through)\s+the\s+|the\s+)(?<season>${SEASON})(?:\s+(?:of\s+)?(?<y>${YEAR}))?|(?<season2>${SEASON})\s+(?:of\s+)?(?<y2>${YEAR})`,
	},
	{
		src: String.raw`(?<y>${YEAR})`,
		resolve: (g) => yearSpan(+g.y!),
		mention: String.raw`(?:in|during|since|until|till|by|of|from|before|after|around|back\s+in|circa)\s+(?<y>(?:19|20|21)\d{2})`,
	},
];

/** Modifiers that take part of a period: "early March", "the end of last year", "mid-2023". */
const PART_OF_PERIOD = String.raw`(?<mod>early|mid|late|(?:the\s+)?(?:beginning|start|middle|end)\s+of)[\s-]+`;

// --- resolvers -------------------------------------------------------------------------------

/** An ISO date-time; one without a zone is read as UTC (Date.parse would take local time). */
function isoInstant(text: string): Span | null {
	let t = text
		.toUpperCase()
		.replace(' ', 'T')
		.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
	if (!/(?:Z|[+-]\d{2}:\d{2})$/.test(t)) t += 'Z';
	const ms = Date.parse(t);
	if (!Number.isFinite(ms)) return null;
	const precision = /:\d{2}:\d{2}/.test(text) ? 1000 : MINUTE;
	return { s: ms, e: ms + precision };
}

/** A calendar date, rejected when the day does not exist (Feb 30, Feb 29 of 2023). */
function dateSpan(y: number, m: number, d: number): Span | null {
	if (m < 0 || m > 11 || d < 1 || d > daysInMonth(y, m)) return null;
	return daySpan(utc(y, m, d));
}

const PART_HOURS: Record<string, [number, number]> = {
	morning: [0, 12],
	afternoon: [12, 18],
	evening: [17, 24],
	night: [18, 30], // runs into the small hours of the next day
};

function relativeDay(which: string, part: string | undefined, c: Context): Span {
	const w = which.toLowerCase().replace(/\s+/g, ' ');
	const offsets: Record<string, number> = {
		today: 0,
		tonight: 0,
		tomorrow: 1,
		yesterday: -1,
		'day before yesterday': -2,
		'day after tomorrow': 2,
	};
	const day = dayStart(c.now) + offsets[w] * DAY;
	const p = w === 'tonight' ? 'night' : part?.toLowerCase();
	if (!p) return { s: day, e: day + DAY };
	const [a, b] = PART_HOURS[p];
	return { s: day + a * HOUR, e: day + b * HOUR };
}

/** "this morning" is today's; "last night" is the night before today. */
function partOfDay(which: string, part: string, c: Context): Span {
	const p = part.toLowerCase();
	const day = dayStart(c.now) + (which.toLowerCase() === 'last' ? -DAY : 0);
	const [a, b] = PART_HOURS[p];
	return { s: day + a * HOUR, e: day + b * HOUR };
}

function earlierThis(unit: string | undefined, c: Context): Span {
	const u = (unit?.toLowerCase() ?? 'day') as Unit;
	return { s: unitSpan(c.now, u).s, e: c.now };
}

/** "last 7 days", "past 24 hours", "next two weeks": a window ending (or starting) now. */
function rolling(which: string, n: string, unitWord: string, c: Context): Span | null {
	const a = amount(n, unitWord);
	if (!a || a.n === 0) return null;
	if (/next|coming/i.test(which)) return { s: c.now, e: shift(c.now, a.unit, a.n) };
	return { s: shift(c.now, a.unit, -a.n), e: OPEN_END };
}

/**
 * "3 days ago" is that day; "2 weeks ago" that Monday–Sunday week; "a month ago" that month.
 * Minutes and hours get a tolerance of a quarter of the distance (at least one unit) each side.
 */
function unitsAway(n: string, unitWord: string, dir: string, c: Context): Span | null {
	const a = amount(n, unitWord);
	if (!a) return null;
	const sign = /later|after|from|hence/i.test(dir) ? 1 : -1;
	const at = shift(c.now, a.unit, sign * a.n);
	if (a.unit !== 'minute' && a.unit !== 'hour') return unitSpan(at, a.unit);
	const tolerance = Math.max(1, Math.round(a.n / 4)) * (a.unit === 'hour' ? HOUR : MINUTE);
	return { s: at - tolerance, e: at + tolerance };
}

/**
 * this/last/past/next + week, weekend, month, quarter, year, decade, fortnight, day, hour. "last
 * week" is the previous calendar week; "the last week", "past week" and "this past week" are the
 * seven days before now.
 */
function relativeUnit(which: string, unitWord: string, c: Context, the = false): Span | null {
	const unit = unitWord.toLowerCase();
	let w = which.toLowerCase().replace(/\s+/g, ' ');
	if (w === 'this coming') w = 'next';
	if (w === 'prior') w = 'previous';
	if (w === 'this past') w = unit === 'weekend' ? 'last' : 'past';
	if (the && w === 'last' && unit !== 'weekend') w = 'past';
	if (unit === 'weekend') return weekend(w, c);
	if (unit === 'quarter') return relativeQuarter(w, c);
	if (unit === 'decade') return relativeDecade(w, c);
	const u: Unit = unit === 'fortnight' ? 'week' : (unit as Unit);
	const n = unit === 'fortnight' ? 2 : 1;
	// "past week" and "last day/hour" are rolling; "last week" is the previous calendar week.
	if (
		w === 'past' ||
		((w === 'last' || w === 'previous') && (u === 'day' || u === 'hour' || n === 2))
	) {
		return { s: shift(c.now, u, -n), e: OPEN_END };
	}
	if (u === 'day' || u === 'hour')
		return w === 'this' ? unitSpan(c.now, u) : { s: c.now, e: shift(c.now, u, n) };
	const current = unitSpan(c.now, u);
	if (w === 'this') return current;
	if (w === 'last' || w === 'previous') return unitSpan(shift(current.s, u, -1), u);
	return n === 2
		? { s: current.e, e: shift(current.e, u, 2) }
		: unitSpan(shift(current.s, u, 1), u);
}

/** Saturday 00:00 to Monday 00:00 of this week ("this"), the previous ("last") or next week. */
function weekend(which: string, c: Context): Span {
	const monday = weekStart(c.now);
	const offset =
		which === 'last' || which === 'previous' || which === 'past' ? -1 : which === 'this' ? 0 : 1;
	const s = monday + offset * WEEK + 5 * DAY;
	return { s, e: s + 2 * DAY };
}

/** "over the weekend" in a past sentence is the last one (or the current one, on Sat/Sun). */
function nearestWeekend(c: Context): Span {
	const inWeekend = weekdayOf(c.now) >= 5;
	if (inWeekend) return weekend('this', c);
	return weekend(c.dir === 'future' ? 'this' : 'last', c);
}

function relativeQuarter(which: string, c: Context): Span {
	const y = yearOf(c.now);
	const q = Math.floor(monthOf(c.now) / 3);
	const offset = which === 'this' ? 0 : which === 'next' || which === 'coming' ? 1 : -1;
	if (which === 'past') return { s: addMonths(c.now, -3), e: OPEN_END };
	return quarterSpan(y, q + offset);
}

function relativeDecade(which: string, c: Context): Span {
	if (which === 'past' || which === 'last') return { s: addMonths(c.now, -120), e: OPEN_END };
	const start = Math.floor(yearOf(c.now) / 10) * 10 + (which === 'this' ? 0 : 10);
	return { s: utc(start, 0), e: utc(start + 10, 0) };
}

/** A day narrowed to the hour after a clock time ("yesterday at 3pm"); unchanged without one. */
function atClock(span: Span | null, g: Groups): Span | null {
	if (!span || g.hh === undefined) return span;
	let h = Number(g.hh);
	const ap = (g.ap ?? g.ap2)?.toLowerCase().replace(/\./g, '');
	if (ap && (h < 1 || h > 12)) return null;
	if (ap === 'pm' && h < 12) h += 12;
	if (ap === 'am' && h === 12) h = 0;
	const m = Number(g.mm ?? 0);
	if (h > 23 || m > 59) return null;
	const s = dayStart(span.s) + h * HOUR + m * MINUTE;
	return { s, e: s + HOUR };
}

/** "the week before last": two calendar units back; "the weekend before last" likewise. */
function beforeLast(unit: string, c: Context): Span {
	if (unit === 'weekend') return shiftSpan(weekend('last', c), -WEEK);
	const u = unit as Unit;
	return unitSpan(shift(unitSpan(c.now, u).s, u, -2), u);
}

/** "two weekends ago": the last weekend, then one week further back per extra weekend. */
function weekendsAgo(n: number, c: Context): Span | null {
	if (!(n >= 1)) return null;
	return shiftSpan(weekend('last', c), -(n - 1) * WEEK);
}

const shiftSpan = (x: Span, by: number): Span => ({ s: x.s + by, e: x.e + by });

/** "this time last year": the same date a year (month, week) ago, give or take a few days. */
function sameTimeLast(unit: Unit, c: Context): Span {
	const at = dayStart(shift(c.now, unit, -1));
	const days = unit === 'year' ? 7 : unit === 'month' ? 3 : 1;
	return { s: at - days * DAY, e: at + (days + 1) * DAY };
}

/**
 * A holiday's date in year `y`: fixed ones, Thanksgiving (fourth Thursday of November, US) and
 * Easter Sunday (Western, by the anonymous Gregorian computus).
 */
function holidayDate(name: string, y: number): Span | null {
	const n = name.toLowerCase().replace(/\s+/g, ' ').replace(/'/g, '');
	if (n.startsWith('christmas')) return dateSpan(y, 11, n.includes('eve') ? 24 : 25);
	if (n.startsWith('new year')) return n.includes('eve') ? dateSpan(y, 11, 31) : dateSpan(y, 0, 1);
	if (n === 'halloween') return dateSpan(y, 9, 31);
	if (n.startsWith('valentine')) return dateSpan(y, 1, 14);
	if (n === 'thanksgiving')
		return daySpan(utc(y, 10, 1) + (((3 - weekdayOf(utc(y, 10, 1)) + 7) % 7) + 21) * DAY);
	const a = y % 19;
	const b = Math.floor(y / 100);
	const k = y % 100;
	const h = (19 * a + b - Math.floor(b / 4) - Math.floor((8 * b + 13) / 25) + 15) % 30;
	const l = (32 + 2 * (b % 4) + 2 * Math.floor(k / 4) - h - (k % 4)) % 7;
	const m = Math.floor((a + 11 * h + 22 * l) / 451);
	const month = Math.floor((h + l - 7 * m + 114) / 31);
	return dateSpan(y, month - 1, ((h + l - 7 * m + 114) % 31) + 1);
}

/** A holiday with its year, or the nearest one in the context's direction. */
function holiday(name: string, year: string | undefined, c: Context): Span | null {
	if (year) return holidayDate(name, +year);
	const today = dayStart(c.now);
	const y = yearOf(c.now);
	const past =
		[y, y - 1].map((x) => holidayDate(name, x)).find((x) => x !== null && x.s <= today) ?? null;
	const future =
		[y, y + 1].map((x) => holidayDate(name, x)).find((x) => x !== null && x.s >= today) ?? null;
	return pick(past, future, c);
}

/** How far back "recently" and "lately" reach. */
const RECENT_DAYS = 30;

/** ISO 8601 week `w` of year `y`: Monday to Monday; week 1 holds the year's first Thursday. */
function isoWeek(y: number, w: number): Span | null {
	const jan4 = utc(y, 0, 4);
	const week1 = weekStart(jan4);
	const s = week1 + (w - 1) * WEEK;
	// Week 53 exists only in years whose week 53 still holds a Thursday of that year.
	if (w < 1 || w > 53 || yearOf(s + 3 * DAY) !== y) return null;
	return { s, e: s + WEEK };
}

function half(h: string, y: number): Span {
	const second = /2|second/i.test(h);
	return { s: utc(y, second ? 6 : 0), e: utc(y, second ? 12 : 6) };
}

/** "the 90s" is 1990–1999; "the 20s" the 2020s; "the 1920s" as written. */
function decade(text: string): Span {
	let y = Number(text);
	if (y < 100) y += y <= 30 ? 2000 : 1900;
	return { s: utc(y, 0), e: utc(y + 10, 0) };
}

/** Days 1–7, 8–14, 15–21, 22–28 of a month, or its last seven days. */
function weekOfMonth(nth: string, month: Span | null): Span | null {
	if (!month) return null;
	const n = nth.toLowerCase();
	if (n === 'last') return { s: month.e - WEEK, e: month.e };
	const i = ['first', 'second', 'third', 'fourth'].indexOf(n) + 1 || Number(n[0]);
	return { s: month.s + (i - 1) * WEEK, e: month.s + i * WEEK };
}

/**
 * A weekday: "last" and past-pointing mentions take the latest one before today, "next" and
 * future-pointing ones the first after today, "this" the one in the current week, and a query
 * for a bare or "on" weekday the latest one on or before today.
 */
function weekday(
	word: string,
	which: string | undefined,
	part: string | undefined,
	c: Context,
): Span | null {
	const target = weekdayIndex(word);
	if (target < 0) return null;
	const today = dayStart(c.now);
	const current = weekdayOf(c.now);
	const w = which?.toLowerCase().replace(/\s+/g, ' ');
	let day: number;
	if (w === 'this') day = weekStart(c.now) + target * DAY;
	else if (
		w === 'next' ||
		w === 'this coming' ||
		(!isPastWord(w) && !c.query && c.dir === 'future')
	) {
		day = today + ((target - current + 7) % 7 || 7) * DAY;
	} else {
		const back = (current - target + 7) % 7;
		day = today - (back === 0 && !(c.query && (w === undefined || w === 'on')) ? 7 : back) * DAY;
	}
	if (!part) return { s: day, e: day + DAY };
	const [a, b] = PART_HOURS[part.toLowerCase()];
	return { s: day + a * HOUR, e: day + b * HOUR };
}

const isPastWord = (w: string | undefined): boolean => w === 'last' || w === 'this past';

/**
 * A month by name. With a year, that month. "this" is the anchor's year, "last" the latest one
 * before the current month, "next" the first after it; bare, it points by direction, and a query
 * ("March" asked in March) includes the current month.
 */
function resolveMonth(
	word: string,
	year: string | undefined,
	which: string | undefined,
	c: Context,
): Span | null {
	const m = monthIndex(word);
	if (m < 0) return null;
	if (year) return monthSpan(+year, m);
	const y = yearOf(c.now);
	const cur = monthOf(c.now);
	const w = which?.toLowerCase();
	if (w === 'this') return monthSpan(y, m);
	if (w === 'last') return monthSpan(m < cur ? y : y - 1, m);
	if (w === 'next') return monthSpan(m > cur ? y : y + 1, m);
	const past = monthSpan(m <= cur ? y : y - 1, m);
	const future = monthSpan(m >= cur ? y : y + 1, m);
	return pick(past, future, c);
}

/** The past or the future candidate, by the context's direction; "nearest" compares distances. */
function pick(past: Span | null, future: Span | null, c: Context): Span | null {
	if (c.dir === 'past' || !future) return past;
	if (c.dir === 'future' || !past) return future;
	const mid = (x: Span) => (x.s + x.e) / 2;
	return Math.abs(mid(future) - c.now) < Math.abs(mid(past) - c.now) ? future : past;
}

/** "March 5", "5th of March 2024": without a year, the nearest one in the context's direction. */
function monthDay(word: string, d: number, year: string | undefined, c: Context): Span | null {
	const m = monthIndex(word);
	if (m < 0 || d < 1 || d > 31) return null;
	if (year) return dateSpan(+year, m, d);
	const today = dayStart(c.now);
	const find = (step: number): Span | null => {
		// Eight years is enough to reach a leap year for "February 29".
		for (let i = 0, y = yearOf(c.now); i < 8; i++, y += step) {
			const span = dateSpan(y, m, d);
			if (span && (step < 0 ? span.s <= today : span.s >= today)) return span;
		}
		return null;
	};
	return pick(c.dir === 'future' ? null : find(-1), c.dir === 'past' ? null : find(1), c);
}

/**
 * "on the 14th": that day of the month the text last named, else the nearest 14th (or the last
 * or next one, by direction) around the anchor.
 */
function dayOfMonth(d: number, c: Context): Span | null {
	if (d < 1 || d > 31) return null;
	if (c.month) return dateSpan(c.month.y, c.month.m, d);
	const today = dayStart(c.now);
	const find = (step: number): Span | null => {
		for (let i = 0; i < 3; i++) {
			const at = addMonths(utc(yearOf(c.now), monthOf(c.now), 1), step * i);
			const span = dateSpan(yearOf(at), monthOf(at), d);
			if (span && (step < 0 ? span.s <= today : span.s >= today)) return span;
		}
		return null;
	};
	return pick(c.dir === 'future' ? null : find(-1), c.dir === 'past' ? null : find(1), c);
}

function quarter(nth: string, year: string | undefined, c: Context): Span | null {
	const n = nth.toLowerCase();
	const word = ['first', 'second', 'third', 'fourth'].indexOf(n);
	const q = word >= 0 ? word : Number(n.replace(/\D/g, '')) - 1;
	if (!(q >= 0 && q <= 3)) return null;
	if (year) return quarterSpan(+year, q);
	const y = yearOf(c.now);
	const cur = Math.floor(monthOf(c.now) / 3);
	if (c.dir === 'future') return quarterSpan(q >= cur ? y : y + 1, q);
	return quarterSpan(q <= cur ? y : y - 1, q);
}

/**
 * Meteorological seasons of the northern hemisphere: spring Mar–May, summer Jun–Aug, autumn
 * Sep–Nov, winter Dec–Feb; "winter 2023" starts in December 2023. "last summer" is the latest one
 * that has ended, "this summer" the one starting in the anchor's year.
 */
function season(
	word: string,
	year: string | undefined,
	which: string | undefined,
	c: Context,
): Span {
	const start = SEASONS[word.toLowerCase()];
	const span = (y: number): Span => ({ s: utc(y, start), e: utc(y, start + 3) });
	if (year) return span(+year);
	const y = yearOf(c.now);
	const w = which?.toLowerCase();
	if (w === 'this') return span(y);
	if (w === 'last') return span(span(y).e <= c.now ? y : span(y - 1).e <= c.now ? y - 1 : y - 2);
	if (w === 'next' || c.dir === 'future')
		return span(span(y).s > c.now || (w !== 'next' && span(y).e > c.now) ? y : y + 1);
	return span(span(y).s <= c.now ? y : y - 1);
}

/**
 * "early" is the first third of a period, "mid" the middle third, "late" the last: days 1–10,
 * 11–20 and 21–end of a month; whole months of a year; whole days of a week.
 */
function partOf(mod: string, span: Span): Span {
	const m = mod.toLowerCase();
	const third = (span.e - span.s) / 3;
	const isMonth =
		new Date(span.s).getUTCDate() === 1 &&
		addMonths(span.s, 1) === span.e &&
		span.s === dayStart(span.s);
	if (isMonth) return partOfMonth(m, span);
	const round = (ms: number) =>
		third >= 20 * DAY ? nearestMonthStart(ms) : third >= DAY ? dayStart(ms + DAY / 2) : ms;
	if (/early|beginning|start/.test(m)) return { s: span.s, e: round(span.s + third) };
	if (/late|end/.test(m)) return { s: round(span.e - third), e: span.e };
	return { s: round(span.s + third), e: round(span.e - third) };
}

function partOfMonth(mod: string, month: Span): Span {
	if (/early|beginning|start/.test(mod)) return { s: month.s, e: month.s + 10 * DAY };
	if (/late|end/.test(mod)) return { s: month.s + 20 * DAY, e: month.e };
	return { s: month.s + 10 * DAY, e: month.s + 20 * DAY };
}

function nearestMonthStart(ms: number): number {
	const first = utc(yearOf(ms), monthOf(ms));
	const next = addMonths(first, 1);
	return ms - first < next - ms ? first : next;
}

// ---------------------------------------------------------------------------------------------
// Compiled matchers.
// ---------------------------------------------------------------------------------------------

/** The period patterns anchored to the whole (normalised) query. */
const QUERY_RES = PATTERNS.map((p) => new RegExp(`^(?:${PART_OF_PERIOD})?(?:${p.src})$`, 'i'));

/** Resolves a whole phrase as one period, or null. */
function parsePeriod(phrase: string, c: Context): Span | null {
	for (let i = 0; i < PATTERNS.length; i++) {
		const m = QUERY_RES[i].exec(phrase);
		if (!m) continue;
		const span = PATTERNS[i].resolve(m.groups ?? {}, c);
		if (!span || !(span.e > span.s)) return null;
		return m.groups?.mod ? partOf(m.groups.mod, closed(span, c)) : span;
	}
	return null;
}

/** A rolling window's open end, closed at "now" where a finite window is needed. */
function closed(span: Span, c: Context): Span {
	return span.e === OPEN_END ? { s: span.s, e: c.now } : span;
}

// ---------------------------------------------------------------------------------------------
// Natural time filters.
// ---------------------------------------------------------------------------------------------

/** Operators around periods: "since X", "between X and Y", "more than 2 weeks ago", … */
const RANGE_RES: { re: RegExp; build: (m: RegExpExecArray, c: Context) => Span | null }[] = [
	{ re: /^(\d{4})\s*[-–—]\s*(\d{4})$/, build: (m, c) => between(m[1], m[2], c) },
	{
		re: /^(?:between|from)\s+(.+?)\s+(?:and|to|until|till|through|thru)\s+(.+)$/,
		build: (m, c) => between(m[1], m[2], c),
	},
	{
		re: /^(.+?)\s*(?:\s(?:to|until|till|through|thru)\s|–|—|\s-\s|\.\.|\/)\s*(.+)$/,
		build: (m, c) => between(m[1], m[2], c),
	},
	{ re: /^from\s+(.+)$/, build: (m, c) => parsePeriod(m[1], c) },
	{
		re: /^(?:since|starting|starting\s+from|as\s+of)\s+(.+)$/,
		build: (m, c) => side(m[1], c, (p) => ({ s: p.s, e: OPEN_END })),
	},
	{
		re: /^(?:after)\s+(.+)$/,
		build: (m, c) => side(m[1], c, (p) => ({ s: closed(p, c).e, e: OPEN_END })),
	},
	{
		re: /^(?:before|prior\s+to|earlier\s+than)\s+(.+)$/,
		build: (m, c) => side(m[1], c, (p) => ({ s: -OPEN_END, e: p.s })),
	},
	{
		re: /^(?:until|till|up\s+to|through|thru|by)\s+(.+)$/,
		build: (m, c) => side(m[1], c, (p) => ({ s: -OPEN_END, e: closed(p, c).e })),
	},
	{
		re: new RegExp(
			String.raw`^(?:more\s+than|over|older\s+than|at\s+least)\s+(${NUM})\s+(${UNIT})(?:\s+(?:ago|old))?$`,
		),
		build: (m, c) => olderThan(m[1], m[2], c, true),
	},
	{
		re: new RegExp(
			String.raw`^(?:less\s+than|under|within|newer\s+than|in\s+the\s+last|at\s+most)\s+(${NUM})\s+(${UNIT})(?:\s+(?:ago|old))?$`,
		),
		build: (m, c) => olderThan(m[1], m[2], c, false),
	},
	{
		re: /^(?:in|during|on|at|within|over|for|around|throughout)\s+(.+)$/,
		build: (m, c) => parsePeriod(m[1], c),
	},
];

/**
 * "X to Y": both ends resolved against now; when X then lands after Y ("March to May" asked in
 * March), X is resolved again as the latest one before Y ends, giving a finished range.
 */
function between(a: string, b: string, c: Context): Span | null {
	const to = parsePeriod(b, c);
	let from = parsePeriod(a, c);
	if (!from || !to) return null;
	if (from.s >= closed(to, c).e) from = parsePeriod(a, { ...c, now: closed(to, c).e - 1 });
	if (!from) return null;
	const span = { s: from.s, e: closed(to, c).e };
	return span.e > span.s ? span : null;
}

function side(text: string, c: Context, make: (p: Span) => Span): Span | null {
	const p = parsePeriod(text, c);
	return p ? make(p) : null;
}

function olderThan(n: string, unit: string, c: Context, older: boolean): Span | null {
	const a = amount(n, unit);
	if (!a) return null;
	const at = shift(c.now, a.unit, -a.n);
	return older ? { s: -OPEN_END, e: at } : { s: at, e: OPEN_END };
}

/** Lowercase, NFKC, single spaces, no edge punctuation or filler ("memories from …"). */
function normaliseQuery(text: string): string {
	return text
		.normalize('NFKC')
		.toLowerCase()
		.replace(/[’‘]/g, "'")
		.replace(/\s+/g, ' ')
		.replace(/^[\s"'“”([{]+|[\s"'“”)\]}.,;:!?]+$/g, '')
		.replace(
			/^(?:(?:show|find|get|list)\s+)?(?:(?:all|my)\s+)?(?:memories|notes|things|stuff|events)\s+(?=from|since|in|during|on|before|after|between|until|of\s)/,
			'',
		)
		.replace(/^of\s+/, '');
}

/**
 * Understands a natural time filter and returns its window as UTC ISO strings (start inclusive,
 * end exclusive; a missing side is open), or null when the phrase is not understood; callers turn
 * null into an invalid_input error naming `time_query`.
 *
 * Understood: today, yesterday, this/last/past week|month|year|quarter, last/past N
 * days|weeks|months|years|hours, N days/weeks ago (that day/week), since/after/before/until X,
 * between X and Y, from X to Y, in/during X, March 2024, March (the latest March, this one
 * included), March 5, Q1 2024, 2024, 2024-03, 2024-03-05, ISO date-times, weekdays ("last
 * Tuesday", "on Tuesday"), this morning, last night, earlier today, last weekend, early/mid/late X,
 * first week of May, more/less than N units ago, recently (30 days), 2024-W10, H1 2024, the 90s,
 * the week before last, two weekends ago, this time last year, yesterday at 3pm, holidays
 * (Christmas, New Year's Eve, Halloween, Valentine's, Thanksgiving, Easter), 2020-2022.
 * Weeks start Monday; "last week" is the previous Monday–Sunday, "past week", "the last week" and
 * "this past week" the last seven days.
 *
 * @example parseTimeQuery('last week', Date.parse('2024-03-13T12:00:00Z'))
 * // → { start: '2024-03-04T00:00:00.000Z', end: '2024-03-11T00:00:00.000Z' }
 */
export function parseTimeQuery(text: string, nowMs: number): TimeRange | null {
	if (!Number.isFinite(nowMs))
		throw new MemoryError('invalid_input', `nowMs: must be a finite number, got ${nowMs}`);
	const phrase = normaliseQuery(text ?? '');
	if (!phrase || phrase.length > 200) return null;
	const c: Context = { now: nowMs, dir: 'past', query: true };
	const span = parsePeriod(phrase, c) ?? parseRange(phrase, c);
	if (!span) return null;
	// A window reaching past what a Date can hold ("next 99999 weeks" near the end of time) is open
	// on that side; one lying wholly beyond it is not understood.
	if (span.s > DATE_LIMIT || span.e < -DATE_LIMIT) return null;
	const out: TimeRange = {};
	if (Number.isFinite(span.s) && representable(span.s)) out.start = iso(span.s);
	if (Number.isFinite(span.e) && representable(span.e)) out.end = iso(span.e);
	return out.start || out.end ? out : null;
}

function parseRange(phrase: string, c: Context): Span | null {
	for (const { re, build } of RANGE_RES) {
		const m = re.exec(phrase);
		if (!m) continue;
		const span = build(m, c);
		if (span) return span;
	}
	return null;
}

// ---------------------------------------------------------------------------------------------
// Time mentions in free text.
// ---------------------------------------------------------------------------------------------

/**
 * The patterns in their free-text form, sticky: extraction tries them only where a word that can
 * open a time expression starts, instead of running each one over the whole text (5x faster).
 */
const MENTION_RES = PATTERNS.filter((p) => p.mention !== false).map(
	(p) => new RegExp(String.raw`(?:${PART_OF_PERIOD})?(?:${p.mention ?? p.src})(?![\w-])`, 'iy'),
);
/** Every word that can open a mention; digits always can. */
const OPENING_WORDS = new Set(
	[
		'early|mid|late|the|beginning|start|middle|end|day|today|tonight|tomorrow|yesterday|this|last',
		'earlier|other|over|in|within|during|for|past|previous|next|coming|a|an|couple|few|several',
		'on|at|first|second|third|fourth|by|since|until|till|before|after|of|through|throughout',
		'from|around|back|circa|q1|q2|q3|q4|spring|summer|autumn|fall|winter',
		'week|weekend|month|year|christmas|new|halloween|valentine|valentines|thanksgiving|easter',
		MONTHS.join('|'),
		'jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec',
		WEEKDAYS.join('|'),
		ONES.slice(1).join('|'),
		TENS.slice(2).join('|'),
		ORD_WORDS,
	]
		.join('|')
		.split('|'),
);
/** Where an opening word (or a number) starts: one compiled scan instead of a JS step per word. */
const OPENING_RE = new RegExp(
	String.raw`(?<![\p{L}\p{N}_-])(?:(?:${[...OPENING_WORDS].sort((a, b) => b.length - a.length).join('|')})(?![\p{L}\p{N}])|\d)`,
	'giu',
);
const MENTION_PATTERNS = PATTERNS.filter((p) => p.mention !== false);
/**
 * All mention patterns in one sticky regex without group names: one attempt per opening word
 * rules most words out before the patterns run one by one.
 */
const ANY_MENTION = new RegExp(
	`(?:${PART_OF_PERIOD})?(?:${MENTION_PATTERNS.map((p) => `(?:${p.mention ?? p.src})`).join('|')})(?![\\w-])`.replace(
		/\(\?<([A-Za-z]\w*)>/g,
		'(?:',
	),
	'iy',
);

/** Words that make a clause point forward ("we will go in June", "I'm flying out Friday"). */
const FUTURE_CUES =
	/\b(?:will|won't|shall|going\s+to|gonna|plan(?:ning)?\s+to|planning|planned|intend(?:ing)?\s+to|hope\s+to|hoping\s+to|about\s+to|looking\s+forward|can't\s+wait|upcoming|scheduled|booked|reserved|signed\s+up|due|soon|next|(?:i'm|i\s+am|we're|we\s+are|they're|he's|she's)\s+\w+ing)\b|'ll\b/i;
/** Words that make a clause point back ("we met on July 1", "got my score Friday"). */
const PAST_CUES =
	/\b(?:was|were|did|had|went|got|came|made|took|left|met|saw|said|told|ago|yesterday|already|used\s+to|back\s+in|since|bought|began|found|heard|lost|won|ran|ate|flew|drove|wrote|gave|felt|kept|sent)\b|\b(?!(?:excited|tired|interested|worried|scared|bored|thrilled|stressed|pleased|supposed|married|engaged|retired)\b)\w{2,}[^e\W]ed\b/i;

/**
 * Finds relative and absolute time expressions in free text and resolves each against the
 * anchor (the memory's own timestamp): "last Saturday", "yesterday", "two weeks ago", "next
 * month", "in June", "on the 14th", "last summer", "May 2023", "three weeks since". A phrase
 * without its own direction follows its clause's tense ("we met in June" → the last June, "we'll
 * go in June" → the next); with no tense cue a date or month takes its nearest occurrence ("Moving
 * in July 1st" said on June 20) and a weekday the past one. A bare "on the 15th" takes the month
 * the text named just before ("March 13 to 17; my talk is on the 15th"). Overlapping matches keep
 * the longest. Windows are whole UTC days or larger, start inclusive, end exclusive.
 *
 * @example extractTimeMentions('I adopted a dog last week', Date.parse('2023-05-08T18:30:00Z'))
 * // → [{ phrase: 'last week', start: '2023-05-01T00:00:00.000Z', end: '2023-05-08T00:00:00.000Z' }]
 */
export function extractTimeMentions(text: string, anchorMs: number): TimeMention[] {
	if (!Number.isFinite(anchorMs))
		throw new MemoryError('invalid_input', `anchorMs: must be a finite number, got ${anchorMs}`);
	if (!text) return [];
	const found = findCandidates(text);
	if (found.length === 0) return [];
	const out: TimeMention[] = [];
	const tense = clauseTenses(text);
	let month: Context['month'];
	for (const f of found) {
		const c: Context = { now: anchorMs, dir: tense(f.index), query: false, month };
		const groups = normaliseGroups(f.groups);
		if (isModalVerb(f.phrase, groups)) continue;
		let span = MENTION_PATTERNS[f.pattern].resolve(groups, c);
		if (!span || !(span.e > span.s)) continue;
		if (groups.month) month = { y: yearOf(span.s), m: monthOf(span.s) };
		span = mentionWindow(span, c);
		if (f.groups.mod) span = partOf(f.groups.mod, span);
		if (!representable(span.s) || !representable(span.e)) continue;
		out.push({ phrase: f.phrase, start: iso(span.s), end: iso(span.e) });
	}
	return out;
}

interface Candidate {
	index: number;
	phrase: string;
	pattern: number;
	groups: Groups;
}

/** Every pattern's matches at every opening word, overlaps resolved for the longest (then earliest). */
function findCandidates(text: string): Candidate[] {
	const all: Candidate[] = [];
	for (const w of text.matchAll(OPENING_RE)) {
		ANY_MENTION.lastIndex = w.index;
		if (!ANY_MENTION.test(text)) continue;
		for (let pattern = 0; pattern < MENTION_RES.length; pattern++) {
			const re = MENTION_RES[pattern];
			re.lastIndex = w.index;
			const m = re.exec(text);
			if (m) all.push({ index: m.index, phrase: m[0], pattern, groups: m.groups ?? {} });
		}
	}
	all.sort((a, b) => b.phrase.length - a.phrase.length || a.index - b.index);
	// A claim mask keeps overlap checks linear in the text, even with thousands of mentions.
	const claimed = new Uint8Array(text.length);
	const taken: Candidate[] = [];
	for (const cand of all) {
		const end = cand.index + cand.phrase.length;
		if (claimed.subarray(cand.index, end).includes(1)) continue;
		claimed.fill(1, cand.index, end);
		taken.push(cand);
	}
	return taken.sort((a, b) => a.index - b.index);
}

/** Mention-only alternatives use numbered twins of a group name (month2, y2, season2). */
function normaliseGroups(g: Groups): Groups {
	return { ...g, month: g.month ?? g.month2, y: g.y ?? g.y2, season: g.season ?? g.season2 };
}

/** "may 5 people" and "march 3 miles" are verbs: a lowercase month word opening a phrase. */
function isModalVerb(phrase: string, g: Groups): boolean {
	return !g.y && /^(?:may|march|mar)\b/.test(phrase) && g.month !== undefined;
}

/**
 * Rolling windows end at the anchor's day; anything shorter than a day becomes the day it starts
 * on ("last night" is yesterday, "this morning" today): mentions are dates.
 */
function mentionWindow(span: Span, c: Context): Span {
	const e = span.e === OPEN_END ? dayStart(c.now) + DAY : span.e;
	if (e - span.s >= DAY) return { s: span.s, e };
	return daySpan(span.s);
}

/** Characters that end a clause, for finding the words that give a mention its direction. */
const CLAUSE_ENDS = new Set(['.', '!', '?', ';', '\n']);

/**
 * The tense of the clause around each position, computed once per clause (a text made of one
 * long clause with thousands of mentions must not be rescanned for each).
 */
function clauseTenses(text: string): (index: number) => Direction {
	const starts = new Int32Array(text.length + 1);
	for (let i = 0, start = 0; i <= text.length; i++) {
		starts[i] = start;
		if (CLAUSE_ENDS.has(text[i])) start = i + 1;
	}
	const cache = new Map<number, Direction>();
	return (index) => {
		const from = starts[index];
		let dir = cache.get(from);
		if (dir === undefined) {
			let to = index;
			while (to < text.length && !CLAUSE_ENDS.has(text[to])) to++;
			dir = clauseTense(text.slice(from, to));
			cache.set(from, dir);
		}
		return dir;
	};
}

/** The tense of a clause: future or past cues, "nearest" when it has neither or both. */
function clauseTense(raw: string): Direction {
	const clause = raw.replace(/[’‘]/g, "'");
	const future = FUTURE_CUES.test(clause);
	const past = PAST_CUES.test(clause);
	// "Rent was due on the 3rd" has both: the nearest 3rd settles it.
	return future === past ? 'nearest' : future ? 'future' : 'past';
}

// ---------------------------------------------------------------------------------------------
// Ages and date tokens.
// ---------------------------------------------------------------------------------------------

function parseIso(value: string, field: string): number {
	const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
	if (!Number.isFinite(ms))
		throw new MemoryError(
			'invalid_input',
			`${field}: must be an ISO 8601 date, got ${JSON.stringify(value)}`,
		);
	return ms;
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/**
 * How long ago (or ahead) a moment is, as a person says it: "just now" (under 45 seconds either
 * way), "10 minutes ago", "1 hour ago", "yesterday" (24–48 hours), "4 days ago", "3 weeks ago",
 * "2 months ago", "1 year ago"; the future reads "in 5 minutes", "tomorrow", "in 3 days".
 * Throws invalid_input naming `iso` when the date does not parse.
 */
export function humanAge(iso: string, nowMs: number): string {
	if (!Number.isFinite(nowMs))
		throw new MemoryError('invalid_input', `nowMs: must be a finite number, got ${nowMs}`);
	const at = parseIso(iso, 'iso');
	const diff = nowMs - at;
	const abs = Math.abs(diff);
	if (abs < 45_000) return 'just now';
	if (abs >= DAY && abs < 2 * DAY) return diff > 0 ? 'yesterday' : 'tomorrow';
	const phrase = diff > 0 ? ageWords(at, nowMs) : ageWords(nowMs, at);
	return diff > 0 ? `${phrase} ago` : `in ${phrase}`;
}

function ageWords(from: number, to: number): string {
	const abs = to - from;
	if (abs < HOUR) return plural(Math.min(59, Math.max(1, Math.round(abs / MINUTE))), 'minute');
	if (abs < DAY) return plural(Math.floor(abs / HOUR), 'hour');
	const days = Math.floor(abs / DAY);
	if (days < 7) return plural(days, 'day');
	if (days < 30) return plural(Math.floor(days / 7), 'week');
	// Months and years count calendar months, so Jan 15 → Mar 15 is "2 months", leap years included.
	const months = Math.max(1, fullMonths(from, to));
	return months < 12 ? plural(months, 'month') : plural(Math.floor(months / 12), 'year');
}

/** Whole calendar months from `a` to `b` (b ≥ a). */
function fullMonths(a: number, b: number): number {
	const x = new Date(a);
	const y = new Date(b);
	const months = (y.getUTCFullYear() - x.getUTCFullYear()) * 12 + y.getUTCMonth() - x.getUTCMonth();
	return addMonths(a, months) > b ? months - 1 : months;
}

const QUARTER_NAMES = ['q1', 'q2', 'q3', 'q4'];

/**
 * Searchable tokens for a moment's UTC date, so that a text index can match time words:
 * year, month name, "month year", weekday, ISO date, ISO month and quarter, e.g. for
 * 2023-05-08: ["2023", "may", "may 2023", "monday", "2023-05-08", "2023-05", "q2 2023"].
 * Throws invalid_input naming `iso` when the date does not parse.
 */
export function describeDate(iso: string): string[] {
	const d = new Date(parseIso(iso, 'iso'));
	const y = String(d.getUTCFullYear());
	const month = MONTHS[d.getUTCMonth()];
	const ymd = d.toISOString().slice(0, 10);
	return [
		y,
		month,
		`${month} ${y}`,
		WEEKDAYS[weekdayOf(d.getTime())],
		ymd,
		ymd.slice(0, 7),
		`${QUARTER_NAMES[Math.floor(d.getUTCMonth() / 3)]} ${y}`,
	];
}

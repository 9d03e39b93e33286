/**
 * The period grammar: each pattern matches one phrase (a query's whole phrase, or a phrase inside
 * free text) and resolves it to a window through resolvers.ts.
 */
import { DAY, dayStart, monthSpan, shift, type Span, type Unit, unitSpan, yearSpan } from './calendar';
import {
	atClock,
	beforeLast,
	dateSpan,
	dayOfMonth,
	dayRun,
	decade,
	earlierThis,
	half,
	holiday,
	isoInstant,
	isoWeek,
	monthDay,
	nearestWeekend,
	partOfDay,
	quarter,
	RECENT_DAYS,
	relativeDay,
	relativeUnit,
	resolveMonth,
	rolling,
	sameTimeLast,
	season,
	unitsAway,
	weekday,
	weekendsAgo,
	weekHolding,
	weekOfMonth,
} from './resolvers';
import { type Context, type Groups, OPEN_END } from './types';
import { anyOf, CLOCK, HOLIDAY, MONTH, MONTHS, NUM, numberValue, ORD, ordinalValue, PART, SEASON, UNIT, WEEKDAY, WEEKDAYS, YEAR } from './vocabulary';

interface Pattern {
	/** Regex source with named groups; anchored for queries, word-bounded for mentions. */
	src: string;
	resolve: (g: Groups, c: Context) => Span | null;
	/** Stricter source for free text, where e.g. a bare "2019" or "may" is too ambiguous. */
	mention?: string | false;
}

/** Days named relative to today. */
const RELATIVE_DAYS = anyOf(['day before yesterday', 'day after tomorrow', 'today', 'tonight', 'tomorrow', 'yesterday']);
/** Which rolling window: "last 3 days", "next two weeks". */
const ROLLING = anyOf(['last', 'past', 'previous', 'next', 'coming']);
/** Which way "N units …" points: "3 days ago", "two weeks from now". */
const AWAY = anyOf(['ago', 'back', 'before', 'earlier', 'prior', 'since', 'later', 'after', 'from now', 'hence']);
/** Which calendar unit: "this past week", "next quarter" ("prior" only in queries). */
const RELATIVE = ['this past', 'this coming', 'this', 'last', 'past', 'previous', 'prior', 'next', 'coming'];
const RELATIVE_IN_TEXT = RELATIVE.filter((w) => w !== 'prior');
/** Units of `RELATIVE` (queries also take "day" and "hour"). */
const UNITS = ['week', 'weekend', 'month', 'quarter', 'year', 'decade', 'fortnight'];
/** "over", "during", … before a relative unit, optional. */
const DURING = String.raw`(?:(?:over|during|in|within)\s+)?`;
/** First to fourth, in words or figures. */
const NTH = ['first', 'second', 'third', 'fourth', '1st', '2nd', '3rd', '4th'];
/** Which weekday: "last Friday", "this coming Monday", "on Tuesday". */
const WEEKDAY_WHICH = anyOf(['last', 'this', 'next', 'this past', 'this coming', 'on']);
/** Words that make a month word in free text a month ("in may", "since March"). */
const MONTH_CUES = anyOf([
	...['in', 'during', 'since', 'until', 'till', 'by', 'of', 'early', 'mid', 'late', 'through', 'throughout'],
	...['from', 'before', 'after', 'around'],
]);
/** Words that make a number in free text a year ("in 2019", "back in 1999"). */
const YEAR_CUES = anyOf([...['in', 'during', 'since', 'until', 'till', 'by', 'of', 'from', 'before', 'after', 'around'], ...['back in', 'circa']]);
/** An optional year after a date or month: "May 5, 2024", "March 2024". */
const AND_YEAR = String.raw`(?:,?\s+(?<y>${YEAR}))?`;
/** An optional year after a season: "summer 2023", "winter of 2022". */
const OF_YEAR = String.raw`(?:\s+(?:of\s+)?(?<y>${YEAR}))?`;

/** Every period pattern, tried in order: the first that matches a query phrase wins. */
export const PATTERNS: Pattern[] = [
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
		src: String.raw`(?:the\s+)?(?<which>${RELATIVE_DAYS})(?:\s+(?<part>${PART})|${CLOCK})?`,
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
		src: String.raw`(?:(?:over|in|within|during|for)\s+)?(?:the\s+)?(?<which>${ROLLING})\s+(?<n>${NUM})\s+(?<unit>${UNIT})`,
		resolve: (g, c) => rolling(g.which!, g.n!, g.unit!, c),
	},
	{
		src: String.raw`(?<n>${NUM})\s+(?<unit>${UNIT})\s+(?<dir>${AWAY})`,
		resolve: (g, c) => unitsAway(g.n!, g.unit!, g.dir!, c),
	},
	// Not "in four days of practice", a duration.
	{
		src: String.raw`in\s+(?<n>${NUM})\s+(?<unit>${UNIT})(?!\s+of\b)`,
		resolve: (g, c) => unitsAway(g.n!, g.unit!, 'later', c),
	},
	{
		src: String.raw`${DURING}(?<the>the\s+)?(?<which>${anyOf(RELATIVE)})\s+(?<unit>${anyOf(UNITS, ['day', 'hour'])})`,
		resolve: (g, c) => relativeUnit(g.which!, g.unit!, c, g.the !== undefined),
		// "the next day" in a story is not the day after the memory was written.
		mention: String.raw`${DURING}(?<the>the\s+)?(?<which>${anyOf(RELATIVE_IN_TEXT)})\s+(?<unit>${anyOf(UNITS)})`,
	},
	{
		src: String.raw`(?:this|the)\s+(?<unit>week|month|year)`,
		resolve: (g, c) => unitSpan(c.now, g.unit!.toLowerCase() as Unit),
		// In free text only after "end of", "beginning of", …: "the week" alone is too vague.
		mention: String.raw`(?<=(?:beginning|start|middle|end)\s+of\s+)` + String.raw`(?:this|the)\s+(?<unit>week|month|year)`,
	},
	{
		src: String.raw`(?:over\s+)?the\s+weekend`,
		resolve: (_g, c) => nearestWeekend(c),
		mention: String.raw`(?:over|on|at|during)\s+the\s+weekend`,
	},
	{
		src:
			String.raw`(?:the\s+)?(?<nth>${anyOf(NTH.slice(0, 4), ['last'], NTH.slice(4))})\s+week\s+(?:of|in)\s+` +
			String.raw`(?:(?<which>last|this|next)\s+)?(?<month>${MONTH})${AND_YEAR}`,
		resolve: (g, c) => weekOfMonth(g.nth!, resolveMonth(g.month!, g.y, g.which, c)),
	},
	{
		src: String.raw`(?:(?<which>${WEEKDAY_WHICH})\s+)?(?<wd>${WEEKDAY})(?:\s+(?<part>${PART})|${CLOCK})?`,
		resolve: (g, c) => atClock(weekday(g.wd!, g.which, g.part, c), g),
		mention: String.raw`(?:(?<which>${WEEKDAY_WHICH})\s+)?(?<wd>${anyOf(WEEKDAYS)})(?:\s+(?<part>${PART}))?`,
	},
	// A run of days in one month, and the week holding a day (queries only: in free text "May 8-10" is rare and "week of" vague).
	{
		src: String.raw`(?<month>${MONTH})\s+(?<d>\d{1,2})(?:st|nd|rd|th)?\s*(?:-|–|—|to)\s*(?<d2>\d{1,2})(?:st|nd|rd|th)?${AND_YEAR}`,
		resolve: (g, c) => dayRun(g.month!, +g.d!, +g.d2!, g.y, c),
		mention: false,
	},
	{
		src: String.raw`(?<d>\d{1,2})(?:st|nd|rd|th)?\s*(?:-|–|—)\s*(?<d2>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?<month>${MONTH})${AND_YEAR}`,
		resolve: (g, c) => dayRun(g.month!, +g.d!, +g.d2!, g.y, c),
		mention: false,
	},
	{
		src:
			String.raw`(?:the\s+)?week\s+(?:of|starting|beginning)\s+(?:(?<iy>\d{4})-(?<im>\d{1,2})-(?<id>\d{1,2})` +
			String.raw`|(?<month>${MONTH})\s+(?<d>${ORD})${AND_YEAR}|(?:the\s+)?(?<d2>${ORD})\s+(?:of\s+)?(?<month2>${MONTH})(?:,?\s+(?<y2>${YEAR}))?)`,
		resolve: (g, c) =>
			weekHolding(
				g.iy
					? dateSpan(+g.iy, +g.im! - 1, +g.id!)
					: g.month
						? monthDay(g.month, ordinalValue(g.d!), g.y, c)
						: monthDay(g.month2!, ordinalValue(g.d2!), g.y2, c),
			),
		mention: false,
	},
	{
		src: String.raw`(?<month>${MONTH})\s+(?<d>${ORD})${AND_YEAR}`,
		resolve: (g, c) => monthDay(g.month!, ordinalValue(g.d!), g.y, c),
	},
	{
		src: String.raw`(?:the\s+)?(?<d>${ORD})\s+(?:of\s+)?(?<month>${MONTH})${AND_YEAR}`,
		resolve: (g, c) => monthDay(g.month!, ordinalValue(g.d!), g.y, c),
	},
	{
		src: String.raw`(?:on\s+)?the\s+(?<d>${ORD})`,
		resolve: (g, c) => dayOfMonth(ordinalValue(g.d!), c),
		mention: String.raw`(?:on|by|since|until|before|after)\s+the\s+(?<d>${ORD})`,
	},
	{
		src: String.raw`(?:(?<which>last|this|next)\s+)?(?<month>${MONTH})${AND_YEAR}`,
		resolve: (g, c) => resolveMonth(g.month!, g.y, g.which, c),
		// A month word after a cue ("in may"), or before a year; "may" alone is a verb.
		mention:
			String.raw`(?:(?:(?<which>last|this|next)|${MONTH_CUES})\s+(?:the\s+month\s+of\s+)?(?<month>${anyOf(MONTHS)})${AND_YEAR}` +
			String.raw`|(?<month2>${anyOf(MONTHS.filter((m) => m !== 'may'))}|may(?=,?\s+${YEAR}))(?:,?\s+(?<y2>${YEAR}))?)`,
	},
	{
		src:
			String.raw`(?:the\s+)?(?<nth>${anyOf(NTH, ['q[1-4]'])})\s+(?:quarter\s+)?(?:of\s+)?(?<y>${YEAR})` +
			String.raw`|(?<y2>${YEAR})\s+(?<nth2>q[1-4])|(?<nth3>q[1-4])`,
		resolve: (g, c) => quarter(g.nth ?? g.nth2 ?? g.nth3!, g.y ?? g.y2, c),
	},
	{
		src: String.raw`(?:(?<which>last|this|next)\s+|(?:in\s+|during\s+)?the\s+)?(?<season>${SEASON})${OF_YEAR}`,
		resolve: (g, c) => season(g.season!, g.y, g.which, c),
		mention:
			String.raw`(?:(?<which>last|this|next)\s+|(?:in|during|over|through)\s+the\s+|the\s+)(?<season>${SEASON})${OF_YEAR}` +
			String.raw`|(?<season2>${SEASON})\s+(?:of\s+)?(?<y2>${YEAR})`,
	},
	{
		src: String.raw`(?<y>${YEAR})`,
		resolve: (g) => yearSpan(+g.y!),
		mention: String.raw`(?:${YEAR_CUES})\s+(?<y>(?:19|20|21)\d{2})`,
	},
];

/** Modifiers that take part of a period: "early March", "the end of last year", "mid-2023". */
export const PART_OF_PERIOD = String.raw`(?<mod>early|mid|late|(?:the\s+)?(?:beginning|start|middle|end)\s+of)[\s-]+`;

/**
 * Natural time filters: a whole query phrase ("last week", "since March 2024", "between X and
 * Y") to a window.
 */
import { MemoryError } from '../errors';
import { DATE_LIMIT, iso, representable, shift, type Span } from './calendar';
import { PART_OF_PERIOD, PATTERNS } from './patterns';
import { partOf } from './resolvers';
import { type Context, OPEN_END, type TimeRange } from './types';
import { amount, NUM, UNIT } from './vocabulary';

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
		re: new RegExp(String.raw`^(?:more\s+than|over|older\s+than|at\s+least)\s+(${NUM})\s+(${UNIT})(?:\s+(?:ago|old))?$`),
		build: (m, c) => olderThan(m[1], m[2], c, true),
	},
	{
		re: new RegExp(String.raw`^(?:less\s+than|under|within|newer\s+than|in\s+the\s+last|at\s+most)\s+(${NUM})\s+(${UNIT})(?:\s+(?:ago|old))?$`),
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
			new RegExp(
				String.raw`^(?:(?:show|find|get|list)\s+)?(?:(?:all|my)\s+)?(?:memories|notes|things|stuff|events)\s+` +
					String.raw`(?=from|since|in|during|on|before|after|between|until|of\s)`,
			),
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
	if (!Number.isFinite(nowMs)) throw new MemoryError('invalid_input', `nowMs: must be a finite number, got ${nowMs}`);
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

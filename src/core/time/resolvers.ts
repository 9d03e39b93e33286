/**
 * Resolvers: turn a matched phrase's groups into a half-open window, relative to the context's
 * instant and direction.
 */
import {
	addMonths,
	DAY,
	daysInMonth,
	daySpan,
	dayStart,
	HOUR,
	MINUTE,
	monthOf,
	monthSpan,
	quarterSpan,
	shift,
	type Span,
	type Unit,
	unitSpan,
	utc,
	WEEK,
	weekdayOf,
	weekStart,
	yearOf,
} from './calendar';
import { type Context, type Groups, OPEN_END } from './types';
import { amount, monthIndex, SEASONS, weekdayIndex } from './vocabulary';

// --- resolvers -------------------------------------------------------------------------------

/** An ISO date-time; one without a zone is read as UTC (Date.parse would take local time). */
export function isoInstant(text: string): Span | null {
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
export function dateSpan(y: number, m: number, d: number): Span | null {
	if (m < 0 || m > 11 || d < 1 || d > daysInMonth(y, m)) return null;
	return daySpan(utc(y, m, d));
}

const PART_HOURS: Record<string, [number, number]> = {
	morning: [0, 12],
	afternoon: [12, 18],
	evening: [17, 24],
	night: [18, 30], // runs into the small hours of the next day
};

/** Today, tomorrow, the day before yesterday …, or a part of it ("yesterday morning"). */
export function relativeDay(which: string, part: string | undefined, c: Context): Span {
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
export function partOfDay(which: string, part: string, c: Context): Span {
	const p = part.toLowerCase();
	const day = dayStart(c.now) + (which.toLowerCase() === 'last' ? -DAY : 0);
	const [a, b] = PART_HOURS[p];
	return { s: day + a * HOUR, e: day + b * HOUR };
}

/** "Earlier today / this week …": from the unit's start to now. */
export function earlierThis(unit: string | undefined, c: Context): Span {
	const u = (unit?.toLowerCase() ?? 'day') as Unit;
	return { s: unitSpan(c.now, u).s, e: c.now };
}

/** "last 7 days", "past 24 hours", "next two weeks": a window ending (or starting) now. */
export function rolling(which: string, n: string, unitWord: string, c: Context): Span | null {
	const a = amount(n, unitWord);
	if (!a || a.n === 0) return null;
	if (/next|coming/i.test(which)) return { s: c.now, e: shift(c.now, a.unit, a.n) };
	return { s: shift(c.now, a.unit, -a.n), e: OPEN_END };
}

/**
 * "3 days ago" is that day; "2 weeks ago" that Monday–Sunday week; "a month ago" that month.
 * Minutes and hours get a tolerance of a quarter of the distance (at least one unit) each side.
 */
export function unitsAway(n: string, unitWord: string, dir: string, c: Context): Span | null {
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
export function relativeUnit(which: string, unitWord: string, c: Context, the = false): Span | null {
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
	if (w === 'past' || ((w === 'last' || w === 'previous') && (u === 'day' || u === 'hour' || n === 2))) {
		return { s: shift(c.now, u, -n), e: OPEN_END };
	}
	if (u === 'day' || u === 'hour') return w === 'this' ? unitSpan(c.now, u) : { s: c.now, e: shift(c.now, u, n) };
	const current = unitSpan(c.now, u);
	if (w === 'this') return current;
	if (w === 'last' || w === 'previous') return unitSpan(shift(current.s, u, -1), u);
	return n === 2 ? { s: current.e, e: shift(current.e, u, 2) } : unitSpan(shift(current.s, u, 1), u);
}

/** Saturday 00:00 to Monday 00:00 of this week ("this"), the previous ("last") or next week. */
function weekend(which: string, c: Context): Span {
	const monday = weekStart(c.now);
	const offset = which === 'last' || which === 'previous' || which === 'past' ? -1 : which === 'this' ? 0 : 1;
	const s = monday + offset * WEEK + 5 * DAY;
	return { s, e: s + 2 * DAY };
}

/** "over the weekend" in a past sentence is the last one (or the current one, on Sat/Sun). */
export function nearestWeekend(c: Context): Span {
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
export function atClock(span: Span | null, g: Groups): Span | null {
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
export function beforeLast(unit: string, c: Context): Span {
	if (unit === 'weekend') return shiftSpan(weekend('last', c), -WEEK);
	const u = unit as Unit;
	return unitSpan(shift(unitSpan(c.now, u).s, u, -2), u);
}

/** "two weekends ago": the last weekend, then one week further back per extra weekend. */
export function weekendsAgo(n: number, c: Context): Span | null {
	if (!(n >= 1)) return null;
	return shiftSpan(weekend('last', c), -(n - 1) * WEEK);
}

const shiftSpan = (x: Span, by: number): Span => ({ s: x.s + by, e: x.e + by });

/** "this time last year": the same date a year (month, week) ago, give or take a few days. */
export function sameTimeLast(unit: Unit, c: Context): Span {
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
	if (n === 'thanksgiving') return daySpan(utc(y, 10, 1) + (((3 - weekdayOf(utc(y, 10, 1)) + 7) % 7) + 21) * DAY);
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
export function holiday(name: string, year: string | undefined, c: Context): Span | null {
	if (year) return holidayDate(name, +year);
	const today = dayStart(c.now);
	const y = yearOf(c.now);
	const past = [y, y - 1].map((x) => holidayDate(name, x)).find((x) => x !== null && x.s <= today) ?? null;
	const future = [y, y + 1].map((x) => holidayDate(name, x)).find((x) => x !== null && x.s >= today) ?? null;
	return pick(past, future, c);
}

/** How far back "recently" and "lately" reach. */
export const RECENT_DAYS = 30;

/** ISO 8601 week `w` of year `y`: Monday to Monday; week 1 holds the year's first Thursday. */
export function isoWeek(y: number, w: number): Span | null {
	const jan4 = utc(y, 0, 4);
	const week1 = weekStart(jan4);
	const s = week1 + (w - 1) * WEEK;
	// Week 53 exists only in years whose week 53 still holds a Thursday of that year.
	if (w < 1 || w > 53 || yearOf(s + 3 * DAY) !== y) return null;
	return { s, e: s + WEEK };
}

/** H1/H2 (first/second half) of year `y`. */
export function half(h: string, y: number): Span {
	const second = /2|second/i.test(h);
	return { s: utc(y, second ? 6 : 0), e: utc(y, second ? 12 : 6) };
}

/** "the 90s" is 1990–1999; "the 20s" the 2020s; "the 1920s" as written. */
export function decade(text: string): Span {
	let y = Number(text);
	if (y < 100) y += y <= 30 ? 2000 : 1900;
	return { s: utc(y, 0), e: utc(y + 10, 0) };
}

/** Days 1–7, 8–14, 15–21, 22–28 of a month, or its last seven days. */
export function weekOfMonth(nth: string, month: Span | null): Span | null {
	if (!month) return null;
	const n = nth.toLowerCase();
	if (n === 'last') return { s: month.e - WEEK, e: month.e };
	const i = ['first', 'second', 'third', 'fourth'].indexOf(n) + 1 || Number(n[0]);
	return { s: month.s + (i - 1) * WEEK, e: month.s + i * WEEK };
}

/**
 * A run of days in one month ("May 8-10", "8–10 May 2023"): from the first day's start to the
 * last day's end, in the year the first day resolves to. Null when the days run backwards.
 */
export function dayRun(word: string, d1: number, d2: number, year: string | undefined, c: Context): Span | null {
	const first = monthDay(word, d1, year, c);
	if (!first || d2 <= d1) return null;
	const last = dateSpan(yearOf(first.s), monthOf(first.s), d2);
	return last ? { s: first.s, e: last.e } : null;
}

/** The Monday-to-Sunday week holding a day ("the week of May 8, 2023"). */
export function weekHolding(day: Span | null): Span | null {
	if (!day) return null;
	const s = weekStart(day.s);
	return { s, e: s + WEEK };
}

/**
 * A weekday: "last" and past-pointing mentions take the latest one before today, "next" and
 * future-pointing ones the first after today, "this" the one in the current week, and a query
 * for a bare or "on" weekday the latest one on or before today.
 */
export function weekday(word: string, which: string | undefined, part: string | undefined, c: Context): Span | null {
	const target = weekdayIndex(word);
	if (target < 0) return null;
	const today = dayStart(c.now);
	const current = weekdayOf(c.now);
	const w = which?.toLowerCase().replace(/\s+/g, ' ');
	let day: number;
	if (w === 'this') day = weekStart(c.now) + target * DAY;
	else if (w === 'next' || w === 'this coming' || (!isPastWord(w) && !c.query && c.dir === 'future')) {
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
export function resolveMonth(word: string, year: string | undefined, which: string | undefined, c: Context): Span | null {
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
export function monthDay(word: string, d: number, year: string | undefined, c: Context): Span | null {
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
export function dayOfMonth(d: number, c: Context): Span | null {
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

/**
 * Q1–Q4 (or first–fourth quarter) of `year`; without one, the latest such quarter (the current
 * one included), or the next in a future clause.
 */
export function quarter(nth: string, year: string | undefined, c: Context): Span | null {
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
export function season(word: string, year: string | undefined, which: string | undefined, c: Context): Span {
	const start = SEASONS[word.toLowerCase()];
	const span = (y: number): Span => ({ s: utc(y, start), e: utc(y, start + 3) });
	if (year) return span(+year);
	const y = yearOf(c.now);
	const w = which?.toLowerCase();
	if (w === 'this') return span(y);
	if (w === 'last') return span(span(y).e <= c.now ? y : span(y - 1).e <= c.now ? y - 1 : y - 2);
	if (w === 'next' || c.dir === 'future') return span(span(y).s > c.now || (w !== 'next' && span(y).e > c.now) ? y : y + 1);
	return span(span(y).s <= c.now ? y : y - 1);
}

/**
 * "early" is the first third of a period, "mid" the middle third, "late" the last: days 1–10,
 * 11–20 and 21–end of a month; whole months of a year; whole days of a week.
 */
export function partOf(mod: string, span: Span): Span {
	const m = mod.toLowerCase();
	const third = (span.e - span.s) / 3;
	const isMonth = new Date(span.s).getUTCDate() === 1 && addMonths(span.s, 1) === span.e && span.s === dayStart(span.s);
	if (isMonth) return partOfMonth(m, span);
	const round = (ms: number) => (third >= 20 * DAY ? nearestMonthStart(ms) : third >= DAY ? dayStart(ms + DAY / 2) : ms);
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

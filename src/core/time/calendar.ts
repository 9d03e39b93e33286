/**
 * UTC calendar arithmetic on epoch milliseconds: days, ISO weeks (Monday first), months,
 * quarters, years, and half-open spans of them.
 */
export const MINUTE = 60_000;
/** Milliseconds in an hour. */
export const HOUR = 60 * MINUTE;
/** Milliseconds in a UTC day (no leap seconds, no DST). */
export const DAY = 24 * HOUR;
/** Milliseconds in a week. */
export const WEEK = 7 * DAY;

/** A half-open window [s, e) in epoch milliseconds. */
export interface Span {
	s: number;
	e: number;
}

/** Midnight UTC of a date; month and day overflow roll over, and years 0–99 stay literal. */
export function utc(y: number, m: number, d = 1): number {
	const date = new Date(0);
	date.setUTCFullYear(y, m, d);
	return date.getTime();
}
/** Midnight UTC of the day `ms` falls in. */
export const dayStart = (ms: number): number => Math.floor(ms / DAY) * DAY;
/** UTC year of `ms`. */
export const yearOf = (ms: number): number => new Date(ms).getUTCFullYear();
/** UTC month (0–11) of `ms`. */
export const monthOf = (ms: number): number => new Date(ms).getUTCMonth();
/** Day of week with Monday = 0 … Sunday = 6 (ISO 8601): the one weekday convention, WEEKDAYS' order. */
export const weekdayOf = (ms: number): number => (new Date(ms).getUTCDay() + 6) % 7;
/** Monday 00:00 UTC of the ISO week `ms` falls in. */
export const weekStart = (ms: number): number => dayStart(ms) - weekdayOf(ms) * DAY;
/** Days in month `m` (0–11) of year `y`. */
export const daysInMonth = (y: number, m: number): number => new Date(utc(y, m + 1, 0)).getUTCDate();

/** The UTC day `ms` falls in. */
export function daySpan(ms: number): Span {
	const s = dayStart(ms);
	return { s, e: s + DAY };
}
function weekSpan(ms: number): Span {
	const s = weekStart(ms);
	return { s, e: s + WEEK };
}
/** Month `m` (0–11) of year `y`. */
export function monthSpan(y: number, m: number): Span {
	return { s: utc(y, m), e: utc(y, m + 1) };
}
/** Year `y`. */
export function yearSpan(y: number): Span {
	return { s: utc(y, 0), e: utc(y + 1, 0) };
}
/** Quarter `q` (0–3) of year `y`. */
export function quarterSpan(y: number, q: number): Span {
	return { s: utc(y, 3 * q), e: utc(y, 3 * q + 3) };
}

/** `ms` moved by whole months, the day clamped to the target month (Mar 31 − 1 month = Feb 28/29). */
export function addMonths(ms: number, n: number): number {
	const d = new Date(ms);
	const total = d.getUTCFullYear() * 12 + d.getUTCMonth() + n;
	const y = Math.floor(total / 12);
	const m = total - y * 12;
	const day = Math.min(d.getUTCDate(), daysInMonth(y, m));
	return utc(y, m, day) + (ms - dayStart(ms));
}

/** A calendar unit a phrase counts in. */
export type Unit = 'minute' | 'hour' | 'day' | 'week' | 'month' | 'year';

/** `ms` moved by `n` units (months and years clamp the day of month). */
export function shift(ms: number, unit: Unit, n: number): number {
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
export function unitSpan(ms: number, unit: Unit): Span {
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

/** `ms` as an ISO 8601 UTC string. */
export const iso = (ms: number): string => new Date(ms).toISOString();

/** The farthest instant a Date can hold either side of 1970 (ECMAScript's ±100,000,000 days). */
export const DATE_LIMIT = 8.64e15;
/** Whether a Date can hold `ms`. */
export const representable = (ms: number): boolean => Math.abs(ms) <= DATE_LIMIT;

const BARE_DAY = /^([+-]\d{6}|\d{4})-(\d{2})-(\d{2})$/;

/** Local midnight of day `d` of month `m` (1–12) of year `y`, overflow rolling over, in ms (NaN past a Date's range). */
function localDayStart(y: number, m: number, d: number): number {
	const date = new Date(0);
	date.setFullYear(y, m - 1, d);
	return date.setHours(0, 0, 0, 0);
}

/**
 * The time an ISO 8601 date or date-time names, in ms. A day alone is that day's start where the
 * code runs (in the app, the person's zone), as a date-time without an offset is: read the way
 * `Date.parse` reads it (UTC midnight), "2024-05-02" showed as 1 May, 20:00 in New York, and the
 * When filter's "2 May 2024" did not find it. A time of day, with or without an offset, is read
 * as written. (This module's calendar arithmetic stays in UTC: it works on instants.)
 */
export function dateMs(s: string): number {
	const m = BARE_DAY.exec(s.trim());
	return m ? localDayStart(Number(m[1]), Number(m[2]), Number(m[3])) : Date.parse(s);
}

/**
 * A range's `end` as the filters read it (exclusive): a date alone ("2026-12-01") means through
 * that day, so it becomes the next day's start (where the code runs, as `dateMs` reads a date
 * alone); a date-time stays as given.
 */
export function inclusiveDateEnd(end: string | undefined): string | undefined {
	const m = end === undefined ? null : BARE_DAY.exec(end.trim());
	if (!m) return end;
	const t = localDayStart(Number(m[1]), Number(m[2]), Number(m[3]) + 1);
	return Number.isFinite(t) ? new Date(t).toISOString() : end;
}

/**
 * Time order of two stored ISO 8601 UTC strings (`toIso`'s form), for sorting. Their text sorts
 * as their time only within years 0000–9999: "+010000-…" and "-000044-…" sorted before "2020-…"
 * either way, and a window from 2020 to year 10000 was refused as ending before it starts.
 */
export function isoOrder(a: string, b: string): number {
	if (isDigit(a.charCodeAt(0)) && isDigit(b.charCodeAt(0))) return a < b ? -1 : a > b ? 1 : 0;
	return Date.parse(a) - Date.parse(b);
}
const isDigit = (c: number) => c >= 48 && c <= 57;

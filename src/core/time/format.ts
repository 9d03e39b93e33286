/**
 * Time for people and for the index: how long ago a moment is, and the searchable tokens of its
 * date.
 */
import { MemoryError } from '../errors';
import { addMonths, DAY, HOUR, MINUTE, weekdayOf } from './calendar';
import { MONTHS, WEEKDAYS } from './vocabulary';

function parseIso(value: string, field: string): number {
	const ms = typeof value === 'string' ? Date.parse(value) : Number.NaN;
	if (!Number.isFinite(ms)) throw new MemoryError('invalid_input', `${field}: must be an ISO 8601 date, got ${JSON.stringify(value)}`);
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
	if (!Number.isFinite(nowMs)) throw new MemoryError('invalid_input', `nowMs: must be a finite number, got ${nowMs}`);
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
	return [y, month, `${month} ${y}`, WEEKDAYS[weekdayOf(d.getTime())], ymd, ymd.slice(0, 7), `${QUARTER_NAMES[Math.floor(d.getUTCMonth() / 3)]} ${y}`];
}

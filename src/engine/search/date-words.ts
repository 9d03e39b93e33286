/**
 * Date words indexed with each memory, so temporal questions can match lexically: the month
 * name, year and weekday of its timestamp (UTC) plus compact canonical tokens (`m202305`,
 * `d20230508`). Recall does not yet rewrite time phrases in a query into those tokens. Dates are
 * UTC because stored timestamps are UTC and a session date has no time zone of its own.
 */
import { MONTHS } from '../../core/time';

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** Zero-padded two digits. */
function two(n: number): string {
	return n < 10 ? `0${n}` : String(n);
}

/** Canonical month token for a UTC year and 0-based month: `m202305`. */
export function monthToken(year: number, month0: number): string {
	return `m${year}${two(month0 + 1)}`;
}

/** Canonical day token for a UTC date: `d20230508`. */
export function dayToken(year: number, month0: number, day: number): string {
	return `d${year}${two(month0 + 1)}${two(day)}`;
}

/** The words indexed for a timestamp (epoch ms); empty for an invalid time. */
export function dateWords(ms: number): string {
	if (!Number.isFinite(ms)) return '';
	const d = new Date(ms);
	const y = d.getUTCFullYear();
	const m = d.getUTCMonth();
	return [
		MONTHS[m],
		String(y),
		WEEKDAYS[d.getUTCDay()],
		monthToken(y, m),
		dayToken(y, m, d.getUTCDate()),
	].join(' ');
}

/**
 * Date words indexed with each memory, so temporal questions can match lexically: the month
 * name, year and weekday of its timestamp (UTC) plus compact canonical tokens (`m202305`,
 * `d20230508`). On the query side, `queryDateWords` turns the time phrases of a query ("in May
 * 2023", "on 8 May 2023", "last June") into the same tokens. Dates are UTC because stored
 * timestamps are UTC and a session date has no time zone of its own.
 */
import { extractTimeMentions, MONTHS, WEEKDAYS, weekdayOf } from '../../core/time';
import { processTerm } from '../../core/text';

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
	return [MONTHS[m], String(y), WEEKDAYS[weekdayOf(ms)], monthToken(y, m), dayToken(y, m, d.getUTCDate())].join(' ');
}

/** Longest window (in months) a query phrase may cover and still be turned into month tokens. */
const MAX_QUERY_MONTHS = 3;
/** Windows of up to this many days ("last week", "on 8 May") become day tokens instead. */
const MAX_QUERY_DAYS = 7;
const DAY_MS = 86_400_000;

/**
 * The canonical date tokens for the time phrases of a query, resolved against `now` as the
 * memory's own phrases are against its timestamp: a phrase of up to a week gives its day tokens
 * (`d20230508`), one of up to three months its month tokens (`m202305`); years and longer
 * windows give none (the year is indexed as a word already). Empty when the query names no time.
 *
 * @example queryDateWords('What did Maya do in May 2023?', Date.parse('2024-01-01')) // → 'm202305'
 */
export function queryDateWords(query: string, now: number): string {
	if (!Number.isFinite(now)) return '';
	const out = new Set<string>();
	for (const m of extractTimeMentions(query, now)) {
		const s = new Date(m.start);
		const e = Date.parse(m.end);
		if (e - s.getTime() <= MAX_QUERY_DAYS * DAY_MS) {
			for (let t = s.getTime(); t < e; t += DAY_MS) {
				const d = new Date(t);
				out.add(dayToken(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
			}
			continue;
		}
		const months: string[] = [];
		for (let y = s.getUTCFullYear(), mo = s.getUTCMonth(); Date.UTC(y, mo, 1) < e; mo === 11 ? (y++, (mo = 0)) : mo++) {
			months.push(monthToken(y, mo));
			if (months.length > MAX_QUERY_MONTHS) break;
		}
		if (months.length <= MAX_QUERY_MONTHS) for (const t of months) out.add(t);
	}
	return [...out].join(' ');
}

/** A month's full name as a word of a query. */
const MONTH_WORD = new RegExp(`\\b(?:${MONTHS.join('|')})\\b`, 'gi');

/**
 * Runs the query path's time-phrase patterns once, on phrases that reach every one of them:
 * compiling them is ~0.1 s of the first call (Node, 2026-12-07), which would otherwise land on
 * the first recall after a page load. Answers nothing; safe to call at any time.
 */
export function warmDateWords(): void {
	const now = Date.UTC(2024, 0, 1);
	for (const q of ['what happened last week, in May 2023 and on 3 June?', 'What did June say yesterday about May?']) {
		queryDateWords(q, now);
		nameMonthTerms(q, now);
	}
}

/**
 * The processed terms of the month words of `query` that no time phrase covers ("What crafts has
 * June taken up?", "June's grandson": extractTimeMentions reads them as names): they must not
 * match the `dates` field, where every memory of a June carries "june".
 *
 * @example nameMonthTerms('Is June going deaf?', now) // → Set { 'june' }
 * @example nameMonthTerms('What did we do in June?', now) // → empty
 */
export function nameMonthTerms(query: string, now: number): Set<string> {
	const out = new Set<string>();
	const words = [...query.matchAll(MONTH_WORD)];
	if (!Number.isFinite(now) || words.length === 0) return out;
	const covered: [number, number][] = [];
	let from = 0;
	for (const m of extractTimeMentions(query, now)) {
		const at = query.indexOf(m.phrase, from);
		if (at < 0) continue;
		covered.push([at, at + m.phrase.length]);
		from = at + m.phrase.length;
	}
	for (const m of words) {
		const at = m.index;
		if (covered.some(([s, e]) => at >= s && at < e)) continue;
		const t = processTerm(m[0]);
		if (t !== null) out.add(t);
	}
	return out;
}

/**
 * Why a time phrase the person typed in the When field cannot be read, in words they can act on:
 * a range written end first ("from 2025 to 2024") says so and offers the phrase the right way
 * round, and a date written with slashes ("05/08/2023": 8 May or 5 August?) is asked for year
 * first, instead of the generic "not a time I can read". And the window a phrase means in the
 * person's time zone, across daylight-saving changes.
 */
import { parseTimeQuery, type TimeRange } from '../core/time';

const MINUTE = 60_000;

/** The zone's offset from UTC at instant `t`, in ms (+1 h in Paris in winter). */
const offsetAt = (t: number) => -new Date(t).getTimezoneOffset() * MINUTE;

/**
 * The instant the local wall-clock time `wall` (its ms read as if UTC) happens. Each end of a
 * window gets the offset of its own date: one offset for both (the one at `now`) put "8 March"
 * in New York an hour late on both ends once the clocks had changed, so it took in 00:30 on the
 * 9th and showed as "Sun 8 Mar – Mon 9 Mar". In a gap (the hour skipped in spring) it is the
 * instant the clocks jump.
 */
function instantOf(wall: number): number {
	let t = wall - offsetAt(wall);
	t = wall - offsetAt(t);
	return t;
}

/**
 * The window a time phrase means in the local time zone at `now`, as UTC ISO strings, or null
 * when it is not a time phrase. parseTimeQuery counts days and weeks in UTC; it reads the phrase at
 * the local wall-clock time, and each end of its window is moved to the instant that wall-clock
 * time happens here ("yesterday" runs from local midnight to local midnight).
 */
export function localWindow(phrase: string, now: number): TimeRange | null {
	const w = parseTimeQuery(phrase, now + offsetAt(now));
	if (!w) return null;
	const back = (iso?: string) => (iso === undefined ? undefined : new Date(instantOf(Date.parse(iso))).toISOString());
	return { ...(w.start && { start: back(w.start) }), ...(w.end && { end: back(w.end) }) };
}

/** The two ends of a range phrase ("from A to B", "between A and B", "A until B", "A..B"), or undefined. */
export function rangeEnds(phrase: string): [string, string] | undefined {
	const m = /^\s*(?:from\s+|between\s+)?(.+?)\s*(?:\s(?:to|and|until|till|through)\s|\.\.|–|—)\s*(.+?)\s*$/i.exec(phrase);
	return m ? [m[1], m[2]] : undefined;
}

/**
 * The error for a When phrase that `read` (the window reader) does not understand: a range whose
 * ends are swapped names both ends and the phrase to use; anything else gets examples.
 */
export function whenError(phrase: string, read: (p: string) => unknown): string {
	const ends = rangeEnds(phrase);
	if (ends) {
		const [a, b] = ends;
		const swapped = `from ${b} to ${a}`;
		if (read(`from ${a} to ${b}`) === null && read(swapped) !== null)
			return `“${phrase}” ends before it starts: ${b} is earlier than ${a}. Try “${swapped}”.`;
	}
	const slash = /^\s*(\d{1,2})[/.](\d{1,2})[/.](\d{4})\s*$/.exec(phrase);
	if (slash) {
		const [, a, b, y] = slash;
		const iso = (m: string, d: string) => `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`;
		const ways = [read(iso(a, b)) !== null ? iso(a, b) : '', read(iso(b, a)) !== null && a !== b ? iso(b, a) : ''].filter(Boolean);
		if (ways.length)
			return `“${phrase}” can be read two ways round (month first or day first): write it year first, ${ways.map((w) => `“${w}”`).join(' or ')}.`;
	}
	return `“${phrase}” is not a time I can read. Try “last week”, “yesterday”, “last 30 days”, “in March 2024” or “from 2024-01-01 to 2024-06-30”.`;
}

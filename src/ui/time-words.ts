/**
 * Why a time phrase the person typed in the When field cannot be read, in words they can act on:
 * a range written end first ("from 2025 to 2024") says so and offers the phrase the right way
 * round, and a date written with slashes ("05/08/2023": 8 May or 5 August?) is asked for year
 * first, instead of the generic "not a time I can read".
 */

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

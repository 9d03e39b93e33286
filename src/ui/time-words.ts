/**
 * Why a time phrase the person typed in the When field cannot be read, in words they can act on:
 * a range written end first ("from 2025 to 2024") says so and offers the phrase the right way
 * round, instead of the generic "not a time I can read".
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
	return `“${phrase}” is not a time I can read. Try “last week”, “yesterday”, “last 30 days”, “in March 2024” or “from 2024-01-01 to 2024-06-30”.`;
}

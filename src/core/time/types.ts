/**
 * The shapes the time modules share: the public window types, and the context a phrase is
 * resolved in.
 */
/** A time window as ISO strings (UTC); either side may be open. */
export interface TimeRange {
	start?: string;
	end?: string;
}

/** A time expression found in text, with the window it denotes. */
export interface TimeMention {
	phrase: string;
	start: string;
	end: string;
}

/**
 * Which way an expression without its own direction ("in June", "on Tuesday") points: its
 * clause's tense, or, with no tense cue, the nearest occurrence (dates and months) or the past
 * (weekdays, seasons, quarters: chat mostly recounts).
 */
export type Direction = 'past' | 'future' | 'nearest';

/** What a phrase is resolved against: the instant, the direction, query or free-text mode. */
export interface Context {
	/** The reference instant: "now" for queries, the memory's timestamp for mentions. */
	now: number;
	dir: Direction;
	/** Query mode: a bare period may include the current one ("March" in March is this March). */
	query: boolean;
	/** The month a text last named, for a later "on the 15th" ("March 13 to 17; my talk is on the 15th"). */
	month?: { y: number; m: number };
}

/** A match's named groups. */
export type Groups = Record<string, string | undefined>;

/** Rolling windows end at "now": queries leave them open, mentions close them at the day's end. */
export const OPEN_END = Number.POSITIVE_INFINITY;

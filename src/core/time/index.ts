/**
 * Time in words: ages ("4 days ago"), natural time filters ("last week", "since March 2024") and
 * time expressions inside free text ("I adopted a dog last week"), resolved against a given
 * instant. Pure and deterministic: every function takes "now" (or an anchor) as milliseconds and
 * never reads the clock.
 *
 * All calendar arithmetic is in UTC: a day runs 00:00–24:00 UTC, weeks start on Monday, and there
 * is no daylight-saving shift to get wrong. Ranges are half-open: `start` is inclusive and `end`
 * exclusive, matching recall's "at or after start, before end". The one exception is a date
 * written alone ("2024-05-02") in a field: `dateMs` and `inclusiveDateEnd` read it as that day in
 * the zone the code runs in, as a date-time without an offset is read.
 *
 * The modules: query.ts (filters), mentions.ts (free text), patterns.ts (the period grammar),
 * resolvers.ts (phrase to window), vocabulary.ts (the words and the regex fragments built from
 * them), calendar.ts (UTC arithmetic), format.ts (ages and date tokens), types.ts.
 */
export { dateMs, inclusiveDateEnd, isoOrder, weekdayOf } from './calendar';
export { describeDate, humanAge } from './format';
export { extractTimeMentions } from './mentions';
export { parseTimeQuery } from './query';
export type { TimeMention, TimeRange } from './types';
export { MONTHS, WEEKDAYS } from './vocabulary';

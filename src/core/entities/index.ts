/**
 * Entity extraction without any model: a few precompiled regular expressions, a word scanner and
 * small built-in gazetteers. It runs on every store (and on every record of a 100k import), so it
 * is written for speed: one pass per pattern, Sets for lookups, no allocation per character.
 *
 * Entity types it produces:
 * - `person`, `place`, `organisation`, `tool`, `project`: proper names whose kind a cheap signal
 *   reveals (gazetteer, honorific, org suffix, surrounding verbs, first-name list);
 * - `concept`: any other proper name ("Blue Harbor Cafe", "Kepler");
 * - `file` (paths and names with a known extension), `url` (http(s), www., bare domains),
 *   `handle` (@user, and e-mail addresses), `tag` (#hashtag);
 * - `identifier`: code (camelCase, PascalCase with inner capitals, snake_case, SCREAMING_CASE,
 *   dotted.module.paths, fn() calls, `backticked code`);
 * - `term`: a short quoted phrase ("…", “…”, '…').
 *
 * The modules: extract.ts (the passes, in order), names.ts (the proper-name pass), scan.ts (the
 * state they share), gazetteer.ts, normalise.ts (names made comparable, merging); the word lists
 * are data, in core/data/entity-lexicons.ts and entity-cues.ts.
 */
export { extractEntities, type ExtractOptions } from './extract';
export { entityId, mergeEntities, normaliseEntityName, trimEnd } from './normalise';
export { ENTITY_TYPES, type EntityType } from './types';

/**
 * Entity names made comparable: normalisation, the id a name is stored under, and merging the
 * mentions of one entity into one reference.
 */
import type { EntityRef } from '../schemas';
import { canonicalKey, GAZETTEER } from './gazetteer';

const LEADING_JUNK = /^[\s"'“”‘’`«»()[\]{}<>*_~|,;:!?]+/;
const TRAILING_JUNK = /[\s"'“”‘’`«»()[\]{}<>*_~|,;:!?.…]/;
/** A possessive ending ("Maya's"). */
export const POSSESSIVE = /['’]s$/;
const SPACES = /\s+/g;

/**
 * The matching form of an entity name: NFKC, lowercase, trimmed of quotes, brackets and edge
 * punctuation, spaces collapsed, possessive 's and a leading @ or # removed. For `tool` and
 * `place` (and when no type is given) common aliases map to one form: "Postgres" and
 * "PostgreSQL" both give "postgresql", "NYC" gives "new york".
 */
export function normaliseEntityName(name: string, type?: string): string {
	let byName = NORMALISED.get(type);
	if (byName === undefined) NORMALISED.set(type, (byName = new Map()));
	let s = byName.get(name);
	if (s === undefined) {
		if (++normalisedCount > NORMALISED_MAX) {
			NORMALISED.clear();
			NORMALISED.set(type, (byName = new Map()));
			normalisedCount = 1;
		}
		byName.set(name, (s = normalise(name, type)));
	}
	return s;
}

/**
 * normaliseEntityName's answers for the names seen lately (a pure function of name and type):
 * the same people, places and tools come back in text after text, and each answer costs an NFKC
 * pass and half a dozen patterns. Cleared when full, so it stays small.
 */
const NORMALISED = new Map<string | undefined, Map<string, string>>();
const NORMALISED_MAX = 20_000;
let normalisedCount = 0;

function normalise(name: string, type?: string): string {
	const junk = (t: string) => trimEnd(t.replace(LEADING_JUNK, ''), TRAILING_JUNK);
	let s = junk(name.normalize('NFKC').replace(SPACES, ' '));
	s = junk(s.replace(/^[@#]+/, '').replace(POSSESSIVE, '')).toLowerCase();
	if (type === 'url') s = trimEnd(s, /\//);
	if (type === undefined || type === 'tool' || type === 'place') s = canonicalKey(s);
	return s;
}

/**
 * `s` without its trailing characters of class `edge` (a one-character class; give it the u flag
 * to match astral code points). Linear: the regex `[…]+$` retries from every start of a long run
 * that stops short of the end, which is quadratic (20,000 "’" before a letter took 16 s).
 */
export function trimEnd(s: string, edge: RegExp): string {
	let end = s.length;
	while (end > 0) {
		const low = s.charCodeAt(end - 1);
		const high = end > 1 ? s.charCodeAt(end - 2) : 0;
		const width = edge.unicode && low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? 2 : 1;
		if (!edge.test(s.slice(end - width, end))) break;
		end -= width;
	}
	return s.slice(0, end);
}

/** Stable id of an entity: `${type}:${normalised name}`, e.g. "tool:postgresql". */
export function entityId(ref: EntityRef): string {
	const type = ref.type.normalize('NFKC').trim().toLowerCase();
	return `${type}:${normaliseEntityName(ref.name, type)}`;
}

/** How specific a type is when two mentions of one name disagree; unknown caller types rank 2. */
const TYPE_RANK: Record<string, number> = {
	person: 3,
	place: 3,
	organisation: 3,
	tool: 3,
	project: 3,
	file: 2,
	url: 2,
	handle: 2,
	tag: 2,
	identifier: 2,
	term: 1,
	concept: 0,
};
// Own keys only: a caller's type named "constructor" must not find Object.prototype's.
/** How specific an entity type is (higher wins when mentions of one name disagree). */
export const typeRank = (type: string) => (Object.hasOwn(TYPE_RANK, type) ? TYPE_RANK[type] : 2);

/** Prefer the canonical spelling, then mixed case ("PostgreSQL"), then all caps, then lower. */
function displayScore(name: string, key: string): number {
	const canonical = GAZETTEER.get(key);
	if (canonical && canonical.display === name) return 4;
	const hasUpper = name !== name.toLowerCase();
	const hasLower = name !== name.toUpperCase();
	if (hasUpper && hasLower) return 3;
	return hasUpper ? 2 : 1;
}

/** Matching key used to merge: the normalised name, aliased whatever the type. */
export function mergeKey(ref: EntityRef): string {
	return canonicalKey(normaliseEntityName(ref.name, ref.type));
}

/**
 * Collapses mentions of one entity: refs whose names normalise alike become one, keeping the
 * most specific type (person/place/organisation/tool/project over file/url/handle/tag/identifier
 * over term over concept; the first seen on ties) and the best display form of that type
 * ("PostgreSQL" over "postgres"). Order follows first appearance.
 */
export function mergeEntities(refs: EntityRef[]): EntityRef[] {
	const groups = new Map<string, EntityRef[]>();
	for (const ref of refs) {
		const key = mergeKey(ref);
		if (!key) continue;
		const group = groups.get(key);
		if (group) group.push(ref);
		else groups.set(key, [ref]);
	}
	const out: EntityRef[] = [];
	for (const [key, group] of groups) out.push(pickBest(key, group));
	return out;
}

function pickBest(key: string, group: EntityRef[]): EntityRef {
	let type = group[0].type;
	for (const ref of group) if (typeRank(ref.type) > typeRank(type)) type = ref.type;
	let best: EntityRef | undefined;
	let bestScore = -1;
	for (const ref of group) {
		if (ref.type !== type) continue;
		const score = displayScore(ref.name, key);
		if (score > bestScore) [best, bestScore] = [ref, score];
	}
	const canonical = GAZETTEER.get(key);
	const useCanonical = canonical && (type === 'tool' || type === 'place' || type === 'organisation');
	return { name: useCanonical ? canonical.display : best!.name, type };
}

/**
 * The gazetteer: every listed tool, organisation and place (data/entity-lexicons.ts) by its plain
 * lowercase key, with aliases resolved, built once at load.
 */
import { ALIASES, COMMON_WORD_TOOLS, ORGANISATIONS, PLACES, TOOLS } from '../data/entity-lexicons';
import type { EntityType } from './types';

type Gazetteer = Map<string, { display: string; type: EntityType }>;

function buildGazetteer(): Gazetteer {
	const map: Gazetteer = new Map();
	const add = (list: string, type: EntityType) => {
		for (const display of list.split('|')) {
			const key = plainKey(display);
			if (!map.has(key)) map.set(key, { display, type });
		}
	};
	// Order matters on collisions: a name listed as a tool and an org ("Spotify") stays a tool.
	add(TOOLS, 'tool');
	add(ORGANISATIONS, 'organisation');
	add(PLACES, 'place');
	for (const [alias, canonical] of Object.entries(ALIASES)) {
		const target = map.get(plainKey(canonical));
		map.set(alias, target ?? { display: canonical, type: 'place' });
	}
	return map;
}

/** Lowercase, possessive-free, space-collapsed key used for every lexicon lookup. */
export function plainKey(s: string): string {
	let k = s.toLowerCase();
	// Fast path: most keys are single plain words (this runs once per word of every text).
	if (k.includes('’') || k.includes('‘')) k = k.replace(/[’‘]/g, "'");
	if (k.endsWith("'s")) k = k.slice(0, -2);
	return k.includes(' ') || k.includes('\t') || k.includes('\n') ? k.replace(/\s+/g, ' ').trim() : k;
}

/** Every listed tool, organisation and place, and every alias, by plain key. */
export const GAZETTEER = buildGazetteer();

/** Tool names recognised as written in lowercase: distinctive ones, at least three letters. */
export const LOWERCASE_TOOLS = new Set([...GAZETTEER].filter(([k, v]) => v.type === 'tool' && k.length >= 3 && !COMMON_WORD_TOOLS.has(k)).map(([k]) => k));

/** Tool and place names resolved through the alias table, keyed by canonical lower form. */
export function canonicalKey(key: string): string {
	// Own keys only: a name like "constructor" must not find Object.prototype's.
	const alias = Object.hasOwn(ALIASES, key) ? ALIASES[key] : undefined;
	return alias ? plainKey(alias) : key;
}

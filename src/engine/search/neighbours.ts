/**
 * Word-neighbour expansion for recall (issue 28): a question's content words also search the
 * indexed words the static model puts nearest them ("injuries" → ankle, elbow; "performances" →
 * recital, choir), at NEIGHBOURS.weight of a direct match, added to it as a category member's is
 * (categories.ts). Where the neighbours come from is the caller's: a {@link WordNeighbours}
 * on the query (QueryVectors.words) answers "the words near this one" from whatever vocabulary it
 * holds. The proper nouns of a question (a capitalised word after its first) never expand: a
 * name's neighbours are other names.
 */
import { processTerm } from '../../core/text';

/** Tunables of word-neighbour expansion (weight 0 = off). */
export const NEIGHBOURS = {
	/** Share of a direct lexical match that a neighbour-word match counts for. */
	weight: 0,
	/** Least cosine between a query word and a neighbour. */
	cosine: 0.4,
	/** Most neighbours per query word. */
	perWord: 8,
	/** 1: only the word a "which/what X" question asks for expands; 0: every content word. */
	askedOnly: 0,
};

/** The words near one word, best first, as the caller's vocabulary knows them. */
export interface WordNeighbours {
	near(word: string, k: number, minCosine: number): string[];
}

/** Words after which a question names what it asks about (as categories.ts reads them). */
const ASKS_FOR = new Set(['which', 'what', 'any', 'kinds', 'kind', 'types', 'type', 'sorts']);

/** Words with their original case: letters, digits and inner apostrophes. */
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

/**
 * The neighbour words of `phrasing`'s content words (or of the asked-for one only, with
 * NEIGHBOURS.askedOnly), as one search string without the phrasing's own words; '' for none.
 */
export function neighbourWords(words: WordNeighbours, phrasing: string): string {
	const own = new Set<string>();
	const sources: string[] = [];
	let first = true;
	let asking = false;
	for (const [raw] of phrasing.matchAll(WORD)) {
		const low = raw.toLowerCase().replace(/['’]s$/, '');
		const p = processTerm(low);
		const name = !first && raw[0] !== raw[0].toLowerCase();
		first = false;
		if (ASKS_FOR.has(low)) {
			asking = true;
			continue;
		}
		if (p === null) continue;
		own.add(p);
		if (!name && (!NEIGHBOURS.askedOnly || asking)) sources.push(low);
		asking = false;
	}
	const out = new Set<string>();
	for (const w of sources)
		for (const n of words.near(w, NEIGHBOURS.perWord, NEIGHBOURS.cosine)) {
			const p = processTerm(n);
			if (p !== null && !own.has(p)) out.add(n);
		}
	return [...out].join(' ');
}

/**
 * Category expansion for recall: a question asks by category ("Which sports has she tried?")
 * while the memories name instances ("we lost the padel final", "judo was brutal"). The table,
 * built from WordNet by scripts/build-hyponyms.ts, maps a category word to the nouns one of whose
 * first three senses lies up to eight hypernym steps below it and whose vector is close to the
 * category word's. A query's category words are expanded into those member words, searched
 * lexically as one extra phrasing whose scores count at CATEGORIES.weight of a direct match and
 * add to it (a turn that names both the asked-for person and a member gains over one that names
 * only the person), while a member alone stays below a memory that shares the query's own words.
 */
import { processTerm, tokenize } from '../../core/text';

/** Processed category term → its member words (as written; the search processes them). */
export type CategoryTable = ReadonlyMap<string, readonly string[]>;

/** Tunables of category expansion (the eval's ablation sets weight to 0). */
export const CATEGORIES = {
	/** Share of a direct lexical match that a member-word match counts for. */
	weight: 0.2,
	/** Most member words one query expands into (a bound on the extra search's work). */
	maxTerms: 1000,
	/**
	 * 1: every content word of the query that is a category expands, not only the asked-for one.
	 * Measured and not kept: +0.014 recall@10 on the tune split but recall@50 of single-hop and
	 * speaker questions fell (members of "home", "job", "play" crowd the pool).
	 */
	everyWord: 0,
	/**
	 * 1: a member-word match adds to a memory's direct lexical score (capped at 1); 0: the larger
	 * of the two counts. Adding: tune open-domain +0.030 / +0.030, nothing else moved on either
	 * split (with recipe 2's table it cost tune multi-hop R@5 −0.010).
	 */
	add: 1,
};

/**
 * Parses the table (public/models/engram/categories.json, see scripts/build-hyponyms.ts).
 * Categories are keyed by their processed term, so "sports" finds "sport"; members whose
 * processed term is the category's own are dropped. Throws on anything but that shape.
 */
export function parseCategories(json: string): CategoryTable {
	const data = JSON.parse(json) as { categories?: unknown };
	if (typeof data?.categories !== 'object' || data.categories === null) throw new Error('categories.json: expected an object with a "categories" object');
	const out = new Map<string, string[]>();
	for (const [word, list] of Object.entries(data.categories as Record<string, unknown>)) {
		if (typeof list !== 'string') throw new Error(`categories.json: members of ${JSON.stringify(word)} must be a string`);
		const cat = processTerm(word);
		if (cat === null) continue;
		const members = out.get(cat) ?? [];
		for (const w of list.split(' ')) {
			const p = processTerm(w);
			if (p !== null && p !== cat && !members.includes(w)) members.push(w);
		}
		out.set(cat, members);
	}
	return out;
}

/** Words after which a question names the category it asks about ("Which sports…", "any nieces…"). */
const ASKS_FOR = new Set(['which', 'what', 'any', 'kinds', 'kind', 'types', 'type', 'sorts']);

/**
 * The member words of the categories `phrasing` asks for, as one search string, without the
 * phrasing's own words; '' when it asks for none. A category is the first content word after
 * "which", "what", "any" or "kind(s) of" ("Which sports has she tried?" → sport): other nouns of
 * a question are what it is about, not a class whose members it wants, and expanding them
 * ("home" → bungalow, chalet, …) only adds noise. At most CATEGORIES.maxTerms words.
 */
export function expandCategories(table: CategoryTable, phrasing: string): string {
	const own = new Set<string>();
	const cats: string[] = [];
	let asking = false;
	for (const t of tokenize(phrasing)) {
		const low = t.toLowerCase();
		const p = processTerm(t);
		if (p !== null) own.add(p);
		if (ASKS_FOR.has(low)) {
			asking = true;
			continue;
		}
		if (p === null || (!asking && !CATEGORIES.everyWord)) continue;
		asking = false;
		if (table.has(p)) cats.push(p);
	}
	const out = new Set<string>();
	for (const c of cats)
		for (const m of table.get(c)!) {
			if (out.size >= CATEGORIES.maxTerms) break;
			if (!own.has(processTerm(m) ?? '')) out.add(m);
		}
	return [...out].join(' ');
}

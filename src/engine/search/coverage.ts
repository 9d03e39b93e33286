/**
 * Coverage over the expansion terms (issue 28): a multi-hop question asks about a category whose
 * members are named in different sessions ("Which animals has Rosa looked after?" → a greyhound
 * in one session, "two ferrets" in another, a jackdaw in a third), while the named person's small
 * talk outranks them: the member match adds only CATEGORIES.weight. After the first ranking, the
 * best-ranked memory among the top COVERAGE.depth for each (member, session) pair it matched — the
 * first mention of a member in a session — gains COVERAGE.bonus of a direct lexical match; later
 * mentions in the same session gain nothing. It rewards what is new in the list (an aspect not
 * yet covered) rather than every match again.
 *
 * The expansion terms are WordNet's category members (categories.ts). The word neighbours of a
 * yes/no question (neighbours.ts) are not counted: measured, they lowered the tune split's
 * open-domain recall@10 (docs/BENCHMARKS.md, issue 28, fifth round).
 */
import type { Candidate } from './candidates';
import type { IndexView } from './view';

/** Tunables of the coverage stage (bonus 0 = off). */
export const COVERAGE = {
	/** Share of a direct lexical match the first mention of an expansion term in a session gains. */
	bonus: 0.2,
	/** How many of the first ranking's best candidates the stage looks at. */
	depth: 50,
	/** 1: a (term, session) pair counts once; 0: a term counts once over every session. */
	perSession: 1,
};

/**
 * Raises the lexical score of each candidate of `ranked` (best first, the first COVERAGE.depth
 * looked at) that is the first to match one of its expansion terms in its session, once whatever
 * number of terms it is first for; returns the positions in `ranked` of those raised.
 */
export function coverExpansion(view: IndexView, ranked: readonly Candidate[]): number[] {
	const raised: number[] = [];
	if (COVERAGE.bonus <= 0) return raised;
	const claimed = new Set<string>();
	const n = Math.min(ranked.length, COVERAGE.depth);
	for (let i = 0; i < n; i++) {
		const c = ranked[i];
		if (!c.expansion || c.expansion.size === 0) continue;
		const session = COVERAGE.perSession ? (view.sessionOf(c.slot) ?? `#${c.slot}`) : '';
		let first = false;
		for (const t of c.expansion) {
			const key = `${t}\u0000${session}`;
			if (claimed.has(key)) continue;
			claimed.add(key);
			first = true;
		}
		if (!first) continue;
		c.lex = Math.min(1, c.lex + COVERAGE.bonus);
		raised.push(i);
	}
	return raised;
}

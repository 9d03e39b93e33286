/**
 * Entity focus for recall (issue 28; measured, off by default): a question that names a person
 * or a thing ("Which sports has Nadia tried?") is about the memories that name it too. The names
 * come from the entity extractor (core/entities) run on the question; a candidate whose own words
 * (content, entity names, metadata values such as a turn's speaker) hold every term of a name
 * keeps all of its lexical and semantic relevance, one that does not keeps 1 − ENTITY_FOCUS.boost
 * of it (a discount rather than a bonus, so components stay within [0, 1]).
 *
 * Why it is off (docs/BENCHMARKS.md): in a two-person conversation the named person is in half
 * the turns, so focus only separates one speaker's turns from the other's, and the questions that
 * pin something on the wrong speaker (adversarial) then lose their evidence (R@10 −0.056 on both
 * splits at boost 0.2); multi-hop, what it was for, did not move. Pulling the named entity's
 * memories into the candidates adds nothing either: BM25 on the question already finds every
 * memory that spells the name. The eval's ablation keeps a row for it.
 */
import { extractEntities } from '../../core/entities';
import { processTerm, tokenize } from '../../core/text';
import type { IndexView } from './view';

/** Tunables of entity focus (bench/eval.ts's "+ entity focus" row sets boost to 0.2). */
export const ENTITY_FOCUS = {
	/** Share of relevance a candidate naming none of the entities the question names loses (0 = off). */
	boost: 0,
};

/** Entity types that name someone or something; quoted terms, code and links are not who or what a question is about. */
const NAMING = new Set(['person', 'place', 'organisation', 'concept', 'project', 'tool']);

/**
 * The processed terms of each entity the phrasings name, one list per entity (a two-word name is
 * one entity of two terms). Empty when focus is off or nothing is named.
 */
export function namedEntities(phrasings: string[]): string[][] {
	if (ENTITY_FOCUS.boost <= 0) return [];
	const out = new Map<string, string[]>();
	for (const q of phrasings)
		for (const e of extractEntities(q)) {
			if (!NAMING.has(e.type)) continue;
			const terms = tokenize(e.name)
				.map((t) => processTerm(t))
				.filter((t): t is string => t !== null);
			if (terms.length > 0) out.set(terms.join(' '), terms);
		}
	return [...out.values()];
}

/**
 * The focus factor of the memory at `slot`, in (0, 1]: 1 − boost × the share of the named
 * entities whose terms do not all appear in the memory's own words; 1 when nothing is named.
 */
export function focusOf(view: IndexView, slot: number, named: string[][]): number {
	if (named.length === 0) return 1;
	const id = view.metas[slot].id;
	let missing = 0;
	for (const terms of named) if (!terms.every((t) => view.lexical.holds(id, t))) missing++;
	return 1 - (Math.min(1, ENTITY_FOCUS.boost) * missing) / named.length;
}

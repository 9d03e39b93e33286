/**
 * The question without its speakers' names, as a second query vector (issue 28, eighth round).
 * The static model weights a rare word heavily (SIF), so the name in "Which sports has Nadia
 * tried?" and the `Nadia:` label of each of her turns put every one of her turns at about the
 * same cosine to the question: the dense channel ranks her small talk with her evidence. The
 * question is embedded once more without the capitalised words (after its first word) that more
 * than NAMELESS.share of the searched memories hold — a conversation's speakers; "Lake Michigan"
 * or "Kanazawa" stay — and each candidate's semantic score becomes (1 − NAMELESS.weight) × the
 * whole question's + NAMELESS.weight × the name-less one's (candidates.ts `blend`). The lexical
 * search keeps the names.
 *
 * Measured on the dev set (docs/BENCHMARKS.md, eighth round): the name-less vector alone (seventh
 * round) lifted both splits most of all issue-28 levers but lowered multi-hop cells (a question about
 * one person's category loses "by her"); blended at 0.3, and with yes/no questions left whole
 * (their evidence implies the answer, and the name is much of what they share with it), no cell of
 * either split fell. Only for a static model (a sentence encoder does not weight a name so).
 */
import { processTerm } from '../../core/text';
import type { Embedder } from '../embedder';
import { asksYesNo } from './neighbours';

/** Tunables of the name-less question vector (weight 0 = off); chosen on the dev set (docs/BENCHMARKS.md). */
export const NAMELESS = {
	/** Share of a candidate's semantic score the name-less vector's rescaled score takes (0 = off). */
	weight: 0.3,
	/** A capitalised word is one of the scope's everyday names when more than this share of the searched memories hold it. */
	share: 0.1,
};

/** What the name test reads of the index (SearchIndex.isCommonTerm). */
export interface TermShares {
	isCommonTerm(term: string, share: number, scope?: string): boolean;
}

/** A capitalised word after the phrasing's first word, with its possessive. */
const NAME = /(?<=\S\s+)([A-Z][\p{L}]+)(?:['’]s)?/gu;

/**
 * The processed terms of the capitalised words (after its first) of `phrasing` that `common` says
 * are everyday names of the searched memories: the speakers a question names ("Which sports has
 * Nadia tried?" → nadia). Yes/no questions included (named-turns.ts uses it).
 */
export function commonNames(phrasing: string, common: (term: string) => boolean): string[] {
	const out = new Set<string>();
	for (const m of phrasing.matchAll(NAME)) {
		const t = processTerm(m[1]);
		if (t !== null && common(t)) out.add(t);
	}
	return [...out];
}

/**
 * `phrasing` without the capitalised words (after its first) whose processed term `common` says is
 * one of the searched memories' everyday names; undefined when it names none, when nothing else is
 * left, or for a yes/no question.
 */
export function withoutCommonNames(phrasing: string, common: (term: string) => boolean): string | undefined {
	if (asksYesNo(phrasing)) return undefined;
	let stripped = false;
	const out = phrasing
		.replace(NAME, (whole: string, word: string) => {
			const t = processTerm(word);
			if (t === null || !common(t)) return whole;
			stripped = true;
			return ' ';
		})
		.replace(/\s+/g, ' ')
		.trim();
	return stripped && out.length > 0 ? out : undefined;
}

/**
 * The unit vectors of `phrasings` without the names `scope`'s memories hold most (the whole index's
 * when unscoped), one per phrasing that named one; undefined when off, when none did, or when the
 * model is not a static one.
 */
export async function namelessVectors(
	index: TermShares,
	embedder: Pick<Embedder, 'embed' | 'path'>,
	phrasings: string[],
	scope?: string,
): Promise<Float32Array[] | undefined> {
	if (NAMELESS.weight <= 0 || embedder.path !== 'fast') return undefined;
	const common = (term: string) => index.isCommonTerm(term, NAMELESS.share, scope);
	const stripped = phrasings.map((q) => withoutCommonNames(q, common)).filter((q): q is string => q !== undefined);
	if (stripped.length === 0) return undefined;
	const vectors = (await embedder.embed(stripped)).filter((v): v is Float32Array => v !== null);
	return vectors.length > 0 ? vectors : undefined;
}

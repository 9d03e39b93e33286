/**
 * Near-duplicate detection. Two memories in the same scope are duplicates when their normalised
 * content is equal, or when their vectors are nearly parallel AND one's content words are a
 * subset of the other's. The word check matters: averaged word vectors put "deploys happen on
 * Tuesday" and "… on Thursday", "limit 100" and "limit 1000", "is enabled" and "is not enabled"
 * at cosine 0.96–1.0 (bench/calibrate-thresholds.ts), and merging those would lose a fact.
 * A missed duplicate only costs a second, SIMILAR_TO-linked copy; a false merge loses data.
 */
import { tokenize } from '../core/text';

/**
 * Words whose presence never changes what a memory says: articles, prepositions, pronouns and
 * auxiliaries. Quantifiers ("all", "only", "both", "some") and negations are NOT here: "tagged
 * with both" and "tagged with x only" are different facts.
 */
const FUNCTION_WORDS = new Set(
	('a an the of to in on at for with by from into onto about as and or but so then than that this these those it its ' +
		'i me my we us our you your he him his she her they them their is are was were be been being am do does did ' +
		'has have had will would shall should can could may might must there here which who whom whose what').split(' '),
);

const NEGATIONS = new Set(['not', 'no', 'never', 'none', 'nothing', 'without', 'dont', 'doesnt', 'didnt', 'isnt', 'arent', 'wasnt', 'werent', 'cant', 'cannot', 'wont', 'shouldnt', 'nor']);

/** Lower-cased words that carry meaning (function words dropped). */
export function contentWords(text: string): Set<string> {
	return new Set(tokenize(text).filter((w) => !FUNCTION_WORDS.has(w)));
}

function subset(a: Set<string>, b: Set<string>): boolean {
	for (const w of a) if (!b.has(w)) return false;
	return true;
}

function negations(words: Set<string>): number {
	let n = 0;
	for (const w of words) if (NEGATIONS.has(w)) n++;
	return n;
}

/**
 * True when a vector match at `cosine` between texts `a` and `b` is a near-duplicate: at or
 * above `threshold`, same negations, and no content word of the shorter missing from the longer.
 */
export function isNearDuplicate(cosine: number, threshold: number, a: string, b: string): boolean {
	if (cosine < threshold) return false;
	const wa = contentWords(a);
	const wb = contentWords(b);
	if (negations(wa) !== negations(wb)) return false;
	return subset(wa, wb) || subset(wb, wa);
}

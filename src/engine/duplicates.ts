/**
 * Near-duplicate detection. Two memories in the same scope are duplicates when their normalised
 * content is equal, or when their vectors are nearly parallel AND they share most of their
 * words: the word check keeps "the flag is enabled" and "the flag is not enabled" apart, which
 * averaged word vectors alone cannot do (a negation barely moves the mean).
 */
import { tokenize } from '../core/text';

/** Share of distinct words the two texts have in common (Jaccard over lower-cased tokens). */
export function wordOverlap(a: string, b: string): number {
	const sa = new Set(tokenize(a));
	const sb = new Set(tokenize(b));
	if (sa.size === 0 && sb.size === 0) return 1;
	let common = 0;
	for (const w of sa) if (sb.has(w)) common++;
	return common / (sa.size + sb.size - common);
}

/** Words one text has and the other lacks; any negation among them means "not a duplicate". */
const NEGATIONS = new Set(['not', 'no', 'never', 'none', 'nothing', 'without', 'dont', 'doesnt', 'didnt', 'isnt', 'arent', 'wasnt', 'werent', 'cant', 'cannot', 'wont', 'shouldnt', 'nor']);

function negationDiffers(a: string, b: string): boolean {
	const na = tokenize(a).filter((w) => NEGATIONS.has(w)).length;
	const nb = tokenize(b).filter((w) => NEGATIONS.has(w)).length;
	return na !== nb;
}

/** Minimum word overlap for a vector match to count as a duplicate. */
export const MIN_WORD_OVERLAP = 0.6;

/** True when a vector match at `cosine` between texts `a` and `b` is a near-duplicate. */
export function isNearDuplicate(cosine: number, threshold: number, a: string, b: string): boolean {
	if (cosine < threshold) return false;
	if (negationDiffers(a, b)) return false;
	return wordOverlap(a, b) >= MIN_WORD_OVERLAP;
}

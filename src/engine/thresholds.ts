/**
 * Per-model similarity thresholds: when two memories get a SIMILAR_TO link, and when a new one
 * counts as a near-duplicate. They differ by model (a static GloVe model's cosines run higher
 * than a transformer's), so each model has defaults and a user override in settings.
 */

/** The two thresholds of one model. */
export interface Thresholds {
	/** Cosine at or above which memories are linked SIMILAR_TO. */
	similar: number;
	/** Cosine at or above which a new memory is a near-duplicate of an existing one. */
	duplicate: number;
}

/**
 * Measured defaults. For the embedded model (bench/calibrate-thresholds.ts on the paraphrase
 * fixture): unrelated pairs p50 0.147, p99 0.545, max 0.753; paraphrases p50 0.668; light
 * rewordings of one sentence ≥ 0.921 (p50 0.995). `similar` 0.6 sits above the unrelated p99
 * and links most paraphrases; `duplicate` 0.95 is only reached by rewordings, and the word-subset
 * guard in duplicates.ts keeps one-word contrasts (Tuesday/Thursday, 100/1000) apart.
 */
export const MODEL_THRESHOLDS: Readonly<Record<string, Thresholds>> = {
	'engram/glove-sif-100d': { similar: 0.6, duplicate: 0.95 },
	'Xenova/all-MiniLM-L6-v2': { similar: 0.6, duplicate: 0.95 },
	'Xenova/bge-small-en-v1.5': { similar: 0.8, duplicate: 0.97 },
};

/** AutoMem's SIMILAR_TO threshold, used for models we have not measured. */
export const FALLBACK_THRESHOLDS: Thresholds = { similar: 0.8, duplicate: 0.97 };

/** The settings key holding a user override for `model`. */
export function thresholdsKey(model: string): string {
	return `thresholds:${model}`;
}

/** Defaults for `model`, with any stored override applied. */
export function resolveThresholds(model: string, override?: Partial<Thresholds>): Thresholds {
	return { ...(MODEL_THRESHOLDS[model] ?? FALLBACK_THRESHOLDS), ...override };
}

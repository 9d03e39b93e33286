/**
 * Pure scoring functions of recall. Every component is a number in [0, 1]; a hit's score is the
 * weighted sum `Σ weight[c] · component[c]`, so a person reading a result can see exactly why it
 * ranked where it did. The weights below are the documented defaults; a recall call overrides
 * any of them with `weights`, and setting one to 0 switches that signal off (the eval's ablation
 * does exactly that).
 */
import type { RecallWeights, ScoreComponents } from './schemas';

/** Every weight, resolved. */
export type Weights = Required<RecallWeights>;

/**
 * Default ranking weights, measured on the dev set (docs/BENCHMARKS.md has the ablation).
 * - lexical 1: BM25 over the scope, normalised by the query's best hit (1 = best match).
 * - semantic 0.3: the cosine's position between the scope's mean and the best (1 = nearest).
 *   Lower than lexical because the embedded static model is the weaker retriever (dense alone
 *   0.40 recall@5 vs BM25 0.60); raise it for a transformer model.
 * - neighbor 0.5: share of the relevance of a turn up to two steps away in the same session
 *   (PRECEDED_BY): a question often matches the turn next to the answer.
 * - graph 0.3: relevance carried over an association (strength-weighted) or a rare shared
 *   entity from a strong hit.
 * - tags 0.3: context_tags / context_types / priority_ids boosts.
 * - recency 0.05, importance 0.05, confidence 0.02, access 0.02: priors that break ties among
 *   similarly relevant memories without overriding relevance.
 */
export const DEFAULT_WEIGHTS: Readonly<Weights> = Object.freeze({
	lexical: 1,
	semantic: 0.3,
	neighbor: 0.5,
	graph: 0.3,
	tags: 0.3,
	recency: 0.05,
	importance: 0.05,
	confidence: 0.02,
	access: 0.02,
});

/** Default recency half-life: a memory's recency component halves every 30 days. */
export const DEFAULT_HALF_LIFE_DAYS = 30;

/** How lexical and semantic relevance are fused: reciprocal-rank or normalised-score. */
export type FusionMode = 'rrf' | 'score';

/** The fusion recall uses; chosen by measurement on the dev set (docs/BENCHMARKS.md). */
export const FUSION: FusionMode = 'score';

/** RRF's rank constant (Cormack et al. use 60). */
export const RRF_K = 60;

const DAY_MS = 86_400_000;

/** Defaults overlaid with a call's overrides; unknown keys are ignored. */
export function resolveWeights(overrides?: RecallWeights): Weights {
	return { ...DEFAULT_WEIGHTS, ...(overrides ?? {}) };
}

/**
 * Exponential recency decay: 1 for a memory from `now`, 0.5 after one half-life, → 0. Future
 * timestamps count as now.
 */
export function recencyDecay(ageMs: number, halfLifeDays = DEFAULT_HALF_LIFE_DAYS): number {
	if (!(ageMs > 0)) return 1;
	return Math.exp((-Math.LN2 * ageMs) / (halfLifeDays * DAY_MS));
}

/** Access-frequency component: log-scaled so the 100th access matters less than the first. */
export function accessScore(accessCount: number): number {
	if (!(accessCount > 0)) return 0;
	return Math.min(1, Math.log1p(accessCount) / Math.log1p(100));
}

/** Reciprocal-rank contribution of a 0-based rank, scaled so rank 0 scores 1. */
export function rrfScore(rank: number, k = RRF_K): number {
	return (k + 1) / (k + 1 + rank);
}

/** Weighted sum of components: the score every hit reports. */
export function combine(c: ScoreComponents, w: Weights): number {
	return (
		w.lexical * c.lexical +
		w.semantic * c.semantic +
		w.recency * c.recency +
		w.importance * c.importance +
		w.confidence * c.confidence +
		w.access * c.access +
		w.tags * c.tags +
		w.graph * c.graph +
		w.neighbor * c.neighbor
	);
}

/** All-zero components, to fill in. */
export function zeroComponents(): ScoreComponents {
	return {
		lexical: 0,
		semantic: 0,
		recency: 0,
		importance: 0,
		confidence: 0,
		access: 0,
		tags: 0,
		graph: 0,
		neighbor: 0,
	};
}

/** codomyrmex's recency: exp(−age / 3600 s), with age in milliseconds. */
export function codomyrmexRecency(ageMs: number): number {
	return Math.exp(-Math.max(0, ageMs) / 3_600_000);
}

/** Maps a 0–1 importance to codomyrmex's 1–4 scale (LOW..CRITICAL). */
export function codomyrmexImportanceLevel(importance: number): number {
	return Math.min(4, Math.max(1, Math.round(importance * 4)));
}

/**
 * codomyrmex's combined_score = 0.5·relevance + 0.3·recency + 0.2·(importance / 4), with
 * relevance in [0, 1], recency from `codomyrmexRecency` and importance on its 1–4 scale.
 */
export function codomyrmexCombinedScore(relevance: number, recency: number, importanceLevel: number): number {
	return 0.5 * relevance + 0.3 * recency + 0.2 * (importanceLevel / 4);
}

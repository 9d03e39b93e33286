import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	accessScore,
	codomyrmexCombinedScore,
	codomyrmexImportanceLevel,
	codomyrmexRecency,
	combine,
	DEFAULT_WEIGHTS,
	recencyDecay,
	resolveWeights,
	rrfScore,
	zeroComponents,
} from '../../../src/core/scoring';

const DAY = 86_400_000;

describe('core/scoring', () => {
	describe('recencyDecay', () => {
		it('halves every half-life', () => {
			expect(recencyDecay(0, 30)).toBe(1);
			expect(recencyDecay(30 * DAY, 30)).toBeCloseTo(0.5, 10);
			expect(recencyDecay(60 * DAY, 30)).toBeCloseTo(0.25, 10);
			expect(recencyDecay(7 * DAY, 7)).toBeCloseTo(0.5, 10);
		});

		it('treats future timestamps as now and never leaves [0, 1]', () => {
			expect(recencyDecay(-5 * DAY)).toBe(1);
			fc.assert(
				fc.property(fc.double({ min: -1e13, max: 1e13, noNaN: true }), fc.double({ min: 0.01, max: 36500, noNaN: true }), (age, hl) => {
					const r = recencyDecay(age, hl);
					return r >= 0 && r <= 1;
				}),
			);
		});
	});

	describe('accessScore', () => {
		it('is 0 without access, grows with diminishing returns and caps at 1', () => {
			expect(accessScore(0)).toBe(0);
			expect(accessScore(1)).toBeGreaterThan(0);
			expect(accessScore(10) - accessScore(9)).toBeLessThan(accessScore(2) - accessScore(1));
			expect(accessScore(100)).toBe(1);
			expect(accessScore(1e6)).toBe(1);
		});
	});

	describe('rrfScore', () => {
		it('scores rank 0 as 1 and decreases with rank', () => {
			expect(rrfScore(0)).toBe(1);
			expect(rrfScore(1)).toBeLessThan(1);
			expect(rrfScore(10)).toBeCloseTo(61 / 71, 10);
		});
	});

	describe('combine / resolveWeights', () => {
		it('is the weighted sum of the components', () => {
			const c = { ...zeroComponents(), lexical: 0.5, semantic: 1, neighbor: 0.2 };
			const w = resolveWeights({ semantic: 2 });
			expect(combine(c, w)).toBeCloseTo(0.5 * w.lexical + 2 + 0.2 * w.neighbor, 10);
		});

		it('overrides only the weights given', () => {
			expect(resolveWeights({ graph: 0 })).toEqual({ ...DEFAULT_WEIGHTS, graph: 0 });
			expect(resolveWeights(undefined)).toEqual(DEFAULT_WEIGHTS);
		});
	});

	describe('codomyrmex profile', () => {
		it('computes combined_score = 0.5·relevance + 0.3·recency + 0.2·importance/4', () => {
			expect(codomyrmexCombinedScore(0.8, 1, 4)).toBeCloseTo(0.4 + 0.3 + 0.2, 10);
			expect(codomyrmexCombinedScore(0, 0, 1)).toBeCloseTo(0.05, 10);
		});

		it('decays recency as exp(−age / 3600 s)', () => {
			expect(codomyrmexRecency(0)).toBe(1);
			expect(codomyrmexRecency(3_600_000)).toBeCloseTo(Math.exp(-1), 10);
		});

		it('maps 0–1 importance to levels 1–4', () => {
			expect([0, 0.25, 0.5, 0.75, 1].map(codomyrmexImportanceLevel)).toEqual([1, 1, 2, 3, 4]);
		});
	});
});

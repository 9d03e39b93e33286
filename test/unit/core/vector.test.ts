import { describe, expect, it } from 'vitest';
import { cosine, dequantizeInt8, dot, dotInt8, norm, normalize, quantizeInt8 } from '../../../src/core/vector';

/** Deterministic pseudo-random vector (xorshift), so failures reproduce. */
function randomVector(n: number, seed: number): Float32Array {
	let x = seed >>> 0 || 1;
	const v = new Float32Array(n);
	for (let i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >>> 17;
		x ^= x << 5;
		v[i] = ((x >>> 0) / 2 ** 32) * 2 - 1;
	}
	return v;
}

describe('dot / norm / cosine', () => {
	it('computes the textbook values', () => {
		expect(dot([1, 2, 3], [4, 5, 6])).toBe(32);
		expect(norm([3, 4])).toBe(5);
		expect(cosine([1, 0], [0, 1])).toBe(0);
		expect(cosine([1, 1], [2, 2])).toBeCloseTo(1, 12);
		expect(cosine([1, 1], [-3, -3])).toBeCloseTo(-1, 12);
	});

	it('stays within [-1, 1] and gives 0 for a zero vector', () => {
		const v = randomVector(100, 7);
		expect(cosine(v, v)).toBeLessThanOrEqual(1);
		expect(cosine(v, v)).toBeCloseTo(1, 6);
		expect(cosine(v, new Float32Array(100))).toBe(0);
	});

	it('rejects vectors of different lengths', () => {
		expect(() => dot([1, 2], [1, 2, 3])).toThrow(RangeError);
		expect(() => cosine(new Float32Array(3), new Float32Array(4))).toThrow(RangeError);
	});
});

describe('normalize', () => {
	it('returns a unit vector with the same direction', () => {
		const v = randomVector(64, 3);
		const u = normalize(v)!;
		expect(u).toBeInstanceOf(Float32Array);
		expect(norm(u)).toBeCloseTo(1, 6);
		expect(cosine(u, v)).toBeCloseTo(1, 6);
	});

	it('returns null when there is no direction', () => {
		expect(normalize(new Float32Array(5))).toBeNull();
		expect(normalize([Number.NaN, 1])).toBeNull();
		expect(normalize([Number.POSITIVE_INFINITY, 1])).toBeNull();
	});
});

describe('int8 quantisation', () => {
	it('keeps every component within scale/2 and the largest exactly', () => {
		const v = randomVector(384, 11);
		const qv = quantizeInt8(v);
		const back = dequantizeInt8(qv);
		let maxAbs = 0;
		for (const x of v) maxAbs = Math.max(maxAbs, Math.abs(x));
		expect(qv.scale).toBeCloseTo(maxAbs / 127, 9);
		for (let i = 0; i < v.length; i++) expect(Math.abs(back[i] - v[i])).toBeLessThanOrEqual(qv.scale / 2 + 1e-7);
		expect(Math.max(...Array.from(qv.q, Math.abs))).toBe(127);
	});

	it('approximates dot products of unit vectors to ~1e-3', () => {
		for (let s = 1; s <= 20; s++) {
			const a = normalize(randomVector(100, s))!;
			const b = normalize(randomVector(100, s + 100))!;
			expect(Math.abs(dotInt8(quantizeInt8(a), quantizeInt8(b)) - dot(a, b))).toBeLessThan(5e-3);
			expect(dotInt8(quantizeInt8(a), quantizeInt8(a))).toBeCloseTo(1, 2);
		}
	});

	it('maps a zero vector to scale 0 and dot 0', () => {
		const z = quantizeInt8(new Float32Array(8));
		expect(z.scale).toBe(0);
		expect(Array.from(z.q)).toEqual(new Array(8).fill(0));
		expect(dotInt8(z, quantizeInt8(randomVector(8, 5)))).toBe(0);
	});

	it('rejects vectors of different lengths', () => {
		expect(() => dotInt8(quantizeInt8([1, 2]), quantizeInt8([1, 2, 3]))).toThrow(RangeError);
	});
});

import { describe, expect, it } from 'vitest';
import { BatchDots, PREFILTER_MARGIN } from '../../../src/engine/batch-dots';

describe('BatchDots', () => {
	it('approximates every product with the vectors before, far inside the prefilter margin', () => {
		let seed = 11;
		const rand = () => ((seed = (seed * 16807) % 2147483647), seed / 2147483647 - 0.5);
		for (const dims of [1, 3, 4, 100, 384, 1025]) {
			const n = 60;
			const vs = Array.from({ length: n }, (_, i) => (i === 5 ? new Float32Array(dims) : Float32Array.from({ length: dims }, rand)));
			const dots = BatchDots.create(dims, n);
			expect(dots, 'WebAssembly SIMD is available in Node').not.toBeNull();
			vs.forEach((v, i) => dots!.set(i, v));
			for (let i = 0; i < n; i++) {
				const approx = dots!.before(i);
				expect(approx).toHaveLength(i);
				for (let j = 0; j < i; j++) {
					let exact = 0;
					let bound = 0;
					for (let k = 0; k < dims; k++) {
						exact += vs[i][k] * vs[j][k];
						bound += Math.abs(vs[i][k] * vs[j][k]);
					}
					expect(Math.abs(approx[j] - exact)).toBeLessThanOrEqual((PREFILTER_MARGIN / 10) * bound + 1e-30);
				}
			}
		}
	});
});

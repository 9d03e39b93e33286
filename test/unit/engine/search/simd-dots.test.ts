import { describe, expect, it } from 'vitest';
import { CodeMemory, MAX_SIMD_DIMS } from '../../../../src/engine/search/simd-dots';
import { MAX_PER_PASS } from '../../../../src/engine/search/simd-many';
import { VectorStore } from '../../../../src/engine/search/vector-store';
import { prng } from '../../../../bench/lib/corpus';

const rnd = prng(7);
const unit = (d: number) => {
	const v = Float32Array.from({ length: d }, () => rnd() - 0.5);
	const n = Math.hypot(...v);
	return v.map((x) => x / n);
};

describe('CodeMemory (WebAssembly SIMD dot products)', () => {
	it("computes each slot's int8 · float dot product as plain arithmetic does, for any width", () => {
		for (const d of [1, 7, 8, 9, 15, 16, 17, 100, 384, MAX_SIMD_DIMS]) {
			const mem = CodeMemory.create(d);
			expect(mem).not.toBeNull();
			const n = 300;
			const codes = mem!.codes(n * d);
			for (let i = 0; i < codes.length; i++) codes[i] = Math.floor(rnd() * 255) - 127;
			const q = unit(d);
			// Every slot, the last (its over-read runs into the slack) and repeats, in any order.
			const slots = Int32Array.from([n - 1, 0, 5, 5, ...Array.from({ length: 50 }, () => Math.floor(rnd() * n))]);
			const out = new Float32Array(slots.length);
			mem!.dots(slots, slots.length, q, out);
			// The query is rounded to int16 steps of its largest component / 32767 (coarser only where
			// a wide vector's sum could overflow): each code's product errs by at most half a step.
			const step = Math.max(...q.map(Math.abs)) / Math.min(32_767, Math.floor((2 ** 31 - 1) / (d * 127)));
			slots.forEach((slot, i) => {
				let want = 0;
				let bound = 0;
				for (let k = 0; k < d; k++) {
					want += codes[slot * d + k] * q[k];
					bound += (Math.abs(codes[slot * d + k]) * step) / 2;
				}
				expect(Math.abs(out[i] - want)).toBeLessThanOrEqual(bound + 1e-5 * (1 + Math.abs(want)));
			});
		}
	});

	it('keeps the codes when the memory grows, and scores past one block of slots', () => {
		const d = 100;
		const mem = CodeMemory.create(d)!;
		const first = mem.codes(10 * d);
		first.fill(3);
		const grown = mem.codes(20_000 * d);
		expect(grown.subarray(0, 10 * d).every((c) => c === 3)).toBe(true);
		grown.fill(1, 10 * d);
		const q = new Float32Array(d).fill(0.5);
		const slots = Int32Array.from({ length: 20_000 }, (_, i) => i);
		const out = new Float32Array(slots.length);
		mem.dots(slots, slots.length, q, out);
		expect(out[0]).toBeCloseTo(150, 4);
		expect(out[9]).toBeCloseTo(150, 4);
		expect(out[10]).toBeCloseTo(50, 4);
		expect(out[19_999]).toBeCloseTo(50, 4);
	});

	it('declines vectors wider than its query area, and the store then scores in JavaScript alike', () => {
		expect(CodeMemory.create(MAX_SIMD_DIMS + 1)).toBeNull();
		for (const d of [100, MAX_SIMD_DIMS + 8]) {
			const store = new VectorStore(d, 4);
			const vs = Array.from({ length: 40 }, () => unit(d));
			vs.forEach((v, slot) => store.set(slot, v));
			const q = unit(d);
			const slots = Int32Array.from({ length: 40 }, (_, i) => 39 - i);
			const out = new Float32Array(40);
			store.dotsInto(slots, 40, q, out);
			slots.forEach((slot, i) => expect(out[i]).toBeCloseTo(store.dot(slot, q), 4));
		}
	});

	it('a restored store scores the vectors it adopted', () => {
		const d = 100;
		const a = new VectorStore(d, 8);
		const vs = Array.from({ length: 8 }, () => unit(d));
		vs.forEach((v, slot) => a.set(slot, v));
		const arrays = { codes: a.view(8).codes.slice(), scales: a.view(8).scales.slice(), sum: new Float64Array(d), filled: 0 };
		const b = VectorStore.adopt(d, arrays);
		const out = new Float32Array(8);
		b.dotsInto(
			Int32Array.from({ length: 8 }, (_, i) => i),
			8,
			vs[3],
			out,
		);
		expect(out[3]).toBeCloseTo(1, 2);
		out.forEach((s, i) => expect(s).toBeCloseTo(a.dot(i, vs[3]), 4));
	});

	it('scores several queries in one pass exactly as it scores each alone, bit for bit', () => {
		for (const d of [1, 7, 16, 17, 100, 384, 1024, 2048, MAX_SIMD_DIMS]) {
			const mem = CodeMemory.create(d)!;
			// As many queries as the query area holds: eight up to 512 dims, then fewer, one at the widest.
			expect(mem.perPass).toBe(Math.min(MAX_PER_PASS, Math.floor(MAX_SIMD_DIMS / (Math.ceil(d / 16) * 16))));
			const n = 200;
			const codes = mem.codes(n * d);
			for (let i = 0; i < codes.length; i++) codes[i] = Math.floor(rnd() * 255) - 127;
			// Extreme codes as well: the largest sums the rounding allows.
			codes.fill(127, 0, d);
			codes.fill(-127, d, 2 * d);
			const slots = Int32Array.from([n - 1, 0, 1, 5, 5, ...Array.from({ length: 60 }, () => Math.floor(rnd() * n))]);
			const qs = Array.from({ length: mem.perPass }, () => mem.round(unit(d)));
			qs[0] = mem.round(new Float32Array(d).fill(1 / Math.sqrt(d)));
			const alone = qs.map((q) => {
				const out = new Float32Array(slots.length);
				mem.dots(slots, slots.length, q, out);
				return out;
			});
			const ones = new Float32Array(slots.length).fill(1);
			const none = new Float64Array(8).fill(-Infinity);
			for (let count = 1; count <= mem.perPass; count++) {
				const { scores, picked, picks } = mem.dotsMany(slots, slots.length, mem.pack(qs.slice(0, count)), ones, none, true);
				expect(scores.length).toBe(slots.length * count);
				for (let j = 0; j < count; j++) for (let i = 0; i < slots.length; i++) expect(Object.is(scores[i * count + j], alone[j][i])).toBe(true);
				// No threshold yet: every pair is a candidate, in order.
				expect(picks).toBe(slots.length * count);
				expect([...picked.subarray(0, picks)]).toEqual(Array.from({ length: picks }, (_, i) => i));
			}
		}
	});

	it('refuses a pass it cannot make, naming the limit', () => {
		const mem = CodeMemory.create(100)!;
		mem.codes(100 * 100);
		const q = mem.round(unit(100));
		expect(() => mem.pack([])).toThrow(/1 to 8 queries, not 0/);
		expect(() => mem.pack(Array.from({ length: 9 }, () => q))).toThrow(/1 to 8 queries, not 9/);
		expect(() => mem.pack([CodeMemory.create(40)!.round(unit(40))])).toThrow(/another width/);
		const slots = new Int32Array(CodeMemory.blockFor(2) + 1);
		expect(() => mem.dotsMany(slots, slots.length, mem.pack([q, q]), new Float32Array(slots.length), new Float64Array(2), true)).toThrow(
			/at most 1024 slots/,
		);
	});

	it("picks exactly the pairs whose cosine reaches the query's threshold, as the caller rounds it", () => {
		const d = 100;
		const store = new VectorStore(d, 600);
		for (let slot = 0; slot < 600; slot++) store.set(slot, unit(d));
		const mem = store.codeMemory!;
		const slots = Int32Array.from({ length: 256 }, () => Math.floor(rnd() * 600));
		const qs = Array.from({ length: 8 }, () => mem.round(unit(d)));
		// The slots' scales; a few NaN (no vector): never picked.
		const scales = Float32Array.from(slots, (slot, i) => (i % 17 === 3 ? NaN : store.scales[slot]));
		for (const round32 of [true, false])
			for (let count = 1; count <= 8; count++) {
				const pack = mem.pack(qs.slice(0, count));
				const all = mem.dotsMany(slots, slots.length, pack, scales, new Float64Array(count).fill(-Infinity), round32);
				const cos = (o: number) => {
					const p = Math.floor(o / count);
					return round32 ? Math.fround(all.scores[o] * scales[p]) : all.scores[o] * scales[p];
				};
				// Thresholds at some pair's cosine exactly (equal must pass), at −∞ and at +∞.
				const thresholds = Float64Array.from({ length: count }, (_, j) =>
					j === 1 ? -Infinity : j === 2 ? Infinity : cos(Math.floor(rnd() * 200) * count + j),
				);
				const scores = all.scores.slice();
				const want: number[] = [];
				for (let o = 0; o < slots.length * count; o++) if (cos(o) >= thresholds[o % count]) want.push(o);
				const { picked, picks } = mem.dotsMany(slots, slots.length, pack, scales, thresholds, round32);
				expect([...picked.subarray(0, picks)]).toEqual(want);
				expect(want.length).toBeGreaterThan(0);
				expect(want.length).toBeLessThan(slots.length * count);
				expect(scores.every((x, i) => Object.is(x, all.scores[i]))).toBe(true);
			}
	});
});

/**
 * The SIMD scan of simd-dots.ts for several queries at once: each stored vector is loaded and
 * widened once and multiplied with up to MAX_PER_PASS queries held side by side (register
 * blocking), instead of once per query. A batch of 500 stores at 10k memories scores 5M pairs;
 * one query per pass spends most of each pair on loading, widening and the loop, not on the
 * products (docs/BENCHMARKS.md, "nearest for a batch").
 *
 * The integer sums are exact whatever the order, and each is turned into a float as the
 * one-query kernel does (`f32(acc) * unit`), so every result is bit for bit the one that kernel
 * gives. One function per number of queries Q (1 to MAX_PER_PASS), exported as "d1", "d2", …;
 * in text form:
 *
 *   (func (param $codes i32) (param $slots i32) (param $n i32) (param $q i32)
 *         (param $stride i32) (param $steps i32) (param $out i32) (param $units i32)
 *         (param $scales i32) (param $thr i32) (param $cand i32) (param $round32 i32) (result i32)
 *     for i in 0..n:
 *       base = $codes + i32.load($slots + 4i) * $stride; acc_j = i32x4(0) for j < Q; qs = $q
 *       for s in 0..steps:                       ;; sixteen codes per step
 *         x = v128.load(base); lo = i16x8.extend_low_i8x16_s(x); hi = …extend_high…
 *         acc_j += dot(lo, v128.load(qs + 32j)) + dot(hi, v128.load(qs + 32j + 16))  for j < Q
 *         base += 16; qs += 32Q
 *       for j < Q:
 *         v = f32(acc_j[0] + … + acc_j[3]) * f32.load($units + 4j); f32.store($out + 4(Qi + j), v)
 *         cos = $round32 ? f64(f32(v * scale_i)) : f64(v) * f64(scale_i)   ;; scale_i = f32.load($scales + 4i)
 *         if cos >= f64.load($thr + 8j): i32.store($cand + 4c, Qi + j); c++
 *     return c
 *
 * The candidates are the pairs whose cosine, worked out exactly as the caller works it out
 * (nearest.ts), reaches the query's threshold (its k-th best so far; −∞ before it has k, and a
 * NaN scale for a slot without a vector passes none): most of a scan's pairs go no further.
 * The queries are interleaved step by step (query j's step s at $q + 32(Qs + j)) so that every
 * load's offset is a constant; the results come out slot by slot (query j of slot i at Qi + j).
 */
import { compileOnce, HEADER, name, section, simd, uleb } from './wasm-bytes';

/** The most queries one pass scores (eight accumulators and three temporaries fit 16 registers). */
export const MAX_PER_PASS = 8;

/** Signed LEB128, for i32.const. */
function sleb(n: number): number[] {
	const out: number[] = [];
	for (;;) {
		const b = n & 0x7f;
		n >>= 7;
		if ((n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0)) {
			out.push(b);
			return out;
		}
		out.push(b | 0x80);
	}
}

/** The body (locals and code) of the Q-query function. */
function body(Q: number): number[] {
	const I32 = 0x7f;
	const V128 = 0x7b;
	const get = (i: number) => [0x20, i];
	const set = (i: number) => [0x21, i];
	const tee = (i: number) => [0x22, i];
	const i32 = (v: number) => [0x41, ...sleb(v)];
	const add = 0x6a;
	const mul = 0x6c;
	const shl = 0x74;
	const mem = (offset: number) => [0, ...uleb(offset)];
	const F32 = 0x7d;
	// Params 0–11; locals 12 i, 13 base, 14 s, 15 qs, 16 o, 17 c (i32); 18 v, 19 sc (f32); 20 x, 21 lo, 22 hi, 23… acc_j (v128).
	const [codes, slots, n, q, stride, steps, out, units, scales, thr, cand, round32] = Array.from({ length: 12 }, (_, k) => k);
	const [i, base, s, qs, o, c, v, sc, x, lo, hi] = Array.from({ length: 11 }, (_, k) => 12 + k);
	const acc = (j: number) => 23 + j;
	const code: number[] = [];
	code.push(0x02, 0x40, 0x03, 0x40); // block, loop (over slots)
	code.push(...get(i), ...get(n), 0x4f, 0x0d, 1); // i >= n → break
	code.push(...get(slots), ...get(i), ...i32(2), shl, add, 0x28, 2, 0); // i32.load(slots + 4i)
	code.push(...get(stride), mul, ...get(codes), add, ...set(base));
	for (let j = 0; j < Q; j++) code.push(...simd(0x0c, ...new Array(16).fill(0)), ...set(acc(j))); // acc_j = 0
	code.push(...get(q), ...set(qs), ...i32(0), ...set(s));
	code.push(0x03, 0x40); // loop (over steps)
	code.push(...get(base), ...simd(0x00, ...mem(0)), ...tee(x), ...simd(0x87), ...set(lo)); // lo = extend_low(x)
	code.push(...get(x), ...simd(0x88), ...set(hi)); // hi = extend_high(x)
	for (let j = 0; j < Q; j++) {
		code.push(...get(acc(j)));
		code.push(...get(lo), ...get(qs), ...simd(0x00, ...mem(32 * j)), ...simd(0xba)); // i32x4.dot_i16x8_s
		code.push(...simd(0xae)); // i32x4.add
		code.push(...get(hi), ...get(qs), ...simd(0x00, ...mem(32 * j + 16)), ...simd(0xba));
		code.push(...simd(0xae), ...set(acc(j)));
	}
	code.push(...get(base), ...i32(16), add, ...set(base));
	code.push(...get(qs), ...i32(32 * Q), add, ...set(qs));
	code.push(...get(s), ...i32(1), add, ...tee(s), ...get(steps), 0x49, 0x0d, 0, 0x0b); // ++s < steps → again; end
	code.push(...get(out), ...get(i), ...i32(4 * Q), mul, add, ...set(o)); // o = out + 4Qi
	code.push(...get(scales), ...get(i), ...i32(2), shl, add, 0x2a, 2, 0, ...set(sc)); // sc = f32.load(scales + 4i)
	for (let j = 0; j < Q; j++) {
		for (let lane = 0; lane < 4; lane++) {
			code.push(...get(acc(j)), ...simd(0x1b, lane)); // i32x4.extract_lane
			if (lane > 0) code.push(add);
		}
		code.push(0xb2, ...get(units), 0x2a, 2, ...uleb(4 * j), 0x94, ...set(v)); // v = f32.convert_i32_s(sum) * f32.load(units + 4j)
		code.push(...get(o), ...get(v), 0x38, 2, ...uleb(4 * j)); // f32.store(o + 4j, v)
		// The cosine as the caller works it out: f32(v · sc) with $round32, else v · sc in f64.
		code.push(...get(v), ...get(sc), 0x94, 0xbb); // f64.promote_f32(f32.mul)
		code.push(...get(v), 0xbb, ...get(sc), 0xbb, 0xa2); // f64.mul(promote v, promote sc)
		code.push(...get(round32), 0x1b); // select
		code.push(...get(thr), 0x2b, 3, ...uleb(8 * j), 0x66); // f64.ge(…, f64.load(thr + 8j)): false for NaN
		code.push(0x04, 0x40); // if
		code.push(...get(cand), ...get(c), ...i32(2), shl, add, ...get(i), ...i32(Q), mul, ...i32(j), add, 0x36, 2, 0); // i32.store(cand + 4c, Qi + j)
		code.push(...get(c), ...i32(1), add, ...set(c), 0x0b); // c++; end if
	}
	code.push(...get(i), ...i32(1), add, ...set(i), 0x0c, 0, 0x0b, 0x0b); // i++, br; end loop, block
	code.push(...get(c), 0x0b); // return c; end function
	const locals = [...uleb(3), ...uleb(6), I32, ...uleb(2), F32, ...uleb(3 + Q), V128];
	const all = [...locals, ...code];
	return [...uleb(all.length), ...all];
}

/** The module: functions "d1" … "dMAX" over the imported memory e.m. */
function moduleBytes(): Uint8Array<ArrayBuffer> {
	const I32 = 0x7f;
	const qs = Array.from({ length: MAX_PER_PASS }, (_, k) => k + 1);
	return new Uint8Array([
		...HEADER,
		...section(1, [1, 0x60, 12, ...new Array(12).fill(I32), 1, I32]), // type: (i32 × 12) → i32
		...section(2, [1, ...name('e'), ...name('m'), 0x02, 0x00, 0x01]), // import memory e.m, min 1 page
		...section(3, [...uleb(qs.length), ...qs.map(() => 0)]),
		...section(7, [...uleb(qs.length), ...qs.flatMap((Q) => [...name(`d${Q}`), 0x00, Q - 1])]),
		...section(10, [...uleb(qs.length), ...qs.flatMap(body)]),
	]);
}

/** The compiled module, or null where WebAssembly or its SIMD instructions are unavailable. */
export const manyModule = compileOnce(moduleBytes);

/** One of the module's functions: Q queries over n slots. */
export type DotsMany = (
	codes: number,
	slots: number,
	n: number,
	q: number,
	stride: number,
	steps: number,
	out: number,
	units: number,
	scales: number,
	thr: number,
	cand: number,
	round32: number,
) => number;

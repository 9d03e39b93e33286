/**
 * Approximate dot products between the vectors of one store call, in WebAssembly SIMD: what
 * lets batchNeighbours (store-neighbours.ts) skip, for certain, the pairs of a batch that are far
 * below its thresholds. A batch of 500 compares ~125k pairs; in JavaScript each exact product
 * (kept in one order, so the cosine is the same to the bit as `cosine()`'s) takes ~300–400 ns at
 * 100 dimensions, and only about one pair in twelve reaches the similarity threshold in the
 * bench corpus. Here four float32 lanes multiply and add at once, ~20× faster; a pair is then
 * computed exactly only when its approximation is within PREFILTER_MARGIN of a threshold.
 *
 * Float32 sums of float32 products err by at most about (dims / 4 + 4) × 2⁻²⁴ of Σ|aᵢbᵢ|, which
 * is at most |a|·|b| (Cauchy–Schwarz): 1.6e-5 of it at 1,024 dimensions, far inside the margin.
 *
 * The module is written out byte by byte (as simd-dots.ts's); its one function, in text form:
 *
 *   (func (export "dots") (param $q i32) (param $base i32) (param $n i32) (param $steps i32) (param $out i32)
 *     for i in 0..n:                      ;; vector i at $base + 16·steps·i, zero-padded to whole steps
 *       acc = f32x4(0)
 *       for s in 0..steps: acc = f32x4.add(acc, f32x4.mul(v128.load(vec + 16s), v128.load($q + 16s)))
 *       f32.store($out + 4i, ((acc[0] + acc[1]) + acc[2]) + acc[3]))
 */
import { compileOnce, HEADER, name, section, simd, uleb } from './search/wasm-bytes';

/** How far below a threshold (as a share of |a|·|b|) an approximate product must be for a pair to be skipped. */
export const PREFILTER_MARGIN = 1e-3;

/** The module's bytes (see the text form in the module comment). */
function moduleBytes(): Uint8Array<ArrayBuffer> {
	const I32 = 0x7f;
	const V128 = 0x7b;
	const get = (i: number) => [0x20, i];
	const set = (i: number) => [0x21, i];
	const tee = (i: number) => [0x22, i];
	const i32 = (v: number) => [0x41, v]; // small non-negative constants only (< 64)
	const [add, mul, shl] = [0x6a, 0x6c, 0x74];
	const load = simd(0x00, 0, 0); // v128.load, align 1, offset 0
	// Params 0–4: q, base, n, steps, out. Locals 5 i, 6 vec, 7 s (i32), 8 acc (v128).
	const [q, base, n, steps, out, i, vec, s, acc] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
	const lane = (k: number) => [...get(acc), ...simd(0x1f, k)]; // f32x4.extract_lane k
	const body = [
		...[0x02, 0x40, 0x03, 0x40], // block, loop (over vectors)
		...[...get(i), ...get(n), 0x4f, 0x0d, 1], // i >= n → break
		...[...get(i), ...get(steps), mul, ...i32(4), shl, ...get(base), add, ...set(vec)],
		...[...simd(0x0c, ...new Array(16).fill(0)), ...set(acc), ...i32(0), ...set(s)],
		...[0x03, 0x40], // loop (over steps)
		...get(acc),
		...[...get(vec), ...get(s), ...i32(4), shl, add, ...load],
		...[...get(q), ...get(s), ...i32(4), shl, add, ...load],
		...simd(0xe6), // f32x4.mul
		...simd(0xe4), // f32x4.add
		...set(acc),
		...[...get(s), ...i32(1), add, ...tee(s), ...get(steps), 0x49, 0x0d, 0], // ++s < steps → again
		0x0b, // end loop
		...[...get(out), ...get(i), ...i32(2), shl, add],
		...[...lane(0), ...lane(1), 0x92, ...lane(2), 0x92, ...lane(3), 0x92], // f32.add
		...[0x38, 2, 0], // f32.store
		...[...get(i), ...i32(1), add, ...set(i), 0x0c, 0], // next vector
		...[0x0b, 0x0b, 0x0b], // end loop, block, function
	];
	const code = [...uleb(2), ...uleb(3), I32, ...uleb(1), V128, ...body];
	return new Uint8Array([
		...HEADER,
		...section(1, [1, 0x60, 5, I32, I32, I32, I32, I32, 0]), // type: (i32 × 5) → ()
		...section(3, [1, 0]), // one function of type 0
		...section(5, [1, 0x00, 1]), // one memory, min 1 page
		...section(7, [2, ...name('dots'), 0x00, 0, ...name('m'), 0x02, 0]), // export "dots", memory "m"
		...section(10, [1, ...uleb(code.length), ...code]),
	]);
}

/** The compiled module, or null where WebAssembly or its SIMD instructions are unavailable. */
const dotsModule = compileOnce(moduleBytes);

const PAGE = 65_536;

/** The module's function: see the module comment (addresses in bytes). */
type DotsFn = (q: number, base: number, n: number, steps: number, out: number) => void;

/**
 * The vectors of one store call, copied into a module's memory: `before(i)` approximates the
 * products of vector `i` with vectors 0 … i−1 at once.
 */
export class BatchDots {
	readonly #dots: DotsFn;
	readonly #f32: Float32Array;
	readonly #steps: number;
	/** Float offsets: the query area, the vectors, the results. */
	readonly #base: number;
	readonly #out: number;

	private constructor(instance: WebAssembly.Instance, memory: WebAssembly.Memory, steps: number, count: number) {
		this.#dots = instance.exports.dots as DotsFn;
		this.#f32 = new Float32Array(memory.buffer);
		this.#steps = steps;
		this.#base = steps * 4;
		this.#out = this.#base + count * steps * 4;
	}

	/**
	 * Room for `count` vectors of `dims` dimensions, or null where WebAssembly SIMD is missing
	 * (the caller then computes every product exactly).
	 */
	static create(dims: number, count: number): BatchDots | null {
		const module = dims > 0 ? dotsModule() : null;
		if (!module) return null;
		const steps = Math.ceil(dims / 4);
		const bytes = (steps * 4 * (count + 1) + count) * 4;
		const instance = new WebAssembly.Instance(module);
		const memory = instance.exports.m as WebAssembly.Memory;
		const pages = Math.ceil(bytes / PAGE);
		if (pages > 1) memory.grow(pages - 1);
		return new BatchDots(instance, memory, steps, count);
	}

	/** Copies vector `i` in (its length must be the `dims` given to create; the padding stays zero). */
	set(i: number, v: Float32Array): void {
		this.#f32.set(v, this.#base + i * this.#steps * 4);
	}

	/** Approximate products of vector `i` with vectors 0 … i−1 (a view, valid until the next call). */
	before(i: number): Float32Array {
		const f = this.#f32;
		f.copyWithin(0, this.#base + i * this.#steps * 4, this.#base + (i + 1) * this.#steps * 4);
		this.#dots(0, this.#base * 4, i, this.#steps, this.#out * 4);
		return f.subarray(this.#out, this.#out + i);
	}
}

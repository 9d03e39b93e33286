/**
 * Dot products of many int8 vectors with one float query, in WebAssembly SIMD: the cost of every
 * nearest() scan (SIMILAR_TO and duplicates on each store, the semantic pool of a recall). In
 * plain JavaScript a 100-d int8 · float32 product takes about 130 ns, one multiply at a time.
 * Here the query is first rounded to int16 (scaled so its largest component is ±32767, or less
 * where a wide vector's sum could overflow 32 bits), and sixteen codes are widened to int16 and
 * multiplied-and-added in pairs per step (`i32x4.dot_i16x8_s`, twice): integer arithmetic, one
 * conversion per vector. Rounding the query errs by at most half a step of 1/32767 of its
 * largest component per dimension, over a hundred times finer than the codes' own int8 rounding.
 *
 * The codes must live in the module's memory, so a `CodeMemory` owns them: a vector store keeps
 * its `codes` array there (page 1 onwards) and page 0 holds the query, a block of slot numbers
 * and their results. Where WebAssembly SIMD is missing, `CodeMemory.create` returns null and the
 * store keeps a plain array and scans in JavaScript (vector-store.ts).
 *
 * The module is written out byte by byte below (a few dozen instructions; no toolchain needed).
 * Its one function, in text form:
 *
 *   (func (export "dots") (param $codes i32) (param $slots i32) (param $n i32) (param $q i32)
 *                         (param $stride i32) (param $steps i32) (param $out i32) (param $unit f32)
 *     for i in 0..n:                        ;; slot = i32.load($slots + 4i)
 *       base = $codes + slot * $stride; acc = i32x4(0)
 *       for s in 0..steps:                  ;; sixteen codes per step
 *         x = v128.load(base + 16s)
 *         acc += i32x4.dot_i16x8_s(i16x8.extend_low_i8x16_s(x), v128.load($q + 32s))
 *         acc += i32x4.dot_i16x8_s(i16x8.extend_high_i8x16_s(x), v128.load($q + 32s + 16))
 *       f32.store($out + 4i, f32(acc[0] + acc[1] + acc[2] + acc[3]) * $unit))
 *
 * The last step may read up to fifteen bytes past a vector (into the next one, or the slack kept
 * after the last); the query is zero there, so they add nothing.
 */
import { type DotsMany, manyModule, MAX_PER_PASS } from './simd-many';
import { compileOnce, HEADER, name, section, simd, uleb } from './wasm-bytes';

const PAGE = 65_536;
/** Page 0: the query (int16, padded to whole steps), then a block of slots, then their results. */
const QUERY_AT = 0;
const QUERY_BYTES = 8_192;
const BLOCK = 4_096;
const SLOTS_AT = QUERY_AT + QUERY_BYTES;
const OUT_AT = SLOTS_AT + BLOCK * 4;
/**
 * The several-query scan (simd-many.ts) takes at most MANY_BLOCK (slot, query) pairs per call:
 * their results in the first half of the results area and the candidates in the second; then
 * the queries' factors and thresholds, and the slots' scales.
 */
const MANY_BLOCK = BLOCK / 2;
const CAND_AT = OUT_AT + MANY_BLOCK * 4;
const UNITS_AT = OUT_AT + BLOCK * 4;
const THR_AT = UNITS_AT + MAX_PER_PASS * 4;
const SCALES_AT = THR_AT + MAX_PER_PASS * 8;
/** Codes start on page 1; a store's codes array begins here. */
const CODES_AT = PAGE;
/** Bytes kept past the codes, for the last vector's over-read. */
const SLACK = 16;
/** The widest vector the query area holds. */
export const MAX_SIMD_DIMS = QUERY_BYTES / 2;
/** Codes per step of the scan. */
const STEP = 16;
/** The largest int16 query component. */
const Q_MAX = 32_767;

/** The module's bytes (see the text form in the module comment). */
function moduleBytes(): Uint8Array<ArrayBuffer> {
	const I32 = 0x7f;
	const F32 = 0x7d;
	const V128 = 0x7b;
	const get = (i: number) => [0x20, i];
	const set = (i: number) => [0x21, i];
	const tee = (i: number) => [0x22, i];
	const i32 = (v: number) => [0x41, v]; // small non-negative constants only (< 64)
	const add = 0x6a;
	const mul = 0x6c;
	const shl = 0x74;
	const mem = (align: number, offset: number) => [align, ...uleb(offset)];
	// Params 0–7: codes, slots, n, q, stride, steps, out, unit. Locals 8 i, 9 base, 10 s (i32), 11 acc, 12 x (v128).
	const [codes, slots, n, q, stride, steps, out, unit, i, base, s, acc, x] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
	const qAt = [...get(q), ...get(s), ...i32(5), shl, add]; // $q + 32s
	const half = (extend: number, offset: number) => [
		...get(x),
		...simd(extend), // i16x8.extend_*_i8x16_s(x)
		...qAt,
		...simd(0x00, ...mem(0, offset)), // v128.load
		...simd(0xba),
		...simd(0xae), // i32x4.dot_i16x8_s, i32x4.add (onto acc, below on the stack)
	];
	const lane = (k: number) => [...get(acc), ...simd(0x1b, k)]; // i32x4.extract_lane k
	const body = [
		0x02,
		0x40, // block
		0x03,
		0x40, // loop (over slots)
		...get(i),
		...get(n),
		0x4f,
		0x0d,
		1, // i >= n → break
		...get(slots),
		...get(i),
		...i32(2),
		shl,
		add,
		0x28,
		...mem(0, 0), // slot = load(slots + 4i)
		...get(stride),
		mul,
		...get(codes),
		add,
		...set(base),
		...simd(0x0c, ...new Array(16).fill(0)),
		...set(acc), // acc = 0
		...i32(0),
		...set(s),
		0x03,
		0x40, // loop (over steps)
		...get(base),
		...get(s),
		...i32(4),
		shl,
		add,
		...simd(0x00, ...mem(0, 0)),
		...set(x), // v128.load
		...get(acc),
		...half(0x87, 0),
		...half(0x88, 16),
		...set(acc),
		...get(s),
		...i32(1),
		add,
		...tee(s),
		...get(steps),
		0x49,
		0x0d,
		0, // ++s < steps → again
		0x0b, // end loop
		...get(out),
		...get(i),
		...i32(2),
		shl,
		add,
		...lane(0),
		...lane(1),
		add,
		...lane(2),
		add,
		...lane(3),
		add, // i32.add
		0xb2,
		...get(unit),
		0x94, // f32.convert_i32_s, f32.mul
		0x38,
		...mem(0, 0), // f32.store
		...get(i),
		...i32(1),
		add,
		...set(i),
		0x0c,
		0, // br (next slot)
		0x0b, // end loop
		0x0b, // end block
		0x0b, // end function
	];
	const code = [...uleb(2), ...uleb(3), I32, ...uleb(2), V128, ...body];
	return new Uint8Array([
		...HEADER,
		...section(1, [1, 0x60, 8, ...new Array(7).fill(I32), F32, 0]), // type: (i32 × 7, f32) → ()
		...section(2, [1, ...name('e'), ...name('m'), 0x02, 0x00, 0x01]), // import memory e.m, min 1 page
		...section(3, [1, 0]), // one function of type 0
		...section(7, [1, ...name('dots'), 0x00, 0]), // export it as "dots"
		...section(10, [1, ...uleb(code.length), ...code]),
	]);
}

/** The compiled module, or null where WebAssembly or its SIMD instructions are unavailable. */
const simdModule = compileOnce(moduleBytes);

/** A query rounded to int16 and padded to whole steps, with the factor that undoes the rounding's scale. */
export interface RoundedQuery {
	readonly codes: Int16Array;
	readonly unit: number;
}

/** Queries side by side for the several-query scan (CodeMemory.pack). */
export interface PackedQueries {
	readonly count: number;
	/** Step s of query j at 16(count·s + j) (int16 units). */
	readonly codes: Int16Array;
	readonly units: Float32Array;
}

/** Views of page 0's areas. */
interface Page0 {
	buffer: ArrayBuffer;
	query: Int16Array;
	slotArea: Int32Array;
	outArea: Float32Array;
	unitArea: Float32Array;
	thrArea: Float64Array;
	scaleArea: Float32Array;
	candArea: Int32Array;
}

type Dots = (codes: number, slots: number, n: number, q: number, stride: number, steps: number, out: number, unit: number) => void;

/** A vector store's codes in WebAssembly memory, and the SIMD scan over them. */
export class CodeMemory {
	private readonly memory: WebAssembly.Memory;
	private readonly run: Dots;
	private readonly dims: number;
	private readonly steps: number;
	/** The largest query component after rounding: no 32-bit sum can overflow (|code| ≤ 127). */
	private readonly qMax: number;
	private page0?: Page0;
	/** The several-query scans by query count − 1 (simd-many.ts), made on first use; null: unavailable. */
	private many?: DotsMany[] | null;

	private constructor(module: WebAssembly.Module, dims: number) {
		this.memory = new WebAssembly.Memory({ initial: 2 });
		this.run = new WebAssembly.Instance(module, { e: { m: this.memory } }).exports.dots as Dots;
		this.dims = dims;
		this.steps = Math.ceil(dims / STEP);
		this.qMax = Math.min(Q_MAX, Math.floor((2 ** 31 - 1) / (dims * 127)));
	}

	/** A code memory for `dims`-wide vectors, or null (no SIMD here, or vectors too wide). */
	static create(dims: number): CodeMemory | null {
		const module = dims > 0 && dims <= MAX_SIMD_DIMS ? simdModule() : null;
		return module ? new CodeMemory(module, dims) : null;
	}

	/**
	 * A view of `bytes` codes, growing the memory when needed (its contents stay; earlier views
	 * of a grown memory are detached, so the store must use the returned one).
	 */
	codes(bytes: number): Int8Array {
		const need = CODES_AT + bytes + SLACK;
		const have = this.memory.buffer.byteLength;
		if (need > have) this.memory.grow(Math.ceil((need - have) / PAGE));
		return new Int8Array(this.memory.buffer, CODES_AT, bytes);
	}

	/**
	 * `q` rounded to int16 for this module's scan: done once per query when one query is scored
	 * against many groups of slots (nearest.ts), and valid for any code memory of the same width.
	 */
	round(q: Float32Array): RoundedQuery {
		const codes = new Int16Array(this.steps * STEP);
		let top = 0;
		for (let k = 0; k < this.dims; k++) top = Math.max(top, Math.abs(q[k]));
		const scale = top > 0 ? this.qMax / top : 0;
		for (let k = 0; k < this.dims; k++) codes[k] = Math.round(q[k] * scale);
		return { codes, unit: scale > 0 ? 1 / scale : 0 };
	}

	/** Page 0's areas, viewed again only after the memory grew (which detaches earlier views). */
	private areas(): Page0 {
		const buf = this.memory.buffer;
		if (this.page0?.buffer !== buf)
			this.page0 = {
				buffer: buf,
				query: new Int16Array(buf, QUERY_AT, QUERY_BYTES / 2),
				slotArea: new Int32Array(buf, SLOTS_AT, BLOCK),
				outArea: new Float32Array(buf, OUT_AT, BLOCK),
				unitArea: new Float32Array(buf, UNITS_AT, MAX_PER_PASS),
				thrArea: new Float64Array(buf, THR_AT, MAX_PER_PASS),
				scaleArea: new Float32Array(buf, SCALES_AT, MANY_BLOCK),
				candArea: new Int32Array(buf, CAND_AT, MANY_BLOCK),
			};
		return this.page0;
	}

	/**
	 * How many queries one pass of `dotsMany` scores at this width (as many as the query area
	 * holds, at most MAX_PER_PASS), or 0 where the several-query scan is unavailable.
	 */
	get perPass(): number {
		if (this.many === undefined) {
			const module = manyModule();
			const exports = module ? new WebAssembly.Instance(module, { e: { m: this.memory } }).exports : null;
			this.many = exports ? Array.from({ length: MAX_PER_PASS }, (_, j) => exports[`d${j + 1}`] as DotsMany) : null;
		}
		return this.many ? Math.min(MAX_PER_PASS, Math.floor(QUERY_BYTES / (this.steps * STEP * 2))) : 0;
	}

	/** The most slots one `dotsMany` call takes for `count` queries. */
	static blockFor(count: number): number {
		return Math.floor(MANY_BLOCK / Math.max(1, count));
	}

	/** Up to `perPass` queries rounded for this width (`round`), laid side by side for `dotsMany`. */
	pack(queries: readonly RoundedQuery[]): PackedQueries {
		const count = queries.length;
		if (count < 1 || count > this.perPass) throw new RangeError(`a pass takes 1 to ${this.perPass} queries, not ${count}`);
		const codes = new Int16Array(count * this.steps * STEP);
		const units = new Float32Array(count);
		queries.forEach((r, j) => {
			if (r.codes.length !== this.steps * STEP) throw new RangeError('the query was rounded for another width');
			units[j] = r.unit;
			for (let s = 0; s < this.steps; s++) codes.set(r.codes.subarray(s * STEP, s * STEP + STEP), (count * s + j) * STEP);
		});
		return { count, codes, units };
	}

	/**
	 * The raw dot products of slots `slots[0..count)` with every packed query, exactly as `dots`
	 * gives them one query at a time, in one pass over the codes: query j of slot i at
	 * `Q·i + j` of `scores` (Q = queries.count). `picked[0..picks)` are the positions whose
	 * cosine reaches the query's threshold (`thresholds[j]`), the cosine being the product with
	 * `scales[i]` (NaN: no vector) rounded to float32 when `round32`, else in float64. The
	 * arrays returned view the module's memory: valid until the next call. `count` ≤ blockFor(Q).
	 */
	dotsMany(
		slots: Int32Array,
		count: number,
		queries: PackedQueries,
		scales: Float32Array,
		thresholds: Float64Array,
		round32: boolean,
	): { scores: Float32Array; picked: Int32Array; picks: number } {
		const Q = queries.count;
		const run = this.perPass >= Q ? this.many?.[Q - 1] : undefined;
		if (!run) throw new RangeError(`no pass of ${Q} queries here`);
		if (count > CodeMemory.blockFor(Q)) throw new RangeError(`a pass of ${Q} queries takes at most ${CodeMemory.blockFor(Q)} slots`);
		const { query, slotArea, outArea, unitArea, thrArea, scaleArea, candArea } = this.areas();
		query.set(queries.codes);
		unitArea.set(queries.units);
		thrArea.set(thresholds.length === Q ? thresholds : thresholds.subarray(0, Q));
		slotArea.set(count === slots.length ? slots : slots.subarray(0, count));
		scaleArea.set(count === scales.length ? scales : scales.subarray(0, count));
		const picks = run(CODES_AT, SLOTS_AT, count, QUERY_AT, this.dims, this.steps, OUT_AT, UNITS_AT, SCALES_AT, THR_AT, CAND_AT, round32 ? 1 : 0);
		return { scores: outArea.subarray(0, count * Q), picked: candArea, picks };
	}

	/** out[i] = the raw dot product of slot `slots[i]`'s codes with `q`, for i < count. */
	dots(slots: Int32Array, count: number, q: Float32Array | RoundedQuery, out: Float32Array): void {
		const rounded = q instanceof Float32Array ? this.round(q) : q;
		if (rounded.codes.length !== this.steps * STEP) throw new RangeError('the query was rounded for another width');
		const { query, slotArea, outArea } = this.areas();
		query.set(rounded.codes);
		const unit = rounded.unit;
		for (let from = 0; from < count; from += BLOCK) {
			const m = Math.min(BLOCK, count - from);
			slotArea.set(slots.subarray(from, from + m));
			this.run(CODES_AT, SLOTS_AT, m, QUERY_AT, this.dims, this.steps, OUT_AT, unit);
			out.set(outArea.subarray(0, m), from);
		}
	}
}

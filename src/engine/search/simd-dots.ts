/**
 * Dot products of many int8 vectors with one float query, in WebAssembly SIMD: the cost of every
 * nearest() scan (SIMILAR_TO and duplicates on each store, the semantic pool of a recall). In
 * plain JavaScript a 100-d int8 · float32 product takes about 130 ns, one multiply at a time;
 * here eight codes are widened and multiplied per step (four float lanes, twice).
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
 *                         (param $stride i32) (param $steps i32) (param $out i32)
 *     for i in 0..n:                        ;; slot = i32.load($slots + 4i)
 *       base = $codes + slot * $stride; acc = f32x4(0)
 *       for s in 0..steps:                  ;; eight codes per step
 *         x = v128.load8x8_s(base + 8s)     ;; int8 → i16x8
 *         acc += f32x4.convert(extend_low(x)) * v128.load($q + 32s)
 *         acc += f32x4.convert(extend_high(x)) * v128.load($q + 32s + 16)
 *       f32.store($out + 4i, acc[0] + acc[1] + acc[2] + acc[3]))
 *
 * The last step may read up to seven bytes past a vector (into the next one, or the slack kept
 * after the last); the query is zero there, so they add nothing.
 */

const PAGE = 65_536;
/** Page 0: the query (floats, padded to whole steps), then a block of slots, then their results. */
const QUERY_AT = 0;
const QUERY_BYTES = 8_192;
const BLOCK = 4_096;
const SLOTS_AT = QUERY_AT + QUERY_BYTES;
const OUT_AT = SLOTS_AT + BLOCK * 4;
/** Codes start on page 1; a store's codes array begins here. */
const CODES_AT = PAGE;
/** Bytes kept past the codes, for the last vector's over-read. */
const SLACK = 16;
/** The widest vector the query area holds. */
export const MAX_SIMD_DIMS = QUERY_BYTES / 4;

/** Unsigned LEB128, as the binary format encodes counts, indexes and sizes. */
function uleb(n: number): number[] {
	const out: number[] = [];
	do {
		let b = n & 0x7f;
		n >>>= 7;
		if (n !== 0) b |= 0x80;
		out.push(b);
	} while (n !== 0);
	return out;
}

/** A section: its id, then its length-prefixed contents. */
const section = (id: number, body: number[]) => [id, ...uleb(body.length), ...body];
const name = (s: string) => [...uleb(s.length), ...[...s].map((c) => c.charCodeAt(0))];

/** The module's bytes (see the text form in the module comment). */
function moduleBytes(): Uint8Array<ArrayBuffer> {
	const I32 = 0x7f;
	const V128 = 0x7b;
	const get = (i: number) => [0x20, i];
	const set = (i: number) => [0x21, i];
	const tee = (i: number) => [0x22, i];
	const i32 = (v: number) => [0x41, v]; // small non-negative constants only (< 64)
	const add = 0x6a;
	const mul = 0x6c;
	const shl = 0x74;
	const simd = (op: number, ...imm: number[]) => [0xfd, ...uleb(op), ...imm];
	const mem = (align: number, offset: number) => [align, ...uleb(offset)];
	// Params 0–6: codes, slots, n, q, stride, steps, out. Locals 7 i, 8 base, 9 s (i32), 10 acc, 11 x (v128).
	const [codes, slots, n, q, stride, steps, out, i, base, s, acc, x] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
	const qAt = [...get(q), ...get(s), ...i32(5), shl, add]; // $q + 32s
	const half = (extend: number, offset: number) => [
		...get(x), ...simd(extend), ...simd(0xfa), // f32x4.convert_i32x4_s(i32x4.extend_*_i16x8_s(x))
		...qAt, ...simd(0x00, ...mem(0, offset)), // v128.load
		...simd(0xe6), ...simd(0xe4), // f32x4.mul, f32x4.add (onto acc, below on the stack)
	];
	const lane = (k: number) => [...get(acc), ...simd(0x1f, k)]; // f32x4.extract_lane k
	const body = [
		0x02, 0x40, // block
		0x03, 0x40, // loop (over slots)
		...get(i), ...get(n), 0x4f, 0x0d, 1, // i >= n → break
		...get(slots), ...get(i), ...i32(2), shl, add, 0x28, ...mem(0, 0), // slot = load(slots + 4i)
		...get(stride), mul, ...get(codes), add, ...set(base),
		...simd(0x0c, ...new Array(16).fill(0)), ...set(acc), // acc = 0
		...i32(0), ...set(s),
		0x03, 0x40, // loop (over steps)
		...get(base), ...get(s), ...i32(3), shl, add, ...simd(0x01, ...mem(0, 0)), ...set(x), // v128.load8x8_s
		...get(acc), ...half(0xa7, 0), ...half(0xa8, 16), ...set(acc),
		...get(s), ...i32(1), add, ...tee(s), ...get(steps), 0x49, 0x0d, 0, // ++s < steps → again
		0x0b, // end loop
		...get(out), ...get(i), ...i32(2), shl, add,
		...lane(0), ...lane(1), 0x92, ...lane(2), 0x92, ...lane(3), 0x92, // f32.add
		0x38, ...mem(0, 0), // f32.store
		...get(i), ...i32(1), add, ...set(i),
		0x0c, 0, // br (next slot)
		0x0b, // end loop
		0x0b, // end block
		0x0b, // end function
	];
	const code = [...uleb(2), ...uleb(3), I32, ...uleb(2), V128, ...body];
	return new Uint8Array([
		0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
		...section(1, [1, 0x60, 7, ...new Array(7).fill(I32), 0]), // type: (i32 × 7) → ()
		...section(2, [1, ...name('e'), ...name('m'), 0x02, 0x00, 0x01]), // import memory e.m, min 1 page
		...section(3, [1, 0]), // one function of type 0
		...section(7, [1, ...name('dots'), 0x00, 0]), // export it as "dots"
		...section(10, [1, ...uleb(code.length), ...code]),
	]);
}

let compiled: WebAssembly.Module | null | undefined;

/** The compiled module, or null where WebAssembly or its SIMD instructions are unavailable. */
function simdModule(): WebAssembly.Module | null {
	if (compiled !== undefined) return compiled;
	try {
		const bytes = moduleBytes();
		compiled = typeof WebAssembly === 'object' && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
	} catch {
		compiled = null;
	}
	return compiled;
}

type Dots = (codes: number, slots: number, n: number, q: number, stride: number, steps: number, out: number) => void;

/** A vector store's codes in WebAssembly memory, and the SIMD scan over them. */
export class CodeMemory {
	private readonly memory: WebAssembly.Memory;
	private readonly run: Dots;
	private readonly dims: number;
	private readonly steps: number;

	private constructor(module: WebAssembly.Module, dims: number) {
		this.memory = new WebAssembly.Memory({ initial: 2 });
		this.run = new WebAssembly.Instance(module, { e: { m: this.memory } }).exports.dots as Dots;
		this.dims = dims;
		this.steps = Math.ceil(dims / 8);
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

	/** out[i] = the raw dot product of slot `slots[i]`'s codes with `q`, for i < count. */
	dots(slots: Int32Array, count: number, q: Float32Array, out: Float32Array): void {
		const buf = this.memory.buffer;
		const query = new Float32Array(buf, QUERY_AT, this.steps * 8);
		query.set(q.subarray(0, this.dims));
		query.fill(0, this.dims);
		const slotArea = new Int32Array(buf, SLOTS_AT, BLOCK);
		const outArea = new Float32Array(buf, OUT_AT, BLOCK);
		for (let from = 0; from < count; from += BLOCK) {
			const m = Math.min(BLOCK, count - from);
			slotArea.set(slots.subarray(from, from + m));
			this.run(CODES_AT, SLOTS_AT, m, QUERY_AT, this.dims, this.steps, OUT_AT);
			out.set(outArea.subarray(0, m), from);
		}
	}
}

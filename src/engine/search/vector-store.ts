/**
 * Compact vector storage: one int8 code per dimension plus one float32 scale per vector, in
 * contiguous typed arrays addressed by slot and grown geometrically. A 100-d vector costs 104
 * bytes instead of 400, and scoring many against a float query is one SIMD call (simd-dots.ts)
 * or, without SIMD, one tight loop over an Int8Array. Vectors are normalised before quantisation and the scale folds in 1/127, so
 * `dot(slot, unitQuery)` approximates the cosine (error ≈ 0.005 at 100 dims).
 */

import { CodeMemory, type RoundedQuery } from './simd-dots';

const INITIAL_CAPACITY = 1024;

/** Slot-addressed int8 vectors; slot bookkeeping (ids, swap-remove) belongs to the caller. */
export class VectorStore {
	readonly dims: number;
	codes: Int8Array;
	/** 0 means "no vector in this slot". */
	scales: Float32Array;
	/**
	 * Sum of every stored (dequantised) vector, and how many there are: the mean cosine of a
	 * query to all vectors is then one dot product (`meanDot`), not a scan.
	 */
	private readonly sum: Float64Array;
	private filled = 0;
	private capacity: number;
	/** Where the codes live when WebAssembly SIMD is available (simd-dots.ts); else a plain array. */
	private readonly simd: CodeMemory | null;

	constructor(dims: number, capacity = INITIAL_CAPACITY) {
		this.dims = dims;
		this.capacity = Math.max(1, capacity);
		this.simd = CodeMemory.create(dims);
		this.codes = this.simd ? this.simd.codes(this.capacity * dims) : new Int8Array(this.capacity * dims);
		this.scales = new Float32Array(this.capacity);
		this.sum = new Float64Array(dims);
	}

	/** Makes room for `slot` (doubling, so n inserts cost O(n) copies in total). */
	ensure(slot: number): void {
		if (slot < this.capacity) return;
		let cap = this.capacity;
		while (cap <= slot) cap *= 2;
		let codes: Int8Array;
		if (this.simd) codes = this.simd.codes(cap * this.dims);
		else {
			codes = new Int8Array(cap * this.dims);
			codes.set(this.codes);
		}
		const scales = new Float32Array(cap);
		scales.set(this.scales);
		this.codes = codes;
		this.scales = scales;
		this.capacity = cap;
	}

	/** Stores `v` (any length-`dims` vector; normalised here) or clears the slot with null. */
	set(slot: number, v: Float32Array | null): void {
		this.ensure(slot);
		this.account(slot, -1);
		this.scales[slot] = 0;
		if (v === null) return;
		if (v.length !== this.dims) throw new RangeError(`vector has ${v.length} dims, index has ${this.dims}`);
		let norm = 0;
		let max = 0;
		for (let i = 0; i < v.length; i++) {
			const x = v[i];
			norm += x * x;
			const a = Math.abs(x);
			if (a > max) max = a;
		}
		norm = Math.sqrt(norm);
		if (!(norm > 0) || !Number.isFinite(norm)) return;
		const base = slot * this.dims;
		const k = 127 / max;
		for (let i = 0; i < v.length; i++) this.codes[base + i] = Math.round(v[i] * k);
		this.scales[slot] = max / 127 / norm;
		this.account(slot, 1);
	}

	/** Adds (sign 1) or takes away (-1) a slot's vector from the running sum. */
	private account(slot: number, sign: 1 | -1): void {
		const sc = this.scales[slot];
		if (sc === 0) return;
		addScaled(this.sum, this.codes, slot * this.dims, sign * sc);
		this.filled += sign;
	}

	/** Mean approximate cosine of the unit query `q` to every stored vector (0 when none). */
	meanDot(q: Float32Array): number {
		if (this.filled === 0) return 0;
		let s = 0;
		for (let i = 0; i < this.dims; i++) s += this.sum[i] * q[i];
		return s / this.filled;
	}

	has(slot: number): boolean {
		return slot < this.capacity && this.scales[slot] !== 0;
	}

	/** The SIMD memory holding the codes (null: plain array, no SIMD), for scans of several queries at once (nearest.ts). */
	get codeMemory(): CodeMemory | null {
		return this.simd;
	}

	/** A unit query made ready for many scans (rounded once for the SIMD scan). */
	prepare(q: Float32Array): PreparedQuery {
		return { vector: q, rounded: this.simd ? this.simd.round(q) : null };
	}

	/**
	 * out[i] = the approximate cosine of slot `slots[i]`'s vector with the unit query `q`, for
	 * i < count (every slot must hold a vector): the scan behind nearest() and a recall's
	 * semantic pool, in WebAssembly SIMD where available.
	 */
	dotsInto(slots: Int32Array, count: number, q: Float32Array | PreparedQuery, out: Float32Array): void {
		const scales = this.scales;
		if (this.simd) {
			this.simd.dots(slots, count, q instanceof Float32Array ? q : (q.rounded ?? q.vector), out);
			for (let i = 0; i < count; i++) out[i] *= scales[slots[i]];
			return;
		}
		const d = this.dims;
		const v = q instanceof Float32Array ? q : q.vector;
		for (let i = 0; i < count; i++) out[i] = dotAt(this.codes, slots[i] * d, v, d) * scales[slots[i]];
	}

	/** Approximate cosine between the stored vector and a unit-length float query. */
	dot(slot: number, q: Float32Array): number {
		return dotAt(this.codes, slot * this.dims, q, this.dims) * this.scales[slot];
	}

	/** The stored vector, dequantised and unit-length (undefined when the slot has none). */
	get(slot: number): Float32Array | undefined {
		if (!this.has(slot)) return undefined;
		const out = new Float32Array(this.dims);
		const base = slot * this.dims;
		const sc = this.scales[slot];
		for (let i = 0; i < this.dims; i++) out[i] = this.codes[base + i] * sc;
		return normalize(out) ?? undefined;
	}

	/** Copies slot `from` into slot `to` (swap-remove's move); `to`'s own vector is dropped. */
	move(from: number, to: number): void {
		this.account(to, -1);
		const d = this.dims;
		this.codes.copyWithin(to * d, from * d, from * d + d);
		this.scales[to] = this.scales[from];
		this.scales[from] = 0;
	}

	/** The first `n` slots' codes and scales, for snapshots. */
	view(n: number): { codes: Int8Array; scales: Float32Array } {
		return { codes: this.codes.subarray(0, n * this.dims), scales: this.scales.subarray(0, n) };
	}

	/**
	 * A store over `a`: the arrays of a restored snapshot, as they are (no copy), except the codes
	 * when they must move into WebAssembly memory (a copy of about 10 MB at 100k).
	 */
	static adopt(dims: number, a: VectorArrays): VectorStore {
		if (a.codes.length !== a.scales.length * dims || a.sum.length !== dims) throw new RangeError('vector arrays do not fit together');
		const vs = new VectorStore(dims, a.scales.length);
		if (vs.simd) vs.codes.set(a.codes);
		else vs.codes = a.codes;
		vs.scales = a.scales;
		vs.capacity = a.scales.length;
		vs.sum.set(a.sum);
		vs.filled = a.filled;
		return vs;
	}
}

/** A unit query and, where the scan is SIMD, its int16 rounding (VectorStore.prepare). */
export interface PreparedQuery {
	readonly vector: Float32Array;
	readonly rounded: RoundedQuery | null;
}

/**
 * A vector store's state as plain typed arrays (codes and scales with room to grow, the running
 * sum), which a snapshot's reader makes in whichever thread reads it and the store then adopts.
 */
export interface VectorArrays {
	codes: Int8Array;
	scales: Float32Array;
	sum: Float64Array;
	filled: number;
}

/** Arrays for a store of `n` vectors, with room to grow: fill the first `n` codes and scales, then `sumVectors`. */
export function vectorArraysFor(dims: number, n: number): VectorArrays {
	const capacity = Math.max(INITIAL_CAPACITY, n + (n >> 2));
	return { codes: new Int8Array(capacity * dims), scales: new Float32Array(capacity), sum: new Float64Array(dims), filled: 0 };
}

/** Makes the running sum of the first `n` vectors of `a`. */
export function sumVectors(a: VectorArrays, n: number): void {
	const dims = a.sum.length;
	a.sum.fill(0);
	a.filled = 0;
	for (let slot = 0; slot < n; slot++) {
		const sc = a.scales[slot];
		if (sc === 0) continue;
		addScaled(a.sum, a.codes, slot * dims, sc);
		a.filled++;
	}
}

/** Dot product of int8 codes at `base` with a float query, unrolled by four (the scan without SIMD). */
function dotAt(codes: Int8Array, base: number, q: Float32Array, d: number): number {
	let s0 = 0;
	let s1 = 0;
	let s2 = 0;
	let s3 = 0;
	let i = 0;
	for (; i + 3 < d; i += 4) {
		s0 += codes[base + i] * q[i];
		s1 += codes[base + i + 1] * q[i + 1];
		s2 += codes[base + i + 2] * q[i + 2];
		s3 += codes[base + i + 3] * q[i + 3];
	}
	for (; i < d; i++) s0 += codes[base + i] * q[i];
	return s0 + s1 + s2 + s3;
}

/** sum += f × codes[base …], over sum's length. */
function addScaled(sum: Float64Array, codes: Int8Array, base: number, f: number): void {
	for (let i = 0; i < sum.length; i++) sum[i] += codes[base + i] * f;
}

/** A unit-length copy of `v`, or null when it is zero or not finite. */
export function normalize(v: ArrayLike<number>): Float32Array | null {
	let n = 0;
	for (let i = 0; i < v.length; i++) n += v[i] * v[i];
	n = Math.sqrt(n);
	if (!(n > 0) || !Number.isFinite(n)) return null;
	const out = new Float32Array(v.length);
	for (let i = 0; i < v.length; i++) out[i] = v[i] / n;
	return out;
}

/**
 * Pure vector maths for embeddings: dot products, cosine similarity, L2 normalisation and int8 quantisation.
 * No dependencies, safe in Node, the page and workers. Vectors of different lengths are a programming error and
 * throw a plain RangeError (they never come from user input: every vector is checked against its model's dims).
 */

/** Any dense numeric vector the helpers accept. */
export type NumericVector = Float32Array | Float64Array | readonly number[];

function sameLength(a: ArrayLike<number>, b: ArrayLike<number>): void {
	if (a.length !== b.length) throw new RangeError(`vector length mismatch: ${a.length} vs ${b.length}`);
}

/** Dot product of two equally long vectors, accumulated in float64. */
export function dot(a: NumericVector, b: NumericVector): number {
	sameLength(a, b);
	let s = 0;
	for (let i = 0; i < a.length; i++) s += a[i] * b[i];
	return s;
}

/** Euclidean (L2) norm of a vector. */
export function norm(v: NumericVector): number {
	let s = 0;
	for (let i = 0; i < v.length; i++) s += v[i] * v[i];
	return Math.sqrt(s);
}

/**
 * Cosine similarity in [-1, 1]; 0 when either vector is all zeros (no direction, so no similarity).
 * For unit vectors prefer {@link dot}, which skips the two norms.
 */
export function cosine(a: NumericVector, b: NumericVector): number {
	sameLength(a, b);
	let ab = 0;
	let aa = 0;
	let bb = 0;
	for (let i = 0; i < a.length; i++) {
		ab += a[i] * b[i];
		aa += a[i] * a[i];
		bb += b[i] * b[i];
	}
	if (aa === 0 || bb === 0) return 0;
	// Clamp: rounding can push |cos| of (anti)parallel vectors a hair past 1.
	return Math.max(-1, Math.min(1, ab / Math.sqrt(aa * bb)));
}

/**
 * A new Float32Array with the same direction and length 1, or null for a zero, NaN or infinite vector
 * (callers treat "no direction" as "no vector" rather than inventing one).
 */
export function normalize(v: NumericVector): Float32Array | null {
	const n = norm(v);
	if (!(n > 0) || !Number.isFinite(n)) return null;
	const out = new Float32Array(v.length);
	for (let i = 0; i < v.length; i++) out[i] = v[i] / n;
	return out;
}

/** A vector quantised to int8 with one scale: v[i] ≈ q[i] · scale. */
export interface QuantizedVector {
	q: Int8Array;
	scale: number;
}

/**
 * Symmetric int8 quantisation: scale = max|v|/127 and q = round(v/scale), so the largest component is exact
 * and every other is off by at most scale/2. A zero vector gives q all zeros and scale 0.
 */
export function quantizeInt8(v: NumericVector): QuantizedVector {
	let max = 0;
	for (let i = 0; i < v.length; i++) {
		const x = Math.abs(v[i]);
		if (x > max) max = x;
	}
	const q = new Int8Array(v.length);
	if (!(max > 0) || !Number.isFinite(max)) return { q, scale: 0 };
	const scale = max / 127;
	for (let i = 0; i < v.length; i++) q[i] = Math.max(-127, Math.min(127, Math.round(v[i] / scale)));
	return { q, scale };
}

/** The float32 vector a quantised vector stands for. */
export function dequantizeInt8(v: QuantizedVector): Float32Array {
	const out = new Float32Array(v.q.length);
	for (let i = 0; i < out.length; i++) out[i] = v.q[i] * v.scale;
	return out;
}

/**
 * Dot product of two int8-quantised vectors, i.e. ≈ dot of the originals: the integer sum is exact
 * (|sum| ≤ 127²·n fits easily in a double), then scaled once.
 */
export function dotInt8(a: QuantizedVector, b: QuantizedVector): number {
	sameLength(a.q, b.q);
	let s = 0;
	const qa = a.q;
	const qb = b.q;
	for (let i = 0; i < qa.length; i++) s += qa[i] * qb[i];
	return s * a.scale * b.scale;
}

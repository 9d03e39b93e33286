/**
 * Small helpers for search-index tests: metadata with defaults, deterministic vectors, and a
 * toy "embedding" (hashed bag of words) good enough to make semantic neighbours predictable.
 */
import type { DocMeta } from '../../../../src/engine/search/types';
import { analyze } from '../../../../src/core/text';

let seq = 0;

/** DocMeta with realistic defaults; `id` required. */
export function meta(id: string, over: Partial<DocMeta> = {}): DocMeta {
	seq++;
	return {
		id,
		seq,
		scope: 'default',
		type: 'Context',
		tags: [],
		timestamp: Date.parse('2024-01-01T00:00:00Z'),
		updated_at: Date.parse('2024-01-01T00:00:00Z'),
		importance: 0.5,
		confidence: 0.8,
		access_count: 0,
		entities: [],
		...over,
	};
}

/** A seeded PRNG (mulberry32) for reproducible vectors. */
export function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** A random (not normalised) vector of `dims` from `rnd`. */
export function randomVector(rnd: () => number, dims: number): Float32Array {
	const v = new Float32Array(dims);
	for (let i = 0; i < dims; i++) v[i] = rnd() * 2 - 1;
	return v;
}

/** Exact cosine, the reference for int8 approximations. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
	let d = 0;
	let na = 0;
	let nb = 0;
	for (let i = 0; i < a.length; i++) {
		d += a[i] * b[i];
		na += a[i] * a[i];
		nb += b[i] * b[i];
	}
	return d / Math.sqrt(na * nb);
}

/** A toy text embedding: each processed term hashed into `dims` buckets (bag of words). */
export function toyEmbed(text: string, dims = 64): Float32Array {
	const v = new Float32Array(dims);
	for (const t of analyze(text)) {
		let h = 2166136261;
		for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 16777619);
		v[(h >>> 0) % dims] += 1;
	}
	return v;
}

/**
 * Synthetic vectors and bare index entries for the benches and tests of the vector paths
 * (nearest, scope codes, a batch's scan), so each does not define its own.
 */
import type { DocMeta } from '../../src/engine/search/types';
import { prng } from './corpus';

/**
 * Seeded unit vectors of `dims`: with `topics` > 0 they gather around that many random centres,
 * `spread` apart, as embeddings do (uniform random ones have no neighbours worth the name); with
 * 0, uniform. `rnd` is the same generator, for the caller's own draws.
 */
export function topicVectors(dims: number, seed: number, topics = 0, spread = 0.5): { unit: () => Float32Array; rnd: () => number } {
	const rnd = prng(seed);
	const noise = () => Float32Array.from({ length: dims }, () => rnd() - 0.5);
	const centres = Array.from({ length: topics }, noise);
	const unit = () => {
		const v = topics === 0 ? noise() : ((topic) => noise().map((x, i) => topic[i] + spread * x))(centres[Math.floor(rnd() * topics)]);
		const n = Math.hypot(...v);
		return v.map((x) => x / n);
	};
	return { unit, rnd };
}

/** A memory's index metadata with nothing but its id, scope and seq set. */
export function bareMeta(id: string, scope: string, seq = 0): DocMeta {
	return { id, seq, scope, type: 'Context', tags: [], timestamp: 0, updated_at: 0, importance: 0.5, confidence: 1, access_count: 0, entities: [] };
}

/**
 * The exact scoped scan reads a large scope's codes from a contiguous copy (scope-codes.ts).
 * Whatever happens to the index (new memories, replaced ones, moved between scopes, re-vectored,
 * removed with the swap-remove that reorders a scope's list), its answers must be those of a
 * scan over the live vectors.
 */
import { describe, expect, it } from 'vitest';
import { createSearchIndex } from '../../../../src/engine/search/index';
import { MIN_SLOTS } from '../../../../src/engine/search/scope-codes';
import type { IndexView } from '../../../../src/engine/search/view';
import { bareMeta, topicVectors } from '../../../../bench/lib/vectors';

const DIMS = 16;
const { unit, rnd } = topicVectors(DIMS, 11);
const meta = (id: string, scope: string) => bareMeta(id, scope);

/** The k best cosines in `scope` by the index's own per-slot dot product (no copy involved). */
function reference(view: IndexView, q: Float32Array, scope: string, k: number, exclude: Set<string>): number[] {
	const out: number[] = [];
	for (let slot = 0; slot < view.count; slot++)
		if (view.metas[slot].scope === scope && view.vectors.has(slot) && !exclude.has(view.metas[slot].id)) out.push(view.vectors.dot(slot, q));
	return out.sort((a, b) => b - a).slice(0, k);
}

describe('contiguous scope codes', () => {
	it('answer as a scan of the live vectors through appends, replacements, moves, re-vectoring and removals', () => {
		const index = createSearchIndex({ modelId: 'test', dims: DIMS });
		const view = index as unknown as IndexView;
		const scopes = ['a', 'b', 'c'];
		const live: string[] = [];
		let next = 0;
		const check = () => {
			for (const scope of scopes) {
				for (let t = 0; t < 3; t++) {
					const q = unit();
					const exclude = new Set(live.length ? [live[Math.floor(rnd() * live.length)]] : []);
					// Every memory of the scope, ranked: a single wrong cosine shows.
					const got = index.nearest(q, 5_000, { scope, exclude: [...exclude] }).map((h) => h.cosine);
					const want = reference(view, q, scope, 5_000, exclude);
					expect(got.length).toBe(want.length);
					got.forEach((c, i) => expect(Math.abs(c - want[i])).toBeLessThan(1e-3));
				}
			}
		};
		// Grow every scope past the size that gets a copy, checking as the copies catch up.
		for (let round = 0; round < 4; round++) {
			for (let i = 0; i < MIN_SLOTS; i++) {
				const id = `m${next++}`;
				index.upsert(meta(id, scopes[i % 3]), { content: id }, i % 50 === 0 ? null : unit());
				live.push(id);
			}
			check();
		}
		expect((view as unknown as { contiguousScope(s: string): unknown }).contiguousScope('a')).toBeDefined();
		// A removal and an arrival in the same scope leave its list as long as before, reordered.
		for (let i = 0; i < 5; i++) {
			const gone = live.find((id) => view.metas[view.slotOf.get(id)!].scope === 'a')!;
			index.remove(gone);
			live.splice(live.indexOf(gone), 1);
			const id = `m${next++}`;
			index.upsert(meta(id, 'a'), { content: id }, unit());
			live.push(id);
			check();
		}
		for (let step = 0; step < 6; step++) {
			for (let i = 0; i < 40; i++) {
				const id = live[Math.floor(rnd() * live.length)];
				const what = rnd();
				if (what < 0.3) index.upsert(meta(id, scopes[Math.floor(rnd() * 3)]), { content: id }, unit());
				else if (what < 0.5) index.setVector(id, rnd() < 0.2 ? null : unit());
				else if (what < 0.8) {
					index.remove(id);
					live.splice(live.indexOf(id), 1);
				} else {
					const fresh = `m${next++}`;
					index.upsert(meta(fresh, scopes[Math.floor(rnd() * 3)]), { content: fresh }, unit());
					live.push(fresh);
				}
			}
			check();
		}
	});
});

import { describe, expect, it } from 'vitest';
import type { AssociationType } from '../../../../src/core/schemas';
import { Adjacency } from '../../../../src/engine/search/adjacency';
import type { Edge } from '../../../../src/engine/search/types';
import { prng } from '../../../../bench/lib/corpus';

const TYPES: AssociationType[] = ['SIMILAR_TO', 'PRECEDED_BY', 'RELATES_TO'];

/** Everything observable about an adjacency, in a canonical order. */
function view(a: Adjacency, ids: string[]) {
	const key = (x: object) => JSON.stringify(x);
	return {
		lists: Object.fromEntries(ids.map((id) => [id, a.of(id).map(key).sort()])),
		all: [...a.all()].map(key).sort(),
		edges: a.edgeCount,
		byType: Object.fromEntries([...a.countsByType()].sort()),
	};
}

describe('Adjacency loaded from packed edges', () => {
	it.each([200, 40])('answers like one built edge by edge, before and through every kind of change (%i edges)', (count) => {
		const rnd = prng(count);
		const pick = (n: number) => Math.floor(rnd() * n);
		const ids = Array.from({ length: 60 }, (_, i) => `m${i}`);
		const seen = new Set<string>();
		const edges: { from: number; to: number; type: number; strength: number }[] = [];
		while (edges.length < count) {
			const e = { from: pick(60), to: pick(60), type: pick(3), strength: Math.round(rnd() * 1000) / 1000 };
			const k = `${e.from} ${e.to} ${e.type}`;
			if (seen.has(k)) continue;
			seen.add(k);
			edges.push(e); // self-loops included: both sides must skip them
		}
		const ref = new Adjacency();
		for (const e of edges) ref.add({ from: ids[e.from], to: ids[e.to], type: TYPES[e.type], strength: e.strength });
		const lazy = new Adjacency();
		lazy.loadPacked(
			{ ids, slotOf: new Map(ids.map((id, slot) => [id, slot])) },
			Int32Array.from(edges, (e) => e.from),
			Int32Array.from(edges, (e) => e.to),
			Uint8Array.from(edges, (e) => e.type),
			TYPES,
			Float64Array.from(edges, (e) => e.strength),
		);
		expect(lazy.edgeCount).toBeGreaterThan(count * 0.9);
		expect([[...lazy.all()].length, lazy.edgeCount, Object.fromEntries(lazy.countsByType())]).toEqual([
			[...ref.all()].length,
			ref.edgeCount,
			Object.fromEntries(ref.countsByType()),
		]);
		for (let step = 0; step < 300; step++) {
			const r = rnd();
			const edge: Edge = { from: ids[pick(60)], to: ids[pick(60)], type: TYPES[pick(3)], strength: Math.round(rnd() * 1000) / 1000 };
			const packed = edges[pick(edges.length)];
			// Reading a list first makes it from the packed form outside a change.
			const read = ids[pick(60)];
			for (const a of [ref, lazy]) {
				a.of(read);
				if (r < 0.4) a.add(edge);
				else if (r < 0.7) a.remove(edge.from, edge.to, edge.type);
				else if (r < 0.75) a.removeNode(edge.from);
				// Re-adding an existing edge updates its strength on both ends.
				else if (r < 0.9) a.add({ from: ids[packed.from], to: ids[packed.to], type: TYPES[packed.type], strength: 0.5 });
				else a.of(edge.to);
			}
			// view() reads every list (making them all), so mid-way compare only what needs no list.
			if (step % 25 === 0)
				expect([[...lazy.all()].map((e) => JSON.stringify(e)).sort(), lazy.edgeCount]).toEqual([
					[...ref.all()].map((e) => JSON.stringify(e)).sort(),
					ref.edgeCount,
				]);
		}
		expect(view(lazy, ids)).toEqual(view(ref, ids));
		lazy.clear();
		expect(view(lazy, ids)).toEqual({ lists: Object.fromEntries(ids.map((id) => [id, []])), all: [], edges: 0, byType: {} });
	});
});

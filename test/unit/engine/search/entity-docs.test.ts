import { describe, expect, it } from 'vitest';
import { EntityDocs } from '../../../../src/engine/search/entity-docs';
import { prng } from '../../../../bench/lib/corpus';

/** Everything observable about an EntityDocs, in a canonical order. */
function view(d: EntityDocs, entities: string[]) {
	return {
		// First, while the lazy one's Sets are not all made: count() reads the packed lists.
		count: Object.fromEntries(entities.map((e) => [e, d.count(e)])),
		sets: Object.fromEntries(entities.map((e) => [e, [...(d.get(e) ?? [])].sort()])),
		counts: Object.fromEntries([...d.counts()].sort()),
		// As a list: an entity listed twice would show here, not in counts()'s Map.
		entries: [...d.entries()].sort(),
		size: d.size,
	};
}

describe('EntityDocs loaded from packed mentions', () => {
	it.each([300, 40])('answers like one built mention by mention, through every kind of change (%i mentions)', (count) => {
		const rnd = prng(count);
		const pick = (n: number) => Math.floor(rnd() * n);
		const ids = Array.from({ length: 50 }, (_, i) => `m${i}`);
		// A string table as the metadata codec writes it: ids first, then other strings, entities among them.
		const entities = Array.from({ length: 30 }, (_, i) => `person:p${i}`);
		const names = [...ids, 'default', ...entities, 'never-mentioned'];
		const mentioned = ids.map(() => new Set<number>());
		for (let k = 0; k < count; k++) mentioned[pick(50)].add(ids.length + 1 + pick(30));
		const offsets = new Int32Array(51);
		const values: number[] = [];
		mentioned.forEach((set, s) => {
			values.push(...set);
			offsets[s + 1] = values.length;
		});
		const ref = new EntityDocs();
		mentioned.forEach((set, s) => set.forEach((e) => ref.add(names[e], ids[s])));
		const lazy = new EntityDocs();
		lazy.loadPacked(ids, names, offsets, Int32Array.from(values));
		expect(Object.fromEntries([...lazy.counts()].sort())).toEqual(Object.fromEntries([...ref.counts()].sort()));
		for (let step = 0; step < 300; step++) {
			const r = rnd();
			const e = entities[pick(30)];
			const id = ids[pick(50)];
			const read = entities[pick(30)];
			for (const d of [ref, lazy]) {
				d.get(read);
				if (r < 0.5) d.add(e, id);
				else d.delete(e, id);
			}
			if (step % 30 === 0) expect(view(lazy, [])).toEqual(view(ref, []));
		}
		expect(view(lazy, [...entities, 'never-mentioned', 'm0'])).toEqual(view(ref, [...entities, 'never-mentioned', 'm0']));
		lazy.clear();
		expect(view(lazy, entities)).toEqual({
			count: Object.fromEntries(entities.map((e) => [e, 0])),
			sets: Object.fromEntries(entities.map((e) => [e, []])),
			counts: {},
			entries: [],
			size: 0,
		});
	});
});

import fc from 'fast-check';
import type { IndexView } from '../../../../src/engine/search/view';
import { describe, expect, it } from 'vitest';
import { asksQuestion, createSearchIndex, restoreSearchIndex, restoreSearchIndexInSteps } from '../../../../src/engine/search/index';
import { IVF } from '../../../../src/engine/search/ivf';
import { sectionBuffers, sliceMetas, sliceSections, snapshotHead, type SnapshotSections } from '../../../../src/engine/search/snapshot';
import type { SearchIndex } from '../../../../src/engine/search/types';
import { cosine, meta, prng, randomVector, toyEmbed } from './fixtures';

const DIMS = 64;

/** An index with the given (id, text) memories, each embedded with toyEmbed. */
function indexOf(docs: [string, string, Partial<Parameters<typeof meta>[1]>?][]): SearchIndex {
	const idx = createSearchIndex({ modelId: 'toy', dims: DIMS });
	for (const [id, content, over] of docs) idx.upsert(meta(id, over), { content }, toyEmbed(content, DIMS));
	return idx;
}

describe('SearchIndex', () => {
	describe('createSearchIndex', () => {
		it('rejects non-positive dims with a message naming the field', () => {
			expect(() => createSearchIndex({ modelId: 'x', dims: 0 })).toThrow('dims: must be a positive integer, got 0');
		});
	});

	describe('upsert / remove', () => {
		it('counts documents and replaces on re-upsert', () => {
			const idx = indexOf([
				['a', 'alpha text'],
				['b', 'beta text'],
			]);
			expect(idx.size).toBe(2);
			idx.upsert(meta('a'), { content: 'gamma words' }, toyEmbed('gamma words', DIMS));
			expect(idx.size).toBe(2);
			const ids = idx.rank({ query: 'alpha' }, { vectors: [null] }, Date.now()).hits.map((h) => h.id);
			expect(ids).not.toContain('a');
			expect(idx.rank({ query: 'gamma' }, { vectors: [null] }, Date.now()).hits[0].id).toBe('a');
		});

		it('keeps vectors attached to the right ids after swap-remove', () => {
			const rnd = prng(7);
			const idx = createSearchIndex({ modelId: 'r', dims: 16 });
			const vecs = new Map<string, Float32Array>();
			for (let i = 0; i < 50; i++) {
				const v = randomVector(rnd, 16);
				vecs.set(`m${i}`, v);
				idx.upsert(meta(`m${i}`), { content: `memory ${i}` }, v);
			}
			for (let i = 0; i < 50; i += 3) {
				idx.remove(`m${i}`);
				vecs.delete(`m${i}`);
			}
			expect(idx.size).toBe(vecs.size);
			for (const [id, v] of vecs) expect(idx.cosineTo(id, v)).toBeCloseTo(1, 2);
			expect(idx.cosineTo('m0', vecs.get('m1')!)).toBeUndefined();
		});

		it('lists the memories without a vector, through removals and a vector set later', () => {
			const idx = createSearchIndex({ modelId: 'toy', dims: DIMS });
			for (const [id, vector] of [
				['a', toyEmbed('alpha', DIMS)],
				['b', null],
				['c', toyEmbed('gamma', DIMS)],
				['d', null],
				['e', null],
			] as const)
				idx.upsert(meta(id), { content: id }, vector);
			expect(idx.idsWithoutVector()).toEqual(['b', 'd', 'e']);
			idx.remove('a'); // the last slot moves into the first
			idx.setVector('d', toyEmbed('delta', DIMS));
			expect(idx.idsWithoutVector().sort()).toEqual(['b', 'e']);
			for (const id of ['b', 'c', 'd', 'e']) expect(idx.hasVector(id), id).toBe(!idx.idsWithoutVector().includes(id));
		});

		it("removes a memory from lexical results and from its neighbours' edges", () => {
			const idx = indexOf([
				['a', 'kayak trip on the lake'],
				['b', 'another kayak adventure'],
			]);
			idx.addEdge({ from: 'a', to: 'b', type: 'RELATES_TO', strength: 0.9 });
			idx.remove('b');
			const page = idx.rank({ query: 'kayak' }, { vectors: [null] }, Date.now());
			expect(page.hits.map((h) => h.id)).toEqual(['a']);
		});
	});

	describe('asksQuestion', () => {
		it('marks a memory whose content ends with a question, through snapshots and re-upserts', () => {
			expect(['Lena: How are Sophia and Blanche?', 'Jamal: WHAT. Where?', 'Tom: Why Portuguese? 😂'].map(asksQuestion)).toEqual([true, true, true]);
			expect(['Maya: Wait, the 15th?? I will be in Japan', 'Sofia: JAMAL!!! A girl!!', ''].map(asksQuestion)).toEqual([false, false, false]);
			const idx = indexOf([
				['q', 'How are the twins?'],
				['a', 'They are fine.'],
			]);
			const view = (i: SearchIndex) => i as unknown as IndexView;
			const asks = (i: SearchIndex, id: string) => view(i).metas[view(i).slotOf.get(id)!].asks === true;
			expect([asks(idx, 'q'), asks(idx, 'a')]).toEqual([true, false]);
			expect(asks(restoreSearchIndex(idx.snapshot()), 'q')).toBe(true);
			idx.upsert(meta('q'), { content: 'The twins are fine.' }, null);
			expect(asks(idx, 'q')).toBe(false);
		});
	});

	describe('nearest', () => {
		it('within a scope returns exactly the best of that scope, through removals, scope changes and a snapshot', () => {
			fc.assert(
				fc.property(fc.integer({ min: 1, max: 1e9 }), (seed) => {
					const rnd = prng(seed);
					const idx = createSearchIndex({ modelId: 'r', dims: 16 });
					const live = new Map<string, { scope: string; v: Float32Array }>();
					for (let i = 0; i < 80; i++) {
						const id = `v${Math.floor(rnd() * 50)}`;
						const r = rnd();
						if (r < 0.2 && live.has(id)) {
							idx.remove(id);
							live.delete(id);
							continue;
						}
						const scope = `s${Math.floor(rnd() * 3)}`;
						const v = randomVector(rnd, 16);
						idx.upsert(meta(id, { scope }), { content: 'x' }, v);
						live.set(id, { scope, v });
					}
					const q = randomVector(rnd, 16);
					const want = (scope: string) =>
						[...live]
							.filter(([, m]) => m.scope === scope)
							.map(([id, m]) => ({ id, c: cosine(q, m.v) }))
							.sort((a, b) => b.c - a.c);
					for (const index of [idx, restoreSearchIndex(idx.snapshot())])
						for (const scope of ['s0', 's1', 's2', 'none']) {
							const got = index.nearest(q, 5, { scope });
							const w = want(scope);
							expect(got).toHaveLength(Math.min(5, w.length));
							// Only the scope's memories, and (up to int8 error) its best ones.
							for (const g of got) {
								expect(live.get(g.id)?.scope).toBe(scope);
								expect(cosine(q, live.get(g.id)!.v)).toBeGreaterThan(w[got.length - 1].c - 0.04);
							}
						}
				}),
				{ numRuns: 60 },
			);
		});

		it('matches a naive exact cosine ranking (int8 error within 0.02)', () => {
			fc.assert(
				fc.property(fc.integer({ min: 1, max: 1e9 }), fc.integer({ min: 1, max: 20 }), (seed, k) => {
					const rnd = prng(seed);
					const idx = createSearchIndex({ modelId: 'r', dims: 24 });
					const vs: [string, Float32Array][] = [];
					for (let i = 0; i < 60; i++) {
						const v = randomVector(rnd, 24);
						vs.push([`v${i}`, v]);
						idx.upsert(meta(`v${i}`), { content: 'x' }, v);
					}
					const q = randomVector(rnd, 24);
					const got = idx.nearest(q, k);
					const want = vs.map(([id, v]) => ({ id, c: cosine(q, v) })).sort((a, b) => b.c - a.c);
					expect(got).toHaveLength(k);
					for (let i = 0; i < k; i++) expect(Math.abs(got[i].cosine - want[i].c)).toBeLessThan(0.02);
					// The k-th true score bounds every returned score from below (up to quantisation).
					for (const g of got) expect(g.cosine).toBeGreaterThan(want[k - 1].c - 0.04);
				}),
				{ numRuns: 40 },
			);
		});

		it('honours scope and exclude', () => {
			const idx = indexOf([
				['a', 'red apple', { scope: 'fruit' }],
				['b', 'red apple pie', { scope: 'baking' }],
				['c', 'green apple', { scope: 'fruit' }],
			]);
			const q = toyEmbed('red apple', DIMS);
			expect(idx.nearest(q, 5, { scope: 'fruit' }).map((h) => h.id)).toEqual(['a', 'c']);
			expect(idx.nearest(q, 5, { exclude: ['a'] })[0].id).toBe('b');
		});

		it('returns nothing for a zero vector or wrong dims', () => {
			const idx = indexOf([['a', 'anything']]);
			expect(idx.nearest(new Float32Array(DIMS), 3)).toEqual([]);
			expect(idx.nearest(new Float32Array(3).fill(1), 3)).toEqual([]);
		});
	});

	describe('snapshot / restoreSearchIndex', () => {
		it('round-trips documents, vectors, edges and lexical search', () => {
			const idx = indexOf([
				['a', 'Caroline adopted a rescue dog named Biscuit', { tags: ['pets'], entities: ['person:caroline'] }],
				['b', 'Melanie painted a sunrise over the lake', { tags: ['art'] }],
				['c', 'Caroline walks Biscuit every morning', { entities: ['person:caroline'] }],
			]);
			idx.addEdge({ from: 'c', to: 'a', type: 'PRECEDED_BY', strength: 1 });
			idx.touch('b', 4, Date.parse('2024-02-01T00:00:00Z'));
			const now = Date.parse('2024-03-01T00:00:00Z');
			const input = { query: 'rescue dog', limit: 5 };
			const before = idx.rank(input, { vectors: [toyEmbed('rescue dog', DIMS)] }, now);
			const back = restoreSearchIndex(idx.snapshot());
			expect(back.size).toBe(3);
			expect(back.modelId).toBe('toy');
			expect(back.rank(input, { vectors: [toyEmbed('rescue dog', DIMS)] }, now)).toEqual(before);
			expect(back.cosineTo('b', toyEmbed('Melanie painted a sunrise over the lake', DIMS))).toBeCloseTo(1, 2);
			const list = back.rank({ sort: 'score', weights: { access: 10 } }, { vectors: [] }, now);
			expect(list.hits[0].id).toBe('b');
			// The restored index keeps accepting writes.
			back.upsert(meta('d'), { content: 'a new rescue cat' }, toyEmbed('a new rescue cat', DIMS));
			expect(back.rank({ query: 'cat' }, { vectors: [null] }, now).hits[0].id).toBe('d');
		});

		it('round-trips edges exactly, by slot, including links to memories outside the index', () => {
			const idx = indexOf([
				['a', 'first note'],
				['b', 'second note'],
				['c', 'third note'],
			]);
			const edges = [
				{ from: 'a', to: 'b', type: 'SIMILAR_TO', strength: 0.812345 },
				{ from: 'b', to: 'a', type: 'SIMILAR_TO', strength: 0.812345 },
				{ from: 'c', to: 'b', type: 'PRECEDED_BY', strength: 1 },
				{ from: 'a', to: 'c', type: 'RELATES_TO', strength: 0.1 + 0.2 },
				{ from: 'c', to: 'gone', type: 'LEADS_TO', strength: 0.5 },
			] as const;
			for (const e of edges) idx.addEdge(e);
			const back = restoreSearchIndex(idx.snapshot());
			expect(back.counts().edgesByType).toEqual({ SIMILAR_TO: 2, PRECEDED_BY: 1, RELATES_TO: 1, LEADS_TO: 1 });
			const snapshotAgain = restoreSearchIndex(back.snapshot());
			expect(snapshotAgain.counts().edgesByType).toEqual(back.counts().edgesByType);
			// Strengths survive bit for bit (0.1 + 0.2 is not a float32), and both ends see each edge.
			const adj = (back as unknown as IndexView).adj;
			expect(adj.of('a').find((x) => x.type === 'RELATES_TO')).toEqual({ other: 'c', type: 'RELATES_TO', strength: 0.1 + 0.2, dir: 'out' });
			expect(adj.of('c').find((x) => x.type === 'LEADS_TO')).toEqual({ other: 'gone', type: 'LEADS_TO', strength: 0.5, dir: 'out' });
			expect(
				adj
					.of('b')
					.filter((x) => x.type === 'SIMILAR_TO')
					.map((x) => [x.other, x.dir, x.strength]),
			).toEqual(
				expect.arrayContaining([
					['a', 'out', 0.812345],
					['a', 'in', 0.812345],
				]),
			);
			back.removeEdge('a', 'c', 'RELATES_TO');
			expect(back.counts().edgesByType.RELATES_TO).toBeUndefined();
			const graph = back.rank({ memory_id: 'a', limit: 5 }, { vectors: [] }, Date.now());
			expect(graph.hits.map((h) => h.id)).not.toContain('a');
		});

		it.each([
			['rising with the slot', [1, 2, 3, 4, 5]],
			['out of order', [4, 2, 9, 1, 7]],
		])('resolves a seq memory_id after a restore and through later changes (seqs %s)', (_, seqs) => {
			const idx = createSearchIndex({ modelId: 'toy', dims: DIMS });
			const ids = ['a', 'b', 'c', 'd', 'e'];
			ids.forEach((id, i) => idx.upsert(meta(id, { seq: seqs[i] }), { content: `note ${id}` }, toyEmbed(`note ${id}`, DIMS)));
			const back = restoreSearchIndex(idx.snapshot());
			const seed = (ref: number) => (back as unknown as IndexView).seqToId.get(ref);
			expect(ids.map((_, i) => seed(seqs[i]))).toEqual(ids);
			expect(seed(100)).toBeUndefined();
			// A removal moves the last slot into the hole; an upsert gives a memory a new seq.
			back.remove('b');
			back.upsert(meta('f', { seq: 100 }), { content: 'note f' }, toyEmbed('note f', DIMS));
			back.upsert(meta('c', { seq: 101 }), { content: 'note c again' }, toyEmbed('note c', DIMS));
			expect([seed(seqs[1]), seed(seqs[2]), seed(101), seed(100), seed(seqs[4]), seed(seqs[0])]).toEqual([undefined, undefined, 'c', 'f', 'e', 'a']);
			expect(back.rank({ memory_id: 100 as never, limit: 5 }, { vectors: [] }, Date.now()).hits.map((h) => h.id)).not.toContain('f');
			expect(() => back.rank({ memory_id: seqs[1] as never, limit: 5 }, { vectors: [] }, Date.now())).toThrow(`no memory with id ${seqs[1]}`);
			expect([...(back as unknown as IndexView).seqToId.keys()].sort((x, y) => x - y)).toEqual(
				[seqs[0], seqs[3], seqs[4], 100, 101].sort((x, y) => x - y),
			);
		});

		it('restores the same index from slices another thread cut, the sections arriving after the metadata', async () => {
			const saved = IVF.trainAt;
			IVF.trainAt = 100;
			try {
				const rnd = prng(4);
				const words = ['rescue', 'dog', 'lake', 'sunrise', 'ticket', 'billing', 'paint', 'morning', 'Biscuit', 'Caroline'];
				const docs: [string, string, Partial<Parameters<typeof meta>[1]>?][] = Array.from({ length: 300 }, (_, i) => [
					`m${i}`,
					Array.from({ length: 6 }, () => words[Math.floor(rnd() * words.length)]).join(' '),
					{ seq: i + 1, scope: i % 3 ? 'work' : 'home', entities: i % 4 ? [] : ['person:caroline'] },
				]);
				const idx = indexOf(docs);
				for (let i = 1; i < 300; i++) idx.addEdge({ from: `m${i}`, to: `m${i - 1}`, type: 'PRECEDED_BY', strength: 1 });
				idx.addEdge({ from: 'm5', to: 'gone', type: 'RELATES_TO', strength: 0.5 });
				const bytes = idx.snapshot();
				const head = snapshotHead(bytes);
				expect(head.header.ivf).not.toBeNull();
				// As the worker posts them: each part's buffers transferred, the sections a little later.
				const metas = sliceMetas(bytes, head);
				const sent = structuredClone(
					{ modelId: head.modelId, dims: head.dims, count: head.count, metas },
					{ transfer: [metas.bytes.buffer as ArrayBuffer] },
				);
				let deliver!: (s: SnapshotSections) => void;
				const sections = new Promise<SnapshotSections>((r) => (deliver = r));
				let steps = 0;
				const restoring = restoreSearchIndexInSteps({ ...sent, sections }, async () => void steps++);
				await new Promise((r) => setTimeout(r, 5));
				const cut = sliceSections(bytes, head);
				deliver(structuredClone(cut, { transfer: sectionBuffers(cut) }));
				const back = await restoring;
				expect(steps).toBeGreaterThan(0);
				const whole = restoreSearchIndex(bytes);
				expect(back.snapshot()).toEqual(whole.snapshot());
				const now = Date.now();
				for (const query of ['rescue dog', 'ticket billing morning', 'Caroline']) {
					const input = { query, limit: 10, scope: 'work' };
					const vectors = { vectors: [toyEmbed(query, DIMS)] };
					expect(back.rank(input, vectors, now)).toEqual(idx.rank(input, vectors, now));
				}
				expect(back.rank({ memory_id: 'm7', limit: 5 }, { vectors: [] }, now)).toEqual(idx.rank({ memory_id: 'm7', limit: 5 }, { vectors: [] }, now));
				// The one-step restore needs the sections in hand.
				expect(() => restoreSearchIndex({ ...sent, sections: Promise.resolve(cut) })).toThrow('without the snapshot sections');
			} finally {
				IVF.trainAt = saved;
			}
		});

		it('rejects bytes that are not a snapshot', () => {
			expect(() => restoreSearchIndex(new Uint8Array([1, 2, 3]))).toThrow('snapshot: too short to be an index snapshot');
			expect(() => restoreSearchIndex(new Uint8Array(64))).toThrow('snapshot: not an index snapshot (bad magic)');
		});
	});
});

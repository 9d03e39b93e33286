import { describe, expect, it } from 'vitest';
import { createSearchIndex, restoreSearchIndex } from '../../../../src/engine/search/index';
import { drain, drainWithPauses, type Steps } from '../../../../src/engine/search/steps';
import type { SearchIndex } from '../../../../src/engine/search/types';
import { meta, toyEmbed } from './fixtures';

const DIMS = 16;
const WORDS = ['river', 'ticket', 'garden', 'invoice', 'piano', 'harbour', 'lantern', 'meadow', 'copper', 'violet'];
const text = (i: number) => `${WORDS[i % 10]} ${WORDS[(i * 7) % 10]} note ${i} about ${WORDS[(i * 3) % 10]}`;

/** More memories, edges and terms than one step of each encoder takes (4,096), with tags, entities and loose edges. */
function bigIndex(n = 5_000): SearchIndex {
	const idx = createSearchIndex({ modelId: 'toy', dims: DIMS });
	for (let i = 0; i < n; i++)
		idx.upsert(
			meta(`m${i}`, { tags: i % 3 ? [`t${i % 17}`] : [], entities: i % 5 ? [`person:p${i % 101}`] : [], scope: i % 4 ? 'default' : 'work' }),
			{ content: text(i) },
			toyEmbed(text(i), DIMS),
		);
	for (let i = 1; i < n; i++) idx.addEdge({ from: `m${i}`, to: `m${(i * 31) % i}`, type: i % 2 ? 'SIMILAR_TO' : 'PRECEDED_BY', strength: (i % 97) / 97 });
	idx.addEdge({ from: 'm5', to: 'gone', type: 'LEADS_TO', strength: 0.5 });
	return idx;
}

describe('snapshot in steps', () => {
	it('drainWithPauses pauses between steps once a slice is used up, and returns the result', async () => {
		function* steps(): Steps<number> {
			for (let i = 0; i < 5; i++) yield;
			return 42;
		}
		let pauses = 0;
		await expect(drainWithPauses(steps(), async () => void pauses++, 0)).resolves.toBe(42);
		expect(pauses).toBe(5);
		expect(drain(steps())).toBe(42);
	});

	it('gives the bytes snapshot() gives, pausing many times, with reads answered between the steps', async () => {
		const idx = bigIndex();
		const now = Date.parse('2024-06-01T00:00:00Z');
		const input = { query: 'river garden', limit: 5 };
		const before = idx.rank(input, { vectors: [toyEmbed('river garden', DIMS)] }, now);
		let pauses = 0;
		const stepped = await idx.snapshotInSteps(async () => {
			// What the engine does between two steps: serve a recall (every few, to keep the test short).
			if (pauses++ % 4 === 0) expect(idx.rank(input, { vectors: [toyEmbed('river garden', DIMS)] }, now)).toEqual(before);
		}, 0);
		expect(pauses).toBeGreaterThan(6);
		expect(stepped).toEqual(idx.snapshot());
	});

	it('encodes a restored index (packed metadata and edges, some changed since) to the same index', async () => {
		const whole = bigIndex();
		const back = restoreSearchIndex(whole.snapshot());
		for (const idx of [whole, back]) {
			idx.remove('m17');
			idx.upsert(meta('m40', { tags: ['changed'], entities: ['person:new'] }), { content: 'a changed note' }, toyEmbed('a changed note', DIMS));
			idx.addEdge({ from: 'm3', to: 'm8', type: 'RELATES_TO', strength: 0.25 });
			idx.removeEdge('m2', 'm0', 'PRECEDED_BY');
		}
		const bytes = await back.snapshotInSteps(async () => undefined, 0);
		expect(bytes).toEqual(back.snapshot());
		const again = restoreSearchIndex(bytes);
		expect(again.counts()).toEqual(whole.counts());
		const now = Date.parse('2024-06-01T00:00:00Z');
		for (const query of ['changed note', 'piano harbour', 'copper']) {
			const input = { query, limit: 8, context_tags: ['changed'] };
			const q = { vectors: [toyEmbed(query, DIMS)] };
			expect(again.rank(input, q, now)).toEqual(whole.rank(input, q, now));
		}
	});
});

import { describe, expect, it } from 'vitest';
import { createSearchIndex } from '../../../../src/engine/search/index';
import type { DocMeta } from '../../../../src/engine/search/types';
import { meta, toyEmbed } from './fixtures';

const DIMS = 8;
const NOW = Date.parse('2024-06-01T00:00:00Z');

describe('listing without a query (the timeline)', () => {
	const metas: DocMeta[] = [];
	const idx = createSearchIndex({ modelId: 'toy', dims: DIMS });
	for (let i = 0; i < 400; i++) {
		const m = meta(`m${i}`, {
			type: i % 3 ? 'Context' : 'Decision',
			scope: i % 4 ? 'default' : 'work',
			// Batches share a timestamp (ties go by seq); one memory carries an out-of-range importance.
			timestamp: Date.parse('2024-01-01T00:00:00Z') + Math.floor(i / 3) * 60_000,
			updated_at: Date.parse('2024-02-01T00:00:00Z') + ((i * 37) % 400) * 60_000,
			importance: i === 7 ? -1 : (i % 10) / 10,
		});
		metas.push(m);
		idx.upsert(m, { content: `note ${i}` }, toyEmbed(`note ${i}`, DIMS));
	}
	const ranked = (input: object) => idx.rank({ limit: 400, ...input }, { vectors: [] }, NOW);

	it('lists by time exactly as a sort of the memories passing the filters, scoring only the page', () => {
		const expected = (keep: (m: DocMeta) => boolean, key: (m: DocMeta) => number) =>
			metas
				.filter(keep)
				.sort((a, b) => key(b) - key(a) || b.seq - a.seq)
				.map((m) => m.id);
		// m7's importance makes its score negative: below the default min_score of 0.
		expect(ranked({ sort: 'time_desc' }).hits.map((h) => h.id)).toEqual(
			expected(
				(m) => m.id !== 'm7',
				(m) => m.timestamp,
			),
		);
		const work = ranked({ sort: 'updated_desc', scope: 'work', offset: 5, limit: 20 });
		expect(work.hits.map((h) => h.id)).toEqual(
			expected(
				(m) => m.scope === 'work',
				(m) => m.updated_at,
			).slice(5, 25),
		);
		expect(work.total).toBe(100);
		// The page's hits carry their scores, as a score-sorted listing gives them.
		const byScore = new Map(ranked({}).hits.map((h) => [h.id, h.score]));
		for (const h of work.hits) expect(h.score).toBe(byScore.get(h.id));
	});

	it('still drops memories under min_score (scored then), and one whose score is below 0 (an out-of-range importance)', () => {
		const scores = new Map(ranked({}).hits.map((h) => [h.id, h.score]));
		const page = ranked({ sort: 'time_desc', min_score: 0.5 });
		expect(page.total).toBe([...scores.values()].filter((s) => s >= 0.5).length);
		expect(page.hits.every((h) => h.score >= 0.5)).toBe(true);
		expect(scores.has('m7')).toBe(false);
		expect(ranked({ sort: 'time_asc' }).hits.map((h) => h.id)).not.toContain('m7');
	});
});

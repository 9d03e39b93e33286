import { describe, expect, it } from 'vitest';
import { createSearchIndex, restoreSearchIndex } from '../../../../src/engine/search/index';
import type { DocMeta, SearchIndex } from '../../../../src/engine/search/types';
import { meta, toyEmbed } from './fixtures';

const DIMS = 8;
const NOW = Date.parse('2024-06-01T00:00:00Z');

/** memory_stats' tally done field by field, as stats-ops did it before tallyMetas. */
function byFields(idx: SearchIndex) {
	const rec = () => ({}) as Record<string, number>;
	const out = { total: 0, current: 0, byType: rec(), byScope: rec(), bySource: rec(), tags: rec(), oldest: Infinity, newest: -Infinity };
	const bump = (r: Record<string, number>, k: string) => (r[k] = (r[k] ?? 0) + 1);
	idx.eachMeta((m: Readonly<DocMeta>) => {
		out.total++;
		if (m.t_invalid === undefined || m.t_invalid > NOW) out.current++;
		bump(out.byType, m.type);
		bump(out.byScope, m.scope);
		bump(out.bySource, m.source ?? '(none)');
		m.tags.forEach((t) => bump(out.tags, t));
		out.oldest = Math.min(out.oldest, m.timestamp);
		out.newest = Math.max(out.newest, m.timestamp);
	});
	return out;
}

describe('tallyMetas (SearchIndex.tally)', () => {
	it('counts restored memories from their columns exactly as field by field, with memories written since', () => {
		const idx = createSearchIndex({ modelId: 'toy', dims: DIMS });
		for (let i = 0; i < 300; i++)
			idx.upsert(
				meta(`m${i}`, {
					type: ['Context', 'Decision', 'Preference'][i % 3],
					scope: i % 4 ? 'default' : 'work',
					tags: i % 5 ? [`t${i % 7}`, `u${i % 3}`] : [],
					...(i % 2 && { source: i % 6 === 1 ? 'mcp' : 'import' }),
					...(i % 9 === 0 && { t_invalid: i % 18 ? NOW - 1000 : NOW + 1000 }),
					timestamp: Date.parse('2024-01-01T00:00:00Z') + i * 60_000,
				}),
				{ content: `note ${i}` },
				toyEmbed(`note ${i}`, DIMS),
			);
		const back = restoreSearchIndex(idx.snapshot());
		for (const ix of [idx, back]) {
			ix.remove('m10');
			ix.upsert(meta('m20', { type: 'Learning', tags: ['fresh'], source: 'ui', timestamp: Date.parse('2023-01-01T00:00:00Z') }), { content: 'x' }, null);
			ix.upsert(meta('new', { scope: 'home' }), { content: 'y' }, null);
		}
		for (const ix of [idx, back]) expect(ix.tally(NOW)).toEqual(byFields(ix));
		expect(back.tally(NOW)).toEqual(idx.tally(NOW));
		expect(back.tally(NOW).bySource['(none)']).toBeGreaterThan(0);
		expect(back.tally(NOW).current).toBeLessThan(back.tally(NOW).total);
	});
});

/** The tools' text says "1 memory", "1 link", "1 entity", never "1 memories". */
import { describe, expect, it } from 'vitest';
import type { StatsOutput } from '../../../src/core/schemas';
import { counted } from '../../../src/core/counts';
import { renderStats } from '../../../src/mcp/render';

describe('counts in the tools’ text', () => {
	it('puts the noun in the singular for one only', () => {
		expect(counted(1, 'memory', 'memories')).toBe('1 memory');
		expect(counted(0, 'memory', 'memories')).toBe('0 memories');
		expect(counted(2, 'link')).toBe('2 links');
		expect(counted(1, 'entity', 'entities')).toBe('1 entity');
	});

	it('memory_stats of a store holding one memory, one link and one entity', () => {
		const stats = {
			total_memories: 1,
			current_memories: 1,
			total_associations: 1,
			total_entities: 1,
			by_type: { Context: 1 },
			by_scope: {},
			by_association_type: { RELATES_TO: 1 },
			top_tags: [],
			top_entities: [],
			oldest: '2026-12-08T00:00:00.000Z',
			newest: '2026-12-08T00:00:00.000Z',
			active_model: 'engram/glove-sif-100d',
		} as unknown as StatsOutput;
		expect(renderStats(stats).split('\n')[0]).toBe('1 memory (1 current), 1 link, 1 entity.');
	});
});

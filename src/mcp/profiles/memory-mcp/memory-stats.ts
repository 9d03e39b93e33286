/** memory_stats: totals and sync state, or counts matching labels and source. */
import { z } from 'zod';
import { StatsOutputSchema } from '../../../core/schemas';
import type { EngineApi } from '../../../engine/types';
import { READ_ONLY } from '../../annotations';
import { json } from '../../profile-helpers';
import { defineTool } from '../../tool-definition';
import { LabelsArg, SourceArg } from './args';
import { has, isFiltering, makeFilter, matches, scan, SCAN_CAP, type Filter } from './filters';

export const memoryStats = defineTool({
	name: 'memory_stats',
	config: {
		title: 'Get memory statistics',
		description: `Memory counts. No parameters: {total_memories, sync: {on, status, last_synced, pending}} (sync across devices). With labels and/or source (fuzzy; ! excludes): {matching, total, ratio "12/340", percentage "3%", labels_matched, sources_matched}.

Use it to size a label or source before acting on it. Do not use it to read memories (retrieve_memories).

Example: memory_stats(labels="beer")`,
		inputSchema: z.object({ labels: LabelsArg.optional(), source: SourceArg.optional() }),
		outputSchema: z.object({
			total_memories: z.number().int().optional(),
			// Added by Engram: this device's sync across devices (docs/SYNC.md).
			sync: StatsOutputSchema.shape.sync,
			matching: z.number().int().optional(),
			total: z.number().int().optional(),
			ratio: z.string().optional(),
			percentage: z.string().optional(),
			labels_matched: z.array(z.string()).optional(),
			sources_matched: z.array(z.string()).optional(),
			approximate: z.boolean().optional().describe(`True when only the newest ${SCAN_CAP} memories were counted`),
		}),
		annotations: READ_ONLY,
	},
	run: async (input, engine) => {
		const f = makeFilter(input.labels, input.source);
		if (!isFiltering(f)) {
			const { total_memories, sync } = await engine.stats({});
			return { total_memories, sync };
		}
		return filteredStats(engine, f);
	},
	render: json,
});

async function filteredStats(engine: EngineApi, f: Filter) {
	const everything = await scan(engine, { include: [], exclude: [], excludeSource: false });
	const hits = everything.hits.filter((m) => matches(m, f));
	const total = everything.total;
	const labels = new Set<string>();
	const sources = new Set<string>();
	for (const m of everything.hits) {
		for (const t of m.tags) if (f.include.some((l) => has(t, l))) labels.add(t);
		if (f.source && !f.excludeSource && m.source && has(m.source, f.source)) sources.add(m.source);
	}
	return {
		matching: hits.length,
		total,
		ratio: `${hits.length}/${total}`,
		percentage: `${total ? Math.floor((100 * hits.length) / total) : 0}%`,
		...(f.include.length ? { labels_matched: [...labels].sort() } : {}),
		...(f.source && !f.excludeSource ? { sources_matched: [...sources].sort() } : {}),
		...(everything.scanned < total ? { approximate: true } : {}),
	};
}

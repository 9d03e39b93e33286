/** random_memory: one random memory, optionally filtered by labels and source. */
import { z } from 'zod';
import { MemoryError } from '../../../core/errors';
import type { EngineApi } from '../../../engine/types';
import { READ_ONLY_VARYING } from '../../annotations';
import { json } from '../../profile-helpers';
import { defineTool } from '../../tool-definition';
import { LabelsArg, SourceArg } from './args';
import { isFiltering, makeFilter, scan } from './filters';
import { McpMemorySchema, Shaper } from './memory-dict';

export const randomMemory = defineTool({
	name: 'random_memory',
	config: {
		title: 'Get a random memory',
		description: `One random memory, optionally filtered by labels and source (fuzzy; ! excludes). Returns the same record as get_memory.

Use it to resurface something forgotten or sample a label. Do not use it to find something specific (retrieve_memories).

Example: random_memory(labels="ideas")`,
		inputSchema: z.object({ labels: LabelsArg.optional(), source: SourceArg.optional() }),
		outputSchema: McpMemorySchema,
		annotations: READ_ONLY_VARYING,
	},
	run: async (input, engine) => {
		const f = makeFilter(input.labels, input.source);
		const id = isFiltering(f) ? pick((await scan(engine, f)).hits)?.id : await randomUnfiltered(engine);
		const [m] = id ? await engine.getMemories([id]) : [];
		if (!m) throw new MemoryError('not_found', '❌ No memories found matching the criteria');
		return new Shaper(engine).memory(m);
	},
	render: json,
});

function pick<T>(xs: T[]): T | undefined {
	return xs[Math.floor(Math.random() * xs.length)];
}

async function randomUnfiltered(engine: EngineApi): Promise<string | undefined> {
	const { total } = await engine.timeline({ limit: 1 });
	if (total === 0) return undefined;
	const page = await engine.timeline({
		limit: 1,
		offset: Math.floor(Math.random() * total),
		max_content_chars: 0,
	});
	return page.memories[0]?.id;
}

/** memory_get: one memory by id, or null. */
import { z } from 'zod';
import { isMemoryError } from '../../../core/errors';
import type { EngineApi } from '../../../engine/types';
import { READ_ONLY } from '../../annotations';
import { json } from '../../profile-helpers';
import { defineTool } from '../../tool-definition';
import { CodomyrmexMemorySchema, toCodomyrmex, type CodomyrmexMemory } from './memory-dict';

export const memoryGet = defineTool({
	name: 'memory_get',
	config: {
		title: 'memory_get',
		description: `Retrieve a memory by its ID. Returns the memory dict (same format as memory_put's), or null if there is none; each read increments access_count and sets last_accessed.

Use it when you hold an id from memory_put or memory_search. Do not use it to search by text (memory_search).

Example: memory_get(memory_id="550e8400-e29b-41d4-a716-446655440000")`,
		inputSchema: z.object({
			memory_id: z.string().min(1).max(200).describe('ID of the memory to retrieve'),
		}),
		outputSchema: z.object({ result: CodomyrmexMemorySchema.nullable() }),
		annotations: READ_ONLY,
	},
	run: async (input, engine, ctx) => ({
		result: await getOrNull(engine, input.memory_id, ctx.actor),
	}),
	render: (out) => json(out.result),
});

async function getOrNull(engine: EngineApi, id: string, actor?: string): Promise<CodomyrmexMemory | null> {
	try {
		const out = await engine.get({ memory_id: id, related_limit: 0 }, { actor });
		return toCodomyrmex(out.memory);
	} catch (e) {
		if (isMemoryError(e) && e.code === 'not_found') return null;
		throw e;
	}
}

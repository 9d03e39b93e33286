/** memory_put: store a memory and return codomyrmex's dict of it. */
import { z } from 'zod';
import { ADDITIVE_WRITE } from '../../annotations';
import { json } from '../../profile-helpers';
import { defineTool } from '../../tool-definition';
import { CodomyrmexMemorySchema, toCodomyrmex } from './memory-dict';

const LEVELS = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
const TYPES = ['episodic', 'semantic', 'procedural'] as const;

export const memoryPut = defineTool({
	name: 'memory_put',
	config: {
		title: 'memory_put',
		description: `Store a new memory entry with content, optional type, and importance. Returns the created memory as a dict: {id, content, memory_type, importance (1–4), metadata, tags, created_at (epoch seconds), access_count, last_accessed}.

Use it to remember a fact (semantic), an event (episodic) or a how-to (procedural). Do not use it to look something up (memory_search) or to re-read a memory (memory_get). Memories persist across calls and sessions; storing text that nearly equals an existing memory returns that memory instead of a copy (raised to the importance asked, if higher).

Example: memory_put(content="The project deadline is March 1st", memory_type="episodic", importance="HIGH")`,
		inputSchema: z.object({
			content: z.string().min(1).max(50_000).describe('Text content of the memory'),
			memory_type: z.enum(TYPES).optional().describe('episodic (default), semantic or procedural'),
			importance: z
				.string()
				.transform((s) => s.toUpperCase())
				.pipe(z.enum(LEVELS))
				.optional()
				.describe('LOW, MEDIUM (default), HIGH or CRITICAL; case-insensitive'),
		}),
		outputSchema: CodomyrmexMemorySchema,
		annotations: ADDITIVE_WRITE,
	},
	run: async (input, engine, ctx) => {
		const out = await engine.store(
			{
				content: input.content,
				type: input.memory_type ?? 'episodic',
				importance: input.importance ?? 'MEDIUM',
			},
			ctx,
		);
		const r = out.results[0];
		const [m] = await engine.getMemories([r.duplicate_of ?? r.memory_id]);
		// A duplicate put asking for a higher importance raises the kept memory's: codomyrmex has
		// no update tool, so the request would otherwise be lost (never lowered: the same fact).
		if (r.status === 'duplicate' && input.importance && LEVELS.indexOf(input.importance) + 1 > toCodomyrmex(m!).importance) {
			await engine.update({ memory_id: m!.id, importance: input.importance }, ctx);
			return toCodomyrmex((await engine.getMemories([m!.id]))[0]!);
		}
		return toCodomyrmex(m!);
	},
	render: json,
});

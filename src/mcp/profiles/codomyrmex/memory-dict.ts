/** codomyrmex's memory dict (importance 1–4, times as epoch seconds) and its mapping from Engram's memory. */
import { z } from 'zod';
import type { Memory } from '../../../core/schemas';

/** codomyrmex's memory dict. */
export const CodomyrmexMemorySchema = z.object({
	id: z.string(),
	content: z.string(),
	memory_type: z.string().describe('episodic, semantic or procedural'),
	importance: z.number().int().describe('1 LOW, 2 MEDIUM, 3 HIGH, 4 CRITICAL'),
	metadata: z.record(z.string(), z.unknown()),
	tags: z.array(z.string()),
	created_at: z.number().describe('Epoch seconds'),
	access_count: z.number().int(),
	last_accessed: z.number().describe('Epoch seconds; 0.0 when never read'),
});
export type CodomyrmexMemory = z.infer<typeof CodomyrmexMemorySchema>;

/** An Engram memory as codomyrmex's dict. */
export function toCodomyrmex(m: Memory): CodomyrmexMemory {
	return {
		id: m.id,
		content: m.content,
		memory_type: m.type,
		importance: Math.min(4, Math.max(1, Math.round(m.importance * 4))),
		metadata: m.metadata,
		tags: m.tags,
		created_at: Date.parse(m.timestamp) / 1000,
		access_count: m.access_count,
		last_accessed: m.last_accessed ? Date.parse(m.last_accessed) / 1000 : 0.0,
	};
}

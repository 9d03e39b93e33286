/** find_memories_by_entity: an entity's events, newest first, with similarly spelled entities. */
import { z } from 'zod';
import { LIMITS } from '../../../core/schemas';
import { READ_ONLY } from '../../annotations';
import { fitContents } from '../../render';
import { defineTool } from '../../tool-definition';
import { brief, EventBrief, renderEvents } from './events';

export const findMemoriesByEntity = defineTool({
	name: 'find_memories_by_entity',
	config: {
		title: 'Find memories by entity',
		description: `Events linked to one entity, newest first, found by exact name or id, with the entity's record and similarly spelled entities (the stored spelling to use elsewhere).

Use it when the user names a person, project, tool or place. Do not use it for a topic question (search_memory) or for what is connected to the entity through others (find_memory_connections with relation "explore").

Example: find_memories_by_entity({ entity: "Redis", limit: 50 })`,
		inputSchema: z.object({
			entity: z.string().min(1).max(LIMITS.entityNameChars).describe('Entity name or id'),
			limit: z.number().int().min(1).max(200).optional(),
			offset: z.number().int().min(0).optional(),
		}),
		outputSchema: z.object({
			entity: z
				.object({
					id: z.string(),
					name: z.string(),
					type: z.string(),
					event_count: z.number().int(),
				})
				.nullable(),
			similar_entities: z.array(z.object({ id: z.string(), name: z.string(), event_count: z.number().int() })),
			events: z.array(EventBrief),
			has_more: z.boolean(),
			next_offset: z.number().int().optional(),
		}),
		annotations: READ_ONLY,
	},
	run: async (input, engine) => {
		const out = await engine.findByEntity({
			entity: input.entity,
			limit: input.limit ?? 20,
			offset: input.offset,
			max_content_chars: 300,
		});
		fitContents(
			out.memories,
			(m) => m.content,
			(m, s) => (m.content = s),
		);
		const e = out.entity;
		return {
			entity: e ? { id: e.id, name: e.name, type: e.type, event_count: e.memory_count } : null,
			similar_entities: out.matches.map((m) => ({
				id: m.id,
				name: m.name,
				event_count: m.memory_count,
			})),
			events: out.memories.map(brief),
			has_more: out.has_more,
			...(out.next_offset !== undefined ? { next_offset: out.next_offset } : {}),
		};
	},
	render: (out) =>
		out.entity
			? `${out.entity.name} (${out.entity.id}): ${out.entity.event_count} events\n${renderEvents(out)}`
			: `No entity by that name.${out.similar_entities.length ? ` Similar: ${out.similar_entities.map((e) => e.name).join(', ')}` : ''}`,
});

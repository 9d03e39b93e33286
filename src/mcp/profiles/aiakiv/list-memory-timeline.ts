/** list_memory_timeline: events in time order, or one entity's whole chronology. */
import { z } from 'zod';
import { MemoryError } from '../../../core/errors';
import { readPages } from '../../../core/paging';
import { IsoDateSchema, LIMITS, type MemoryBrief } from '../../../core/schemas';
import { isoOrder } from '../../../core/time';
import type { EngineApi } from '../../../engine/types';
import { READ_ONLY } from '../../annotations';
import { defineTool } from '../../tool-definition';
import { brief, EventBrief, renderEvents } from './events';

/** Entity chronologies read at most this many events (then `truncated`). */
const ENTITY_SCAN = 2000;

export const listMemoryTimeline = defineTool({
	name: 'list_memory_timeline',
	config: {
		title: 'List memory timeline',
		description: `Events in time order (oldest first unless order: "desc"), windowed by start/end or time_query ("last week", "in March 2024"); with entity, one entity's chronology (within the window when one is given). Paged by limit (20, ≤ 200) and offset.

Use it for "what happened when" and for how one entity developed over time. Do not use it for a topic question (search_memory); for a few stratified picks of how a topic evolved, find_memory_connections with relation "evolution" is shorter.

Examples: list_memory_timeline({ entity: "PostgreSQL" }) · list_memory_timeline({ time_query: "last week" })`,
		inputSchema: z.object({
			entity: z.string().min(1).max(LIMITS.entityNameChars).optional().describe('Entity name or id: its chronology'),
			start: IsoDateSchema.optional(),
			end: IsoDateSchema.optional(),
			time_query: z.string().max(200).optional(),
			order: z.enum(['asc', 'desc']).optional().describe('asc (default) or desc'),
			limit: z.number().int().min(1).max(200).optional(),
			offset: z.number().int().min(0).optional(),
		}),
		outputSchema: z.object({
			events: z.array(EventBrief),
			total: z.number().int(),
			has_more: z.boolean(),
			next_offset: z.number().int().optional(),
			truncated: z.boolean().optional(),
		}),
		annotations: READ_ONLY,
	},
	run: async (input, engine) => {
		const order = input.order ?? 'asc';
		if (!input.entity) {
			const out = await engine.timeline({
				start: input.start,
				end: input.end,
				time_query: input.time_query,
				order,
				limit: input.limit ?? 20,
				offset: input.offset,
				max_content_chars: 300,
			});
			return {
				events: out.memories.map(brief),
				total: out.total,
				has_more: out.has_more,
				...(out.next_offset !== undefined ? { next_offset: out.next_offset } : {}),
			};
		}
		return entityChronology(engine, input.entity, order, input.limit ?? 20, input.offset ?? 0, {
			start: input.start,
			end: input.end,
			time_query: input.time_query,
		});
	},
	render: renderEvents,
});

/**
 * One entity's events in the window (the engine reads start, end and time_query as the timeline
 * does), sorted and paged; reads at most ENTITY_SCAN of them.
 */
async function entityChronology(
	engine: EngineApi,
	entity: string,
	order: 'asc' | 'desc',
	limit: number,
	offset: number,
	window: { start?: string; end?: string; time_query?: string },
) {
	const all: MemoryBrief[] = [];
	const { truncated } = await readPages(
		async (off) => {
			const page = await engine.findByEntity({
				entity,
				...window,
				limit: 200,
				offset: off,
				max_content_chars: 300,
			});
			if (!page.entity)
				throw new MemoryError(
					'not_found',
					`entity: no entity ${JSON.stringify(entity)}${
						page.matches.length
							? `; similar: ${page.matches
									.slice(0, 5)
									.map((e) => e.name)
									.join(', ')}`
							: ''
					}`,
				);
			return { items: page.memories, has_more: page.has_more, next_offset: page.next_offset };
		},
		ENTITY_SCAN,
		(items) => void all.push(...items),
	);
	all.sort((a, b) => (order === 'asc' ? isoOrder(a.timestamp, b.timestamp) : isoOrder(b.timestamp, a.timestamp)));
	const page = all.slice(offset, offset + limit);
	const more = all.length > offset + limit;
	return {
		events: page.map(brief),
		total: all.length,
		has_more: more,
		...(more ? { next_offset: offset + limit } : {}),
		...(truncated ? { truncated } : {}),
	};
}

/** save_memory: one event (or one `payload`), chained to the previous one by prev_event_id. */
import { z } from 'zod';
import { MemoryError } from '../../../core/errors';
import { EntityRefSchema, LIMITS, MemoryRefSchema, TagsSchema, type CallContext } from '../../../core/schemas';
import type { EngineApi } from '../../../engine/types';
import { ADDITIVE_WRITE } from '../../annotations';
import { defineTool } from '../../tool-definition';

/** Markers other tools leave when they cut text; saving such text would store damage invisibly. */
const TRUNCATION_MARKERS = [/…?\s*\d+\s+tokens?\s+truncated\s*…?/i, /<response clipped>/i, /\[truncated\]/i, /\[\.\.\.truncated[^\]]*\]/i];

const EventItemSchema = z.object({
	summary: z.string().min(1).max(LIMITS.summaryChars).describe('One or two sentences with the words a future question would use (≤ 500; search ranks on it)'),
	content: z.string().min(1).max(LIMITS.contentChars).describe('The full text (≤ 50,000); put it last'),
	entities: z.array(EntityRefSchema).max(LIMITS.entities).optional().describe('[{name, type}]: one canonical spelling per entity'),
	tags: TagsSchema.optional(),
	prev_event_id: MemoryRefSchema.optional().describe('The previous event of this thread; links it to this one'),
	allow_truncation_marker: z.boolean().optional().describe('Save even though content holds a truncation marker'),
});
type EventItem = z.infer<typeof EventItemSchema>;

const SaveArgs = z
	.object({
		...EventItemSchema.partial().shape,
		payload: z
			.union([z.string().max(LIMITS.contentChars + 10_000), z.record(z.string(), z.unknown())])
			.optional()
			.describe('Recovery path: the whole call as one JSON string or object; other arguments are then ignored'),
	})
	.superRefine((v, ctx) => {
		if (v.payload !== undefined) return;
		if (v.summary === undefined)
			ctx.addIssue({
				code: 'custom',
				path: ['summary'],
				message: 'summary is required (or give payload)',
			});
		if (v.content === undefined)
			ctx.addIssue({
				code: 'custom',
				path: ['content'],
				message: 'content is required (or give payload)',
			});
	});

/** The event to save: the arguments, or `payload` parsed and checked with the same rules. */
function eventOf(input: z.infer<typeof SaveArgs>): EventItem {
	if (input.payload === undefined) return input as EventItem;
	let raw: unknown = input.payload;
	if (typeof raw === 'string') {
		try {
			raw = JSON.parse(raw);
		} catch (e) {
			throw new MemoryError('invalid_input', `payload: not valid JSON (${(e as Error).message})`);
		}
	}
	const parsed = EventItemSchema.safeParse(raw);
	if (!parsed.success) {
		const i = parsed.error.issues[0];
		throw new MemoryError('invalid_input', `payload.${i.path.join('.') || '(root)'}: ${i.message}`);
	}
	return parsed.data;
}

export const saveMemory = defineTool({
	name: 'save_memory',
	config: {
		title: 'Save memory',
		description: `Save one event: a summary (the retrieval surface: search ranks on it), the full content, the entities it involves and tags. Chain a long record or a thread by passing the previous event_id as prev_event_id. Returns the new event_id.

Use it when the user asks to remember something, or after a decision or finding worth keeping. Do not use it to look something up (search_memory). Write the summary with the words a future question would use, keep identifiers verbatim and name the actor; give each entity one canonical spelling. A summary over 500 characters means the event covers too much: split it. Content holding a truncation marker ("[truncated]", "<response clipped>", "…N tokens truncated…") is refused: re-read the source in full. If arguments arrive merged or empty, send the whole call as payload.

Example: save_memory({ summary: "Mina chose PostgreSQL over MongoDB for the billing service (ACID needed).", entities: [{ name: "PostgreSQL", type: "tool" }, { name: "Mina", type: "person" }], tags: ["billing"], content: "…" })`,
		inputSchema: SaveArgs,
		outputSchema: z.object({
			event_id: z.string(),
			status: z.enum(['saved', 'duplicate']),
			duplicate_of: z.string().optional(),
			entities: z.array(EntityRefSchema),
			prev_event_id: z.string().optional(),
			added: z
				.object({ entities: z.array(EntityRefSchema), tags: z.array(z.string()) })
				.optional()
				.describe('Duplicate: the entities and tags this call gave that the kept event lacked, now added to it'),
		}),
		annotations: ADDITIVE_WRITE,
	},
	run: async (input, engine, ctx) => {
		const ev = eventOf(input);
		const marker = ev.allow_truncation_marker ? undefined : TRUNCATION_MARKERS.find((re) => re.test(ev.content));
		if (marker)
			throw new MemoryError(
				'invalid_input',
				`content: truncation_marker_detected (${ev.content.match(marker)![0].trim()}); re-read the source in full and save again, or pass allow_truncation_marker: true if the marker is part of what you mean to record`,
			);
		const prev = ev.prev_event_id === undefined ? undefined : await engine.resolveId(ev.prev_event_id);
		if (ev.prev_event_id !== undefined && !prev) throw new MemoryError('not_found', `prev_event_id: no event with id ${JSON.stringify(ev.prev_event_id)}`);
		// The event and its thread link are one write: a failed link leaves nothing stored.
		const out = await engine.storeLinked(
			{
				memory: { summary: ev.summary, content: ev.content, entities: ev.entities, tags: ev.tags },
				...(prev
					? {
							link_from: {
								memory1_id: prev,
								type: 'OCCURRED_BEFORE' as const,
								strength: 1,
								reason: 'prev_event_id',
							},
						}
					: {}),
			},
			ctx,
		);
		const r = out.results[0];
		const id = r.duplicate_of ?? r.memory_id;
		const merged = r.status === 'duplicate' ? await mergeIntoKept(engine, id, ev, r.merged_tags ?? [], ctx) : undefined;
		return {
			event_id: id,
			status: r.status === 'duplicate' ? ('duplicate' as const) : ('saved' as const),
			...(r.duplicate_of ? { duplicate_of: r.duplicate_of } : {}),
			entities: merged?.entities ?? r.entities ?? ev.entities ?? [],
			...(merged?.added ? { added: merged.added } : {}),
			...(prev ? { prev_event_id: prev } : {}),
		};
	},
	render: (out) =>
		`${out.status === 'duplicate' ? `Not saved again: near-duplicate of event ${out.duplicate_of}.` : `Saved event ${out.event_id}.`}${out.added ? ` Added to it: ${[...out.added.entities.map((e) => `${e.name} (${e.type})`), ...out.added.tags.map((t) => `tag ${t}`)].join(', ')}.` : ''}${out.entities.length ? ` Entities: ${out.entities.map((e) => `${e.name} (${e.type})`).join(', ')}.` : ''}${out.prev_event_id ? ` Follows ${out.prev_event_id}.` : ''}`,
});

/**
 * A save that repeats a kept event adds to it the entities it gave that the event lacks (the
 * store itself added its tags: `tags`): AiAkiv has no update tool, so they would otherwise be
 * lost while the answer listed them. Returns the kept event's entities after, and what was added
 * (undefined when nothing).
 */
async function mergeIntoKept(
	engine: EngineApi,
	id: string,
	ev: { entities?: { name: string; type: string }[] },
	tags: string[],
	ctx: CallContext,
): Promise<{ entities: { name: string; type: string }[]; added?: { entities: { name: string; type: string }[]; tags: string[] } }> {
	const [m] = await engine.getMemories([id]);
	if (!m) return { entities: [] };
	const key = (e: { name: string; type: string }) => `${e.type.toLowerCase()}:${e.name.toLowerCase()}`;
	const have = new Set(m.entities.map(key));
	const entities = (ev.entities ?? []).filter((e) => !have.has(key(e)) && have.add(key(e)));
	if (entities.length === 0) return { entities: m.entities, ...(tags.length ? { added: { entities, tags } } : {}) };
	const after = await engine.update({ memory_id: id, entities: [...m.entities, ...entities] }, ctx);
	const [now] = await engine.getMemories([after.memory_id]);
	return { entities: now?.entities ?? [...m.entities, ...entities], added: { entities, tags } };
}

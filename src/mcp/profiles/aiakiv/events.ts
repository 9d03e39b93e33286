/** AiAkiv's event vocabulary over Engram's memories: the brief event shape the listings share. */
import { z } from 'zod';
import type { Memory, MemoryBrief } from '../../../core/schemas';
import { oneLine } from '../../render';

/** An event's summary line: its summary, or its content, on one line of ≤ 300 characters. */
export function summaryOf(m: Pick<Memory, 'summary' | 'content'>): string {
	return oneLine(m.summary ?? m.content, 300);
}

/** One event of a listing (timeline, entity). */
export const EventBrief = z.object({
	event_id: z.string(),
	summary: z.string(),
	timestamp: z.string(),
	tags: z.array(z.string()),
});
/** A memory as a listing's event. */
export const brief = (m: MemoryBrief) => ({
	event_id: m.id,
	summary: summaryOf(m),
	timestamp: m.timestamp,
	tags: m.tags,
});
/** A listing's text: one line per event, then where the next page starts. */
export const renderEvents = (out: { events: z.infer<typeof EventBrief>[]; has_more: boolean; next_offset?: number }) =>
	out.events.length
		? `${out.events.map((e) => `${e.timestamp.slice(0, 16).replace('T', ' ')} ${e.event_id} — ${e.summary}`).join('\n')}${out.has_more ? `\nMore: offset ${out.next_offset}` : ''}`
		: 'No events.';

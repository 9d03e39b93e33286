/**
 * memory-mcp's memory dict: integer id (Engram's seq), human age, percentage similarity, labels,
 * related memories (SIMILAR_TO links) and meta; built by Shaper with model facts read once.
 */
import { z } from 'zod';
import { MemoryError } from '../../../core/errors';
import type { Memory } from '../../../core/schemas';
import type { EngineApi } from '../../../engine/types';

/** memory-mcp's human age: "less than 1 minute ago", "4 days ago", "2 weeks ago", "1 year ago". */
export function timeAgo(iso: string, now = Date.now()): string {
	const s = (now - Date.parse(iso)) / 1000;
	if (s < 0) return 'just now';
	if (s < 60) return 'less than 1 minute ago';
	const unit = (n: number, u: string) => `${n} ${u}${n === 1 ? '' : 's'} ago`;
	if (s < 3600) return unit(Math.floor(s / 60), 'minute');
	if (s < 86_400) return unit(Math.floor(s / 3600), 'hour');
	const days = Math.floor(s / 86_400);
	if (days < 7) return unit(days, 'day');
	if (days < 28) return unit(Math.floor(days / 7), 'week');
	const months = Math.round(days / 30.44);
	if (months < 12) return unit(months, 'month');
	return unit(Math.floor(days / 365.25), 'year');
}

/** A similarity as memory-mcp shows it: "83%" (floored, never negative). */
export const percent = (x: number) => `${Math.floor(Math.max(0, x) * 100)}%`;

/** One related memory of a memory dict. */
export const RelatedSchema = z.object({
	id: z.number().int(),
	similarity: z.string(),
	source: z.string().nullable(),
	shared_labels: z.array(z.string()),
});
const MetaSchema = z.object({
	timestamp: z.string(),
	namespace: z.string(),
	encrypted: z.boolean(),
	embedding_tables: z.record(z.string(), z.array(z.string())).describe('Embedding table → models holding a vector'),
	embedding_model: z.string().optional(),
	embedding_dims: z.number().int().optional(),
});
/** memory-mcp's memory dict. */
export const McpMemorySchema = z.object({
	id: z.number().int(),
	source: z.string().nullable(),
	content: z.string(),
	time: z.string().describe('Human age, e.g. "4 days ago"'),
	similarity: z.string().optional().describe('Cosine to the query, e.g. "83%"'),
	labels: z.array(z.string()).optional(),
	related_memories: z.array(RelatedSchema).optional(),
	meta: MetaSchema,
});
export type McpMemory = z.infer<typeof McpMemorySchema>;

/** Builds memory-mcp's memory dicts, with model facts read once per call. */
export class Shaper {
	private model?: { active: string; dims: number };
	constructor(private readonly engine: EngineApi) {}

	async memory(m: Memory, similarity?: number, query = false): Promise<McpMemory> {
		const model = (this.model ??= await this.engine.models());
		const related = await this.related(m);
		const tables = Object.fromEntries(m.embedding_tables.map((t) => [t === model.active ? `memory_${model.dims}` : t, [t]]));
		return {
			id: m.seq,
			source: m.source ?? null,
			content: m.content,
			time: timeAgo(m.timestamp),
			...(similarity !== undefined ? { similarity: percent(similarity) } : {}),
			...(m.tags.length ? { labels: m.tags } : {}),
			...(related.length ? { related_memories: related } : {}),
			meta: {
				timestamp: m.timestamp,
				namespace: m.scope,
				encrypted: false,
				embedding_tables: tables,
				...(query ? { embedding_model: model.active, embedding_dims: model.dims } : {}),
			},
		};
	}

	/** SIMILAR_TO neighbours (stored in both directions; one entry each), strongest first. */
	private async related(m: Memory): Promise<z.infer<typeof RelatedSchema>[]> {
		const best = new Map<string, number>();
		for (const a of await this.engine.associationsOf(m.id)) {
			if (a.type !== 'SIMILAR_TO') continue;
			const other = a.from === m.id ? a.to : a.from;
			best.set(other, Math.max(best.get(other) ?? -1, a.strength));
		}
		const links = [...best.entries()].sort((a, b) => b[1] - a[1]);
		const others = await this.engine.getMemories(links.map(([id]) => id));
		return links.flatMap(([, strength], i) => {
			const o = others[i];
			return o
				? [
						{
							id: o.seq,
							similarity: percent(strength),
							source: o.source ?? null,
							shared_labels: o.tags.filter((t) => m.tags.includes(t)),
						},
					]
				: [];
		});
	}
}

/** The memory with integer id `seq`; not_found in memory-mcp's words when there is none. */
export async function bySeq(engine: EngineApi, seq: number): Promise<Memory> {
	const id = await engine.resolveId(seq);
	const m = id ? (await engine.getMemories([id]))[0] : undefined;
	if (!m) throw new MemoryError('not_found', `memory_id: ❌ Memory #${seq} not found`);
	return m;
}

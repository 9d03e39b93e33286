/** store_memory: AutoMem's single, supersede and batch modes, with its 2000-character limit. */
import { z } from 'zod';
import { isMemoryError } from '../../../core/errors';
import { mergeNote } from '../../../core/merge-note';
import type { CallContext } from '../../../core/schemas';
import type { EngineApi } from '../../../engine/types';
import { LIMITS, MemoryRefSchema, StoreItemShape } from '../../../core/schemas';
import { ADDITIVE_WRITE } from '../../annotations';
import { defineTool } from '../../tool-definition';

/** AutoMem refuses content over this many characters. */
export const AUTOMEM_CONTENT_LIMIT = 2000;
const content = z
	.string()
	.min(1)
	.max(AUTOMEM_CONTENT_LIMIT, {
		message: `content exceeds AutoMem's hard limit of ${AUTOMEM_CONTENT_LIMIT} characters; split it into smaller, focused memories`,
	})
	.describe('The memory (150–300 chars ideal, 2000 max): context, reasoning and outcome');

const ITEM_FIELDS = [
	'tags',
	'importance',
	'embedding',
	'metadata',
	'timestamp',
	'type',
	'confidence',
	'id',
	't_valid',
	't_invalid',
	'updated_at',
	'last_accessed',
] as const;
const itemShape = {
	content,
	...Object.fromEntries(ITEM_FIELDS.map((k) => [k, StoreItemShape[k]])),
} as { content: typeof content } & Pick<typeof StoreItemShape, (typeof ITEM_FIELDS)[number]>;
const optionalItem = Object.fromEntries(Object.entries(itemShape).map(([k, v]) => [k, v.optional()])) as {
	[K in keyof typeof itemShape]: z.ZodOptional<(typeof itemShape)[K]>;
};

const StoreArgs = z
	.object({
		...optionalItem,
		supersedes_memory_id: MemoryRefSchema.optional().describe('Single mode: an existing memory this one replaces (marked invalid, linked old → new)'),
		supersede_relation: z.enum(['INVALIDATED_BY', 'EVOLVED_INTO']).optional().describe('Link from old to new (INVALIDATED_BY)'),
		supersede_reason: z.string().max(2000).optional(),
		memories: z.array(z.object(itemShape)).min(1).max(LIMITS.batch).optional().describe('Batch mode (XOR with content): up to 500 memories'),
	})
	.superRefine((v, ctx) => {
		if (v.memories === undefined && v.content === undefined)
			ctx.addIssue({
				code: 'custom',
				path: ['content'],
				message: 'content is required (or give memories[])',
			});
		if (v.memories !== undefined && v.content !== undefined)
			ctx.addIssue({
				code: 'custom',
				path: ['memories'],
				message: 'memories cannot be combined with top-level content',
			});
	});

export const storeMemory = defineTool({
	name: 'store_memory',
	config: {
		title: 'Store Memory',
		description: `Store memory in one of two modes — single (top-level content) or batch (memories: [...], up to 500).

Single: content plus optional tags, importance, metadata, type, confidence, embedding, timestamp, t_valid, t_invalid. Supersede/correct: add supersedes_memory_id; the old memory is marked invalid (t_invalid = now) and linked old → new with INVALIDATED_BY (default) or EVOLVED_INTO. Batch: memories: [{ content, tags?, importance?, metadata?, timestamp?, type?, confidence? }, …] in one transaction.

Content: target 150–300 characters (one meaningful paragraph); hard limit 2000 (rejected). Format: "Brief title. Context and details. Impact/outcome."

When to use: after a decision (the reasoning and outcome), a discovered pattern, a bug fix (root cause and solution), a learned preference. Do not use it to correct a memory in place (update_memory) or to link memories (associate_memories). Near-duplicates of an existing memory return that memory's id instead of a copy; tags and metadata keys the duplicate brings that the memory lacks are added to it.

Examples:
store_memory({ content: "Chose PostgreSQL over MongoDB for user service. Need ACID for transactions.", tags: ["architecture", "database"], importance: 0.9 })
store_memory({ content: "User prefers early returns over nested conditionals.", tags: ["code-style"], importance: 0.7 })
store_memory({ content: "User now prefers SQLite for small local tools.", supersedes_memory_id: "old-id", supersede_reason: "Correction from user" })`,
		inputSchema: StoreArgs,
		outputSchema: z.object({
			memory_id: z.string().optional().describe('Single mode: id of the stored memory (use for associations)'),
			memory_ids: z.array(z.string()).optional().describe('Batch mode: ids of the stored memories'),
			superseded_memory_id: z.string().optional(),
			association_created: z.boolean().optional(),
			duplicate: z.boolean().optional().describe('Single mode: true when nothing was stored because a near-duplicate exists (memory_id is that one)'),
			merged_tags: z.array(z.string()).optional().describe('Duplicate: its tags added to that memory'),
			merged_metadata: z.array(z.string()).optional().describe('Duplicate: its metadata keys added to that memory'),
			unmerged: z.array(z.string()).optional().describe('Duplicate: what was not added, and why'),
			stored: z.number().int().optional().describe('Batch mode: number stored'),
			message: z.string(),
		}),
		annotations: ADDITIVE_WRITE,
	},
	run: async (input, engine, ctx) => {
		const out = await engine.store(input, ctx).catch(async (e: unknown) => {
			const again = await retriedWithIds(engine, input, e, ctx);
			if (again) return again;
			throw e;
		});
		if ('retried' in out) return out.retried;
		if (input.memories) {
			const ids = out.results.map((r) => r.duplicate_of ?? r.memory_id);
			return { stored: out.stored_count, memory_ids: ids, message: out.message };
		}
		const r = out.results[0];
		if (r.status === 'duplicate')
			// The engine's message suggests `force`, which AutoMem's store_memory does not take.
			return {
				memory_id: r.duplicate_of!,
				duplicate: true,
				...(r.merged_tags ? { merged_tags: r.merged_tags } : {}),
				...(r.merged_metadata ? { merged_metadata: r.merged_metadata } : {}),
				...(r.unmerged ? { unmerged: r.unmerged } : {}),
				message: `Not stored again: near-duplicate of memory ${r.duplicate_of} (similarity ${r.similarity?.toFixed(2) ?? '?'})${mergeNote(r)}. To change that memory otherwise, call update_memory with this memory_id.`,
			};
		const superseded = input.supersedes_memory_id !== undefined ? await engine.resolveId(input.supersedes_memory_id) : undefined;
		return {
			memory_id: r.memory_id,
			message: out.message,
			...(superseded ? { superseded_memory_id: superseded, association_created: true } : {}),
		};
	},
	render: (out) => {
		if (out.memory_ids) {
			const ids = out.memory_ids.length > 10 ? `${out.memory_ids.slice(0, 10).join(', ')}, …(+${out.memory_ids.length - 10})` : out.memory_ids.join(', ');
			return `Stored ${out.stored} memories.${ids ? `\nIDs: ${ids}` : ''}\nMessage: ${out.message}`;
		}
		const sup = out.superseded_memory_id ? `\nSuperseded memory ID: ${out.superseded_memory_id}\nAssociation created: yes` : '';
		const head = out.duplicate ? 'Memory not stored again: near-duplicate of an existing memory.' : 'Memory stored successfully!';
		return `${head}\n\nMemory ID: ${out.memory_id}${sup}\nMessage: ${out.message}`;
	},
});

/**
 * A store naming ids that already hold the same contents is the same call again (a retry after a
 * timeout: AutoMem has no request_id): it answers as the first did, not with a conflict. In a
 * batch, the items without an id are stored as usual (a retry finds them as duplicates). An id
 * holding other content is still a conflict.
 */
async function retriedWithIds(
	engine: EngineApi,
	input: { id?: string; content?: string; memories?: { id?: string; content: string }[] },
	e: unknown,
	ctx: CallContext,
): Promise<{ retried: { memory_id?: string; memory_ids?: string[]; stored?: number; duplicate?: boolean; message: string } } | undefined> {
	if (!isMemoryError(e) || e.code !== 'conflict') return undefined;
	const items = input.memories ?? (input.content !== undefined ? [{ id: input.id, content: input.content }] : []);
	const given = items.filter((i): i is { id: string; content: string } => i.id !== undefined);
	if (given.length === 0 || new Set(given.map((i) => i.id)).size !== given.length) return undefined;
	const found = await engine.getMemories(given.map((i) => i.id));
	if (found.some((m, k) => !m || m.content.trim() !== given[k].content.trim())) return undefined;
	const already = `Already stored: ${given.length === 1 ? `memory ${given[0].id} has this id and this content` : `${given.length} memories have these ids and contents`} (a retried call?)`;
	if (!input.memories) return { retried: { memory_id: given[0].id, duplicate: true, message: `${already}; nothing was written now.` } };
	const rest = input.memories.filter((i) => i.id === undefined);
	const out = rest.length ? await engine.store({ ...input, memories: rest }, ctx) : undefined;
	let j = 0;
	const ids = input.memories.map((i) => {
		if (i.id !== undefined) return i.id;
		const r = out!.results[j++];
		return r.duplicate_of ?? r.memory_id;
	});
	const stored = out?.stored_count ?? 0;
	return { retried: { stored, memory_ids: ids, message: `${already}; ${stored} other${stored === 1 ? '' : 's'} stored now.` } };
}

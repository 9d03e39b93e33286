/** store_memory: store one memory; warnings name the closest existing ones. */
import { z } from 'zod';
import { ADDITIVE_WRITE } from '../../annotations';
import { json } from '../../profile-helpers';
import { defineTool } from '../../tool-definition';
import { asLabelError } from './args';
import { normalizeLabels } from './filters';

/** memory-mcp's JSON-in-content workaround: content may be {"content": …, "labels": …, "source": …}. */
function unwrapJsonContent(input: { content: string; labels?: string | string[]; source?: string }) {
	const t = input.content.trim();
	if (!t.startsWith('{') || !t.endsWith('}')) return input;
	try {
		const o = JSON.parse(t) as Record<string, unknown>;
		if (typeof o.content !== 'string') return input;
		return {
			content: o.content,
			labels: (o.labels as string | string[] | undefined) ?? input.labels,
			source: typeof o.source === 'string' ? o.source : input.source,
		};
	} catch {
		return input;
	}
}

export const storeMemory = defineTool({
	name: 'store_memory',
	config: {
		title: 'Store new memory',
		description: `Store a conversation memory for later retrieval. Returns {id (integer), source, message, warnings?}: warnings name existing memories that are semantically close ("❌ Exact match with memory #12", "📌 Explores similar territory to memory #8 (86% match)"). Related memories are linked both ways at store time.

Use it for facts, decisions and conversation summaries worth keeping. Do not use it to change labels of a stored memory (add_labels, del_labels, replace_labels). A near-exact duplicate is not stored twice: its id comes back with the "Exact match" warning.

Example: store_memory(content="User's favourite beer is a Belgian tripel", labels="beer, preferences", source="chat")`,
		inputSchema: z.object({
			content: z.string().min(1).max(50_000).describe('The conversation content or summary to remember'),
			labels: z
				.union([z.string().max(2000), z.array(z.string())])
				.optional()
				.describe('Comma-separated labels for categorising the memory'),
			source: z.string().max(200).optional().describe("Source attribution (e.g. 'Wikipedia', 'user')"),
		}),
		outputSchema: z.object({
			current_embedding: z.string(),
			id: z.number().int(),
			source: z.string().nullable(),
			message: z.string(),
			warnings: z.array(z.string()).optional(),
		}),
		annotations: ADDITIVE_WRITE,
	},
	run: async (raw, engine, ctx) => {
		const input = unwrapJsonContent(raw);
		const labels = normalizeLabels(input.labels);
		const vec = await engine.embed(input.content);
		const near = vec ? await engine.nearest(vec, 2) : [];
		const out = await engine.store({ content: input.content, tags: labels, source: input.source }, ctx).catch((e: unknown) => {
			throw asLabelError(e, { tags: 'labels' });
		});
		const r = out.results[0];
		const others = await engine.getMemories(near.map((n) => n.id));
		const warnings = near.flatMap((n, i) => (others[i] && n.cosine >= 0.7 ? [similarityWarning(others[i]!.seq, n.cosine, r.duplicate_of === n.id)] : []));
		const model = (await engine.models()).active;
		// A repeat's new labels went onto the kept memory in the store (the agent meant them for this content).
		const added = r.merged_tags ?? [];
		const unmerged = r.unmerged?.length ? ` (not added: ${r.unmerged.join('; ').replace(/^tags/, 'labels')})` : '';
		const message =
			r.status === 'duplicate'
				? `❌ Not stored again: exact match with memory #${r.seq}${added.length ? ` (labels ${added.join(', ')} added to it)` : ''}${unmerged}`
				: `✅ Memory stored with ID ${r.seq}`;
		return {
			current_embedding: model,
			id: r.seq,
			source: input.source ?? null,
			message,
			...(warnings.length ? { warnings } : {}),
		};
	},
	render: json,
});

function similarityWarning(seq: number, cos: number, duplicate: boolean): string {
	if (duplicate) return `❌ Exact match with memory #${seq}`;
	// Stored, so not the same memory: a percentage of 100 would read as "the same" (Monday/Tuesday).
	const pct = Math.min(99, Math.floor(cos * 100));
	if (cos >= 0.995) return `⚠️ Nearly identical to memory #${seq} (${pct}% match) but not the same text; both are kept`;
	if (cos >= 0.91) return `⚠️ Worth reviewing for context to memory #${seq} (${pct}% match)`;
	if (cos >= 0.81) return `📌 Explores similar territory to memory #${seq} (${pct}% match)`;
	return `ℹ️ Semantically related to memory #${seq} (${pct}% match)`;
}

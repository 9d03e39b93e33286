/**
 * The Memory MCP profile (SymbioMind memory-mcp-ce, seed 004): integer ids (Engram's `seq`),
 * labels as comma-separated strings with fuzzy matching and `!` exclusion, human ages, related
 * memories with percentage similarity, and its dict-shaped results. Engram's SIMILAR_TO links
 * play memory-mcp's store-time "related" map (bidirectional, cleaned on delete by the engine).
 */
import { z } from 'zod';
import { MemoryError } from '../../core/errors';
import { StatsOutputSchema, type Memory, type MemoryBrief } from '../../core/schemas';
import type { EngineApi } from '../../engine/types';
import { fitContents } from '../render';
import { defineTool, READ_ONLY } from '../tool-definition';
import type { Profile } from './profile';

/** Most memories a label/source scan reads (newest first) before it reports `approximate`. */
const SCAN_CAP = 20_000;
const json = (v: unknown) => JSON.stringify(v, null, 2);

// ---------------------------------------------------------------- labels, sources, ages

/** Labels from a comma-separated string or a JSON array string (as memory-mcp accepts). */
export function normalizeLabels(v: string | string[] | undefined): string[] {
	if (v === undefined) return [];
	if (Array.isArray(v)) return v.map((s) => s.trim()).filter(Boolean);
	try {
		const parsed: unknown = JSON.parse(v);
		if (Array.isArray(parsed)) return parsed.map((s) => String(s).trim()).filter(Boolean);
	} catch {
		// Not JSON: a comma-separated list.
	}
	return v
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean);
}

/** "beer, !wine" → include [beer], exclude [wine]. */
export function parseLabelFilter(labels: string | undefined): {
	include: string[];
	exclude: string[];
} {
	const include: string[] = [];
	const exclude: string[] = [];
	for (const l of (labels ?? '')
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean)) {
		if (!l.startsWith('!')) include.push(l);
		else if (l.slice(1).trim()) exclude.push(l.slice(1).trim());
	}
	return { include, exclude };
}

interface Filter {
	include: string[];
	exclude: string[];
	source?: string;
	excludeSource: boolean;
}

function makeFilter(labels?: string, source?: string): Filter {
	const s = source?.trim();
	const excludeSource = !!s?.startsWith('!');
	return {
		...parseLabelFilter(labels),
		source: (excludeSource ? s!.slice(1).trim() : s) || undefined,
		excludeSource,
	};
}

function isFiltering(f: Filter): boolean {
	return f.include.length > 0 || f.exclude.length > 0 || f.source !== undefined;
}

const has = (hay: string, needle: string) => hay.toLowerCase().includes(needle.toLowerCase());

/** memory-mcp's fuzzy filter: any include label as a substring, no exclude label, source substring. */
export function matches(m: { tags: string[]; source?: string }, f: Filter): boolean {
	if (f.include.length && !f.include.some((l) => m.tags.some((t) => has(t, l)))) return false;
	if (f.exclude.some((l) => m.tags.some((t) => has(t, l)))) return false;
	if (f.source !== undefined) {
		const hit = m.source !== undefined && has(m.source, f.source);
		if (hit === f.excludeSource) return false;
	}
	return true;
}

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

const percent = (x: number) => `${Math.floor(Math.max(0, x) * 100)}%`;

// ---------------------------------------------------------------- the memory dict

const RelatedSchema = z.object({
	id: z.number().int(),
	similarity: z.string(),
	source: z.string().nullable(),
	shared_labels: z.array(z.string()),
});
const MetaSchema = z.object({
	timestamp: z.string(),
	namespace: z.string(),
	encrypted: z.boolean(),
	embedding_tables: z
		.record(z.string(), z.array(z.string()))
		.describe('Embedding table → models holding a vector'),
	embedding_model: z.string().optional(),
	embedding_dims: z.number().int().optional(),
});
const McpMemorySchema = z.object({
	id: z.number().int(),
	source: z.string().nullable(),
	content: z.string(),
	time: z.string().describe('Human age, e.g. "4 days ago"'),
	similarity: z.string().optional().describe('Cosine to the query, e.g. "83%"'),
	labels: z.array(z.string()).optional(),
	related_memories: z.array(RelatedSchema).optional(),
	meta: MetaSchema,
});
type McpMemory = z.infer<typeof McpMemorySchema>;

/** Builds memory-mcp's memory dicts, with model facts read once per call. */
class Shaper {
	private model?: { active: string; dims: number };
	constructor(private readonly engine: EngineApi) {}

	async memory(m: Memory, similarity?: number, query = false): Promise<McpMemory> {
		const model = (this.model ??= await this.engine.models());
		const related = await this.related(m);
		const tables = Object.fromEntries(
			m.embedding_tables.map((t) => [t === model.active ? `memory_${model.dims}` : t, [t]]),
		);
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

async function bySeq(engine: EngineApi, seq: number): Promise<Memory> {
	const id = await engine.resolveId(seq);
	const m = id ? (await engine.getMemories([id]))[0] : undefined;
	if (!m) throw new MemoryError('not_found', `memory_id: ❌ Memory #${seq} not found`);
	return m;
}

/** Newest-first briefs passing `f`, up to `want` (all when undefined), scanning at most SCAN_CAP. */
async function scan(
	engine: EngineApi,
	f: Filter,
	want?: number,
): Promise<{ hits: MemoryBrief[]; scanned: number; total: number }> {
	const hits: MemoryBrief[] = [];
	let offset = 0;
	let total = 0;
	while (offset < SCAN_CAP) {
		const page = await engine.timeline({ limit: 200, offset, max_content_chars: 0 });
		total = page.total;
		for (const m of page.memories) if (matches(m, f)) hits.push(m);
		offset += page.memories.length;
		if (!page.has_more || (want !== undefined && hits.length >= want)) break;
	}
	return { hits: want === undefined ? hits : hits.slice(0, want), scanned: offset, total };
}

// ---------------------------------------------------------------- tools

const IdSchema = z.number().int().positive().describe('The integer ID of the memory');
const LabelsArg = z
	.string()
	.max(2000)
	.describe('Comma-separated labels, fuzzy; prefix ! to exclude, e.g. "beer, !wine"');
const SourceArg = z
	.string()
	.max(200)
	.describe('Source filter, fuzzy; prefix ! to exclude, e.g. "!clawdbot"');

/** memory-mcp's JSON-in-content workaround: content may be {"content": …, "labels": …, "source": …}. */
function unwrapJsonContent(input: {
	content: string;
	labels?: string | string[];
	source?: string;
}) {
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

const storeMemory = defineTool({
	name: 'store_memory',
	config: {
		title: 'Store new memory',
		description: `Store a conversation memory for later retrieval. Returns {id (integer), source, message, warnings?}: warnings name existing memories that are semantically close ("❌ Exact match with memory #12", "📌 Explores similar territory to memory #8 (86% match)"). Related memories are linked both ways at store time.

Use it for facts, decisions and conversation summaries worth keeping. Do not use it to change labels of a stored memory (add_labels, del_labels, replace_labels). A near-exact duplicate is not stored twice: its id comes back with the "Exact match" warning.

Example: store_memory(content="User's favourite beer is a Belgian tripel", labels="beer, preferences", source="chat")`,
		inputSchema: z.object({
			content: z
				.string()
				.min(1)
				.max(50_000)
				.describe('The conversation content or summary to remember'),
			labels: z
				.union([z.string().max(2000), z.array(z.string())])
				.optional()
				.describe('Comma-separated labels for categorising the memory'),
			source: z
				.string()
				.max(200)
				.optional()
				.describe("Source attribution (e.g. 'Wikipedia', 'user')"),
		}),
		outputSchema: z.object({
			current_embedding: z.string(),
			id: z.number().int(),
			source: z.string().nullable(),
			message: z.string(),
			warnings: z.array(z.string()).optional(),
		}),
		annotations: {
			readOnlyHint: false,
			idempotentHint: false,
			destructiveHint: false,
			openWorldHint: false,
		},
	},
	run: async (raw, engine, ctx) => {
		const input = unwrapJsonContent(raw);
		const labels = normalizeLabels(input.labels);
		const vec = await engine.embed(input.content);
		const near = vec ? await engine.nearest(vec, 2) : [];
		const out = await engine.store(
			{ content: input.content, tags: labels, source: input.source },
			ctx,
		);
		const r = out.results[0];
		const others = await engine.getMemories(near.map((n) => n.id));
		const warnings = near.flatMap((n, i) =>
			others[i] && n.cosine >= 0.7
				? [similarityWarning(others[i]!.seq, n.cosine, r.duplicate_of === n.id)]
				: [],
		);
		const model = (await engine.models()).active;
		const message =
			r.status === 'duplicate'
				? `❌ Not stored again: exact match with memory #${r.seq}`
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
	const pct = Math.floor(cos * 100);
	if (duplicate || cos >= 0.995) return `❌ Exact match with memory #${seq}`;
	if (cos >= 0.91) return `⚠️ Worth reviewing for context to memory #${seq} (${pct}% match)`;
	if (cos >= 0.81) return `📌 Explores similar territory to memory #${seq} (${pct}% match)`;
	return `ℹ️ Semantically related to memory #${seq} (${pct}% match)`;
}

const retrieveMemories = defineTool({
	name: 'retrieve_memories',
	config: {
		title: 'Retrieve stored memories',
		description: `Retrieve memories with flexible filtering; all parameters are optional. With a query: ranked by cosine similarity to it (newest first on ties), each with similarity "83%". Without one: the most recent. labels filter fuzzily (comma-separated, any match; "!wine" excludes), source likewise.

Use it to find memories on a topic or under labels. Do not use it when you have an id (get_memory), or to count (memory_stats).

Examples: retrieve_memories(query="authentication decision") · retrieve_memories(labels="beer, !wine", num_results=10)`,
		inputSchema: z.object({
			query: z.string().max(2000).optional().describe('Text for semantic search'),
			labels: LabelsArg.optional(),
			source: SourceArg.optional(),
			num_results: z
				.number()
				.int()
				.min(1)
				.max(100)
				.optional()
				.describe('Number of results (default 5)'),
		}),
		outputSchema: z.object({
			current_embedding: z.string().optional(),
			memories: z.array(McpMemorySchema),
			count: z.number().int(),
		}),
		annotations: READ_ONLY,
	},
	run: async (input, engine) => {
		const f = makeFilter(input.labels, input.source);
		const n = input.num_results ?? 5;
		const shaper = new Shaper(engine);
		const query = input.query?.trim();
		const memories = query
			? await semantic(engine, shaper, query, f, n)
			: await recent(engine, shaper, f, n);
		fitContents(
			memories,
			(m) => m.content,
			(m, s) => (m.content = s),
		);
		return {
			...(query ? { current_embedding: (await engine.models()).active } : {}),
			memories,
			count: memories.length,
		};
	},
	render: json,
});

async function semantic(
	engine: EngineApi,
	shaper: Shaper,
	query: string,
	f: Filter,
	n: number,
): Promise<McpMemory[]> {
	const vec = await engine.embed(query);
	if (!vec) {
		// No known word for the model: fall back to keywords, as Engram's recall does.
		const hits = await engine.recall({ query, limit: 200, max_content_chars: 50_000 });
		const kept = hits.results.filter((h) => matches(h.memory, f)).slice(0, n);
		return Promise.all(kept.map((h) => shaper.memory(h.memory, 0, true)));
	}
	const near = await engine.nearest(
		vec,
		Math.min(2000, isFiltering(f) ? Math.max(200, n * 20) : n * 2),
	);
	const mems = await engine.getMemories(near.map((x) => x.id));
	const picked = near.flatMap((x, i) =>
		mems[i] && matches(mems[i]!, f) ? [{ m: mems[i]!, cos: x.cosine }] : [],
	);
	picked.sort((a, b) => b.cos - a.cos || b.m.timestamp.localeCompare(a.m.timestamp));
	return Promise.all(picked.slice(0, n).map((p) => shaper.memory(p.m, p.cos, true)));
}

async function recent(
	engine: EngineApi,
	shaper: Shaper,
	f: Filter,
	n: number,
): Promise<McpMemory[]> {
	const { hits } = await scan(engine, f, n);
	const mems = await engine.getMemories(hits.map((h) => h.id));
	return Promise.all(mems.flatMap((m) => (m ? [shaper.memory(m)] : [])));
}

const getMemory = defineTool({
	name: 'get_memory',
	config: {
		title: 'Get specific memory by ID',
		description: `Direct retrieval by integer ID — no search, no scoring. Returns the complete record: content, labels, source, time ("4 days ago"), related_memories [{id, similarity "83%", source, shared_labels}] (the bidirectional related-memory graph built at store time), and meta {timestamp, namespace, embedding_tables}.

Use it to open a memory surfaced by retrieve_memories, and to follow related_memories one hop at a time with zero embedding cost. Do not use it to search (retrieve_memories).

Examples: get_memory(memory_id=42) · then get_memory(memory_id=38) for a related one`,
		inputSchema: z.object({ memory_id: IdSchema }),
		outputSchema: McpMemorySchema,
		annotations: READ_ONLY,
	},
	run: async (input, engine) => new Shaper(engine).memory(await bySeq(engine, input.memory_id)),
	render: json,
});

const deleteMemory = defineTool({
	name: 'delete_memory',
	config: {
		title: 'Delete memory by ID',
		description: `Delete one memory by its integer ID; its related-memory links are removed from the other side too. Returns {success, message}.

Use it for wrong or unwanted memories. Do not use it to change labels (del_labels, replace_labels).

Example: delete_memory(memory_id=42)`,
		inputSchema: z.object({ memory_id: IdSchema }),
		outputSchema: z.object({ success: z.boolean(), message: z.string() }),
		annotations: {
			readOnlyHint: false,
			idempotentHint: true,
			destructiveHint: true,
			openWorldHint: false,
		},
	},
	run: async (input, engine, ctx) => {
		const m = await bySeq(engine, input.memory_id);
		await engine.delete({ memory_id: m.id }, ctx);
		return { success: true, message: `✅ Memory #${input.memory_id} deleted successfully` };
	},
	render: json,
});

const randomMemory = defineTool({
	name: 'random_memory',
	config: {
		title: 'Get a random memory',
		description: `One random memory, optionally filtered by labels and source (fuzzy; ! excludes). Returns the same record as get_memory.

Use it to resurface something forgotten or sample a label. Do not use it to find something specific (retrieve_memories).

Example: random_memory(labels="ideas")`,
		inputSchema: z.object({ labels: LabelsArg.optional(), source: SourceArg.optional() }),
		outputSchema: McpMemorySchema,
		annotations: {
			readOnlyHint: true,
			idempotentHint: false,
			destructiveHint: false,
			openWorldHint: false,
		},
	},
	run: async (input, engine) => {
		const f = makeFilter(input.labels, input.source);
		const id = isFiltering(f)
			? pick((await scan(engine, f)).hits)?.id
			: await randomUnfiltered(engine);
		const [m] = id ? await engine.getMemories([id]) : [];
		if (!m) throw new MemoryError('not_found', '❌ No memories found matching the criteria');
		return new Shaper(engine).memory(m);
	},
	render: json,
});

function pick<T>(xs: T[]): T | undefined {
	return xs[Math.floor(Math.random() * xs.length)];
}

async function randomUnfiltered(engine: EngineApi): Promise<string | undefined> {
	const { total } = await engine.timeline({ limit: 1 });
	if (total === 0) return undefined;
	const page = await engine.timeline({
		limit: 1,
		offset: Math.floor(Math.random() * total),
		max_content_chars: 0,
	});
	return page.memories[0]?.id;
}

const memoryStats = defineTool({
	name: 'memory_stats',
	config: {
		title: 'Get memory statistics',
		description: `Memory counts. No parameters: {total_memories, sync: {on, status, last_synced, pending}} (sync across devices). With labels and/or source (fuzzy; ! excludes): {matching, total, ratio "12/340", percentage "3%", labels_matched, sources_matched}.

Use it to size a label or source before acting on it. Do not use it to read memories (retrieve_memories).

Example: memory_stats(labels="beer")`,
		inputSchema: z.object({ labels: LabelsArg.optional(), source: SourceArg.optional() }),
		outputSchema: z.object({
			total_memories: z.number().int().optional(),
			// Added by Engram: this device's sync across devices (docs/SYNC.md).
			sync: StatsOutputSchema.shape.sync,
			matching: z.number().int().optional(),
			total: z.number().int().optional(),
			ratio: z.string().optional(),
			percentage: z.string().optional(),
			labels_matched: z.array(z.string()).optional(),
			sources_matched: z.array(z.string()).optional(),
			approximate: z
				.boolean()
				.optional()
				.describe(`True when only the newest ${SCAN_CAP} memories were counted`),
		}),
		annotations: READ_ONLY,
	},
	run: async (input, engine) => {
		const f = makeFilter(input.labels, input.source);
		if (!isFiltering(f)) {
			const { total_memories, sync } = await engine.stats({});
			return { total_memories, sync };
		}
		return filteredStats(engine, f);
	},
	render: json,
});

async function filteredStats(engine: EngineApi, f: Filter) {
	const everything = await scan(engine, { include: [], exclude: [], excludeSource: false });
	const hits = everything.hits.filter((m) => matches(m, f));
	const total = everything.total;
	const labels = new Set<string>();
	const sources = new Set<string>();
	for (const m of everything.hits) {
		for (const t of m.tags) if (f.include.some((l) => has(t, l))) labels.add(t);
		if (f.source && !f.excludeSource && m.source && has(m.source, f.source)) sources.add(m.source);
	}
	return {
		matching: hits.length,
		total,
		ratio: `${hits.length}/${total}`,
		percentage: `${total ? Math.floor((100 * hits.length) / total) : 0}%`,
		...(f.include.length ? { labels_matched: [...labels].sort() } : {}),
		...(f.source && !f.excludeSource ? { sources_matched: [...sources].sort() } : {}),
		...(everything.scanned < total ? { approximate: true } : {}),
	};
}

const trendingLabels = defineTool({
	name: 'trending_labels',
	config: {
		title: 'Get trending labels',
		description: `Labels trending now: used within the last \`days\` (30), ranked by use with a decay of 0.9 per day since last seen, at most \`limit\` (10). Returns {trending_labels: [{label, count, top_token}], time_window_days}.

Use it to see current topics or reuse labels. Do not use it for all-time counts (memory_stats).

Example: trending_labels(days=7, limit=5)`,
		inputSchema: z.object({
			days: z
				.number()
				.int()
				.min(1)
				.max(3650)
				.optional()
				.describe('Time window in days (default 30)'),
			limit: z.number().int().min(1).max(100).optional().describe('Maximum labels (default 10)'),
		}),
		outputSchema: z.object({
			trending_labels: z.array(
				z.object({ label: z.string(), count: z.number().int(), top_token: z.string() }),
			),
			time_window_days: z.number().int(),
		}),
		annotations: READ_ONLY,
	},
	run: async (input, engine) => {
		const days = input.days ?? 30;
		const out = await engine.trendingLabels({ days, limit: input.limit ?? 10 });
		const token = (l: string) =>
			l
				.toLowerCase()
				.split(/[^\p{L}\p{N}]+/u)
				.find(Boolean) ?? l.toLowerCase();
		return {
			trending_labels: out.labels.map((l) => ({
				label: l.label,
				count: l.count,
				top_token: token(l.label),
			})),
			time_window_days: days,
		};
	},
	render: json,
});

const LabelResultSchema = z.object({
	success: z.boolean(),
	message: z.string(),
	labels: z.array(z.string()),
});
const LabelsInput = z.string().min(1).max(2000).describe('Labels: comma-separated or a JSON array');

/** One read and one single-transaction update of a memory's labels. */
async function relabel(
	engine: EngineApi,
	seq: number,
	change: (tags: string[]) => string[],
	actor?: string,
): Promise<string[]> {
	const m = await bySeq(engine, seq);
	const tags = change(m.tags);
	if (tags.join('\n') !== m.tags.join('\n'))
		await engine.update({ memory_id: m.id, tags }, { actor });
	return tags;
}

function requireLabels(v: string, field: string): string[] {
	const labels = normalizeLabels(v);
	if (labels.length === 0)
		throw new MemoryError('invalid_input', `${field}: ❌ No valid labels provided`);
	return labels;
}

const addLabels = defineTool({
	name: 'add_labels',
	config: {
		title: 'Add labels to a memory',
		description: `Add labels to an existing memory, keeping the ones it has (exact duplicates skipped). Returns {success, message, labels}.

Use it to categorise a memory further. Do not use it to swap a label for another (replace_labels does that in one step).

Example: add_labels(memory_id=42, labels="beer, belgian")`,
		inputSchema: z.object({ memory_id: IdSchema, labels: LabelsInput }),
		outputSchema: LabelResultSchema,
		annotations: {
			readOnlyHint: false,
			idempotentHint: true,
			destructiveHint: false,
			openWorldHint: false,
		},
	},
	run: async (input, engine, ctx) => {
		const add = requireLabels(input.labels, 'labels');
		const labels = await relabel(
			engine,
			input.memory_id,
			(tags) => [...tags, ...add.filter((l) => !tags.includes(l))],
			ctx.actor,
		);
		return { success: true, message: `✅ Labels added to memory #${input.memory_id}`, labels };
	},
	render: json,
});

const delLabels = defineTool({
	name: 'del_labels',
	config: {
		title: 'Remove labels from a memory',
		description: `Remove specific labels from an existing memory (case-insensitive match; labels it does not have are ignored). Returns {success, message, labels}.

Use it to drop wrong or stale labels. Do not use it to rename a label (replace_labels).

Example: del_labels(memory_id=42, labels="draft")`,
		inputSchema: z.object({ memory_id: IdSchema, labels: LabelsInput }),
		outputSchema: LabelResultSchema,
		annotations: {
			readOnlyHint: false,
			idempotentHint: true,
			destructiveHint: true,
			openWorldHint: false,
		},
	},
	run: async (input, engine, ctx) => {
		const drop = new Set(requireLabels(input.labels, 'labels').map((l) => l.toLowerCase()));
		const labels = await relabel(
			engine,
			input.memory_id,
			(tags) => tags.filter((t) => !drop.has(t.toLowerCase())),
			ctx.actor,
		);
		return { success: true, message: `✅ Labels removed from memory #${input.memory_id}`, labels };
	},
	render: json,
});

const replaceLabels = defineTool({
	name: 'replace_labels',
	config: {
		title: 'Replace labels on a memory',
		description: `Replace one or more labels with one or more new ones in a single write, so a label state change (e.g. "todo" → "done") never shows half-done. target is matched case-insensitively; new keeps its case. Returns {success, message, labels}.

Use it for status transitions and renames. Do not use it just to add (add_labels) or remove (del_labels).

Example: replace_labels(memory_id=42, target="todo", new="done")`,
		inputSchema: z.object({
			memory_id: IdSchema,
			target: LabelsInput.describe('Label(s) to remove, comma-separated'),
			new: LabelsInput.describe('Label(s) to add in their place, comma-separated'),
		}),
		outputSchema: LabelResultSchema,
		annotations: {
			readOnlyHint: false,
			idempotentHint: true,
			destructiveHint: false,
			openWorldHint: false,
		},
	},
	run: async (input, engine, ctx) => {
		const target = new Set(requireLabels(input.target, 'target').map((l) => l.toLowerCase()));
		const add = requireLabels(input.new, 'new');
		const labels = await relabel(
			engine,
			input.memory_id,
			(tags) => {
				const kept = tags.filter((t) => !target.has(t.toLowerCase()));
				return [...kept, ...add.filter((l) => !kept.includes(l))];
			},
			ctx.actor,
		);
		return { success: true, message: `✅ Labels replaced on memory #${input.memory_id}`, labels };
	},
	render: json,
});

export const memoryMcpProfile: Profile = {
	name: 'memory-mcp',
	instructions:
		'Memory storage and retrieval with semantic search. store_memory returns an integer id; retrieve_memories searches (labels are comma-separated, fuzzy, ! excludes); get_memory opens one with its related memories.',
	tools: [
		storeMemory,
		retrieveMemories,
		getMemory,
		deleteMemory,
		randomMemory,
		memoryStats,
		trendingLabels,
		addLabels,
		delLabels,
		replaceLabels,
	],
};

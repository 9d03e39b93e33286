/**
 * get_memory: the full record by id or seq, with its related memories (every link, both
 * directions, with similarity), its authored associations, human age and embedding tables.
 * Counts an access unless `track_access` is false.
 */
import { isMemoryError, MemoryError } from '../core/errors';
import { AUTHORABLE_ASSOCIATION_TYPES, GetInputSchema, type AssociationType, type GetInput, type GetOutput, type MemoryRef } from '../core/schemas';
import { humanAge } from '../core/time';
import { appendActivity } from '../store/activity';
import { linksOf } from '../store/associations';
import { getByRef } from '../store/memories';
import type { AssociationRow, MemoryRow } from '../store/rows';
import { bumpStamp } from '../store/settings';
import { modelsOf } from '../store/vectors';
import { nowIso, type EngineContext } from './context';
import { toMemory, truncate } from './doc';
import { parseInput } from './validate';

/** Default and cap of related memories / associations returned. */
export const RELATED_DEFAULT = 10;
export const ASSOCIATIONS_CAP = 50;
const SNIPPET_CHARS = 200;

const AUTHORABLE = new Set<string>(AUTHORABLE_ASSOCIATION_TYPES);

/** The not_found error for a memory reference, naming the field. */
export function notFound(field: string, ref: MemoryRef): MemoryError {
	return new MemoryError('not_found', `${field}: no memory with ${typeof ref === 'number' ? 'seq' : 'id'} ${JSON.stringify(ref)}`);
}

/** Reads one memory with its neighbourhood; see the module comment. */
export async function getMemory(ctx: EngineContext, input: GetInput, actor = 'agent'): Promise<GetOutput> {
	const p = parseInput(GetInputSchema, input);
	const g =
		p.track_access === false ? await readOnly(ctx, p.memory_id) : await readCounting(ctx, p.memory_id, actor).catch(uncountedWhenFull(ctx, p.memory_id));
	const related = relatedOf(ctx, g, p.related_limit ?? RELATED_DEFAULT);
	const authored = [...g.links.out, ...g.links.in].filter((a) => AUTHORABLE.has(a.type));
	return {
		memory: toMemory(g.row, g.tables),
		age: humanAge(g.row.timestamp, ctx.now()),
		related_memories: related,
		associations: authored.sort((a, b) => b.created_at.localeCompare(a.created_at)).slice(0, ASSOCIATIONS_CAP),
	};
}

type Links = { out: AssociationRow[]; in: AssociationRow[] };

/** A memory with everything get_memory shows, read in the caller's transaction. */
interface Neighbourhood {
	row: MemoryRow;
	links: Links;
	tables: string[];
	vector: Float32Array | undefined;
	/** The best link to each linked memory, and that memory's row. */
	linked: { a: AssociationRow; direction: 'out' | 'in'; other: MemoryRow }[];
}

/** Rank of a relation when one neighbour is linked several ways: authored first, then SIMILAR_TO. */
function relationRank(type: AssociationType): number {
	if (AUTHORABLE.has(type)) return 0;
	return type === 'SIMILAR_TO' ? 1 : 2;
}

/** Reads links, tables, vector and linked rows of `row` (one transaction with the caller's). */
async function around(ctx: EngineContext, row: MemoryRow): Promise<Neighbourhood> {
	const links = await linksOf(ctx.db, row.id, ctx.index.linkedFrom([row.id]), row);
	const best = new Map<string, { a: AssociationRow; direction: 'out' | 'in' }>();
	const consider = (a: AssociationRow, direction: 'out' | 'in') => {
		const other = direction === 'out' ? a.to : a.from;
		const cur = best.get(other);
		if (!cur || relationRank(a.type) < relationRank(cur.a.type)) best.set(other, { a, direction });
	};
	links.out.forEach((a) => consider(a, 'out'));
	links.in.forEach((a) => consider(a, 'in'));
	const ids = [...best.keys()];
	const rows = await ctx.db.memories.bulkGet(ids);
	const linked = rows.flatMap((other, i) => (other ? [{ ...best.get(ids[i])!, other }] : []));
	return { row, links, tables: modelsOf(row), vector: row.vectors?.[ctx.embedder.modelId], linked };
}

async function readOnly(ctx: EngineContext, ref: MemoryRef): Promise<Neighbourhood> {
	return ctx.db.read(async () => {
		const row = await getByRef(ctx.db, ref);
		if (!row) throw notFound('memory_id', ref);
		return around(ctx, row);
	});
}

/** Reads and counts the access in one transaction, then mirrors the count into the index. */
async function readCounting(ctx: EngineContext, ref: MemoryRef, actor: string): Promise<Neighbourhood> {
	return ctx.lock.run(async () => {
		const at = nowIso(ctx);
		const res = await ctx.db.write(async () => {
			const old = await getByRef(ctx.db, ref);
			if (!old) throw notFound('memory_id', ref);
			const row: MemoryRow = { ...old, access_count: old.access_count + 1, last_accessed: at };
			await ctx.db.memories.put(row);
			await appendActivity(ctx.db, [{ at, actor, action: 'accessed', memory_id: row.id }]);
			const stamp = await bumpStamp(ctx.db);
			return { g: await around(ctx, row), stamp };
		});
		ctx.index.touch(res.g.row.id, res.g.row.access_count, Date.parse(at));
		ctx.committed(res.stamp, { upserts: [res.g.row.id], removed: [], edges: [] });
		return res.g;
	});
}

/**
 * With the storage full, counting an access (a put) is refused; the memory is still read and
 * returned, its access simply not counted: the count is a ranking prior, not a record.
 */
function uncountedWhenFull(ctx: EngineContext, ref: MemoryRef): (e: unknown) => Promise<Neighbourhood> {
	return (e) => (isMemoryError(e) && e.code === 'quota_exceeded' ? readOnly(ctx, ref) : Promise.reject(e));
}

/**
 * One entry per linked memory, most similar first. Similarity is the cosine of the two vectors
 * when both have one under the active model, else the link's strength.
 */
function relatedOf(ctx: EngineContext, g: Neighbourhood, limit: number): GetOutput['related_memories'] {
	if (limit === 0) return [];
	const out = g.linked.map(({ a, direction, other }) => {
		const cos = g.vector ? ctx.index.cosineTo(other.id, g.vector) : undefined;
		const entry: GetOutput['related_memories'][number] = {
			id: other.id,
			seq: other.seq,
			similarity: Math.round(Math.max(0, Math.min(1, cos ?? a.strength)) * 1e4) / 1e4,
			relation: a.type,
			direction,
			snippet: truncate(other.content, SNIPPET_CHARS).text,
		};
		if (other.source !== undefined) entry.source = other.source;
		return entry;
	});
	return out.sort((x, y) => y.similarity - x.similarity).slice(0, limit);
}

/**
 * query_memory_graph, projection: RETURN's columns (records as compact objects), count()
 * groups, DISTINCT, ORDER BY, SKIP and LIMIT, and the output's bounds.
 *
 * Contract: groups and DISTINCT see every row before the page is cut; plain rows are sorted on
 * their sort keys alone and only the page is read and rendered. A default or capped LIMIT adds a
 * note; rows past the output budget are cut (`truncated`); has_more / next_skip say what is left.
 */
import type { Expr } from '../../core/graph-query';
import { GRAPH_LIMITS, type GraphQueryOutput } from '../../core/graph-schemas';
import { cmpValues, evaluate, isCount, prop, varsOf } from './query-evaluate';
import { pageNumber, round3, type QueryState, type Row } from './query-state';

/** Most characters of JSON the rows of one result may take. */
const ROWS_BUDGET = 500_000;

/** The output: RETURN's columns over the rows, grouped, deduplicated, sorted and paged. */
export async function project(ex: QueryState, rows: Row[]): Promise<GraphQueryOutput> {
	const items = ex.q.returns;
	const orderVars = varsOf(ex.q.orderBy.map((k) => k.expr));
	if (items.some((i) => isCount(i.expr)) || ex.q.distinct) {
		// Groups and DISTINCT need every row's values before the page can be cut.
		await ex.preload(rows, new Set([...varsOf(items.map((i) => i.expr)), ...orderVars]));
		let out = items.some((i) => isCount(i.expr))
			? await aggregate(ex, rows)
			: await Promise.all(rows.map(async (r) => ({ src: r, vals: await values(ex, r) })));
		if (ex.q.distinct) out = dedupe(out);
		await sortRows(ex, out);
		const { skip, limit } = pageWindow(ex, out.length);
		return pageOut(
			ex,
			out.slice(skip, skip + limit).map((o) => o.vals),
			skip,
			out.length,
		);
	}
	// Plain rows: sort on the sort keys alone, then read and render only the page.
	await ex.preload(rows, orderVars);
	const sorted = rows.map((src) => ({ src, vals: {} as Record<string, unknown> }));
	await sortRows(ex, sorted);
	const { skip, limit } = pageWindow(ex, sorted.length);
	const pageRows = sorted.slice(skip, skip + limit).map((o) => o.src);
	await ex.preload(pageRows);
	return pageOut(ex, await Promise.all(pageRows.map((r) => values(ex, r))), skip, sorted.length);
}

async function values(ex: QueryState, r: Row): Promise<Record<string, unknown>> {
	const vals: Record<string, unknown> = {};
	for (const i of ex.q.returns) vals[i.name] = await output(ex, i.expr, r);
	return vals;
}

async function output(ex: QueryState, e: Expr, r: Row): Promise<unknown> {
	if (e.kind !== 'var') return evaluate(ex, e, r);
	const v = r[e.name];
	if (!v) return null;
	if (v.kind === 'rel') return Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'kind'));
	if (v.kind === 'tag') return { name: v.name };
	if (v.kind === 'entity') {
		const en = ex.entities.get(v.id);
		return en ? { id: en.id, name: en.name, type: en.type, memory_count: en.memory_count } : { id: v.id };
	}
	return memoryOut(ex, v.id);
}

function memoryOut(ex: QueryState, id: string): Record<string, unknown> {
	const m = ex.memories.get(id);
	if (!m) return { id, missing: true };
	const snippet = m.content.length > 200 ? `${m.content.slice(0, 199)}…` : m.content;
	return {
		id: m.id,
		seq: m.seq,
		type: m.type,
		...(m.summary ? { summary: m.summary } : {}),
		snippet,
		tags: m.tags,
		scope: m.scope,
		timestamp: m.timestamp,
		importance: m.importance,
		...(m.t_invalid ? { t_invalid: m.t_invalid } : {}),
		...(ex.startScore.has(id) ? { score: round3(ex.startScore.get(id)!) } : {}),
	};
}

async function aggregate(ex: QueryState, rows: Row[]): Promise<{ src: Row; vals: Record<string, unknown> }[]> {
	const groups = new Map<string, { src: Row; rows: Row[] }>();
	for (const r of rows) {
		const keyVals = await Promise.all(ex.q.returns.filter((i) => !isCount(i.expr)).map((i) => output(ex, i.expr, r)));
		const k = JSON.stringify(keyVals);
		const g = groups.get(k) ?? { src: r, rows: [] };
		g.rows.push(r);
		groups.set(k, g);
	}
	const out: { src: Row; vals: Record<string, unknown> }[] = [];
	for (const g of groups.values()) {
		const vals: Record<string, unknown> = {};
		for (const i of ex.q.returns)
			vals[i.name] = isCount(i.expr) ? await countOf(ex, i.expr as Extract<Expr, { kind: 'call' }>, g.rows) : await output(ex, i.expr, g.src);
		out.push({ src: g.src, vals });
	}
	return out;
}

async function countOf(ex: QueryState, e: Extract<Expr, { kind: 'call' }>, rows: Row[]): Promise<number> {
	if (e.star) return rows.length;
	const vals = (await Promise.all(rows.map((r) => evaluate(ex, e.args[0], r)))).filter((v) => v !== null && v !== undefined);
	return e.distinct ? new Set(vals.map((v) => JSON.stringify(v))).size : vals.length;
}

async function sortRows(ex: QueryState, out: { src: Row; vals: Record<string, unknown> }[]): Promise<void> {
	if (ex.q.orderBy.length === 0) return;
	const keyed = await Promise.all(
		out.map(async (o) => ({
			o,
			keys: await Promise.all(ex.q.orderBy.map((k) => orderValue(ex, k.expr, o))),
		})),
	);
	keyed.sort((a, b) => {
		for (let i = 0; i < ex.q.orderBy.length; i++) {
			const c = cmpValues(a.keys[i], b.keys[i]);
			if (c !== 0) return ex.q.orderBy[i].desc ? -c : c;
		}
		return 0;
	});
	keyed.forEach((k, i) => (out[i] = k.o));
}

/** A sort key: an alias or return column, a memory variable (by time), or any expression. */
async function orderValue(ex: QueryState, e: Expr, o: { src: Row; vals: Record<string, unknown> }): Promise<unknown> {
	const item = ex.q.returns.find((i) => i.expr === e || (e.kind === 'var' && i.name === e.name));
	if (item && item.name in o.vals) return o.vals[item.name];
	const expr = item && !isCount(item.expr) ? item.expr : e;
	if (expr.kind === 'var' && o.src[expr.name]?.kind === 'memory') return prop(ex, o.src[expr.name], 'timestamp');
	return evaluate(ex, expr, o.src);
}

/** SKIP and LIMIT after defaults and the cap, with notes for both. */
function pageWindow(ex: QueryState, total: number): { skip: number; limit: number } {
	const skip = pageNumber(ex.q.skip, 'SKIP') ?? 0;
	let limit = pageNumber(ex.q.limit, 'LIMIT');
	if (limit === undefined) {
		limit = GRAPH_LIMITS.defaultLimit;
		if (total - skip > limit) ex.notes.push(`rows cut to the default LIMIT ${limit}; add LIMIT (up to ${GRAPH_LIMITS.maxLimit}) to return more`);
	} else if (limit > GRAPH_LIMITS.maxLimit) {
		ex.notes.push(`LIMIT ${limit} capped at ${GRAPH_LIMITS.maxLimit}`);
		limit = GRAPH_LIMITS.maxLimit;
	}
	return { skip, limit };
}

/** The output for one page of projected rows out of `total`. */
function pageOut(ex: QueryState, page: Record<string, unknown>[], skip: number, total: number): GraphQueryOutput {
	let rows = page;
	const fit = fitRows(rows);
	if (fit < rows.length) {
		ex.truncated = true;
		ex.notes.push(`only ${fit} rows fit the ${ROWS_BUDGET / 1000} kB output budget`);
		rows = rows.slice(0, fit);
	}
	const end = skip + rows.length;
	const hasMore = total > end;
	return {
		columns: ex.q.returns.map((i) => i.name),
		rows,
		count: rows.length,
		has_more: hasMore,
		...(hasMore ? { next_skip: end } : {}),
		truncated: ex.truncated,
		partial: ex.partial,
		notes: ex.notes,
	};
}

function dedupe<T extends { vals: Record<string, unknown> }>(rows: T[]): T[] {
	const seen = new Set<string>();
	return rows.filter((r) => {
		const k = JSON.stringify(r.vals);
		if (seen.has(k)) return false;
		seen.add(k);
		return true;
	});
}

function fitRows(rows: unknown[]): number {
	let used = 0;
	for (let i = 0; i < rows.length; i++) {
		used += JSON.stringify(rows[i]).length;
		if (used > ROWS_BUDGET && i > 0) return i;
	}
	return rows.length;
}

/**
 * query_memory_graph, run inside the engine: parse → bind params → plan and bind (START, then
 * each MATCH path's anchor) → expand along the path → evaluate WHERE → project RETURN, ORDER BY,
 * SKIP and LIMIT. One stage per module: query-bind.ts, query-expand.ts, query-evaluate.ts,
 * query-project.ts; the state they pass on is query-state.ts, the reads reads.ts.
 *
 * Every cap that cuts the search sets `partial`, every cut of the output sets `truncated`, and
 * both add a note.
 *
 * @example
 * await runGraphQuery(new GraphReads(ctx), {
 *   query: 'MATCH (e:Entity {name: $n})<-[:MENTIONS]-(m) RETURN m LIMIT 5', params: { n: 'Redis' },
 * });
 */
import { bindParams, parseGraphQuery } from '../../core/graph-query';
import type { GraphQueryInput, GraphQueryOutput } from '../../core/graph-schemas';
import { matchPath, start } from './query-bind';
import { filterRows, varsOf } from './query-evaluate';
import { project } from './query-project';
import { QueryState, type Row } from './query-state';
import type { GraphReads } from './reads';

/** Parses, binds params and runs a query. Bad queries throw MemoryError('invalid_input'). */
export async function runGraphQuery(reads: GraphReads, input: GraphQueryInput): Promise<GraphQueryOutput> {
	const q = bindParams(parseGraphQuery(input.query), input.params);
	const ex = new QueryState(reads, q);
	let rows: Row[] = [{}];
	if (q.start) rows = (await start(ex)).map((n) => ({ [q.start!.var]: n }));
	for (const p of q.match) rows = await matchPath(ex, rows, p);
	if (q.where) {
		await ex.preload(rows, varsOf([q.where]));
		rows = await filterRows(ex, rows, q.where);
	}
	return project(ex, rows);
}

/**
 * The graph tools run inside the engine: each MCP call of find_memory_connections or
 * query_memory_graph reaches the engine as ONE method call (findConnections / queryGraph), so
 * through the worker it is one round trip; and the walks' reads (GraphReads) answer exactly what
 * the EngineApi reads they replace answer, on the team corpus.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../../src/engine/engine';
import { GraphReads } from '../../../../src/engine/graph/reads';
import type { EngineApi } from '../../../../src/engine/types';
import { seedCorpus, type CorpusKey } from '../../mcp/corpus';
import { connect, data, makeEngine, type Connection } from '../../mcp/helpers';

let engine: Engine;
let ids: Record<CorpusKey, string>;
let c: Connection;
/** Engine methods called through the proxy the server was given, in order. */
const calls: string[] = [];

beforeAll(async () => {
	engine = await makeEngine();
	ids = await seedCorpus(engine);
	await engine.associate({ memory1_id: ids.pgChoice, memory2_id: Object.values(ids)[1], type: 'LEADS_TO' });
	const counted = new Proxy(engine as EngineApi, {
		get(target, prop, receiver) {
			const v = Reflect.get(target, prop, receiver) as unknown;
			if (typeof v !== 'function' || typeof prop !== 'string') return v;
			return (...args: unknown[]) => {
				calls.push(prop);
				return (v as (...a: unknown[]) => unknown).apply(target, args);
			};
		},
	});
	c = await connect(counted);
});
afterAll(async () => {
	await c.close();
	await engine.close();
});

/** The engine methods one tool call made, apart from the server's own activity logging. */
async function engineCalls(tool: string, args: Record<string, unknown>): Promise<string[]> {
	calls.length = 0;
	data(await c.call(tool, args));
	return calls.filter((m) => m !== 'logActivity');
}

describe('graph tools in the engine', () => {
	describe('find_memory_connections', () => {
		it('is one engine call, whatever the walk reads', async () => {
			expect(
				await engineCalls('find_memory_connections', {
					sentence: 'We chose PostgreSQL for billing because invoices need transactions.',
					expansion_rounds: 2,
				}),
			).toEqual(['findConnections']);
			expect(await engineCalls('find_memory_connections', { relation: 'explore', anchor_entity_id: 'PostgreSQL' })).toEqual(['findConnections']);
		});
	});

	describe('query_memory_graph', () => {
		it('is one engine call for a scan, a START, hops and an aggregate', async () => {
			for (const query of [
				'MATCH (m)-[:MENTIONS]->(e:Entity) RETURN e.name, count(DISTINCT m) AS n ORDER BY n DESC LIMIT 3',
				'START a = events(text: "billing database", k: 5) MATCH (a)-[s:SHARES]-(b) RETURN b, s.count LIMIT 10',
				'MATCH (a)-[r*1..2]->(b) WHERE cos(a, b) > 0 RETURN a.seq, b.seq LIMIT 20',
			])
				expect(await engineCalls('query_memory_graph', { query })).toEqual(['queryGraph']);
		});
	});

	describe('GraphReads', () => {
		it('answers as the EngineApi reads do, for every memory', async () => {
			const reads = new GraphReads(engine.ctx);
			const all = Object.values(ids);
			expect(await reads.getMemories([...all, 'nope'])).toEqual(await engine.getMemories([...all, 'nope']));
			for (const id of all) {
				expect(await reads.associationsOf(id)).toEqual(await engine.associationsOf(id));
				expect(await reads.entitiesOf(id)).toEqual(await engine.entitiesOf(id));
				expect(await reads.vectorOf(id)).toEqual(await engine.vectorOf(id));
				for (const e of await engine.entitiesOf(id)) expect(reads.memoryIdsForEntity(e.id)).toEqual(await engine.memoryIdsForEntity(e.id));
			}
		});

		it('scans in the timeline’s order, ids only, with its total', async () => {
			const reads = new GraphReads(engine.ctx);
			for (const f of [{}, { tags: ['billing'] }, { types: ['Decision'] }, { scope: 'nope' }]) {
				const t = await engine.timeline({ ...f, types: f.types as never, limit: 200, max_content_chars: 0 });
				expect(reads.scanIds(f, 200)).toEqual({ ids: t.memories.map((m) => m.id), total: t.total });
				expect(reads.scanIds(f, 3).ids).toEqual(t.memories.slice(0, 3).map((m) => m.id));
			}
		});

		it('refuses a bad scan filter as the timeline does', () => {
			expect(() => new GraphReads(engine.ctx).scanIds({ types: ['Nonsense'] }, 10)).toThrow(/types/);
		});
	});
});

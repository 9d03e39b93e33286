/**
 * query_memory_graph through a real Client and Engine: the examples of its description, every
 * relationship kind, aggregation and paging, and the completeness flags (has_more, truncated,
 * partial) with their notes; errors name what is wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphQueryOutput } from '../../../src/core/graph-schemas';
import type { Engine } from '../../../src/engine/engine';
import { CORPUS, seedCorpus, type CorpusKey } from './corpus';
import { connect, data, errorText, makeEngine, text, type Connection } from './helpers';

let engine: Engine;
let c: Connection;
let ids: Record<CorpusKey, string>;

beforeAll(async () => {
	engine = await makeEngine();
	ids = await seedCorpus(engine);
	await engine.associate({
		associations: [
			{ memory1_id: ids.timeout, memory2_id: ids.indexes, type: 'LEADS_TO', strength: 0.9 },
			{
				memory1_id: ids.redisCache,
				memory2_id: ids.redisOom,
				type: 'OCCURRED_BEFORE',
				strength: 1,
			},
			{ memory1_id: ids.redisOom, memory2_id: ids.cacheMove, type: 'OCCURRED_BEFORE', strength: 1 },
		],
	});
	c = await connect(engine);
});
afterAll(async () => {
	await c.close();
	await engine.close();
});

const query = async (q: string, params?: Record<string, unknown>) => data<GraphQueryOutput>(await c.call('query_memory_graph', { query: q, params }));
const seqOf = (k: CorpusKey) => Object.keys(ids).indexOf(k) + 1;

describe('query_memory_graph', () => {
	describe('the examples of its description', () => {
		it('decisions that mention PostgreSQL, newest first', async () => {
			const out = await query(
				'MATCH (e:Entity {name: "PostgreSQL"})<-[:MENTIONS]-(m) WHERE m.type = "Decision" RETURN m ORDER BY m.timestamp DESC LIMIT 10',
			);
			expect(out.rows.map((r) => (r.m as { id: string }).id)).toEqual([ids.cacheMove, ids.kafka, ids.pgChoice]);
			expect(out).toMatchObject({
				columns: ['m'],
				count: 3,
				has_more: false,
				truncated: false,
				partial: false,
			});
			expect(out.rows[0].m).toMatchObject({
				seq: seqOf('cacheMove'),
				type: 'Decision',
				tags: ['cache', 'auth'],
				snippet: 'Moved the session cache from Redis to PostgreSQL so sessions are never evicted.',
			});
		});

		it('stored SIMILAR_TO links from billing memories above a strength', async () => {
			const out = await query('MATCH (m:Memory {tag: "billing"})-[r:SIMILAR_TO {min: 0.6}]->(n) RETURN m.id, n, r.strength LIMIT 50');
			expect(out.count).toBeGreaterThan(0);
			for (const row of out.rows) expect(row['r.strength'] as number).toBeGreaterThanOrEqual(0.6);
		});

		it('START from a sentence, then memories sharing two entities, rarest first', async () => {
			const out = await query(
				'START a = events(text: $q, k: 5) MATCH (a)-[s:SHARES {min: 2}]-(b) RETURN b, s.count, s.via ORDER BY s.weight DESC LIMIT 10',
				{ q: 'the session cache outage' },
			);
			expect(out.count).toBeGreaterThan(0);
			for (const row of out.rows) {
				expect(row['s.count']).toBeGreaterThanOrEqual(2);
				expect((row['s.via'] as string[]).length).toBe(row['s.count']);
			}
		});

		it('what came next in the thread, up to three steps', async () => {
			const out = await query('START a = events(ids: [$id]) MATCH (a)-[n:NEXT*1..3]->(b) RETURN b.id, n.hops ORDER BY n.hops', { id: ids.redisCache });
			expect(out.rows.slice(0, 2)).toEqual([
				{ 'b.id': ids.redisOom, 'n.hops': 1 },
				{ 'b.id': ids.cacheMove, 'n.hops': 2 },
			]);
		});
	});

	describe('relationships', () => {
		it('counts co-occurrence: memories per entity', async () => {
			const out = await query('MATCH (m)-[:MENTIONS]->(e:Entity) RETURN e.name, count(DISTINCT m) AS n ORDER BY n DESC, e.name LIMIT 3');
			expect(out.rows).toEqual([
				{ 'e.name': 'billing-service', n: 8 },
				{ 'e.name': 'PostgreSQL', n: 8 },
				{ 'e.name': 'auth-service', n: 6 },
			]);
			expect(out).toMatchObject({ has_more: true, next_skip: 3 });
		});

		it('walks Tag nodes both ways', async () => {
			const back = await query('MATCH (t:Tag {name: "auth"})<-[:TAGGED]-(m) RETURN m.seq ORDER BY m.seq');
			expect(back.rows.map((r) => r['m.seq'])).toEqual(
				['redisCache', 'redisOom', 'cacheMove', 'jwt', 'sarahLead', 'opaque'].map((k) => seqOf(k as CorpusKey)),
			);
			const forth = await query('MATCH (m {id: $id})-[:TAGGED]->(t) RETURN t.name', {
				id: ids.kafka,
			});
			expect(forth.rows).toEqual([{ 't.name': 'billing' }, { 't.name': 'architecture' }]);
		});

		it('filters entities with CONTAINS (ignoring case) and DISTINCT', async () => {
			const out = await query(
				'START a = events(entity: "Redis", k: 200) MATCH (a)-[:MENTIONS]-(e) WHERE e.name CONTAINS "SERVICE" RETURN DISTINCT e.name',
			);
			expect(out.rows).toEqual([{ 'e.name': 'auth-service' }]);
		});

		it('finds structurally close but semantically far memories with SHARES and FAR', async () => {
			const out = await query('START a = events(ids: [$id]) MATCH (a)-[s:SHARES]-(b)-[f:FAR {max: 0.3}]-(a) RETURN b.id, f.cos', { id: ids.pgChoice });
			expect(out.count).toBeGreaterThan(0);
			for (const row of out.rows) expect(row['f.cos'] as number).toBeLessThan(0.3);
		});

		it('returns stored links with their fields', async () => {
			const out = await query('MATCH (a)-[r:LEADS_TO]->(b) RETURN a.seq, r.strength, b.seq');
			expect(out.rows).toEqual([{ 'a.seq': seqOf('timeout'), 'r.strength': 0.9, 'b.seq': seqOf('indexes') }]);
		});

		it('finds nearest neighbours with SIMILAR and scores pairs with cos()', async () => {
			const out = await query('MATCH (a {seq: 1})-[r:SIMILAR {k: 2}]-(b) RETURN b.seq, r.cos, cos(a, b) AS c');
			expect(out.count).toBe(2);
			for (const row of out.rows) expect(row.c).toBeCloseTo(row['r.cos'] as number, 2);
		});

		it('reports START scores as a.score', async () => {
			const out = await query('START a = events(text: $q, k: 3) RETURN a.id, a.score ORDER BY a.score DESC', { q: 'Which database did billing choose?' });
			expect(out.count).toBe(3);
			expect(out.rows[0]['a.id']).toBe(ids.pgChoice);
			expect(typeof out.rows[0]['a.score']).toBe('number');
		});
	});

	describe('paging and completeness', () => {
		it('cuts to the default LIMIT 20 with a note, and pages with SKIP', async () => {
			const out = await query('MATCH (m)-[:MENTIONS]->(e) RETURN m.seq, e.id');
			expect(out).toMatchObject({ count: 20, has_more: true, next_skip: 20, truncated: false });
			expect(out.notes).toContain('rows cut to the default LIMIT 20; add LIMIT (up to 200) to return more');
			const next = await query('MATCH (m)-[:MENTIONS]->(e) RETURN m.seq, e.id SKIP 20 LIMIT 200');
			expect(next.has_more).toBe(false);
			expect(out.count + next.count).toBe(Object.values(CORPUS).reduce((n, m) => n + (m.entities?.length ?? 0), 0));
		});

		it('caps LIMIT at 200', async () => {
			expect((await query('MATCH (m) RETURN m.seq LIMIT 1000')).notes).toContain('LIMIT 1000 capped at 200');
		});

		it('renders rows as compact text with the flags', async () => {
			const t = text(
				await c.call('query_memory_graph', {
					query: 'MATCH (e:Entity {name: "Kafka"})<-[:MENTIONS]-(m) RETURN m, e',
				}),
			);
			expect(t).toBe(
				`1 rows: m | e\n#${seqOf('kafka')} ${ids.kafka} We evaluated Kafka for billing events but kept an outbox table in PostgreSQL instead. | Kafka (tool:kafka)`,
			);
		});
	});

	describe('errors', () => {
		it('reports parse errors with position', async () => {
			expect(errorText(await c.call('query_memory_graph', { query: 'MATCH (m RETURN m' }))).toBe(
				'invalid_input: query: at line 1, column 10 (offset 9): expected ")", found "RETURN"',
			);
		});

		it('names an unknown property and lists the real ones', async () => {
			expect(errorText(await c.call('query_memory_graph', { query: 'MATCH (m) RETURN m.author' }))).toBe(
				'invalid_input: query: a Memory has no property "author" (it has id, seq, content, summary, type, tags, scope, source, importance, confidence, timestamp, updated_at, t_valid, t_invalid, access_count, current, entities, score)',
			);
		});

		it('refuses FAR with an unbound end', async () => {
			expect(errorText(await c.call('query_memory_graph', { query: 'MATCH (a)-[:FAR]-(b) RETURN b' }))).toBe(
				'invalid_input: query: FAR needs both ends already bound, e.g. (a)-[:SHARES]-(b)-[:FAR {max: 0.5}]-(a)',
			);
		});

		it('refuses a wrong arrow on MENTIONS instead of flipping it', async () => {
			expect(
				errorText(
					await c.call('query_memory_graph', {
						query: 'MATCH (e:Entity {name: "Kafka"})-[:MENTIONS]->(m) RETURN m',
					}),
				),
			).toBe('invalid_input: query: MENTIONS points from a Memory to an Entity: write (e)<-[:MENTIONS]-(m)');
		});

		it('names a missing parameter', async () => {
			expect(errorText(await c.call('query_memory_graph', { query: 'START a = events(text: $q) RETURN a' }))).toBe(
				'invalid_input: params: $q is used in the query but not given in params',
			);
		});

		it('names a missing $__proto__ or $constructor parameter (it bound what every object inherits: <> $__proto__ matched every memory)', async () => {
			for (const name of ['__proto__', 'constructor'])
				expect(errorText(await c.call('query_memory_graph', { query: `MATCH (m) WHERE m.content <> $${name} RETURN m.id` }))).toBe(
					`invalid_input: params: $${name} is used in the query but not given in params`,
				);
		});

		it('refuses two columns of one name (the rows lost the first one) and a column named __proto__ (the rows lost it)', async () => {
			expect(errorText(await c.call('query_memory_graph', { query: 'MATCH (m) RETURN m.id AS a, m.content AS a' }))).toBe(
				'invalid_input: query: two RETURN columns are named "a"; give one another name with AS',
			);
			expect(errorText(await c.call('query_memory_graph', { query: 'MATCH (m) RETURN m.id AS __proto__' }))).toMatch(
				/"__proto__" cannot name a RETURN column/,
			);
		});

		it('refuses an Entity start without a name or id', async () => {
			expect(errorText(await c.call('query_memory_graph', { query: 'MATCH (e:Entity {type: "tool"}) RETURN e' }))).toBe(
				'invalid_input: query: an Entity node needs {name: "…"} or {id: "…"} to start from, or must be reached from a memory: (m)-[:MENTIONS]->(e:Entity)',
			);
		});
	});
});

describe('query_memory_graph bounds', () => {
	let big: Engine;
	let bc: Connection;
	beforeAll(async () => {
		big = await makeEngine();
		const text = (i: number) => `Redis note ${i}: ` + `cache shard ${i} keeps hot keys for the storefront and the checkout service. `.repeat(500);
		await big.store({
			memories: Array.from({ length: 210 }, (_, i) => ({
				content: text(i).slice(0, 40_000),
				entities: [{ name: 'Redis', type: 'tool' }],
				force: true,
			})),
		});
		bc = await connect(big);
	});
	afterAll(async () => {
		await bc.close();
		await big.close();
	});

	it('sets partial when an entity fans out past the cap, and says where', async () => {
		const out = data<GraphQueryOutput>(
			await bc.call('query_memory_graph', {
				query: 'MATCH (e:Entity {name: "Redis"})<-[:MENTIONS]-(m) RETURN count(m) AS n',
			}),
		);
		expect(out.rows).toEqual([{ n: 200 }]);
		expect(out.partial).toBe(true);
		expect(out.notes).toContain('entity tool:redis is mentioned by 210 memories; followed 200');
	});

	it('answers unconnected patterns (a product of every memory) promptly, cut at the row cap', async () => {
		const t = performance.now();
		const out = data<GraphQueryOutput>(await bc.call('query_memory_graph', { query: 'MATCH (a), (b), (c), (d), (e), (f) RETURN a.seq LIMIT 1' }));
		// Each pattern past the second once built 5000 × 210 rows to keep 5000: ~20 s here.
		expect(performance.now() - t).toBeLessThan(5_000);
		expect(out).toMatchObject({ count: 1, partial: true, notes: ['stopped at 5000 intermediate rows; narrow the pattern'] });
	});

	it('stops after GRAPH_LIMITS.workMs of work by the engine clock and says so (partial)', async () => {
		let ms = Date.parse('2026-03-10T12:00:00Z');
		const slow = await makeEngine({ now: () => (ms += 50) });
		await slow.store({ memories: Array.from({ length: 30 }, (_, i) => ({ content: `Ann and Bo met in Oslo, note ${i}`, force: true })) });
		const sc = await connect(slow);
		const chain = `MATCH ${Array.from({ length: 8 }, (_, i) => `(v${i})`).join('-[:SHARES*1..3]-')} RETURN v0.seq LIMIT 1`;
		const out = data<GraphQueryOutput>(await sc.call('query_memory_graph', { query: chain }));
		expect(out.partial).toBe(true);
		expect(out.notes).toContain('stopped after 2 s of work; narrow the pattern');
		await sc.close();
		await slow.close();
	});

	it('refuses more node patterns than GRAPH_LIMITS.nodes, naming the count', async () => {
		const vars = Array.from({ length: 13 }, (_, i) => `(v${i})`).join(', ');
		expect(errorText(await bc.call('query_memory_graph', { query: `MATCH ${vars} RETURN v0 LIMIT 1` }))).toBe(
			'invalid_input: query: at most 12 node patterns in one query (this one has 13); connect them with relationships or run several queries',
		);
	});

	it('sets truncated when rows exceed the output budget, and keeps has_more for the rest', async () => {
		const out = data<GraphQueryOutput>(await bc.call('query_memory_graph', { query: 'MATCH (m) RETURN m.content LIMIT 30' }));
		expect(out.truncated).toBe(true);
		expect(out.count).toBeLessThan(30);
		expect(out.has_more).toBe(true);
		expect(JSON.stringify(out).length).toBeLessThan(600_000);
	});
});

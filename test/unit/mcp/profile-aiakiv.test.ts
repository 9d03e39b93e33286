/**
 * The aiakiv profile through a real Client: save_memory (summary, entities, prev_event_id
 * threads, payload recovery, truncation markers), search_memory, get_memory_content, seed 002's
 * find_memory_connections in AiAkiv's own vocabulary, query_memory_graph, the timeline and
 * entity listings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionsOutput, GraphQueryOutput } from '../../../src/core/graph-schemas';
import type { Engine } from '../../../src/engine/engine';
import { seedCorpus, type CorpusKey } from './corpus';
import { refuseLink } from '../engine/helpers';
import { connect, data, errorText, makeEngine, text, type Connection } from './helpers';

type Saved = {
	event_id: string;
	status: string;
	entities: { name: string; type: string }[];
	prev_event_id?: string;
};
type Content = {
	event_id: string;
	summary?: string;
	content: string;
	prev_event_ids: string[];
	next_event_ids: string[];
};

let engine: Engine;
let c: Connection;
let ids: Record<CorpusKey, string>;

beforeAll(async () => {
	engine = await makeEngine();
	ids = await seedCorpus(engine);
	c = await connect(engine, 'aiakiv');
});
afterAll(async () => {
	await c.close();
	await engine.close();
});

const PREFIX = 'MCP error -32602: Input validation error: Invalid arguments for tool save_memory: ';

describe('aiakiv profile', () => {
	describe('save_memory', () => {
		let first: Saved;

		it('saves an event with summary, entities and tags, and returns its event_id', async () => {
			const r = await c.call('save_memory', {
				summary: 'Mina chose PgBouncer in transaction mode for the billing service connection pool.',
				entities: [
					{ name: 'PgBouncer', type: 'tool' },
					{ name: 'Mina', type: 'person' },
				],
				tags: ['billing'],
				content: 'Billing opened too many PostgreSQL connections under load; Mina put PgBouncer in front in transaction mode with a pool of 40.',
			});
			first = data<Saved>(r);
			expect(first).toMatchObject({
				status: 'saved',
				entities: [
					{ name: 'PgBouncer', type: 'tool' },
					{ name: 'Mina', type: 'person' },
				],
			});
			expect(text(r)).toBe(`Saved event ${first.event_id}. Entities: PgBouncer (tool), Mina (person).`);
		});

		it('chains a thread with prev_event_id, visible from both ends', async () => {
			const second = data<Saved>(
				await c.call('save_memory', {
					summary: 'PgBouncer pool size for billing raised from 40 to 60 after the March load test.',
					content: 'The load test saturated 40 server connections; raised to 60.',
					entities: [{ name: 'PgBouncer', type: 'tool' }],
					prev_event_id: first.event_id,
				}),
			);
			expect(second.prev_event_id).toBe(first.event_id);
			const later = data<Content>(await c.call('get_memory_content', { event_id: second.event_id }));
			const earlier = data<Content>(await c.call('get_memory_content', { event_id: first.event_id }));
			expect(later.prev_event_ids).toContain(first.event_id);
			expect(earlier.next_event_ids).toContain(second.event_id);
		});

		it('refuses an unknown prev_event_id before writing anything', async () => {
			const before = (await engine.stats({})).total_memories;
			expect(
				errorText(
					await c.call('save_memory', {
						summary: 'Orphan event.',
						content: 'Nothing precedes this.',
						prev_event_id: 'no-such-event',
					}),
				),
			).toBe('not_found: prev_event_id: no event with id "no-such-event"');
			expect((await engine.stats({})).total_memories).toBe(before);
		});

		it('takes the whole call as payload (JSON string or object) when arguments collapse', async () => {
			const asString = data<Saved>(
				await c.call('save_memory', {
					payload: JSON.stringify({
						summary: 'Grafana alert for billing p99 latency fires above 300 ms.',
						entities: [{ name: 'Grafana', type: 'tool' }],
						tags: ['billing'],
						content: 'Alert rule billing-p99 in the ops folder.',
					}),
				}),
			);
			expect(asString.status).toBe('saved');
			const asObject = data<Saved>(
				await c.call('save_memory', {
					payload: {
						summary: 'Grafana alert for auth error rate fires above 2 percent.',
						content: 'Alert rule auth-errors in the ops folder.',
					},
				}),
			);
			expect((await engine.getMemories([asObject.event_id]))[0]!.summary).toBe('Grafana alert for auth error rate fires above 2 percent.');
		});

		it('checks payload with the same rules, naming the field inside it', async () => {
			expect(errorText(await c.call('save_memory', { payload: '{"summary": "x"' }))).toMatch(/^invalid_input: payload: not valid JSON \(/);
			expect(errorText(await c.call('save_memory', { payload: { summary: 's'.repeat(501), content: 'c' } }))).toBe(
				'invalid_input: payload.summary: Too big: expected string to have <=500 characters',
			);
			expect(errorText(await c.call('save_memory', { payload: { summary: 'No content here.' } }))).toBe(
				'invalid_input: payload.content: Invalid input: expected string, received undefined',
			);
		});

		it('requires summary and content, and caps the summary at 500 characters', async () => {
			expect(errorText(await c.call('save_memory', { content: 'Only content.' }))).toBe(`${PREFIX}summary is required (or give payload) at summary`);
			expect(errorText(await c.call('save_memory', { summary: 's'.repeat(501), content: 'c' }))).toBe(
				`${PREFIX}Too big: expected string to have <=500 characters at summary`,
			);
		});

		it('refuses content carrying a truncation marker unless told otherwise', async () => {
			expect(
				errorText(
					await c.call('save_memory', {
						summary: 'Log of the outage.',
						content: 'First lines of the log … 2183 tokens truncated … last lines.',
					}),
				),
			).toBe(
				'invalid_input: content: truncation_marker_detected (… 2183 tokens truncated …); re-read the source in full and save again, or pass allow_truncation_marker: true if the marker is part of what you mean to record',
			);
			expect(
				data<Saved>(
					await c.call('save_memory', {
						summary: 'Bug: the CLI prints [truncated] on long lines.',
						content: 'Output ends with [truncated] when a line passes 4096 bytes.',
						allow_truncation_marker: true,
					}),
				).status,
			).toBe('saved');
		});

		it('stores an event and its prev_event_id link as one write: a failed link leaves nothing stored', async () => {
			const own = await makeEngine();
			const state = { on: false };
			// Dexie builds its middleware stack when it opens.
			own.db.use(refuseLink('OCCURRED_BEFORE', state));
			own.db.close();
			await own.db.open();
			const oc = await connect(own, 'aiakiv');
			try {
				const prev = data<Saved>(
					await oc.call('save_memory', {
						summary: 'Billing chose PgBouncer in transaction mode.',
						content: 'Too many PostgreSQL connections under load; PgBouncer fronts them now.',
					}),
				);
				state.on = true;
				const next = {
					summary: 'Grafana alerts on billing p99 latency above 300 ms.',
					content: 'Alert rule billing-p99 in the ops folder.',
					prev_event_id: prev.event_id,
				};
				expect(errorText(await oc.call('save_memory', next))).toMatch(/^quota_exceeded: /);
				expect((await own.stats({})).total_memories).toBe(1);
				expect(await own.associationsOf(prev.event_id)).toEqual([]);
				state.on = false;
				expect(data<Saved>(await oc.call('save_memory', next)).prev_event_id).toBe(prev.event_id);
				expect((await own.stats({})).total_memories).toBe(2);
			} finally {
				await oc.close();
				await own.close();
			}
		});
	});

	describe('search_memory and get_memory_content', () => {
		it('search_memory({ query, top_k }) ranks events and returns their ids and summaries', async () => {
			const r = await c.call('search_memory', {
				query: 'Which database did billing choose and why?',
				top_k: 3,
			});
			const out = data<{
				results: { event_id: string; summary: string; score: number; entities: string[] }[];
				count: number;
				mode: string;
			}>(r);
			expect(out).toMatchObject({ count: 3, mode: 'hybrid' });
			expect(out.results[0]).toMatchObject({
				event_id: ids.pgChoice,
				entities: ['PostgreSQL', 'MongoDB', 'billing-service'],
			});
			expect(text(r).split('\n')[0]).toMatch(new RegExp(`^1\\. ${ids.pgChoice} \\(\\d\\.\\d+\\) 2025-01-10 — Chose PostgreSQL`));
		});

		it('supports keyword and semantic modes', async () => {
			const kw = data<{ results: { event_id: string }[] }>(await c.call('search_memory', { query: 'PgBouncer', mode: 'keyword', top_k: 5 }));
			expect(kw.results.length).toBeGreaterThan(0);
			const sem = data<{ results: { event_id: string }[]; mode: string }>(
				await c.call('search_memory', {
					query: 'How long do sessions stay in the cache?',
					mode: 'semantic',
					top_k: 5,
				}),
			);
			expect(sem.mode).toBe('semantic');
			expect(sem.results.map((x) => x.event_id).filter((id) => [ids.redisCache, ids.redisOom, ids.cacheMove].includes(id)).length).toBeGreaterThanOrEqual(
				2,
			);
		});

		it('get_memory_content({ event_id }) opens the full event', async () => {
			const out = data<Content>(await c.call('get_memory_content', { event_id: ids.kafka }));
			expect(out).toMatchObject({
				event_id: ids.kafka,
				content: 'We evaluated Kafka for billing events but kept an outbox table in PostgreSQL instead.',
				timestamp: '2025-06-12T09:00:00.000Z',
			});
			expect(errorText(await c.call('get_memory_content', { event_id: 'nope' }))).toBe('not_found: memory_id: no memory with id "nope"');
		});
	});

	describe('graph tools in AiAkiv vocabulary', () => {
		it('find_memory_connections (seed 002) routes to search_memory and get_memory_content in its description', async () => {
			const { tools } = await c.client.listTools();
			const desc = tools.find((t) => t.name === 'find_memory_connections')!.description!;
			expect(desc).toContain('Do not use it for a direct answer to a question; use search_memory for that.');
			expect(desc).toContain('event_id feeds get_memory_content.');
			expect(desc).not.toMatch(/\brecall_memory\b|\bget_memory\b(?!_)/);
		});

		it('walks from a sentence and from an entity, as seed 002 describes', async () => {
			const walk = data<ConnectionsOutput>(
				await c.call('find_memory_connections', {
					sentence: 'Mina set up nightly backups of the billing database.',
					expansion_rounds: 2,
				}),
			);
			expect(walk.grounding).toBe('grounded');
			expect(walk.candidates.some((x) => x.round === 2)).toBe(true);
			const explore = data<ConnectionsOutput>(
				await c.call('find_memory_connections', {
					relation: 'explore',
					anchor_entity_id: 'tool:kafka',
				}),
			);
			expect(explore).toMatchObject({
				grounding: 'exploration',
				candidates: [{ event_id: ids.kafka, bridge_entity_id: 'tool:kafka' }],
			});
			expect(
				errorText(
					await c.call('find_memory_connections', {
						relation: 'before',
						sentence: 'Billing timed out.',
					}),
				),
			).toMatch(/needs exactly one of reference_time or anchor_event_id \(there is no implicit "now"\) at reference_time$/);
		});

		it("query_memory_graph runs AiAkiv's START recipes", async () => {
			const out = data<GraphQueryOutput>(
				await c.call('query_memory_graph', {
					query: 'START a = events(entity: "Redis", k: 200) MATCH (a)-[:PARTICIPATED_IN]-(n {name: $b}) RETURN DISTINCT a.id',
					params: { b: 'PostgreSQL' },
				}),
			);
			expect(out.rows).toEqual([{ 'a.id': ids.cacheMove }]);
		});
	});

	describe('browsing', () => {
		it('list_memory_timeline({ entity }) gives the entity chronology, oldest first', async () => {
			const out = data<{ events: { event_id: string; timestamp: string }[]; total: number }>(await c.call('list_memory_timeline', { entity: 'Redis' }));
			expect(out.events.map((e) => e.event_id)).toEqual([ids.redisCache, ids.redisOom, ids.cacheMove]);
			expect(out.total).toBe(3);
			expect(errorText(await c.call('list_memory_timeline', { entity: 'Redys' }))).toMatch(/^not_found: entity: no entity "Redys"/);
		});

		it('list_memory_timeline windows by time', async () => {
			const out = data<{ events: { event_id: string }[] }>(
				await c.call('list_memory_timeline', {
					start: '2025-03-01T00:00:00Z',
					end: '2025-04-01T00:00:00Z',
				}),
			);
			expect(out.events.map((e) => e.event_id)).toEqual([ids.timeout, ids.indexes]);
		});

		it('find_memories_by_entity lists events with the entity record', async () => {
			const r = await c.call('find_memories_by_entity', { entity: 'Sarah' });
			const out = data<{
				entity: { id: string; event_count: number };
				events: { event_id: string }[];
			}>(r);
			expect(out).toMatchObject({ entity: { id: 'person:sarah', event_count: 2 } });
			expect(out.events.map((e) => e.event_id)).toEqual([ids.opaque, ids.sarahLead]);
			expect(text(r).split('\n')[0]).toBe('Sarah (person:sarah): 2 events');
		});
	});
});

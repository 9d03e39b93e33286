/**
 * find_memory_connections (seed 002) through a real Client and Engine: every argument rule with
 * its exact message, and the walk itself on the team corpus — entry, bridges, paths, rounds,
 * cosine percentiles, each relation, grounding and truncations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectionsOutput } from '../../../src/core/graph-schemas';
import type { Engine } from '../../../src/engine/engine';
import { CORPUS, seedCorpus, type CorpusKey } from './corpus';
import { connect, data, errorText, makeEngine, text, type Connection } from './helpers';

let engine: Engine;
let c: Connection;
let ids: Record<CorpusKey, string>;
let keyOf: Record<string, CorpusKey>;

beforeAll(async () => {
	engine = await makeEngine();
	ids = await seedCorpus(engine);
	keyOf = Object.fromEntries(Object.entries(ids).map(([k, v]) => [v, k as CorpusKey]));
	c = await connect(engine);
});
afterAll(async () => {
	await c.close();
	await engine.close();
});

const walk = async (args: Record<string, unknown>) => data<ConnectionsOutput>(await c.call('find_memory_connections', args));
const rule = async (args: Record<string, unknown>) => errorText(await c.call('find_memory_connections', args));
const PREFIX = 'MCP error -32602: Input validation error: Invalid arguments for tool find_memory_connections: ';

describe('find_memory_connections', () => {
	describe('argument rules', () => {
		it('requires sentence for the default relation', async () => {
			expect(await rule({})).toBe(`${PREFIX}sentence is required for relation "similar" (only explore may omit it) at sentence`);
		});

		it('requires sentence for every relation except explore', async () => {
			for (const relation of ['before', 'after', 'evolution', 'contrast'])
				expect(
					await rule({
						relation,
						reference_time: relation === 'before' || relation === 'after' ? '2025-06-01T00:00:00Z' : undefined,
					}),
				).toBe(`${PREFIX}sentence is required for relation "${relation}" (only explore may omit it) at sentence`);
		});

		it('forbids sentence for explore and requires anchor_entity_id', async () => {
			expect(await rule({ relation: 'explore', sentence: 'Who works on billing?' })).toBe(
				`${PREFIX}sentence is forbidden for relation "explore" at sentence\nanchor_entity_id is required for relation "explore" at anchor_entity_id`,
			);
			expect(await rule({ relation: 'explore' })).toBe(`${PREFIX}anchor_entity_id is required for relation "explore" at anchor_entity_id`);
		});

		it('needs exactly one of reference_time or anchor_event_id for before and after: no implicit now', async () => {
			expect(await rule({ relation: 'before', sentence: 'Sessions were evicted.' })).toBe(
				`${PREFIX}relation "before" needs exactly one of reference_time or anchor_event_id (there is no implicit "now") at reference_time`,
			);
			expect(
				await rule({
					relation: 'after',
					sentence: 'Sessions were evicted.',
					reference_time: '2025-06-01T00:00:00Z',
					anchor_event_id: ids.redisOom,
				}),
			).toBe(`${PREFIX}relation "after" needs exactly one of reference_time or anchor_event_id, not both at anchor_event_id`);
		});

		it('refuses a time basis for relations that do not use one', async () => {
			expect(await rule({ sentence: 'Sessions were evicted.', reference_time: '2025-06-01T00:00:00Z' })).toBe(
				`${PREFIX}reference_time only applies to relation "before" or "after", not "similar" at reference_time`,
			);
			expect(
				await rule({
					relation: 'contrast',
					sentence: 'Sessions were evicted.',
					anchor_event_id: ids.redisOom,
				}),
			).toBe(`${PREFIX}anchor_event_id only applies to relation "before" or "after", not "contrast" at anchor_event_id`);
		});

		it('checks value forms: relation, reference_time, top_n, expansion_rounds', async () => {
			expect(await rule({ sentence: 'x y z.', relation: 'sideways' })).toBe(
				`${PREFIX}Invalid option: expected one of "similar"|"before"|"after"|"evolution"|"contrast"|"explore" at relation`,
			);
			expect(await rule({ sentence: 'x y z.', relation: 'before', reference_time: 'last week' })).toBe(
				`${PREFIX}must be an ISO 8601 date or date-time, e.g. 2024-03-01 or 2024-03-01T09:30:00Z at reference_time`,
			);
			expect(await rule({ sentence: 'x y z.', top_n: 0 })).toBe(`${PREFIX}Too small: expected number to be >=1 at top_n`);
			expect(await rule({ sentence: 'x y z.', expansion_rounds: 3 })).toBe(`${PREFIX}Too big: expected number to be <=2 at expansion_rounds`);
		});

		it('reports an unknown anchor entity or event as not_found', async () => {
			expect(await rule({ relation: 'explore', anchor_entity_id: 'person:nobody' })).toBe('not_found: anchor_entity_id: no entity "person:nobody"');
			expect(
				await rule({
					relation: 'after',
					sentence: 'Sessions were evicted.',
					anchor_event_id: 'no-such-event',
				}),
			).toBe('not_found: anchor_event_id: no memory with id "no-such-event"');
		});
	});

	describe('similar (default)', () => {
		it('walks from the entry through shared entities to memories outside it, with path and evidence', async () => {
			const out = await walk({ sentence: 'Mina set up nightly backups of the billing database.' });
			expect(out).toMatchObject({
				relation: 'similar',
				grounding: 'grounded',
				searched_scope: { scope: '*', memories: 20 },
			});
			expect(out.entry[0]).toMatchObject({ event_id: ids.backups, via: 'vector' });
			const entryIds = new Set(out.entry.map((e) => e.event_id));
			expect(out.candidates.length).toBeGreaterThan(0);
			expect(out.candidates.length).toBeLessThanOrEqual(8);
			for (const cand of out.candidates) {
				expect(entryIds.has(cand.event_id)).toBe(false);
				expect(cand.round).toBe(1);
				expect(cand.path).toHaveLength(3);
				expect(entryIds.has(cand.path[0])).toBe(true);
				expect(cand.path[1]).toBe(cand.bridge_entity_id);
				expect(cand.path[2]).toBe(cand.event_id);
				// The bridge really is shared by both ends.
				const [from, to] = [CORPUS[keyOf[cand.path[0]]], CORPUS[keyOf[cand.event_id]]];
				const names = (m: typeof from) => (m.entities ?? []).map((e) => `${e.type}:${e.name.toLowerCase()}`);
				expect(names(from)).toContain(cand.bridge_entity_id);
				expect(names(to)).toContain(cand.bridge_entity_id);
				expect(cand.cosine_percentile).toBeGreaterThanOrEqual(0);
				expect(cand.cosine_percentile).toBeLessThanOrEqual(100);
			}
			expect(out.bridges.map((b) => b.entity_id)).toEqual(expect.arrayContaining([...new Set(out.candidates.map((x) => x.bridge_entity_id))]));
		});

		it('computes cosine_percentile as the share of memories less similar to the sentence', async () => {
			const sentence = 'The billing service timed out under load.';
			const out = await walk({ sentence });
			const vec = (await engine.embed(sentence))!;
			const all = (await engine.nearest(vec, 100)).map((n) => n.cosine);
			for (const cand of out.candidates) {
				const below = all.filter((x) => x < cand.cosine! - 1e-3).length;
				const atOrBelow = all.filter((x) => x <= cand.cosine! + 1e-3).length;
				expect(cand.cosine_percentile!).toBeGreaterThanOrEqual((100 * below) / all.length - 0.1);
				expect(cand.cosine_percentile!).toBeLessThanOrEqual((100 * atOrBelow) / all.length + 0.1);
			}
		});

		it('re-expands in round 2 through bridges round 1 did not use', async () => {
			const out = await walk({
				sentence: 'Mina set up nightly backups of the billing database.',
				expansion_rounds: 2,
			});
			const r1 = out.candidates.filter((x) => x.round === 1);
			const r2 = out.candidates.filter((x) => x.round === 2);
			expect(r2.length).toBeGreaterThan(0);
			expect(r2.length).toBeLessThanOrEqual(8);
			const r1Bridges = new Set(r1.map((x) => x.bridge_entity_id));
			const r1Ids = new Set(r1.map((x) => x.event_id));
			for (const cand of r2) {
				expect(cand.path).toHaveLength(5);
				expect(r1Ids.has(cand.path[2])).toBe(true);
				expect(r1Bridges.has(cand.bridge_entity_id)).toBe(false);
				expect(r1Ids.has(cand.event_id)).toBe(false);
			}
			expect(
				text(
					await c.call('find_memory_connections', {
						sentence: 'Mina set up nightly backups of the billing database.',
						expansion_rounds: 2,
					}),
				),
			).toMatch(/^grounding: grounded — best entry cosine/);
		});

		it('caps top_n at 25 and says so', async () => {
			const out = await walk({ sentence: 'The billing service timed out under load.', top_n: 100 });
			expect(out.truncations).toContain('top_n 100 capped at 25');
		});

		it('returns top_n candidates per round', async () => {
			const out = await walk({
				sentence: 'The billing service timed out under load.',
				top_n: 2,
				expansion_rounds: 2,
			});
			expect(out.candidates.filter((x) => x.round === 1)).toHaveLength(2);
			expect(out.candidates.filter((x) => x.round === 2).length).toBeLessThanOrEqual(2);
		});

		it('is an honest empty (absent) when nothing is near the sentence', async () => {
			const out = await walk({ sentence: 'The violin concerto premiered in Vienna in 1878.' });
			expect(out).toMatchObject({ grounding: 'absent', candidates: [], bridges: [] });
			expect(out.grounding_basis).toMatch(/nothing in scope is near the sentence$/);
		});

		it('enters by keywords when the model knows no word of the sentence: grounding weak', async () => {
			const stored = await engine.store({
				content: 'Zorblax quxwell ingestion feeds the Grafana board.',
				entities: [{ name: 'Grafana', type: 'tool' }],
			});
			const out = await walk({ sentence: 'zorblax quxwell' });
			expect(out.entry).toEqual([
				expect.objectContaining({
					event_id: stored.results[0].memory_id,
					via: 'lexical',
					cosine: null,
				}),
			]);
			expect(out).toMatchObject({
				grounding: 'weak',
				grounding_basis: 'entered by keywords only: the model knows no word of the sentence',
			});
			expect(out.candidates.map((x) => x.event_id)).toContain(ids.grafana);
			expect(out.candidates.every((x) => x.cosine === null && x.cosine_percentile === null)).toBe(true);
		});

		it('is absent when neither meaning nor keywords match', async () => {
			expect(await walk({ sentence: 'zzqx vbnm' })).toMatchObject({
				grounding: 'absent',
				grounding_basis: 'no memory in scope shares a word or meaning with the sentence',
			});
		});
	});

	describe('before / after', () => {
		it('before reference_time: every candidate is older than it', async () => {
			const out = await walk({
				sentence: 'How do we keep sessions from being evicted?',
				relation: 'before',
				reference_time: '2025-06-01T00:00:00Z',
			});
			expect(out.candidates.length).toBeGreaterThan(0);
			for (const cand of out.candidates) expect(cand.timestamp < '2025-06-01T00:00:00.000Z').toBe(true);
			expect(out.searched_scope.time_window).toEqual({ before: '2025-06-01T00:00:00.000Z' });
		});

		it('after anchor_event_id: every candidate is newer than the anchor, which joins the entry', async () => {
			const out = await walk({
				sentence: 'How do we keep sessions from being evicted?',
				relation: 'after',
				anchor_event_id: ids.redisOom,
			});
			expect(out.entry.map((e) => e.event_id)).toContain(ids.redisOom);
			expect(out.candidates.length).toBeGreaterThan(0);
			for (const cand of out.candidates) expect(cand.timestamp > '2025-11-28T20:00:00.000Z').toBe(true);
		});
	});

	describe('evolution', () => {
		it('follows EVOLVED_INTO links and returns picks in time order', async () => {
			const tokens = await engine.store({
				content: 'Session tokens became opaque identifiers looked up in the tokens table.',
				timestamp: '2026-02-01T09:00:00Z',
				entities: [{ name: 'auth-service', type: 'project' }],
			});
			const newest = tokens.results[0].memory_id;
			await engine.associate({
				memory1_id: ids.cacheMove,
				memory2_id: newest,
				type: 'EVOLVED_INTO',
				strength: 0.9,
			});
			const out = await walk({
				sentence: 'Where does the session cache live?',
				relation: 'evolution',
			});
			const linked = out.candidates.find((x) => x.event_id === newest);
			expect(linked).toMatchObject({
				bridge_entity_id: null,
				path: [ids.cacheMove, 'EVOLVED_INTO', newest],
			});
			const times = out.candidates.map((x) => x.timestamp);
			expect(times).toEqual([...times].sort());
		});
	});

	describe('contrast', () => {
		it('returns candidates below the entry in cosine, without judging opposition', async () => {
			const out = await walk({
				sentence: 'Chose PostgreSQL for billing because of transactions.',
				relation: 'contrast',
			});
			const entryCos = out.entry.map((e) => e.cosine!).sort((a, b) => a - b);
			const median = entryCos[Math.floor(entryCos.length / 2)];
			expect(out.candidates.length).toBeGreaterThan(0);
			for (const cand of out.candidates) expect(cand.cosine!).toBeLessThan(median);
		});
	});

	describe('explore', () => {
		it('walks from an entity without a sentence: grounding exploration, no cosine axis', async () => {
			const out = await walk({
				relation: 'explore',
				anchor_entity_id: 'Mina',
				expansion_rounds: 2,
			});
			expect(out).toMatchObject({ grounding: 'exploration', entry: [] });
			const r1 = out.candidates.filter((x) => x.round === 1);
			expect(r1.map((x) => x.event_id).sort()).toEqual([ids.backups, ids.onCall].sort());
			for (const cand of r1)
				expect(cand).toMatchObject({
					bridge_entity_id: 'person:mina',
					cosine: null,
					cosine_percentile: null,
					path: ['person:mina', cand.event_id],
				});
			expect(out.candidates.some((x) => x.round === 2)).toBe(true);
			expect(out.bridges[0]).toMatchObject({
				entity_id: 'person:mina',
				name: 'Mina',
				type: 'person',
				memory_count: 2,
			});
		});

		it('accepts the entity id as well as its name', async () => {
			const byId = await walk({ relation: 'explore', anchor_entity_id: 'tool:kafka' });
			expect(byId.candidates.map((x) => x.event_id)).toEqual([ids.kafka]);
		});
	});

	describe('anchored walks', () => {
		it('walks from anchor_entity_id instead of a vector entry, scoring by the sentence', async () => {
			const out = await walk({
				sentence: 'Who owns the billing service on call?',
				anchor_entity_id: 'person:mina',
			});
			expect(out.entry).toEqual([]);
			expect(out.grounding).toBe('grounded');
			expect(out.grounding_basis).toMatch(/independent of the ranking$/);
			expect(out.candidates[0]).toMatchObject({
				event_id: ids.onCall,
				bridge_entity_id: 'person:mina',
			});
			expect(out.candidates[0].cosine).toBeGreaterThan(out.candidates[1].cosine!);
		});

		it('restricts the walk to a scope', async () => {
			await engine.store({
				content: 'Mina reviews the budget spreadsheet every Friday.',
				scope: 'finance',
				entities: [{ name: 'Mina', type: 'person' }],
			});
			const out = await walk({
				relation: 'explore',
				anchor_entity_id: 'person:mina',
				scope: 'finance',
			});
			expect(out.searched_scope.scope).toBe('finance');
			expect(out.candidates).toHaveLength(1);
		});
	});
});

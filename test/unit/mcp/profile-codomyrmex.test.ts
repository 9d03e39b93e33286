/**
 * The codomyrmex profile through a real Client: the calls of seed 003 return exactly its dict
 * (importance 1–4, epoch-second floats), memory_get counts accesses and answers null for unknown
 * ids, and memory_search ranks by 0.5·relevance + 0.3·exp(−age/3600 s) + 0.2·importance/4.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/engine/engine';
import { connect, data, errorText, makeEngine, text, type Connection } from './helpers';

type Dict = {
	id: string;
	content: string;
	memory_type: string;
	importance: number;
	metadata: object;
	tags: string[];
	created_at: number;
	access_count: number;
	last_accessed: number;
};
type Hit = { memory: Dict; relevance: number; combined_score: number };

let engine: Engine;
let c: Connection;

beforeAll(async () => {
	engine = await makeEngine();
	c = await connect(engine, 'codomyrmex');
});
afterAll(async () => {
	await c.close();
	await engine.close();
});

describe('codomyrmex profile', () => {
	let deadline: Dict;

	describe('memory_put', () => {
		it('memory_put(content="The project deadline is March 1st", memory_type="episodic", importance="MEDIUM") returns the seed 003 dict', async () => {
			const before = Date.now() / 1000;
			const r = await c.call('memory_put', {
				content: 'The project deadline is March 1st',
				memory_type: 'episodic',
				importance: 'MEDIUM',
			});
			deadline = data<Dict>(r);
			expect(Object.keys(deadline)).toEqual([
				'id',
				'content',
				'memory_type',
				'importance',
				'metadata',
				'tags',
				'created_at',
				'access_count',
				'last_accessed',
			]);
			expect(deadline).toMatchObject({
				content: 'The project deadline is March 1st',
				memory_type: 'episodic',
				importance: 2,
				metadata: {},
				tags: [],
				access_count: 0,
				last_accessed: 0,
			});
			expect(deadline.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
			expect(deadline.created_at).toBeGreaterThanOrEqual(Math.floor(before));
			expect(deadline.created_at).toBeLessThanOrEqual(Date.now() / 1000);
			expect(JSON.parse(text(r))).toEqual(deadline);
		});

		it('defaults to episodic and medium, and reads importance case-insensitively', async () => {
			const d = data<Dict>(
				await c.call('memory_put', {
					content: 'Retrospectives happen on the last Friday of each sprint.',
				}),
			);
			expect(d).toMatchObject({ memory_type: 'episodic', importance: 2 });
			const levels = [];
			for (const [i, level] of ['low', 'Medium', 'HIGH', 'critical'].entries())
				levels.push(
					data<Dict>(
						await c.call('memory_put', {
							content: `Severity rule ${i}: pages for ${level} incidents go to ${['email', 'chat', 'phone', 'everyone'][i]}.`,
							memory_type: 'procedural',
							importance: level,
						}),
					).importance,
				);
			expect(levels).toEqual([1, 2, 3, 4]);
		});

		it('refuses unknown memory types and importance levels', async () => {
			expect(errorText(await c.call('memory_put', { content: 'x y z', memory_type: 'dream' }))).toBe(
				'MCP error -32602: Input validation error: Invalid arguments for tool memory_put: Invalid option: expected one of "episodic"|"semantic"|"procedural" at memory_type',
			);
			expect(errorText(await c.call('memory_put', { content: 'x y z', importance: 'urgent' }))).toBe(
				'MCP error -32602: Input validation error: Invalid arguments for tool memory_put: Invalid option: expected one of "LOW"|"MEDIUM"|"HIGH"|"CRITICAL" at importance',
			);
		});
	});

	describe('memory_get', () => {
		it('memory_get(memory_id) returns the dict with access_count incremented and last_accessed set', async () => {
			const r = await c.call('memory_get', { memory_id: deadline.id });
			const got = data<{ result: Dict }>(r).result;
			expect(got).toEqual({ ...deadline, access_count: 1, last_accessed: got.last_accessed });
			expect(got.last_accessed).toBeGreaterThan(deadline.created_at - 1);
			expect(JSON.parse(text(r))).toEqual(got);
			const again = data<{ result: Dict }>(await c.call('memory_get', { memory_id: deadline.id })).result;
			expect(again.access_count).toBe(2);
		});

		it('returns null for an unknown id', async () => {
			const r = await c.call('memory_get', { memory_id: '550e8400-e29b-41d4-a716-446655440000' });
			expect(data(r)).toEqual({ result: null });
			expect(text(r)).toBe('null');
		});
	});

	describe('memory_search', () => {
		it('memory_search(query, k) returns [{memory, relevance, combined_score}] sorted by the combined score', async () => {
			// An older, critical memory: recency exp(−2 h / 1 h) ≈ 0.135 against ≈ 1 for the new ones.
			await engine.store({
				content: 'The project deadline moved to April 15th after the scope review.',
				type: 'episodic',
				importance: 'CRITICAL',
				timestamp: new Date(Date.now() - 7_200_000).toISOString(),
			});
			const r = await c.call('memory_search', { query: 'project deadline', k: 3 });
			const hits = data<{ result: Hit[] }>(r).result;
			expect(hits).toHaveLength(3);
			expect(JSON.parse(text(r))).toEqual(hits);
			expect(hits.map((h) => h.memory.content)).toContain('The project deadline is March 1st');
			const now = Date.now() / 1000;
			for (const h of hits) {
				expect(h.relevance).toBeGreaterThanOrEqual(0);
				expect(h.relevance).toBeLessThanOrEqual(1);
				const recency = Math.exp(-(now - h.memory.created_at) / 3600);
				expect(h.combined_score).toBeCloseTo(0.5 * h.relevance + 0.3 * recency + 0.2 * (h.memory.importance / 4), 2);
			}
			expect(hits.map((h) => h.combined_score)).toEqual([...hits.map((h) => h.combined_score)].sort((a, b) => b - a));
		});

		it('defaults k to 5 and persists memories across calls and connections', async () => {
			const other = await connect(engine, 'codomyrmex');
			const hits = data<{ result: Hit[] }>(await other.call('memory_search', { query: 'incidents pages severity' })).result;
			expect(hits).toHaveLength(5);
			await other.close();
		});
	});
});

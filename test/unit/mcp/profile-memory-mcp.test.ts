/**
 * The memory-mcp profile through a real Client: the example calls of seed 004 (get_memory by
 * integer id, retrieve_memories then following related_memories, breadcrumb traversal) on a
 * 500-memory store, plus labels with fuzzy matching and ! exclusion, ages, stats and labels.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/engine/engine';
import { timeAgo } from '../../../src/mcp/profiles/memory-mcp';
import { connect, data, errorText, makeEngine, text, type Connection } from './helpers';

type Related = { id: number; similarity: string; source: string | null; shared_labels: string[] };
type McpMemory = {
	id: number;
	source: string | null;
	content: string;
	time: string;
	similarity?: string;
	labels?: string[];
	related_memories?: Related[];
	meta: {
		timestamp: string;
		namespace: string;
		encrypted: boolean;
		embedding_tables: Record<string, string[]>;
	};
};

/** Memories at fixed seqs: the seed's examples refer to #38, #42, #51 and #156, #312, #478. */
const PLACED: Record<number, { content: string; tags: string[]; source: string }> = {
	38: {
		content: 'Decided to use OAuth 2.0 with PKCE for the mobile app login flow.',
		tags: ['auth', 'mobile'],
		source: 'design-review',
	},
	42: {
		content: 'Authentication decision: the web app keeps OAuth 2.0 with PKCE and drops password logins.',
		tags: ['auth', 'decision'],
		source: 'design-review',
	},
	51: {
		content: 'Login flow review: OAuth 2.0 PKCE tokens for the web and mobile apps expire after one hour.',
		tags: ['auth'],
		source: 'standup',
	},
	156: {
		content: 'Garden journal: planted tomatoes and basil along the south fence in April.',
		tags: ['garden'],
		source: 'journal',
	},
	312: {
		content: 'Garden journal: the tomatoes along the south fence ripened early this summer.',
		tags: ['garden'],
		source: 'journal',
	},
	478: {
		content: 'Garden journal: harvested the last tomatoes and basil from the south fence in October.',
		tags: ['garden', 'harvest'],
		source: 'journal',
	},
};

const AISLES = ['bolts', 'hinges', 'cables', 'fuses', 'screws', 'brackets', 'washers', 'clamps', 'valves', 'gaskets', 'springs'];

function filler(seq: number): { content: string; tags: string[]; source: string } {
	return {
		content: `Warehouse inventory ${seq}: shelf ${seq % 37} in aisle ${seq % 11} stores ${(seq * 7) % 90} crates of ${AISLES[seq % 11]}.`,
		tags: ['inventory'],
		source: 'clawdbot',
	};
}

let engine: Engine;
let c: Connection;

beforeAll(async () => {
	engine = await makeEngine();
	const memories = Array.from({ length: 500 }, (_, i) => ({
		...(PLACED[i + 1] ?? filler(i + 1)),
		force: true,
	}));
	await engine.store({ memories });
	c = await connect(engine, 'memory-mcp');
});
afterAll(async () => {
	await c.close();
	await engine.close();
});

const get = async (id: number) => data<McpMemory>(await c.call('get_memory', { memory_id: id }));

describe('memory-mcp profile', () => {
	describe('seed 004 examples', () => {
		it('get_memory(memory_id: 42) returns the complete record with the related-memory graph', async () => {
			const r = await c.call('get_memory', { memory_id: 42 });
			const m = data<McpMemory>(r);
			expect(m).toMatchObject({
				id: 42,
				content: PLACED[42].content,
				labels: ['auth', 'decision'],
				source: 'design-review',
				time: 'less than 1 minute ago',
			});
			expect(m.meta).toMatchObject({
				namespace: 'default',
				encrypted: false,
				embedding_tables: { memory_100: ['engram/glove-sif-100d'] },
			});
			expect(Date.parse(m.meta.timestamp)).toBeGreaterThan(Date.now() - 600_000);
			expect(m.related_memories!.map((x) => x.id).sort((a, b) => a - b)).toEqual([38, 51]);
			for (const rel of m.related_memories!) expect(rel.similarity).toMatch(/^\d{1,3}%$/);
			expect(m.related_memories!.find((x) => x.id === 38)).toMatchObject({
				source: 'design-review',
				shared_labels: ['auth'],
			});
			expect(JSON.parse(text(r))).toEqual(m);
		});

		it('retrieve_memories(query: "authentication decision") → #42 with related [38, 51] → get_memory(38), get_memory(51)', async () => {
			const out = data<{ current_embedding: string; memories: McpMemory[]; count: number }>(
				await c.call('retrieve_memories', { query: 'authentication decision' }),
			);
			expect(out).toMatchObject({ current_embedding: 'engram/glove-sif-100d', count: 5 });
			const first = out.memories[0];
			expect(first).toMatchObject({ id: 42, similarity: expect.stringMatching(/^\d+%$/) });
			expect(first.related_memories!.map((x) => x.id).sort((a, b) => a - b)).toEqual([38, 51]);
			const pct = out.memories.map((m) => Number(m.similarity!.slice(0, -1)));
			expect(pct).toEqual([...pct].sort((a, b) => b - a));
			for (const id of first.related_memories!.map((x) => x.id)) {
				const m = await get(id);
				expect(m.content).toBe(PLACED[id].content);
				expect(m.related_memories!.map((x) => x.id)).toContain(42);
			}
		});

		it('breadcrumb traversal: get_memory(478) → related [312, 156], strongest first → get_memory(312), get_memory(156)', async () => {
			const m = await get(478);
			const rel = m.related_memories!;
			expect(rel.map((x) => x.id).sort((a, b) => a - b)).toEqual([156, 312]);
			const pct = rel.map((x) => Number(x.similarity.slice(0, -1)));
			expect(pct).toEqual([...pct].sort((a, b) => b - a));
			expect((await get(312)).content).toBe(PLACED[312].content);
			expect((await get(156)).content).toBe(PLACED[156].content);
		});

		it('cleans back-references on delete: no orphaned related ids', async () => {
			const extra = data<{ id: number }>(
				await c.call('store_memory', {
					content: 'Garden journal: the basil along the south fence bolted in the July heat.',
					labels: 'garden',
				}),
			);
			expect((await get(extra.id)).related_memories!.length).toBeGreaterThan(0);
			const neighbours = (await get(extra.id)).related_memories!.map((x) => x.id);
			const r = await c.call('delete_memory', { memory_id: extra.id });
			expect(data(r)).toEqual({
				success: true,
				message: `✅ Memory #${extra.id} deleted successfully`,
			});
			for (const n of neighbours) expect((await get(n)).related_memories?.map((x) => x.id) ?? []).not.toContain(extra.id);
		});
	});

	describe('store_memory', () => {
		it('returns an integer id and warns about semantically close memories', async () => {
			const r = await c.call('store_memory', {
				content: 'Authentication decision: mobile and web apps both use OAuth 2.0 with PKCE.',
				labels: 'auth, decision',
				source: 'chat',
			});
			const out = data<{
				current_embedding: string;
				id: number;
				source: string;
				message: string;
				warnings: string[];
			}>(r);
			expect(out).toMatchObject({
				current_embedding: 'engram/glove-sif-100d',
				source: 'chat',
				message: `✅ Memory stored with ID ${out.id}`,
			});
			expect(Number.isInteger(out.id) && out.id > 500).toBe(true);
			expect(out.warnings.length).toBeGreaterThan(0);
			expect(out.warnings[0]).toMatch(
				/^(⚠️ Worth reviewing for context to|📌 Explores similar territory to|ℹ️ Semantically related to) memory #(38|42|51) \(\d+% match\)$/,
			);
			expect((await engine.getMemories([(await engine.resolveId(out.id))!]))[0]).toMatchObject({
				tags: ['auth', 'decision'],
				source: 'chat',
			});
		});

		it('returns the existing id with an exact-match warning instead of a copy', async () => {
			const out = data<{ id: number; message: string; warnings: string[] }>(await c.call('store_memory', { content: PLACED[156].content }));
			expect(out).toMatchObject({
				id: 156,
				message: '❌ Not stored again: exact match with memory #156',
			});
			expect(out.warnings).toContain('❌ Exact match with memory #156');
		});

		it('accepts the JSON-in-content form some clients send', async () => {
			const out = data<{ id: number; source: string }>(
				await c.call('store_memory', {
					content: JSON.stringify({
						content: 'Stout pairs well with the chocolate cake from the corner bakery.',
						labels: 'beer, food',
						source: 'grok',
					}),
				}),
			);
			expect(out.source).toBe('grok');
			expect((await get(out.id)).labels).toEqual(['beer', 'food']);
		});
	});

	describe('retrieve_memories filters', () => {
		beforeAll(async () => {
			for (const [content, labels] of [
				['A hoppy IPA from the harbour brewery was the best beer of the tasting.', 'beer, tasting'],
				['The tasting paired a Riesling wine with a wheat beer for contrast.', 'beer, wine'],
				['A dry Riesling wine from the Mosel opened the tasting.', 'wine, tasting'],
			])
				data(await c.call('store_memory', { content, labels, source: 'tasting-notes' }));
		});

		it('"beer, !wine": any beer-like label, none wine-like', async () => {
			const out = data<{ memories: McpMemory[] }>(
				await c.call('retrieve_memories', {
					query: 'tasting',
					labels: 'beer, !wine',
					num_results: 10,
				}),
			);
			expect(out.memories.map((m) => m.content)).toEqual(
				expect.arrayContaining(['A hoppy IPA from the harbour brewery was the best beer of the tasting.']),
			);
			for (const m of out.memories) {
				expect(m.labels!.some((l) => l.includes('beer'))).toBe(true);
				expect(m.labels!.some((l) => l.includes('wine'))).toBe(false);
			}
		});

		it('matches labels fuzzily and sources with ! exclusion; no query means most recent', async () => {
			const fuzzy = data<{ memories: McpMemory[] }>(await c.call('retrieve_memories', { labels: 'TAST', num_results: 10 }));
			expect(fuzzy.memories.map((m) => m.content)).toEqual([
				'A dry Riesling wine from the Mosel opened the tasting.',
				'A hoppy IPA from the harbour brewery was the best beer of the tasting.',
			]);
			expect(fuzzy.memories[0].similarity).toBeUndefined();
			const notBot = data<{ memories: McpMemory[] }>(await c.call('retrieve_memories', { source: '!clawdbot', num_results: 100 }));
			expect(notBot.memories.every((m) => m.source !== 'clawdbot')).toBe(true);
			expect(notBot.memories.length).toBeGreaterThan(6);
		});
	});

	describe('ids, errors, stats and labels', () => {
		it('needs an integer id and reports a missing one', async () => {
			expect(errorText(await c.call('get_memory', { memory_id: 'abc' }))).toBe(
				'MCP error -32602: Input validation error: Invalid arguments for tool get_memory: Invalid input: expected number, received string at memory_id',
			);
			expect(errorText(await c.call('get_memory', { memory_id: 1.5 }))).toBe(
				'MCP error -32602: Input validation error: Invalid arguments for tool get_memory: Invalid input: expected int, received number at memory_id',
			);
			expect(errorText(await c.call('get_memory', { memory_id: 9999 }))).toBe('not_found: memory_id: ❌ Memory #9999 not found');
			expect(errorText(await c.call('delete_memory', { memory_id: 9999 }))).toBe('not_found: memory_id: ❌ Memory #9999 not found');
		});

		it('memory_stats: total without filters; matching/ratio/percentage with labels', async () => {
			const total = data<{ total_memories: number; sync: object }>(await c.call('memory_stats', {}));
			expect(Object.keys(total)).toEqual(['total_memories', 'sync']);
			expect(total.sync).toEqual({ on: false, status: 'off', pending: 0 });
			const state = { on: true, status: 'offline', last_synced: '2026-01-02T03:04:05.000Z', pending: 2 };
			await engine.setSetting('sync_state', state);
			expect(data<{ sync: object }>(await c.call('memory_stats', {})).sync).toEqual(state);
			await engine.setSetting('sync_state', undefined);
			const beer = data<{
				matching: number;
				total: number;
				ratio: string;
				percentage: string;
				labels_matched: string[];
			}>(await c.call('memory_stats', { labels: 'beer' }));
			expect(beer).toMatchObject({
				matching: 3,
				total: total.total_memories,
				ratio: `3/${total.total_memories}`,
				labels_matched: ['beer'],
			});
			expect(beer.percentage).toBe(`${Math.floor(300 / total.total_memories)}%`);
			const src = data<{ matching: number; sources_matched: string[] }>(await c.call('memory_stats', { source: 'design' }));
			expect(src).toMatchObject({ matching: 2, sources_matched: ['design-review'] });
		});

		it('random_memory honours filters and says when nothing matches', async () => {
			for (let i = 0; i < 5; i++) expect(data<McpMemory>(await c.call('random_memory', { labels: 'garden' })).labels).toContain('garden');
			expect(errorText(await c.call('random_memory', { labels: 'no-such-label' }))).toBe('not_found: ❌ No memories found matching the criteria');
			expect(data<McpMemory>(await c.call('random_memory', {})).id).toBeGreaterThan(0);
		});

		it('trending_labels returns labels with counts and top tokens', async () => {
			const out = data<{
				trending_labels: { label: string; count: number; top_token: string }[];
				time_window_days: number;
			}>(await c.call('trending_labels', { days: 7, limit: 3 }));
			expect(out.time_window_days).toBe(7);
			expect(out.trending_labels[0]).toEqual({
				label: 'inventory',
				count: 494,
				top_token: 'inventory',
			});
			expect(out.trending_labels).toHaveLength(3);
		});

		it('add_labels, del_labels (case-insensitive) and replace_labels (one write)', async () => {
			expect(data(await c.call('add_labels', { memory_id: 42, labels: 'security, auth' }))).toEqual({
				success: true,
				message: '✅ Labels added to memory #42',
				labels: ['auth', 'decision', 'security'],
			});
			expect(data(await c.call('del_labels', { memory_id: 42, labels: '["SECURITY"]' }))).toEqual({
				success: true,
				message: '✅ Labels removed from memory #42',
				labels: ['auth', 'decision'],
			});
			expect(data(await c.call('replace_labels', { memory_id: 42, target: 'Decision', new: 'decided, Q3' }))).toEqual({
				success: true,
				message: '✅ Labels replaced on memory #42',
				labels: ['auth', 'decided', 'Q3'],
			});
			expect((await get(42)).labels).toEqual(['auth', 'decided', 'Q3']);
			expect(errorText(await c.call('add_labels', { memory_id: 42, labels: ' , ' }))).toBe('invalid_input: labels: ❌ No valid labels provided');
		});
	});
});

describe('timeAgo', () => {
	const now = Date.parse('2026-03-10T12:00:00Z');
	it('words ages the way memory-mcp does', () => {
		expect(timeAgo('2026-03-10T11:59:30Z', now)).toBe('less than 1 minute ago');
		expect(timeAgo('2026-03-10T11:50:00Z', now)).toBe('10 minutes ago');
		expect(timeAgo('2026-03-10T11:00:00Z', now)).toBe('1 hour ago');
		expect(timeAgo('2026-03-06T12:00:00Z', now)).toBe('4 days ago');
		expect(timeAgo('2026-02-24T12:00:00Z', now)).toBe('2 weeks ago');
		expect(timeAgo('2025-12-10T12:00:00Z', now)).toBe('3 months ago');
		expect(timeAgo('2024-03-01T12:00:00Z', now)).toBe('2 years ago');
		expect(timeAgo('2026-03-11T12:00:00Z', now)).toBe('just now');
	});
});

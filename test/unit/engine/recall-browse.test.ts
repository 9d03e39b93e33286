import { describe, expect, it } from 'vitest';
import { topCounts } from '../../../src/engine/stats-ops';
import { Clock, rejection, storedLinks, useEngines } from './helpers';

const DAY = 86_400_000;
const engines = useEngines();
const fresh = (clock = new Clock()) => engines({ now: clock.now });

describe('Engine', () => {
	describe('recall', () => {
		it('truncates long content to max_content_chars and says so', async () => {
			const engine = await fresh();
			const long = `Quarterly planning notes. ${'The roadmap item is discussed at length here. '.repeat(100)}`;
			await engine.store({ content: long });
			const r = await engine.recall({ query: 'quarterly planning roadmap' });
			expect(r.results[0].content_truncated).toBe(true);
			expect(r.results[0].memory.content.length).toBeLessThanOrEqual(2001);
			const short = await engine.recall({ query: 'quarterly planning roadmap', max_content_chars: 40 });
			expect(short.results[0].memory.content).toBe('Quarterly planning notes. The roadmap…');
		});

		it('finds a memory by an emoji it holds', async () => {
			const engine = await fresh();
			const rocket = await engine.store({ content: 'Deploys happen on Tuesdays 🚀' });
			await engine.store({ content: 'Deploys were frozen over the holidays 🎄' });
			const r = await engine.recall({ query: '🚀' });
			expect(r.results.map((x) => x.memory.id)).toEqual([rocket.memory_id]);
		});

		it('finds Chinese and Japanese text by a word inside it, and accented words typed without accents', async () => {
			const engine = await fresh();
			const sushi = await engine.store({ content: '東京で寿司を食べた。とても美味しかった。' });
			const duck = await engine.store({ content: '我喜欢在北京吃烤鸭' });
			const tram = await engine.store({ content: 'Ich arbeite bei der Straßenbahn in München' });
			await engine.store({ content: 'The weekly report goes out on Mondays' });
			const top = async (query: string) => (await engine.recall({ query, limit: 1 })).results[0]?.memory.id;
			expect(await top('寿司')).toBe(sushi.memory_id);
			expect(await top('北京')).toBe(duck.memory_id);
			expect(await top('烤鸭')).toBe(duck.memory_id);
			expect(await top('strassenbahn')).toBe(tram.memory_id);
			expect(await top('munchen')).toBe(tram.memory_id);
			const r = await engine.recall({ query: '寿司' });
			expect(r.results[0].matched_terms).toContain('寿司');
		});

		it('an unreadable time_query is refused naming the field', async () => {
			const engine = await fresh();
			const e = await rejection(engine.recall({ query: 'x', time_query: 'when pigs fly' }));
			expect(e.code).toBe('invalid_input');
			expect(e.message).toMatch(/^time_query: "when pigs fly" is not a time range I can read/);
		});

		it('a time_query narrows results to its window and reports it', async () => {
			const clock = new Clock();
			const engine = await fresh(clock);
			await engine.store({ content: 'Sprint review covered the billing bugs', timestamp: new Date(clock.ms - 20 * DAY).toISOString() });
			const recent = await engine.store({ content: 'Sprint review covered the search bugs', timestamp: new Date(clock.ms - 2 * DAY).toISOString() });
			const r = await engine.recall({ query: 'sprint review', time_query: 'last 7 days' });
			expect(r.results.map((x) => x.memory.id)).toEqual([recent.memory_id]);
			expect(r.time_window?.start).toBeDefined();
		});

		it('reads an end given as a date alone as through that day, in recall and in the timeline', async () => {
			const engine = await fresh();
			const first = await engine.store({ content: 'Billing moved to PostgreSQL', timestamp: '2026-12-01T10:00:00Z' });
			await engine.store({ content: 'Billing dashboards were rebuilt', timestamp: '2026-12-02T10:00:00Z' });
			const day = await engine.recall({ query: 'billing', start: '2026-12-01', end: '2026-12-01' });
			expect(day.results.map((x) => x.memory.id)).toEqual([first.memory_id]);
			expect(day.time_window).toEqual({ start: '2026-12-01T00:00:00.000Z', end: '2026-12-02T00:00:00.000Z' });
			const list = await engine.timeline({ start: '2026-12-01', end: '2026-12-01' });
			expect(list.memories.map((m) => m.id)).toEqual([first.memory_id]);
			// A date-time end stays exclusive, to the millisecond.
			const before = await engine.recall({ query: 'billing', end: '2026-12-01T10:00:00Z' });
			expect(before.results).toEqual([]);
		});

		it('pages with limit, offset, has_more and next_offset', async () => {
			const engine = await fresh();
			await engine.store({ memories: Array.from({ length: 5 }, (_, i) => ({ content: `Release checklist item ${i}: verify step ${'abcde'[i]}` })) });
			const first = await engine.recall({ query: 'release checklist', limit: 2 });
			expect(first).toMatchObject({ count: 2, has_more: true, next_offset: 2 });
			const last = await engine.recall({ query: 'release checklist', limit: 2, offset: 4 });
			expect(last).toMatchObject({ count: 1, has_more: false });
		});

		it('"more like this" by id returns neighbours, not the memory itself', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'The daily standup meeting starts at 9 am' });
			const b = await engine.store({ content: 'Our team meets for standup at nine every morning' });
			await engine.store({ content: 'He is allergic to peanuts' });
			const r = await engine.recall({ memory_id: a.memory_id!, limit: 1 });
			expect(r.results.map((x) => x.memory.id)).toEqual([b.memory_id]);
		});

		it('refuses an embedding whose size no model uses', async () => {
			const engine = await fresh();
			await engine.store({ content: 'Anything' });
			expect((await rejection(engine.recall({ embedding: [1, 2, 3] }))).message).toBe(
				'embedding: no memory holds a caller embedding of 3 dimensions and the active model (engram/glove-sif-100d) has 100',
			);
		});

		it('refuses NaN in limit', async () => {
			const engine = await fresh();
			expect((await rejection(engine.recall({ query: 'x', limit: NaN }))).message).toBe('limit: must be a finite number (got NaN)');
		});
	});

	describe('timeline', () => {
		it('lists memories newest first, filtered by scope and paged', async () => {
			const clock = new Clock();
			const engine = await fresh(clock);
			for (let i = 0; i < 4; i++)
				await engine.store({
					content: `Journal entry ${i} about ${'wxyz'[i]}`,
					scope: 'journal',
					timestamp: new Date(clock.ms - (4 - i) * DAY).toISOString(),
				});
			await engine.store({ content: 'Other scope', scope: 'work' });
			const t = await engine.timeline({ scope: 'journal', limit: 3 });
			expect(t.memories.map((m) => m.content)).toEqual(['Journal entry 3 about z', 'Journal entry 2 about y', 'Journal entry 1 about x']);
			expect(t).toMatchObject({ count: 3, total: 4, has_more: true, next_offset: 3 });
			const asc = await engine.timeline({ scope: 'journal', order: 'asc', limit: 1 });
			expect(asc.memories[0].content).toBe('Journal entry 0 about w');
		});

		it('filters by time_query', async () => {
			const clock = new Clock();
			const engine = await fresh(clock);
			await engine.store({ content: 'Old', timestamp: new Date(clock.ms - 40 * DAY).toISOString() });
			await engine.store({ content: 'Recent', timestamp: new Date(clock.ms - DAY).toISOString() });
			expect((await engine.timeline({ time_query: 'last 7 days' })).memories.map((m) => m.content)).toEqual(['Recent']);
		});
	});

	describe('findByEntity', () => {
		it('finds memories mentioning an entity by name, newest first, with similar names', async () => {
			const clock = new Clock();
			const engine = await fresh(clock);
			await engine.store({ content: 'Maria Silva joined the design team', timestamp: new Date(clock.ms - 2 * DAY).toISOString() });
			await engine.store({ content: 'Maria Silva presented the new logo' });
			await engine.store({ content: 'Maria Santos handles payroll' });
			const r = await engine.findByEntity({ entity: 'maria silva' });
			expect(r.entity).toMatchObject({ id: 'person:maria silva', name: 'Maria Silva', memory_count: 2 });
			expect(r.memories.map((m) => m.content)).toEqual(['Maria Silva presented the new logo', 'Maria Silva joined the design team']);
			const partial = await engine.findByEntity({ entity: 'maria' });
			expect(partial.entity).toBeNull();
			expect(partial.matches.map((e) => e.name).sort()).toEqual(['Maria Santos', 'Maria Silva']);
		});
	});

	describe('stats and trendingLabels', () => {
		it('reuses an answer only while nothing changed', async () => {
			const engine = await fresh();
			await engine.store({ content: 'Use Postgres for billing', tags: ['db'] });
			const first = engine.stats({});
			expect(engine.stats({})).toBe(first);
			expect(engine.stats({ tags: ['db'] })).not.toBe(first);
			await engine.store({ content: 'Deploys happen on Tuesdays', tags: ['ops'] });
			expect((await engine.stats({})).total_memories).toBe((await first).total_memories + 1);
			await engine.delete({ tags: ['ops'] });
			expect((await engine.stats({})).total_memories).toBe((await first).total_memories);
		});

		it('topCounts keeps the k highest counts, ties by key, whatever the input order', () => {
			const entries: [string, number][] = [
				['d', 1],
				['b', 5],
				['a', 2],
				['c', 5],
				['e', 2],
				['f', 9],
			];
			const want: [string, number][] = [
				['f', 9],
				['b', 5],
				['c', 5],
				['a', 2],
			];
			expect(topCounts(entries, 4)).toEqual(want);
			expect(topCounts([...entries].reverse(), 4)).toEqual(want);
			expect(topCounts(entries, 10)).toEqual([...want, ['e', 2], ['d', 1]]);
			expect(topCounts([], 3)).toEqual([]);
		});

		it('counts memories by type, scope, source and tag, and links by type', async () => {
			const engine = await fresh();
			await engine.store({
				memories: [
					{ content: 'Use Postgres', type: 'Decision', tags: ['db'], source: 'agent' },
					{ content: 'Prefers tabs', type: 'Preference', tags: ['style', 'db'], scope: 'style' },
					{ content: 'Old fact', t_invalid: '2020-01-01T00:00:00Z' },
				],
			});
			const s = await engine.stats({});
			expect(s).toMatchObject({
				total_memories: 3,
				current_memories: 2,
				by_type: { Decision: 1, Preference: 1, Context: 1 },
				by_scope: { default: 2, style: 1 },
				by_source: { agent: 1, '(none)': 2 },
				top_tags: [
					{ tag: 'db', count: 2 },
					{ tag: 'style', count: 1 },
				],
				embedding_models: [{ model: 'engram/glove-sif-100d', count: 3 }],
			});
			expect(s.by_association_type.PRECEDED_BY).toBe(1);
			expect((await engine.stats({ scope: 'style' })).total_memories).toBe(1);
		});

		it('counts tags spelt in another letter case as one, under the most used spelling, as the tag filters match them', async () => {
			const engine = await fresh();
			await engine.store({
				memories: [
					{ content: 'Billing moved to PostgreSQL', tags: ['Billing', 'DB'] },
					{ content: 'Invoices go out on the 1st', tags: ['billing'] },
					{ content: 'Refunds take five days', tags: ['billing'] },
					{ content: 'Dentist on Thursday', tags: ['health'] },
				],
			});
			const s = await engine.stats({});
			expect(s.top_tags).toEqual([
				{ tag: 'billing', count: 3 },
				{ tag: 'DB', count: 1 },
				{ tag: 'health', count: 1 },
			]);
			expect((await engine.stats({ tags: ['BILLING'] })).total_memories).toBe(3);
		});

		it('keeps link, entity and vector counts exact through deletes', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'Maria Silva reviewed the budget' });
			await engine.store({ content: 'Maria Silva approved the hiring plan' });
			const c = await engine.store({ content: 'Jonas Berg booked the offsite' });
			await engine.associate({ memory1_id: a.memory_id!, memory2_id: c.memory_id!, type: 'LEADS_TO' });
			const before = await engine.stats({});
			expect(before.by_association_type).toMatchObject({ LEADS_TO: 1, PRECEDED_BY: 2 });
			expect(before.top_entities[0]).toMatchObject({ id: 'person:maria silva', count: 2 });
			await engine.delete({ memory_id: a.memory_id! });
			const after = await engine.stats({});
			expect(after.by_association_type).toEqual({ PRECEDED_BY: 1 });
			expect(after.total_associations).toBe((await storedLinks(engine)).length);
			expect(after.total_entities).toBe(await engine.db.entities.count());
			expect(after.top_entities.find((e) => e.id === 'person:maria silva')).toMatchObject({ count: 1 });
			expect(after.embedding_models).toEqual([{ model: 'engram/glove-sif-100d', count: 2 }]);
		});

		it('scores labels count × 0.9^days since last seen', async () => {
			const clock = new Clock();
			const engine = await fresh(clock);
			const at = (days: number) => new Date(clock.ms - days * DAY).toISOString();
			await engine.store({
				memories: [
					{ content: 'a1', tags: ['alpha'], timestamp: at(10) },
					{ content: 'a2', tags: ['alpha'], timestamp: at(10) },
					{ content: 'a3', tags: ['alpha'], timestamp: at(10) },
					{ content: 'b1', tags: ['beta'], timestamp: at(0) },
					{ content: 'c1', tags: ['gamma'], timestamp: at(60) },
				],
			});
			const t = await engine.trendingLabels({ days: 30 });
			expect(t.labels.map((l) => l.label)).toEqual(['alpha', 'beta']);
			expect(t.labels[0]).toMatchObject({ count: 3, score: Math.round(3 * 0.9 ** 10 * 1e4) / 1e4, last_seen: at(10) });
			expect(t.labels[1]).toMatchObject({ count: 1, score: 1 });
		});
	});
});

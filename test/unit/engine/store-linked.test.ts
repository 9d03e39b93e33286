import { describe, expect, it } from 'vitest';
import { refuseLink, rejection, useEngines } from './helpers';

const fresh = useEngines();

const LINK = { type: 'OCCURRED_BEFORE' as const, strength: 1, reason: 'prev_event_id' };

describe('Engine', () => {
	describe('storeLinked', () => {
		it('stores a memory and links an existing one to it, with the activity entry', async () => {
			const engine = await fresh();
			const prev = await engine.store({ content: 'Billing chose PgBouncer in transaction mode' });
			const out = await engine.storeLinked({
				memory: { content: 'The PgBouncer pool for billing went from 40 to 60 connections' },
				link_from: { memory1_id: prev.memory_id!, ...LINK },
			});
			expect(out).toMatchObject({ success: true, stored_count: 1 });
			expect(out.linked).toEqual({
				index: 0,
				memory1_id: prev.memory_id,
				memory2_id: out.memory_id,
				type: 'OCCURRED_BEFORE',
				strength: 1,
				status: 'created',
			});
			expect(await engine.associationsOf(out.memory_id!)).toContainEqual(
				expect.objectContaining({ from: prev.memory_id, to: out.memory_id, type: 'OCCURRED_BEFORE', strength: 1, reason: 'prev_event_id' }),
			);
			expect((await engine.activity(5)).map((a) => a.action)).toEqual(expect.arrayContaining(['created', 'associated']));
		});

		it('links to the memory a near-duplicate repeats, and skips a link from that memory to itself', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'Deploys happen on Tuesdays after the standup' });
			const b = await engine.store({ content: 'The staging database is refreshed every night' });
			const dup = await engine.storeLinked({
				memory: { content: 'Deploys happen on Tuesdays after the standup' },
				link_from: { memory1_id: b.memory_id!, ...LINK },
			});
			expect(dup).toMatchObject({ duplicate_of: a.memory_id, linked: { memory1_id: b.memory_id, memory2_id: a.memory_id } });
			const self = await engine.storeLinked({
				memory: { content: 'Deploys happen on Tuesdays after the standup' },
				link_from: { memory1_id: a.memory_id!, ...LINK },
			});
			expect(self.duplicate_of).toBe(a.memory_id);
			expect(self.linked).toBeUndefined();
		});

		it('leaves nothing stored when the link step fails, and works once it can', async () => {
			const engine = await fresh();
			const state = { on: false };
			// Dexie builds its middleware stack when it opens.
			engine.db.use(refuseLink('OCCURRED_BEFORE', state));
			engine.db.close();
			await engine.db.open();
			const prev = await engine.store({ content: 'Billing chose PgBouncer in transaction mode' });
			const before = { total: (await engine.stats({})).total_memories, indexed: engine.ctx.index.size };
			state.on = true;
			const input = {
				memory: { content: 'Grafana now alerts on the billing p99 latency above 300 ms' },
				link_from: { memory1_id: prev.memory_id!, ...LINK },
			};
			expect((await rejection(engine.storeLinked(input))).code).toBe('quota_exceeded');
			expect((await engine.stats({})).total_memories).toBe(before.total);
			expect(engine.ctx.index.size).toBe(before.indexed);
			expect(await engine.db.memories.filter((m) => m.content.startsWith('Grafana')).count()).toBe(0);
			expect(await engine.associationsOf(prev.memory_id!)).toEqual([]);
			expect((await engine.recall({ query: 'Grafana p99 latency alert' })).results.map((r) => r.memory.id)).toEqual([prev.memory_id]);
			state.on = false;
			const out = await engine.storeLinked(input);
			expect(out.linked?.memory1_id).toBe(prev.memory_id);
			expect((await engine.stats({})).total_memories).toBe(before.total + 1);
		});

		it('refuses an unknown link source, naming the field, and stores nothing', async () => {
			const engine = await fresh();
			const e = await rejection(engine.storeLinked({ memory: { content: 'An orphan event' }, link_from: { memory1_id: 'no-such-memory', ...LINK } }));
			expect(e).toMatchObject({ code: 'not_found', message: 'link_from.memory1_id: no memory with id "no-such-memory"' });
			expect((await engine.stats({})).total_memories).toBe(0);
		});

		it('refuses a batch and a request_id, naming the field', async () => {
			const engine = await fresh();
			const batch = { content: 'x', memories: [{ content: 'a' }] } as never;
			expect(await rejection(engine.storeLinked({ memory: batch }))).toMatchObject({
				code: 'invalid_input',
				message: 'memory.memories: one memory only (no batch)',
			});
			const keyed = { content: 'x', request_id: '0b1d4c1e-5b7d-4e9a-a1c3-2d4f6b8e0a91' } as never;
			expect(await rejection(engine.storeLinked({ memory: keyed }))).toMatchObject({
				code: 'invalid_input',
				message: 'memory.request_id: not accepted here',
			});
			expect(await rejection(engine.storeLinked({ memory: { content: 'x' }, link_from: { memory1_id: 'a', strength: 2 } }))).toMatchObject({
				code: 'invalid_input',
			});
		});
	});
});

import { entityIdsOf } from '../../../src/store/derived';
import { describe, expect, it } from 'vitest';
import { AUTHORABLE_ASSOCIATION_TYPES } from '../../../src/core/schemas';
import { rejection, storedLinks, useEngines } from './helpers';
import type { EngramDB } from '../../../src/store/db';
import { vectorRowsOf } from '../../../src/store/vectors';

/** The stored vectors of the given memories, under every model. */
const vectorsOf = async (db: EngramDB, ids: string[]) => (await db.memories.bulkGet(ids)).flatMap((r) => (r ? vectorRowsOf(r) : []));

const fresh = useEngines();

describe('Engine', () => {
	describe('delete', () => {
		it("deleting a memory removes it from its neighbours' related_memories", async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'The daily standup meeting starts at 9 am' });
			const b = await engine.store({ content: 'Our team meets for standup at nine every morning' });
			expect((await engine.get({ memory_id: a.memory_id! })).related_memories.map((r) => r.id)).toEqual([b.memory_id]);
			const out = await engine.delete({ memory_id: b.memory_id! });
			expect(out).toMatchObject({ success: true, deleted_count: 1, deleted_ids: [b.memory_id] });
			expect((await engine.get({ memory_id: a.memory_id! })).related_memories).toEqual([]);
			expect(await engine.associationsOf(a.memory_id!)).toEqual([]);
		});

		it('removes vectors, entity links, orphaned entities and index entries', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'Maria Silva reviewed the budget', embedding: [1, 0] });
			const before = engine.ctx.index.size;
			expect((await vectorsOf(engine.db, [a.memory_id!])).map((v) => v.model).sort()).toEqual(['caller:2', engine.ctx.embedder.modelId].sort());
			await engine.delete({ memory_id: a.memory_id! });
			expect(await vectorsOf(engine.db, [a.memory_id!])).toEqual([]);
			expect(await engine.db.memories.filter((m) => entityIdsOf(m.entities).includes('person:maria silva')).count()).toBe(0);
			expect(await engine.getEntities(['person:maria silva'])).toEqual([undefined]);
			expect(engine.ctx.index.size).toBe(before - 1);
			expect((await engine.recall({ query: 'budget review' })).results).toEqual([]);
		});

		it('keeps an entity other memories still mention, with its count lowered', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'Maria Silva reviewed the budget' });
			await engine.store({ content: 'Maria Silva approved the hiring plan' });
			await engine.delete({ memory_id: a.memory_id! });
			expect((await engine.getEntities(['person:maria silva']))[0]).toMatchObject({ memory_count: 1 });
		});

		it("counts an entity's mentions, first and last, from the memories that mention it; its row holds only who it is", async () => {
			const engine = await fresh();
			const at = (day: number) => `2026-03-${String(day).padStart(2, '0')}T10:00:00.000Z`;
			const id = 'person:maria silva';
			const a = await engine.store({ content: 'Maria Silva reviewed the budget', timestamp: at(12) });
			const b = await engine.store({ content: 'Maria Silva approved the hiring plan', timestamp: at(3) });
			const row = await engine.db.entities.get(id);
			expect(row).toMatchObject({ id, name: 'Maria Silva', type: 'person', aliases: ['Maria Silva'] });
			expect(row).not.toHaveProperty('memory_count');
			expect((await engine.getEntities([id]))[0]).toMatchObject({ memory_count: 2, first_seen: at(3), last_seen: at(12) });
			await engine.delete({ memory_id: a.memory_id! });
			expect((await engine.getEntities([id]))[0]).toMatchObject({ memory_count: 1, first_seen: at(3), last_seen: at(3) });
			// An update that drops the last mention drops the entity with it.
			await engine.update({ memory_id: b.memory_id!, content: 'The hiring plan was approved' });
			expect(await engine.db.entities.get(id)).toBeUndefined();
			expect(await engine.getEntities([id])).toEqual([undefined]);
		});

		it('keeps the PRECEDED_BY chain whole across deleted memories', async () => {
			const engine = await fresh();
			const out = await engine.store({ memories: ['One', 'Two', 'Three', 'Four'].map((w) => ({ content: `Step ${w} of the migration` })) });
			const [one, two, three, four] = out.results.map((r) => r.memory_id);
			await engine.delete({ memory_ids: [two, three] });
			const links = (await storedLinks(engine)).filter((l) => l.type === 'PRECEDED_BY').map((l) => [l.from, l.to]);
			expect(links).toEqual([[four, one]]);
		});

		it('deleting by tags with tag_mode all', async () => {
			const engine = await fresh();
			const both = await engine.store({ content: 'Tagged with both', tags: ['x', 'y'] });
			const onlyX = await engine.store({ content: 'Tagged with x only', tags: ['x'] });
			const out = await engine.delete({ tags: ['x', 'y'], tag_mode: 'all' });
			expect(out.deleted_ids).toEqual([both.memory_id]);
			expect((await engine.getMemories([onlyX.memory_id!]))[0]).toBeDefined();
		});

		it('deleting by tags (any) only in the given scope', async () => {
			const engine = await fresh();
			await engine.store({ content: 'Scratch in a', tags: ['scratch'], scope: 'a' });
			await engine.store({ content: 'Temp in a', tags: ['temp'], scope: 'a' });
			const kept = await engine.store({ content: 'Scratch in b', tags: ['scratch'], scope: 'b' });
			const out = await engine.delete({ tags: ['scratch', 'temp'], scope: 'a' });
			expect(out.deleted_count).toBe(2);
			expect((await engine.stats({})).total_memories).toBe(1);
			expect((await engine.getMemories([kept.memory_id!]))[0]).toBeDefined();
		});

		it('unknown id → not_found', async () => {
			const engine = await fresh();
			expect(await rejection(engine.delete({ memory_id: 'nope' }))).toMatchObject({ code: 'not_found', message: 'memory_id: no memory with id "nope"' });
		});

		it('deletes the known ids of a list and reports the unknown ones', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'To be deleted' });
			const out = await engine.delete({ memory_ids: [a.memory_id!, 'ghost', '42'] });
			expect(out).toMatchObject({ success: false, deleted_count: 1, not_found: ['ghost', '42'] });
		});

		it('refuses a call naming no target', async () => {
			const engine = await fresh();
			expect((await rejection(engine.delete({}))).message).toBe('memory_id: give exactly one of memory_id, memory_ids or tags');
		});
	});

	describe('associate', () => {
		it('creates an association with the relation-specific fields', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'Prefer Postgres' });
			const b = await engine.store({ content: 'MongoDB was considered' });
			const out = await engine.associate({
				memory1_id: a.memory_id!,
				memory2_id: b.memory_id!,
				type: 'PREFERS_OVER',
				strength: 0.8,
				reason: 'transactions',
				context: 'billing',
			});
			expect(out).toMatchObject({ success: true, created_count: 1, updated_count: 0, failed_count: 0 });
			expect((await engine.associationsOf(a.memory_id!)).find((l) => l.type === 'PREFERS_OVER')).toMatchObject({
				from: a.memory_id,
				to: b.memory_id,
				strength: 0.8,
				reason: 'transactions',
				context: 'billing',
			});
		});

		it('associate is idempotent per (from,to,type)', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'Cause' });
			const b = await engine.store({ content: 'Effect' });
			await engine.associate({ memory1_id: a.memory_id!, memory2_id: b.memory_id!, type: 'LEADS_TO', strength: 0.6 });
			const again = await engine.associate({ memory1_id: a.memory_id!, memory2_id: b.memory_id!, type: 'LEADS_TO', strength: 0.9 });
			expect(again).toMatchObject({ created_count: 0, updated_count: 1 });
			const links = (await engine.associationsOf(a.memory_id!)).filter((l) => l.type === 'LEADS_TO');
			expect(links).toHaveLength(1);
			expect(links[0]).toMatchObject({ strength: 0.9, updated_at: expect.any(String) });
		});

		it('defaults to RELATES_TO with strength 0.5', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'One' });
			const b = await engine.store({ content: 'Two' });
			const out = await engine.associate({ memory1_id: a.memory_id!, memory2_id: b.memory_id! });
			expect(out.succeeded[0]).toMatchObject({ type: 'RELATES_TO', strength: 0.5, status: 'created' });
		});

		it('system types are refused with a message listing the allowed ones', async () => {
			const engine = await fresh();
			const e = await rejection(engine.associate({ memory1_id: 'a', memory2_id: 'b', type: 'SIMILAR_TO' as never }));
			expect(e).toMatchObject({
				code: 'invalid_input',
				message: `type: SIMILAR_TO is a system relation that Engram creates itself and cannot be authored; use one of ${AUTHORABLE_ASSOCIATION_TYPES.join(', ')}`,
			});
		});

		it('dangling association target reported per item while the others succeed', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'Alpha' });
			const b = await engine.store({ content: 'Beta' });
			const out = await engine.associate({
				associations: [
					{ memory1_id: a.memory_id!, memory2_id: b.memory_id!, type: 'RELATES_TO' },
					{ memory1_id: a.memory_id!, memory2_id: 'ghost', type: 'RELATES_TO' },
					{ memory1_id: a.memory_id!, memory2_id: a.memory_id!, type: 'RELATES_TO' },
					{ memory1_id: b.memory_id!, memory2_id: a.memory_id!, type: 'CONTRADICTS', resolution: 'newer wins' },
				],
			});
			expect(out).toMatchObject({ success: false, created_count: 2, failed_count: 2 });
			expect(out.failed).toEqual([
				{ index: 1, memory1_id: a.memory_id, memory2_id: 'ghost', code: 'not_found', error: 'associations[1].memory2_id: no memory with id "ghost"' },
				{
					index: 2,
					memory1_id: a.memory_id,
					memory2_id: a.memory_id,
					code: 'invalid_input',
					error: 'associations[2].memory2_id: must differ from memory1_id (a memory cannot be linked to itself)',
				},
			]);
			expect(
				(await engine.associationsOf(b.memory_id!))
					.filter((l) => AUTHORABLE_ASSOCIATION_TYPES.includes(l.type as never))
					.map((l) => l.type)
					.sort(),
			).toEqual(['CONTRADICTS', 'RELATES_TO']);
		});

		it('unknown id → not_found in single mode', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'Alone' });
			expect(await rejection(engine.associate({ memory1_id: 'ghost', memory2_id: a.memory_id! }))).toMatchObject({
				code: 'not_found',
				message: 'memory1_id: no memory with id "ghost"',
			});
		});

		it('batch over 500 is refused naming associations', async () => {
			const engine = await fresh();
			const associations = Array.from({ length: 501 }, () => ({ memory1_id: 'a', memory2_id: 'b' }));
			expect((await rejection(engine.associate({ associations }))).message).toBe('associations: must have at most 500 items');
		});

		it('a new association lets recall expand to the linked memory', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'Kubernetes cluster upgrade planned for June' });
			const b = await engine.store({ content: 'Freeze all deploys the week before' });
			await engine.associate({ memory1_id: a.memory_id!, memory2_id: b.memory_id!, type: 'LEADS_TO', strength: 0.9 });
			const r = await engine.recall({ query: 'kubernetes upgrade', limit: 5 });
			expect(r.results.map((x) => x.memory.id)).toEqual(expect.arrayContaining([a.memory_id, b.memory_id]));
		});
	});
});

/**
 * Since schema v11 nothing in IndexedDB indexes tags or entity mentions: the engine's index
 * answers, and the rows confirm. An entity's row goes with its last mention, counted by the index
 * when it holds exactly what is stored, and on the rows when another tab wrote since
 * (engine/entity-orphans.ts). A delete by tags takes the index's candidates and keeps only the
 * rows that still match.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Engine } from '../../../src/engine/engine';
import { bumpStamp } from '../../../src/store/settings';
import { useEngines } from './helpers';

const fresh = useEngines();

/**
 * Writes a copy of memory `id` under a new id and seq straight into the database, moving the
 * write stamp, without telling the engine's index: what another tab's write looks like before
 * its notice arrives.
 */
async function writeAsAnotherTab(engine: Engine, id: string, patch: { id: string; seq: number; tags?: string[] }): Promise<void> {
	const row = (await engine.db.memories.get(id))!;
	await engine.db.write(async () => {
		await engine.db.memories.put({ ...row, ...patch, links: [] });
		await bumpStamp(engine.db);
	});
}

const entityRow = (engine: Engine, id: string) => engine.db.entities.get(id);

describe('entity rows and tags without IndexedDB indexes', () => {
	it('drops an entity with its last mention, counted by the index without reading the rows', async () => {
		const engine = await fresh();
		// Stored in the reverse of their ids' order.
		const a = await engine.store({ id: 'memory-2', content: 'Maria Silva reviewed the budget with Tomas Berg' });
		const b = await engine.store({ id: 'memory-1', content: 'Maria Silva approved the hiring plan' });
		// The memories mentioning an entity come from the index, in id order (as IndexedDB's index gave them).
		expect(await engine.memoryIdsForEntity('person:maria silva')).toEqual(['memory-1', 'memory-2']);
		const each = vi.spyOn(engine.db.memories, 'each');
		await engine.delete({ memory_id: a.memory_id! });
		expect(await entityRow(engine, 'person:maria silva')).toBeDefined();
		expect(await entityRow(engine, 'person:tomas berg')).toBeUndefined();
		// An update that drops the mention drops the entity; one that keeps it, keeps it.
		await engine.update({ memory_id: b.memory_id!, content: 'Maria Silva approved the hiring plan again' });
		expect(await entityRow(engine, 'person:maria silva')).toBeDefined();
		await engine.update({ memory_id: b.memory_id!, content: 'The hiring plan was approved' });
		expect(await entityRow(engine, 'person:maria silva')).toBeUndefined();
		expect(each).not.toHaveBeenCalled();
	});

	it('counts the rows when another tab wrote since the index last heard, and keeps what that write mentions', async () => {
		const engine = await fresh();
		const a = await engine.store({ content: 'Maria Silva reviewed the budget' });
		await writeAsAnotherTab(engine, a.memory_id!, { id: 'from-another-tab', seq: 99 });
		expect(engine.ctx.index.mentions('person:maria silva')).toBe(1);
		const each = vi.spyOn(engine.db.memories, 'each');
		await engine.delete({ memory_id: a.memory_id! });
		expect(each).toHaveBeenCalledTimes(1);
		expect(await entityRow(engine, 'person:maria silva')).toBeDefined();
	});

	it('deletes by tags only the memories whose rows still carry them', async () => {
		const engine = await fresh();
		const a = await engine.store({ content: 'Scratch note one', tags: ['scratch'] });
		const b = await engine.store({ content: 'Scratch note two', tags: ['scratch'] });
		// Another tab retags b; this engine's index has not heard yet.
		await writeAsAnotherTab(engine, b.memory_id!, { id: b.memory_id!, seq: b.seq!, tags: ['keep'] });
		expect(engine.ctx.index.withTags(['scratch'], 'any')).toEqual(expect.arrayContaining([a.memory_id, b.memory_id]));
		const out = await engine.delete({ tags: ['scratch'] });
		expect(out.deleted_ids).toEqual([a.memory_id]);
		expect(await engine.db.memories.get(b.memory_id!)).toMatchObject({ tags: ['keep'] });
	});
});

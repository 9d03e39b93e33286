/**
 * An id is an id (issue 23, item 1): in the native tools and the engine a memory reference is its
 * string id, matched exactly. A numeric-looking string never falls back to the memory with that
 * seq, so a retried delete or an update of a missing id cannot hit another memory. Seq addressing
 * lives only where a seed profile speaks integers (memory-mcp), typed as a number there.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeleteOutput, StoreOutput } from '../../../src/core/schemas';
import type { Engine } from '../../../src/engine/engine';
import { connect, data, errorText, makeEngine, type Connection } from './helpers';

let engine: Engine;
let c: Connection;
/** Ids of the seeded memories by seq (index 0 = seq 1). */
let bySeq: string[];

beforeEach(async () => {
	engine = await makeEngine();
	c = await connect(engine);
	// Ten memories with UUIDs, then one whose own id is "7": seq 7 belongs to another memory.
	const out = data<StoreOutput>(
		await c.call('store_memory', {
			memories: Array.from({ length: 10 }, (_, i) => ({ content: `Note number ${i + 1} about topic ${'abcdefghij'[i]}`, force: true })),
		}),
	);
	bySeq = out.results.map((r) => r.memory_id);
	data(await c.call('store_memory', { id: '7', content: 'The memory whose own id is seven', force: true }));
});
afterEach(async () => {
	await c.close();
	await engine.close();
});

const count = async () => (await engine.stats({})).total_memories;

describe('ids are ids', () => {
	it('a retried delete_memory("7") reports not_found and leaves the memory with seq 7 alone', async () => {
		expect(data<DeleteOutput>(await c.call('delete_memory', { memory_id: '7' }))).toMatchObject({ deleted_ids: ['7'] });
		expect(errorText(await c.call('delete_memory', { memory_id: '7' }))).toBe('not_found: memory_id: no memory with id "7"');
		expect((await engine.getMemories([bySeq[6]]))[0]?.seq).toBe(7);
		expect(await count()).toBe(10);
	});

	it('delete_memory(memory_ids: ["3"]) lists "3" as not found and deletes nothing', async () => {
		const out = data<DeleteOutput>(await c.call('delete_memory', { memory_ids: ['3'] }));
		expect(out).toMatchObject({ deleted_count: 0, not_found: ['3'] });
		expect(await count()).toBe(11);
	});

	it('update_memory("8") with no id "8" is not_found and does not overwrite the memory with seq 8', async () => {
		expect(errorText(await c.call('update_memory', { memory_id: '8', content: 'Overwritten' }))).toBe('not_found: memory_id: no memory with id "8"');
		expect((await engine.getMemories([bySeq[7]]))[0]?.content).toBe('Note number 8 about topic h');
	});

	it('get_memory("2") is not the memory with seq 2', async () => {
		expect(errorText(await c.call('get_memory', { memory_id: '2' }))).toBe('not_found: memory_id: no memory with id "2"');
	});

	it('an integer memory_id is refused by the native schema (ids are strings)', async () => {
		for (const [tool, args] of [
			['get_memory', { memory_id: 2 }],
			['update_memory', { memory_id: 2, content: 'x' }],
			['delete_memory', { memory_id: 2 }],
			['delete_memory', { memory_ids: [2] }],
			['associate_memories', { memory1_id: 1, memory2_id: 2 }],
			['recall_memory', { memory_id: 2 }],
			['store_memory', { content: 'Replaces the second', supersedes_memory_id: 2 }],
			['find_memory_connections', { relation: 'before', anchor_event_id: 2, query: 'What came before the second note?' }],
		] as const) {
			const r = await c.call(tool, args);
			expect(r.isError, tool).toBe(true);
		}
		expect(await count()).toBe(11);
	});

	it('the engine API refuses a seq and resolves a string exactly', async () => {
		await expect(engine.get({ memory_id: 2 as never })).rejects.toMatchObject({ code: 'invalid_input' });
		await expect(engine.get({ memory_id: '2', track_access: false })).rejects.toMatchObject({ code: 'not_found' });
		expect(await engine.resolveId('7')).toBe('7');
		expect(await engine.resolveId('5')).toBeUndefined();
		// Integers stay seqs where a profile types them as numbers (memory-mcp).
		expect(await engine.resolveId(5)).toBe(bySeq[4]);
	});

	it('associate_memories("1", "2") does not link the memories with seq 1 and 2', async () => {
		const r = await c.call('associate_memories', { memory1_id: '1', memory2_id: '2' });
		expect(r.isError).toBe(true);
		expect((await engine.associationsOf(bySeq[0])).filter((a) => a.type === 'RELATES_TO')).toEqual([]);
	});

	it('query_memory_graph {id: "4"} matches the id, not seq 4; {seq: 4} matches the seq', async () => {
		const q = async (query: string) => data<{ rows: Record<string, unknown>[] }>(await c.call('query_memory_graph', { query })).rows;
		expect(await q('MATCH (m {id: "4"}) RETURN m.id')).toEqual([]);
		expect(await q('MATCH (m {id: "7"}) RETURN m.id')).toEqual([{ 'm.id': '7' }]);
		expect(await q('MATCH (m {seq: 4}) RETURN m.id')).toEqual([{ 'm.id': bySeq[3] }]);
	});

	it('memory-mcp keeps integer ids: get_memory(7) and delete_memory(7) address seq 7', async () => {
		const mm = await connect(engine, 'memory-mcp');
		expect(data<{ id: number; content: string }>(await mm.call('get_memory', { memory_id: 7 }))).toMatchObject({
			id: 7,
			content: 'Note number 7 about topic g',
		});
		expect((await mm.call('get_memory', { memory_id: '7' })).isError).toBe(true);
		data(await mm.call('delete_memory', { memory_id: 7 }));
		expect(await engine.getMemories(['7'])).toMatchObject([{ id: '7' }]);
		await mm.close();
	});

	it("memory-mcp: a retried delete_memory(7) does not hit a memory an import brought with 7; the deleted memory's own restore, or a backup after a wipe, keeps its numbers", async () => {
		const mm = await connect(engine, 'memory-mcp');
		const backup = (await engine.exportMemories({ format: 'jsonl' })).data;
		data(await mm.call('delete_memory', { memory_id: 7 }));
		// Another device's export: its memory numbered 7 is not the one deleted here.
		const foreign = backup.replace(`"id":"${bySeq[6]}"`, '"id":"from-elsewhere"').replace('Note number 7 about topic g', 'A memory from elsewhere');
		const r = await engine.importMemories({ data: foreign });
		expect(r.imported).toBe(1);
		expect((await engine.getMemories(['from-elsewhere']))[0]!.seq).toBeGreaterThan(11);
		expect(errorText(await mm.call('delete_memory', { memory_id: 7 }))).toBe('not_found: memory_id: ❌ Memory #7 not found');
		expect(await engine.getMemories(['from-elsewhere'])).toMatchObject([{ id: 'from-elsewhere' }]);
		// The deleted memory itself, restored, gets its number back.
		await engine.importMemories({ data: backup });
		expect(data<{ id: number; content: string }>(await mm.call('get_memory', { memory_id: 7 }))).toMatchObject({ content: 'Note number 7 about topic g' });
		await engine.wipe();
		await engine.importMemories({ data: backup });
		expect((await engine.getMemories(bySeq)).map((m) => m!.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
		await mm.close();
	});
});

describe('a new memory’s own id', () => {
	it('is refused with white space at an end or an invisible character ("fixed " and "fix\\u200Bed" were new memories that show as "fixed")', async () => {
		const engine = await makeEngine();
		const c = await connect(engine);
		const am = await connect(engine, 'automem');
		try {
			data(await c.call('store_memory', { id: 'fixed', content: 'The deploy key rotates every ninety days.' }));
			for (const id of ['fixed ', ' fixed', 'fixed\n', 'fix\u200bed', 'fixed\u200e', '\u202efixed', 'fix\u0000ed', '\ufefffixed'])
				expect(errorText(await c.call('store_memory', { id, content: 'The deploy key rotates every thirty days.' })), JSON.stringify(id)).toMatch(
					/(white space|invisible characters).+ at id$/,
				);
			expect(errorText(await am.call('store_memory', { id: 'fixed\t', content: 'Backups run at night.' }))).toMatch(/white space.+ at id$/);
			expect(errorText(await c.call('store_memory', { memories: [{ content: 'Fine' }, { id: 'x\u2060y', content: 'Word joiner inside' }] }))).toMatch(
				/invisible characters.+ at memories\[1\]\.id$/,
			);
			expect((await engine.stats({})).total_memories).toBe(1);
			// Inner spaces and visible non-Latin ids are ids like any other.
			data(await c.call('store_memory', { id: 'my note 1', content: 'Inner spaces are fine.' }));
			data(await c.call('store_memory', { id: 'メモ-1', content: 'Japanese ids are fine.' }));
		} finally {
			await c.close();
			await am.close();
			await engine.close();
		}
	});

	it('is refused when it is not NFC, naming id, so no two ids look alike (native and AutoMem)', async () => {
		const engine = await makeEngine();
		const c = await connect(engine);
		const am = await connect(engine, 'automem');
		try {
			data(await c.call('store_memory', { id: 'caf\u00e9', content: 'The café on the corner opens at seven.' }));
			expect(errorText(await c.call('store_memory', { id: 'cafe\u0301', content: 'The café by the station opens at six.' }))).toMatch(
				/Invalid arguments for tool store_memory: must be in Unicode NFC form .+ at id$/,
			);
			expect(errorText(await am.call('store_memory', { id: 'Zu\u0308rich', content: 'Deploy window is Friday morning.' }))).toMatch(
				/must be in Unicode NFC form .+ at id$/,
			);
			expect((await engine.stats({})).total_memories).toBe(1);
		} finally {
			await c.close();
			await am.close();
			await engine.close();
		}
	});
});

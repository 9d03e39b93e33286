/**
 * The duplicate guard through a real SDK Client: memories that differ in a letter or a number
 * are both stored, and a store with a caller-given id is never folded into another memory, so
 * AutoMem's seed flow (store `a` and `b`, then link them) works even when they read alike.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { StoreOutput } from '../../../src/core/schemas';
import type { Engine } from '../../../src/engine/engine';
import { connect, data, makeEngine, text, type Connection } from './helpers';

let engine: Engine;
let c: Connection;

afterEach(async () => {
	await c.close();
	await engine.close();
});

describe('store_memory and near-duplicates', () => {
	it('native: "team A" and "team B" are two memories', async () => {
		engine = await makeEngine();
		c = await connect(engine);
		const a = data<StoreOutput>(await c.call('store_memory', { content: 'Meeting with team A at 3pm' }));
		const b = data<StoreOutput>(await c.call('store_memory', { content: 'Meeting with team B at 3pm' }));
		const v = data<StoreOutput>(await c.call('store_memory', { content: 'Release 2 ships on Monday' }));
		const w = data<StoreOutput>(await c.call('store_memory', { content: 'Release 3 ships on Monday' }));
		expect([a, b, v, w].map((o) => o.results[0].status)).toEqual(['stored', 'stored', 'stored', 'stored']);
		expect(new Set([a, b, v, w].map((o) => o.memory_id)).size).toBe(4);
	});

	it('native: a sign, currency, #, % or other symbol, or names swapped, is another fact; a restatement still folds', async () => {
		engine = await makeEngine();
		c = await connect(engine);
		const pairs = [
			['-5 degrees at night', '5 degrees at night'],
			['Price: €5', 'Price: $5'],
			['I program in C#', 'I program in C'],
			['Discount is 50%', 'Discount is 50'],
			['Alice is the manager of Bob', 'Bob is the manager of Alice'],
			['The meeting moved from 3pm to 5pm', 'The meeting moved from 5pm to 3pm'],
		];
		for (const [i, [a, b]] of pairs.entries()) {
			data(await c.call('store_memory', { content: a, scope: `s${i}` }));
			const out = data<StoreOutput>(await c.call('store_memory', { content: b, scope: `s${i}` }));
			expect(out.results[0].status, `${a} | ${b}`).toBe('stored');
		}
		data(await c.call('store_memory', { content: 'Deploys happen on Tuesday.', scope: 'same' }));
		const again = data<StoreOutput>(await c.call('store_memory', { content: 'deploys  happen on Tuesday', scope: 'same' }));
		expect(again.results[0].status).toBe('duplicate');
	});

	it('every storing profile: numbers written alike, words swapped, a code in another case, code indented otherwise, a dropped "non" or "niet", or a question are other facts', async () => {
		const pairs = [
			['Server IP is 10.0.0.1', 'Server IP is 10.0.1.0'],
			['Running version 1.1.0', 'Running version 1.0.1'],
			['Due on 1/1/11', 'Due on 1/11/11'],
			['The area is 10\u00b2 m', 'The area is 102 m'],
			['convert celsius to fahrenheit', 'convert fahrenheit to celsius'],
			['The key is AbC123', 'The key is abc123'],
			['if a:\n    b\nc', 'if a:\n    b\n    c'],
			['The ticket is non-refundable', 'The ticket is refundable'],
			['Hij woont niet in Gent', 'Hij woont in Gent'],
			['The server is down?', 'The server is down'],
		];
		const profiles = [
			['native', 'store_memory', (content: string, i: number) => ({ content, scope: `s${i}` })],
			['automem', 'store_memory', (content: string, i: number) => ({ content, tags: [`s${i}`] })],
			['aiakiv', 'save_memory', (content: string) => ({ summary: content, content })],
			['memory-mcp', 'store_memory', (content: string, i: number) => ({ content, labels: [`s${i}`] })],
			['codomyrmex', 'memory_put', (content: string) => ({ content })],
		] as const;
		for (const [profile, tool, args] of profiles) {
			engine = await makeEngine();
			c = await connect(engine, profile);
			for (const [i, [a, b]] of pairs.entries()) {
				for (const content of [a, b]) expect((await c.call(tool, args(content, i))).isError, `${profile}: ${content}`).toBeFalsy();
				const { memories } = JSON.parse((await engine.exportMemories({ format: 'json' })).data) as { memories: { content: string }[] };
				const kept = memories.map((m) => m.content);
				expect(kept, `${profile}: ${a} | ${b}`).toEqual(expect.arrayContaining([a, b]));
			}
			expect((await engine.stats({})).total_memories, profile).toBe(pairs.length * 2);
			await c.close();
			await engine.close();
		}
		// afterEach closes these.
		engine = await makeEngine();
		c = await connect(engine);
	});

	it('native: a caller-given id is stored beside its near-duplicate and the answer says so', async () => {
		engine = await makeEngine();
		c = await connect(engine);
		await c.call('store_memory', { id: 'a', content: 'The billing latency dashboard gained a p99 panel.' });
		const r = await c.call('store_memory', { id: 'b', content: 'The billing latency dashboard gained a p99 panel' });
		const out = data<StoreOutput>(r);
		expect(out.results[0]).toMatchObject({ memory_id: 'b', status: 'stored', near_duplicate_of: 'a' });
		expect(text(r)).toMatch(/^Stored #2 b\.\nNearly repeats a \(similarity 1\.00\): kept apart for its given id, linked SIMILAR_TO\.$/);
	});

	it('automem: store `a` and `b` (alike), then associate them', async () => {
		engine = await makeEngine();
		c = await connect(engine, 'automem');
		for (const [id, content] of [
			['a', 'Alerting thresholds for billing latency were tightened to 300 ms.'],
			['b', 'Alerting thresholds for billing latency were tightened to 300 ms'],
		])
			expect(data<{ memory_id: string }>(await c.call('store_memory', { id, content })).memory_id).toBe(id);
		const r = await c.call('associate_memories', { memory1_id: 'a', memory2_id: 'b', type: 'RELATES_TO', strength: 0.9 });
		expect(data<{ success: boolean }>(r).success).toBe(true);
		expect(await engine.associationsOf('a')).toContainEqual(expect.objectContaining({ from: 'a', to: 'b', type: 'RELATES_TO' }));
	});
});

describe('a duplicate that brings new tags or metadata', () => {
	const tagsOf = async (id: string) => (await engine.getMemories([id]))[0]!;

	it('automem: the new tags and metadata keys are added to the kept memory in the store, and the answer says so', async () => {
		engine = await makeEngine();
		c = await connect(engine, 'automem');
		const first = data<{ memory_id: string }>(
			await c.call('store_memory', { content: 'Chose PostgreSQL for the user service.', tags: ['database'], metadata: { team: 'core' } }),
		);
		const r = await c.call('store_memory', {
			content: 'Chose PostgreSQL for the user service',
			tags: ['database', 'architecture', 'user-service'],
			metadata: { team: 'other', ticket: 'ENG-7', session_id: 's9' },
		});
		expect(data(r)).toEqual({
			memory_id: first.memory_id,
			duplicate: true,
			merged_tags: ['architecture', 'user-service'],
			merged_metadata: ['ticket'],
			// team's other value is not taken, and the answer says so.
			unmerged: ['metadata team (the memory keeps its own value)'],
			message: `Not stored again: near-duplicate of memory ${first.memory_id} (similarity 1.00); its new tags "architecture", "user-service" and metadata keys ticket were added to that memory; not added: metadata team (the memory keeps its own value). To change that memory otherwise, call update_memory with this memory_id.`,
		});
		const kept = await tagsOf(first.memory_id);
		expect(kept.tags).toEqual(['database', 'architecture', 'user-service']);
		// A key the memory has keeps its value; a session key would move it to another session.
		expect(kept.metadata).toEqual({ team: 'core', ticket: 'ENG-7' });
		expect((await engine.stats({})).total_memories).toBe(1);
		const [entry] = (await engine.history(first.memory_id)).filter((e) => e.action === 'updated');
		expect(entry!.changes!.tags).toEqual({ from: ['database'], to: ['database', 'architecture', 'user-service'] });
		// The same call again adds nothing more and says nothing about merging.
		const again = data<{ message: string; merged_tags?: string[] }>(
			await c.call('store_memory', { content: 'Chose PostgreSQL for the user service', tags: ['architecture'] }),
		);
		expect(again.merged_tags).toBeUndefined();
		expect(again.message).not.toContain('added');
		expect((await engine.history(first.memory_id)).filter((e) => e.action === 'updated')).toHaveLength(1);
	});

	it('native: tags over the limit are not added, and the answer says why', async () => {
		engine = await makeEngine();
		c = await connect(engine);
		const tags = Array.from({ length: 63 }, (_, i) => `t${i}`);
		const first = data<StoreOutput>(await c.call('store_memory', { content: 'The staging cluster runs in eu-west-1.', tags }));
		const out = data<StoreOutput>(await c.call('store_memory', { content: 'The staging cluster runs in eu-west-1', tags: ['a', 'b'] }));
		expect(out.results[0]).toMatchObject({ status: 'duplicate', unmerged: ['tags (the memory would have 65; at most 64)'] });
		expect(out.results[0].merged_tags).toBeUndefined();
		expect(out.message).toContain('not added: tags (the memory would have 65; at most 64)');
		expect((await tagsOf(first.memory_id!)).tags).toEqual(tags);
	});

	it('native batch: a duplicate of an earlier item, or of one 70 items back (already written), adds its tags to it', async () => {
		engine = await makeEngine();
		c = await connect(engine);
		const items = Array.from({ length: 70 }, (_, i) => ({ content: `Fact number ${i} about the billing service.` }));
		const memories = [
			{ content: 'Release trains leave every Tuesday.', tags: ['release'] },
			...items,
			{ content: 'Release trains leave every Tuesday', tags: ['cadence'] },
			{ content: 'Fact number 69 about the billing service', tags: ['billing'] },
		];
		const out = data<StoreOutput>(await c.call('store_memory', { memories }));
		expect(out.stored_count).toBe(71);
		const [early, late] = out.results.slice(71);
		expect(early).toMatchObject({ status: 'duplicate', duplicate_of: out.results[0].memory_id, merged_tags: ['cadence'] });
		expect(late).toMatchObject({ status: 'duplicate', duplicate_of: out.results[70].memory_id, merged_tags: ['billing'] });
		expect((await tagsOf(out.results[0].memory_id)).tags).toEqual(['release', 'cadence']);
		expect((await tagsOf(out.results[70].memory_id)).tags).toEqual(['billing']);
		// What recall sees (the index) agrees with what is stored.
		const found = await engine.recall({ query: 'release trains', tags: ['cadence'] });
		expect(found.results.map((r) => r.memory.id)).toEqual([out.results[0].memory_id]);
		expect(out.message).toContain('2 brought new tags or metadata');
	});
});

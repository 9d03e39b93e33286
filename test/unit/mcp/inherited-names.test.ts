/**
 * Names every plain object already has (`constructor`, `toString`, `__proto__`, …) given as tags,
 * scopes, sources and metadata keys, through the real SDK client: counted like any other name,
 * and merged like any other key.
 */
import { describe, expect, it } from 'vitest';
import { connect, data, makeEngine } from './helpers';

const NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

describe('names an object inherits', () => {
	it('memory_stats counts tags, scopes and sources named constructor, __proto__, toString… (it failed its output check for every caller)', async () => {
		const engine = await makeEngine();
		const c = await connect(engine);
		const mm = await connect(engine, 'memory-mcp');
		try {
			for (const name of NAMES)
				data(await c.call('store_memory', { content: `A note about cats, filed under ${name}`, tags: [name, 'cats'], scope: name, source: name }));
			data(await c.call('store_memory', { content: 'A second note about dogs', tags: ['constructor'], scope: 'constructor', source: 'constructor' }));
			type Stats = {
				total_memories: number;
				by_scope: Record<string, number>;
				by_source: Record<string, number>;
				top_tags: { tag: string; count: number }[];
			};
			const all = data<Stats>(await c.call('memory_stats', {}));
			expect(all.total_memories).toBe(6);
			const expected = Object.fromEntries(NAMES.map((n) => [n, n === 'constructor' ? 2 : 1]));
			expect({ ...all.by_scope }).toEqual(expected);
			expect({ ...all.by_source }).toEqual(expected);
			expect(all.top_tags).toEqual(
				expect.arrayContaining([{ tag: 'cats', count: 5 }, ...NAMES.map((n) => ({ tag: n, count: n === 'constructor' ? 2 : 1 }))]),
			);
			// The filtered count takes another path.
			const some = data<Stats>(await c.call('memory_stats', { tags: ['toString', 'constructor'] }));
			expect(some.total_memories).toBe(3);
			expect({ ...some.by_scope }).toEqual({ constructor: 2, toString: 1 });
			expect((await mm.call('memory_stats', {})).isError).toBeFalsy();
			expect((await mm.call('memory_stats', { labels: 'constructor' })).isError).toBeFalsy();
		} finally {
			await c.close();
			await mm.close();
			await engine.close();
		}
	});

	it('a duplicate adds metadata keys named constructor or toString that the memory lacks (they were refused as "kept its own value")', async () => {
		const engine = await makeEngine();
		const c = await connect(engine);
		try {
			const first = data<{ memory_id: string }>(
				await c.call('store_memory', { content: 'The Golden Gate bridge opened in 1937', metadata: { city: 'SF' } }),
			);
			const again = data<{ duplicate_of?: string; results: { merged_metadata?: string[]; unmerged?: string[] }[] }>(
				await c.call('store_memory', { content: 'The Golden Gate bridge opened in 1937', metadata: { constructor: 'Bethlehem Steel', toString: 'x' } }),
			);
			expect(again.duplicate_of).toBe(first.memory_id);
			expect(again.results[0].merged_metadata).toEqual(['constructor', 'toString']);
			expect(again.results[0].unmerged).toBeUndefined();
			const got = data<{ memory: { metadata: Record<string, unknown> } }>(await c.call('get_memory', { memory_id: first.memory_id }));
			expect(got.memory.metadata).toEqual({ city: 'SF', constructor: 'Bethlehem Steel', toString: 'x' });
		} finally {
			await c.close();
			await engine.close();
		}
	});
});

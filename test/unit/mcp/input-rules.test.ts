/**
 * The input rules of issue 23 through a real SDK client: ill-formed strings (lone surrogates)
 * refused in every position with the field and the rule (item 3), metadata depth and size
 * limits checked without recursion (item 4), a `__proto__` metadata key refused instead of
 * dropped, ambiguous dates refused, and `arguments` that is not an object answered with a clean
 * -32602 (item 11). Every refused call leaves the store as it was.
 */
import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportOutput } from '../../../src/core/schemas';
import type { Engine } from '../../../src/engine/engine';
import { connect, data, errorText, makeEngine, type Connection } from './helpers';

let engine: Engine;
let c: Connection;

beforeEach(async () => {
	engine = await makeEngine();
	c = await connect(engine);
	data(await c.call('store_memory', { content: 'A memory that is already here', tags: ['seed'] }));
});
afterEach(async () => {
	await c.close();
	await engine.close();
});

const count = async () => (await engine.stats({})).total_memories;

/** Nested objects `depth` levels deep, built without recursion. */
function nested(depth: number): Record<string, unknown> {
	let v: Record<string, unknown> = { leaf: 1 };
	for (let i = 1; i < depth; i++) v = { k: v };
	return v;
}

describe('one rule per fault', () => {
	it('an empty content in a batch is one issue, not "too small" and "blank" for the same field', async () => {
		const t = errorText(await c.call('store_memory', { memories: [{ content: 'fine' }, { content: '' }] }));
		expect(t).toContain('must not be blank at memories[1].content');
		expect(t).not.toContain('Too small');
		expect(await count()).toBe(1);
	});

	it('an end before the start is refused naming end, in recall_memory and list_memory_timeline', async () => {
		for (const tool of ['recall_memory', 'list_memory_timeline']) {
			const t = errorText(await c.call(tool, { query: 'memory', start: '2030-01-01', end: '2020-01-01' }));
			expect(t).toMatch(/must not be before start .* at end/);
		}
		expect(data(await c.call('list_memory_timeline', { start: '2020-01-01', end: '2030-01-01' })).count).toBe(1);
	});

	it('importance takes a level name in any case, and a wrong one names the accepted values', async () => {
		const id = data(await c.call('store_memory', { content: 'An important one', importance: 'high' })).memory_id as string;
		expect((await engine.get({ memory_id: id, track_access: false })).memory.importance).toBe(0.75);
		const t = errorText(await c.call('store_memory', { content: 'Another', importance: 'Hi' }));
		expect(t).toContain('must be a number from 0 to 1 or one of LOW, MEDIUM, HIGH, CRITICAL at importance');
		expect(await count()).toBe(2);
	});
});

describe('unknown arguments', () => {
	it('a write naming an argument it does not take is refused naming it, writing nothing; a read still answers', async () => {
		const rows = async () => JSON.stringify(await engine.db.memories.toArray());
		const before = await rows();
		expect(errorText(await c.call('store_memory', { content: 'Tagged the wrong way', tag: 'billing' }))).toMatch(
			/^MCP error -32602: Input validation error: Invalid arguments for tool store_memory: unknown argument "tag": store_memory takes content, .*tags.* at tag$/,
		);
		const id = (await engine.db.memories.toArray())[0].id;
		expect(errorText(await c.call('update_memory', { memory_id: id, id: 'renamed' }))).toContain('unknown argument "id": update_memory takes memory_id,');
		expect(errorText(await c.call('store_memory', { memories: [{ content: 'Fine' }, { content: 'Typo', tag: 'x' }] }))).toMatch(
			/unknown argument "memories\.1\.tag": each of memories takes content, .* at memories\.1\.tag$/,
		);
		expect(await rows()).toBe(before);
		expect((await c.call('recall_memory', { query: 'memory', limitt: 3 })).isError).toBeFalsy();
	});
});

describe('lone surrogates', () => {
	it('store_memory({id: "bad\\ud800id", tags: ["t\\udfff"]}) is refused naming the field and the rule', async () => {
		const t = errorText(await c.call('store_memory', { id: 'bad\ud800id', content: 'x', tags: ['t\udfff'] }));
		expect(t).toContain('must be well-formed Unicode (lone surrogate at position 3) at id');
		expect(t).toContain('must be well-formed Unicode (lone surrogate at position 1) at tags[0]');
		expect(await count()).toBe(1);
	});

	for (const [name, args] of [
		['content', { content: 'before \udc00 after' }],
		['scope', { content: 'ok', scope: 'proj\ud83d' }],
		['summary', { content: 'ok', summary: '\ud800' }],
		['source', { content: 'ok', source: 'a\udfffb' }],
		['metadata value (deep)', { content: 'ok', metadata: { a: { b: [1, 'x\ud800'] } } }],
		['metadata key (deep)', { content: 'ok', metadata: { a: { ['k\udc00']: 1 } } }],
		['entities[].name', { content: 'ok', entities: [{ name: 'Al\ud800ice', type: 'person' }] }],
		['memories[].tags', { memories: [{ content: 'ok' }, { content: 'ok2', tags: ['good', 'b\udfffad'] }] }],
	] as const)
		it(`store_memory refuses one in ${name}`, async () => {
			expect(errorText(await c.call('store_memory', args))).toMatch(/must be well-formed Unicode \(lone surrogate at position \d+\)/);
			expect(await count()).toBe(1);
		});

	it('read tools and other profiles refuse them too (query, labels, entity, graph params)', async () => {
		const calls: [string, string, Record<string, unknown>][] = [
			['native', 'recall_memory', { query: 'what \ud800' }],
			['native', 'recall_memory', { queries: ['ok', '\udfff'] }],
			['native', 'find_memories_by_entity', { entity: 'Bob\ud800' }],
			['native', 'query_memory_graph', { query: 'MATCH (m {tag: $t}) RETURN m.id', params: { t: '\ud800' } }],
			['native', 'update_memory', { memory_id: 'x', metadata: { '\ud800': 1 } }],
			['memory-mcp', 'store_memory', { content: 'ok', labels: 'a, b\ud800' }],
			['memory-mcp', 'retrieve_memories', { query: '\udc00' }],
			['automem', 'store_memory', { content: 'ok', tags: ['\ud800'] }],
			['codomyrmex', 'memory_search', { query: '\ud800' }],
		];
		for (const [profile, tool, args] of calls) {
			const conn = await connect(engine, profile as never);
			const tools = (await conn.client.listTools()).tools.map((t) => t.name);
			if (!tools.includes(tool)) throw new Error(`${profile} has no ${tool}`);
			expect(errorText(await conn.call(tool, args)), `${profile}.${tool}`).toMatch(/well-formed Unicode \(lone surrogate at position \d+\)/);
			await conn.close();
		}
		expect(await count()).toBe(1);
	});

	it('an import whose JSON escapes make a lone surrogate refuses that record and names it', async () => {
		const doc = '{"memories":[{"id":"ok-1","content":"Fine"},{"id":"bad\\ud800","content":"Broken id"},{"content":"Bad tag","tags":["\\udfff"]}]}';
		const out = data<ImportOutput>(await c.call('import_memories', { data: doc, format: 'json' }));
		expect(out.imported).toBe(1);
		expect(out.errors.map((e) => e.error)).toEqual([
			'memory.id: must be well-formed Unicode (lone surrogate at position 3)',
			'memory.tags[0]: must be well-formed Unicode (lone surrogate at position 0)',
		]);
		expect(await count()).toBe(2);
	});

	it('the engine API (the UI) refuses them with the path', async () => {
		await expect(engine.store({ content: 'ok', metadata: { list: ['a', { deep: '\ud800' }] } })).rejects.toMatchObject({
			code: 'invalid_input',
			message: 'metadata.list[1].deep: must be well-formed Unicode (lone surrogate at position 0)',
		});
		await expect(engine.store({ content: 'ok', tags: ['\udfff'] })).rejects.toMatchObject({
			message: 'tags[0]: must be well-formed Unicode (lone surrogate at position 0)',
		});
	});
});

describe('references to stored ids', () => {
	it('a row stored with an ill-formed id by an older version can still be read and deleted by that id', async () => {
		const [row] = await engine.ctx.db.memories.toArray();
		const legacy = `old\ud800id`;
		await engine.ctx.db.memories.put({ ...row, id: legacy, seq: row.seq + 100 });
		expect((await engine.get({ memory_id: legacy, track_access: false })).memory.id).toBe(legacy);
		expect(data<{ deleted_ids: string[] }>(await c.call('delete_memory', { memory_id: legacy })).deleted_ids).toEqual([legacy]);
	});
});

describe('metadata shape', () => {
	it('metadata nested 5,000 deep is refused by an iterative check, naming the rule', async () => {
		const t = errorText(await c.call('store_memory', { content: 'deep', metadata: nested(5000) }));
		expect(t).toContain('must be nested at most 20 levels deep');
		expect(await count()).toBe(1);
		await expect(engine.store({ content: 'deep', metadata: nested(100_000) })).rejects.toMatchObject({
			code: 'invalid_input',
			message: expect.stringContaining('metadata.k.k.k.k.k.k.k.k.k.k.k.k.k.k.k.k.k.k.k.k: must be nested at most 20 levels deep'),
		});
	});

	it('20 levels are accepted; 21 are not', async () => {
		data(await c.call('store_memory', { content: 'twenty', metadata: nested(20) }));
		expect((await c.call('store_memory', { content: 'twenty-one', metadata: nested(21) })).isError).toBe(true);
		expect(await count()).toBe(2);
	});

	it('metadata over 32 KB is still refused', async () => {
		expect(errorText(await c.call('store_memory', { content: 'big', metadata: { a: 'x'.repeat(40_000) } }))).toContain(
			'must serialise to at most 32768 bytes',
		);
	});

	it('a __proto__ metadata key is refused and named, not dropped silently', async () => {
		const raw = JSON.parse('{"content":"proto","metadata":{"ok":1,"__proto__":{"polluted":true}}}') as Record<string, unknown>;
		expect(errorText(await c.call('store_memory', raw))).toContain('key "__proto__" is not allowed');
		await expect(engine.store(JSON.parse('{"content":"p","metadata":{"a":{"__proto__":1}}}'))).rejects.toMatchObject({
			message: 'metadata.a.__proto__: key "__proto__" is not allowed (JSON objects lose it); rename it',
		});
		expect(await count()).toBe(1);
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	});
});

describe('dates', () => {
	it('an ambiguous timestamp ("1", "March 5", "5/3/2024") is refused, ISO 8601 shapes are accepted', async () => {
		for (const bad of ['1', '2024', 'March 5, 2024', '5/3/2024', '2024-02-30', '2024-13-01', '2024-01-01T25:00', 'Tue Mar 05 2024'])
			expect(errorText(await c.call('store_memory', { content: `when ${bad}`, timestamp: bad })), bad).toContain('must be an ISO 8601 date or date-time');
		expect(await count()).toBe(1);
		const good = [
			'2024-03-05',
			'2024-03-05T09:30',
			'2024-03-05T09:30:15.123Z',
			'2024-03-05T09:30:15+02:00',
			'2024-03-05 09:30:15Z',
			'2024-02-29',
			'+010000-01-01T00:00:00.000Z',
		];
		for (const [i, ok] of good.entries()) data(await c.call('store_memory', { content: `good date number ${i} ${ok}`, timestamp: ok, force: true }));
		expect(await count()).toBe(1 + good.length);
	});

	it('recall start/end and connections reference_time follow the same rule', async () => {
		expect((await c.call('recall_memory', { query: 'x', start: '1' })).isError).toBe(true);
		expect((await c.call('find_memory_connections', { sentence: 'What happened before?', relation: 'before', reference_time: '99' })).isError).toBe(true);
	});
});

describe('arguments that are not an object', () => {
	for (const [what, args] of [
		['an array', ['x']],
		['a string', 'memory_id=1'],
		['null', null],
	] as const)
		it(`tools/call with arguments as ${what} is a clean -32602 naming the problem`, async () => {
			const err = await c.client.request({ method: 'tools/call', params: { name: 'get_memory', arguments: args as never } }, CallToolResultSchema).then(
				() => undefined,
				(e: unknown) => e,
			);
			expect(err).toBeInstanceOf(McpError);
			expect((err as McpError).code).toBe(ErrorCode.InvalidParams);
			expect((err as McpError).message).toBe(
				`MCP error -32602: Invalid params: arguments must be an object of named arguments, e.g. {"memory_id": "…"} (got ${what})`,
			);
			expect(await count()).toBe(1);
		});
});

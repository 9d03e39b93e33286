/**
 * Every tool of every profile, called with arguments generated from its own input schema and
 * salted with hostile values (wrong types, huge and negative numbers, far dates, empty and long
 * strings, real and unknown ids): each call must end in a result, a MemoryError rendered as
 * `code: message`, or the SDK's input-validation error naming the field. Anything else (a
 * TypeError, a RangeError from a Date) is an internal failure an agent could not act on.
 *
 * The targeted part (issue 23) puts a lone surrogate in every string position of every tool's
 * schema, nests metadata and any object field thousands deep, sends arrays of 100,000 items and
 * batches that repeat an id, and checks the invariant that a refused call leaves the store
 * exactly as it was (every row and link, compared before and after). HOSTILE_CALLS counts the
 * calls of one run; the test logs the figure.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROFILE_NAMES } from '../../../src/mcp/server';
import { Clock, connect, data, makeEngine } from './helpers';

type Schema = Record<string, unknown>;

const STRINGS = [
	'',
	' ',
	'x'.repeat(5000),
	'\u0000',
	'NaN',
	'-1',
	'9999999999999',
	'2024-13-45',
	'next 99999 weeks',
	'last week',
	'💥',
	'<script>',
	'*',
	'((',
	'"',
	'\\',
	'MATCH (n) RETURN n',
	'__proto__',
	'constructor',
];
const NUMBERS = [0, -1, 1, 0.5, -0.5, 1e308, -1e308, 2 ** 53, 1e-300, 100_000, 501, 3.7];
const FAR_DATES = fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }).map((d) => d.toISOString());

/** Values for `schema`: mostly of its type (its enums, its properties), sometimes anything at all. */
function valuesFor(schema: Schema | undefined, ids: string[], depth = 0): fc.Arbitrary<unknown> {
	const anything = fc.oneof(fc.constantFrom(...STRINGS, ...NUMBERS, ...ids, true, null, [], {}));
	if (!schema || depth > 4) return anything;
	const options: fc.Arbitrary<unknown>[] = [];
	if (Array.isArray(schema.enum)) options.push(fc.constantFrom(...(schema.enum as unknown[])));
	for (const key of ['anyOf', 'oneOf'] as const) for (const s of (schema[key] as Schema[] | undefined) ?? []) options.push(valuesFor(s, ids, depth + 1));
	const types = [schema.type ?? []].flat() as string[];
	for (const type of types) {
		if (type === 'string') options.push(fc.oneof(fc.constantFrom(...STRINGS, ...ids), fc.string({ maxLength: 30 }), FAR_DATES));
		if (type === 'number' || type === 'integer')
			options.push(fc.oneof(fc.constantFrom(...NUMBERS), fc.integer({ min: -5, max: 600 }), fc.double({ noNaN: true, noDefaultInfinity: true })));
		if (type === 'boolean') options.push(fc.boolean());
		if (type === 'array') options.push(fc.array(valuesFor(schema.items as Schema, ids, depth + 1), { maxLength: 4 }));
		if (type === 'object') {
			const props = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
			options.push(fc.record(Object.fromEntries(props.map(([k, v]) => [k, valuesFor(v, ids, depth + 1)])), { requiredKeys: [] }));
		}
	}
	return options.length === 0 ? anything : fc.oneof({ arbitrary: fc.oneof(...options), weight: 9 }, { arbitrary: anything, weight: 1 });
}

/** Hostile calls made in this run (both parts), reported at the end. */
let HOSTILE_CALLS = 0;

const MEMORY_ERROR = /^(not_found|invalid_input|conflict|quota_exceeded|embedding_failed|not_connected|storage_failed|cancelled): \S/;
const SCHEMA_ERROR = /Input validation error: Invalid arguments for tool \w+: .+ at \w+/s;

describe('hostile arguments', () => {
	for (const profile of PROFILE_NAMES) {
		it(`every ${profile} tool answers with a result, a MemoryError or a schema error naming the field`, async () => {
			const engine = await makeEngine({ now: new Clock().now });
			const seeder = await connect(engine, 'native');
			const stored = data<{ results: { id: string }[] }>(
				await seeder.call('store_memory', {
					memories: [
						{ content: 'Alice moved to Berlin in March 2024 to work at Acme', tags: ['move'], scope: 's1' },
						{ content: 'Bob likes hiking in the Alps every summer', tags: ['hobby'], scope: 's1' },
						{ content: 'We chose PostgreSQL for billing', type: 'Decision' },
					],
				}),
			);
			const ids = [...stored.results.map((r) => r.id), '00000000-0000-4000-8000-000000000000'];
			const conn = await connect(engine, profile);
			const failures: string[] = [];
			for (const tool of (await conn.client.listTools()).tools) {
				await fc.assert(
					fc.asyncProperty(valuesFor(tool.inputSchema as Schema, ids), async (value) => {
						const args = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
						let text: string | undefined;
						HOSTILE_CALLS++;
						try {
							const r = await conn.call(tool.name, args);
							if (r.isError) text = (r.content[0] as { text?: string } | undefined)?.text ?? '';
						} catch (e) {
							text = (e as Error).message;
						}
						if (text !== undefined && !MEMORY_ERROR.test(text) && !SCHEMA_ERROR.test(text))
							failures.push(`${tool.name}(${JSON.stringify(args).slice(0, 200)}) → ${text.slice(0, 200)}`);
					}),
					{ numRuns: 60 },
				);
			}
			expect(failures).toEqual([]);
			expect((await seeder.call('check_database_health', {})).isError).toBeFalsy();
		}, 120_000);
	}

	it('targeted: lone surrogates everywhere, deep nesting, huge arrays and repeated ids are refused cleanly and change nothing', async () => {
		const engine = await makeEngine({ now: new Clock().now });
		const seeder = await connect(engine, 'native');
		const stored = data<{ results: { memory_id: string }[] }>(
			await seeder.call('store_memory', {
				memories: [
					{ id: 'fixed-1', content: 'Alice moved to Berlin in March 2024', tags: ['move'], metadata: { a: 1 } },
					{ content: 'Bob likes hiking in the Alps every summer', tags: ['hobby'] },
				],
			}),
		);
		const ids = stored.results.map((r) => r.memory_id);
		data(await seeder.call('associate_memories', { memory1_id: ids[0], memory2_id: ids[1], type: 'RELATES_TO' }));
		const snapshot = async () => (await engine.exportMemories({ format: 'jsonl', include_vectors: true })).data;
		const before = await snapshot();
		const failures: string[] = [];
		let refused = 0;
		const deep = (n: number) => {
			let v: Record<string, unknown> = { leaf: 'x' };
			for (let i = 1; i < n; i++) v = { k: v };
			return v;
		};
		for (const profile of PROFILE_NAMES) {
			const conn = await connect(engine, profile);
			for (const tool of (await conn.client.listTools()).tools) {
				const props = Object.entries(((tool.inputSchema as Schema).properties ?? {}) as Record<string, Schema>);
				const base = validBase(tool.name, ids);
				const cases: [string, Record<string, unknown>][] = [];
				for (const [key, prop] of props) {
					const types = [prop.type ?? (prop.anyOf as Schema[] | undefined)?.map((x) => x.type) ?? []].flat();
					if (types.includes('string')) cases.push([`${key}: lone surrogate`, { ...base, [key]: 'ok\ud800bad' }]);
					if (types.includes('array')) {
						cases.push([`${key}: [lone surrogate]`, { ...base, [key]: ['\udfff'] }]);
						cases.push([`${key}: 100k items`, { ...base, [key]: Array.from({ length: 100_000 }, (_, i) => `item-${i}`) }]);
					}
					if (types.includes('object')) {
						cases.push([`${key}: 5000 deep`, { ...base, [key]: deep(5000) }]);
						cases.push([`${key}: key with lone surrogate`, { ...base, [key]: { ['k\udc00']: 1 } }]);
					}
				}
				for (const [what, args] of cases) {
					HOSTILE_CALLS++;
					const r = await conn.call(tool.name, args);
					const text = (r.content[0] as { text?: string } | undefined)?.text ?? '';
					// Refused cleanly, or (for a harmless value: a long list of tags to filter by) answered.
					if (r.isError) {
						refused++;
						if (!MEMORY_ERROR.test(text) && !SCHEMA_ERROR.test(text)) failures.push(`${profile}.${tool.name} ${what} → ${text.slice(0, 200)}`);
					}
					if (r.isError && (await snapshot()) !== before) failures.push(`${profile}.${tool.name} ${what}: refused but the store changed`);
				}
			}
			await conn.close();
		}
		// Repeated ids in one batch: refused as a whole (nothing half-written), or deduplicated.
		for (const [tool, args] of [
			[
				'store_memory',
				{
					memories: [
						{ id: 'twin', content: 'First twin' },
						{ id: 'twin', content: 'Second twin' },
					],
				},
			],
			[
				'store_memory',
				{
					memories: [
						{ id: 'fresh', content: 'Fine' },
						{ id: 'x\ud800', content: 'Bad' },
					],
				},
			],
			['store_memory', { memories: [{ content: 'Fine one' }, { content: 'Deep one', metadata: deep(3000) }] }],
			['delete_memory', { memory_ids: [ids[0], ids[0], 'ghost'] }],
			[
				'associate_memories',
				{
					associations: [
						{ memory1_id: ids[0], memory2_id: ids[1] },
						{ memory1_id: ids[0], memory2_id: ids[1] },
					],
				},
			],
		] as const) {
			HOSTILE_CALLS++;
			const snap = await snapshot();
			const r = await seeder.call(tool, args as unknown as Record<string, unknown>);
			if (r.isError && (await snapshot()) !== snap) failures.push(`${tool} ${JSON.stringify(args).slice(0, 80)}: refused but the store changed`);
			if (tool === 'store_memory' && !r.isError)
				expect((await engine.getMemories(['twin', 'fresh'])).filter(Boolean).length, 'a refused batch writes nothing').toBeLessThanOrEqual(1);
		}
		expect(await engine.getMemories(['fresh'])).toEqual([undefined]);
		expect(failures).toEqual([]);
		expect(refused).toBeGreaterThan(50);
		expect((await seeder.call('check_database_health', {})).isError).toBeFalsy();
		console.info(`hostile-arguments: ${HOSTILE_CALLS} hostile calls this run`);
	}, 300_000);
});

/** Arguments that make each tool's call otherwise valid, so the hostile value is what it meets. */
function validBase(tool: string, ids: string[]): Record<string, unknown> {
	const bases: Record<string, Record<string, unknown>> = {
		store_memory: { content: 'A valid memory text' },
		update_memory: { memory_id: ids[0] },
		get_memory: { memory_id: ids[0] },
		delete_memory: { memory_id: 'no-such-id' },
		associate_memories: { memory1_id: ids[0], memory2_id: ids[1] },
		find_memory_connections: { sentence: 'What is related to Berlin?' },
		query_memory_graph: { query: 'MATCH (m) RETURN m.id LIMIT 1' },
		import_memories: { data: '{"memories":[]}' },
		find_memories_by_entity: { entity: 'Alice' },
	};
	return bases[tool] ?? {};
}

describe('an offset past the last memory', () => {
	it('answers an empty page on every ranking path (query, no query, caller embedding), not an internal error', async () => {
		const engine = await makeEngine();
		const c = await connect(engine);
		const automem = await connect(engine, 'automem');
		try {
			const embedding = Array.from({ length: 100 }, (_, i) => Math.sin(i + 1));
			data(await c.call('store_memory', { content: 'The API rate limit is 100 requests per minute.', embedding }));
			for (const offset of [1e8, 1e12, Number.MAX_SAFE_INTEGER]) {
				for (const args of [{ query: 'rate limit' }, {}, { embedding }]) {
					const r = await c.call('recall_memory', { ...args, offset });
					expect(r.isError, `${JSON.stringify(Object.keys(args))} offset ${offset}`).toBeFalsy();
					expect(data<{ results: unknown[]; has_more: boolean }>(r)).toMatchObject({ results: [], has_more: false });
				}
				const a = await automem.call('recall_memory', { query: 'rate limit', offset });
				expect(a.isError).toBeFalsy();
			}
			// Paging still works up to the end.
			expect(data<{ results: unknown[] }>(await c.call('recall_memory', { query: 'rate limit', offset: 0 })).results).toHaveLength(1);
		} finally {
			await c.close();
			await automem.close();
			await engine.close();
		}
	});
});

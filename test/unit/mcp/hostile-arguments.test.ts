/**
 * Every tool of every profile, called with arguments generated from its own input schema and
 * salted with hostile values (wrong types, huge and negative numbers, far dates, empty and long
 * strings, real and unknown ids): each call must end in a result, a MemoryError rendered as
 * `code: message`, or the SDK's input-validation error naming the field. Anything else (a
 * TypeError, a RangeError from a Date) is an internal failure an agent could not act on.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROFILE_NAMES } from '../../../src/mcp/server';
import { Clock, connect, data, makeEngine } from './helpers';

type Schema = Record<string, unknown>;

const STRINGS = ['', ' ', 'x'.repeat(5000), '\u0000', 'NaN', '-1', '9999999999999', '2024-13-45', 'next 99999 weeks', 'last week', '💥', '<script>', '*', '((', '"', '\\', 'MATCH (n) RETURN n', '__proto__', 'constructor'];
const NUMBERS = [0, -1, 1, 0.5, -0.5, 1e308, -1e308, 2 ** 53, 1e-300, 100_000, 501, 3.7];
const FAR_DATES = fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }).map((d) => d.toISOString());

/** Values for `schema`: mostly of its type (its enums, its properties), sometimes anything at all. */
function valuesFor(schema: Schema | undefined, ids: string[], depth = 0): fc.Arbitrary<unknown> {
	const anything = fc.oneof(fc.constantFrom(...STRINGS, ...NUMBERS, ...ids, true, null, [], {}));
	if (!schema || depth > 4) return anything;
	const options: fc.Arbitrary<unknown>[] = [];
	if (Array.isArray(schema.enum)) options.push(fc.constantFrom(...(schema.enum as unknown[])));
	for (const key of ['anyOf', 'oneOf'] as const)
		for (const s of (schema[key] as Schema[] | undefined) ?? []) options.push(valuesFor(s, ids, depth + 1));
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
});

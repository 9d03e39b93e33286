/**
 * What the seed-driven acceptance probes found (an agent following each seed's own examples, and
 * a sloppy one retrying and racing itself), pinned per profile: a distinct fact is never called
 * an exact match, a duplicate store never claims it stored anything nor suggests an argument the
 * profile refuses, a retried delete racing another speaks the profile's id, and a thread linked
 * twice (prev_event_id and store order) is one NEXT step, not two rows.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/engine/engine';
import type { EngineApi } from '../../../src/engine/types';
import { connect, data, errorText, makeEngine, text, type Connection } from './helpers';

let engine: Engine;
const open: Connection[] = [];
async function as(profile: Parameters<typeof connect>[1], over: EngineApi = engine): Promise<Connection> {
	const c = await connect(over, profile);
	open.push(c);
	return c;
}

beforeEach(async () => {
	engine = await makeEngine();
});
afterEach(async () => {
	for (const c of open.splice(0)) await c.close();
	await engine.close();
});

describe('memory-mcp store_memory warnings', () => {
	it('a stored memory whose embedding is nearly the same as another is not called an "Exact match"', async () => {
		const mm = await as('memory-mcp');
		const first = data<{ id: number }>(await mm.call('store_memory', { content: 'Deploy to staging every Monday.' }));
		const second = data<{ id: number; message: string; warnings?: string[] }>(
			await mm.call('store_memory', { content: 'Deploy to staging every Tuesday.' }),
		);
		// Stored: a new id, and the message says so.
		expect(second.id).not.toBe(first.id);
		expect(second.message).toBe(`✅ Memory stored with ID ${second.id}`);
		// The warning names the close memory without calling it the same one.
		expect(second.warnings).toHaveLength(1);
		expect(second.warnings![0]).not.toMatch(/Exact match/);
		expect(second.warnings![0]).toMatch(new RegExp(`memory #${first.id} \\(\\d+% match\\)`));
	});

	it('a real duplicate still gets the exact-match warning and its existing id', async () => {
		const mm = await as('memory-mcp');
		const first = data<{ id: number }>(await mm.call('store_memory', { content: 'The office wifi password rotates monthly.' }));
		const again = data<{ id: number; message: string; warnings?: string[] }>(
			await mm.call('store_memory', { content: 'The office wifi password rotates monthly.' }),
		);
		expect(again.id).toBe(first.id);
		expect(again.warnings).toEqual([`❌ Exact match with memory #${first.id}`]);
	});
});

describe('automem store_memory of a near-duplicate', () => {
	it('says it did not store, returns the existing id, and suggests only what AutoMem takes', async () => {
		const am = await as('automem');
		const first = data<{ memory_id: string }>(await am.call('store_memory', { content: 'Ana prefers tabs over spaces in TypeScript.' }));
		const again = await am.call('store_memory', { content: 'Ana prefers tabs over spaces in TypeScript.' });
		const out = data<{ memory_id: string; message: string }>(again);
		expect(out.memory_id).toBe(first.memory_id);
		const t = text(again);
		expect(t).not.toMatch(/stored successfully/i);
		expect(t).toMatch(/^Memory not stored again: near-duplicate/);
		expect(t).toContain(`Memory ID: ${first.memory_id}`);
		// AutoMem's store_memory has no `force`: suggesting it would get the agent a refusal.
		expect(t).not.toMatch(/force/);
		expect(out.message).not.toMatch(/force/);
		expect(t).toMatch(/update_memory/);
		expect((await engine.stats({})).total_memories).toBe(1);
	});

	it('a batch with a duplicate reports it without suggesting force', async () => {
		const am = await as('automem');
		await am.call('store_memory', { content: 'The staging server runs on port 8080.' });
		const r = await am.call('store_memory', {
			memories: [{ content: 'The staging server runs on port 8080.' }, { content: 'Lunch is at noon on Fridays.' }],
		});
		expect(text(r)).not.toMatch(/force/);
		expect(data<{ memory_ids: string[] }>(r).memory_ids).toHaveLength(2);
	});
});

describe('memory-mcp delete_memory racing another delete', () => {
	it('reports the integer id it was given, not an internal one, when the memory goes between lookup and delete', async () => {
		const mm = await as('memory-mcp');
		const { id } = data<{ id: number }>(await mm.call('store_memory', { content: 'Label race target: the cat is called Miso.' }));
		// Another client's delete lands between this call's id lookup and its delete.
		const racing: EngineApi = new Proxy(engine, {
			get(target, key, receiver) {
				if (key === 'delete')
					return async (...args: Parameters<EngineApi['delete']>) => {
						await target.delete(args[0], args[1]);
						return target.delete(args[0], args[1]);
					};
				const v = Reflect.get(target, key, receiver) as unknown;
				return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
			},
		});
		const raced = await as('memory-mcp', racing);
		const r = await raced.call('delete_memory', { memory_id: id });
		expect(errorText(r)).toBe(`not_found: memory_id: ❌ Memory #${id} not found`);
	});
});

describe('aiakiv query_memory_graph NEXT', () => {
	it('an event chained by prev_event_id right after its predecessor is one NEXT row, not one per link', async () => {
		const ak = await as('aiakiv');
		const e1 = data<{ event_id: string }>(
			await ak.call('save_memory', { summary: 'Team chose Kafka for event streaming', content: 'Kafka over RabbitMQ for durability.' }),
		).event_id;
		await ak.call('save_memory', { summary: 'Kafka consumer lag spiked during the release', content: 'Lag reached 2M messages.', prev_event_id: e1 });
		const r = data<{ rows: Record<string, unknown>[] }>(
			await ak.call('query_memory_graph', { query: 'MATCH (a)-[:NEXT]->(b) RETURN a.summary, b.summary' }),
		);
		expect(r.rows).toEqual([{ 'a.summary': 'Team chose Kafka for event streaming', 'b.summary': 'Kafka consumer lag spiked during the release' }]);
	});
});

describe('query_memory_graph column names', () => {
	it('a comment after a RETURN item is not part of its column name; a // inside a string is', async () => {
		const nv = await as('native');
		await nv.call('store_memory', { content: 'Column probe: the VPN config lives in the team vault.' });
		const r = data<{ columns: string[]; rows: Record<string, unknown>[] }>(
			await nv.call('query_memory_graph', { query: "MATCH (n) RETURN n.seq // the memory's number\n, 'a//b' // a literal\nLIMIT 1" }),
		);
		expect(r.columns).toEqual(['n.seq', "'a//b'"]);
		expect(r.rows).toEqual([{ 'n.seq': 1, "'a//b'": 'a//b' }]);
	});
});

describe('argument errors stay short', () => {
	it('4,096 wrongly typed embedding values are one short error naming the first few, not 4,096 lines', async () => {
		const am = await as('automem');
		const t = errorText(await am.call('store_memory', { content: 'e', embedding: Array<string>(4096).fill('x') }));
		expect(t).toMatch(
			/^MCP error -32602: Input validation error: Invalid arguments for tool store_memory: Invalid input: expected number, received string at embedding\[0\]\n/,
		);
		expect(t).toContain('… and 4086 more issues like these');
		expect(t.length).toBeLessThan(2_000);
		expect((await engine.stats({})).total_memories).toBe(0);
	});

	it('a batch of 500 bad associations is bounded too; a short error is unchanged', async () => {
		const am = await as('automem');
		const many = errorText(
			await am.call('associate_memories', { associations: Array(500).fill({ memory1_id: 1, memory2_id: 2, type: 'NOPE', strength: 'x' }) }),
		);
		expect(many.length).toBeLessThan(2_000);
		expect(many).toMatch(/at associations\[0\]\.memory1_id/);
		const one = errorText(await am.call('store_memory', { content: 'e', tags: 'a,b' }));
		expect(one).toBe(
			'MCP error -32602: Input validation error: Invalid arguments for tool store_memory: Invalid input: expected array, received string at tags',
		);
	});
});

describe('memory-mcp label errors name its arguments', () => {
	it('too many or too long labels are refused naming labels, target or new, not the engine’s tags', async () => {
		const mm = await as('memory-mcp');
		const many = Array.from({ length: 65 }, (_, i) => `l${i}`).join(', ');
		expect(errorText(await mm.call('store_memory', { content: 'label probe', labels: many }))).toBe('invalid_input: labels: must have at most 64 items');
		expect(errorText(await mm.call('store_memory', { content: 'label probe', labels: 'y'.repeat(101) }))).toBe(
			'invalid_input: labels[0]: must be at most 100 characters',
		);
		const { id } = data<{ id: number }>(await mm.call('store_memory', { content: 'label probe', labels: 'a' }));
		expect(errorText(await mm.call('add_labels', { memory_id: id, labels: many }))).toBe('invalid_input: labels: must have at most 64 items');
		expect(errorText(await mm.call('replace_labels', { memory_id: id, target: 'a', new: many }))).toBe('invalid_input: new: must have at most 64 items');
		expect(data<{ labels: string[] }>(await mm.call('get_memory', { memory_id: id })).labels).toEqual(['a']);
	});
});

describe('automem store_memory retried with its own id', () => {
	it('the same id and content again answers with that memory; other content under the id is still a conflict', async () => {
		const am = await as('automem');
		const args = { content: 'Caller id probe: the deploy key is rotated quarterly.', id: 'mem-x', tags: ['ops'] };
		expect(data<{ memory_id: string }>(await am.call('store_memory', args)).memory_id).toBe('mem-x');
		const again = await am.call('store_memory', args);
		expect(data<{ memory_id: string; duplicate: boolean }>(again)).toMatchObject({ memory_id: 'mem-x', duplicate: true });
		expect(text(again)).toMatch(/^Memory not stored again/);
		expect(text(again)).toContain('Already stored: memory mem-x has this id and this content');
		expect(errorText(await am.call('store_memory', { content: 'The coffee beans come from Kenya.', id: 'mem-x' }))).toBe(
			'conflict: id: a memory with id "mem-x" already exists',
		);
		expect((await engine.stats({})).total_memories).toBe(1);
	});
});

describe('integer arguments of the Python faces', () => {
	it('memory-mcp takes num_results: "3", days: "7" as pydantic does, lists integers, and still refuses a non-number or a string id', async () => {
		const mm = await as('memory-mcp');
		const { id } = data<{ id: number }>(await mm.call('store_memory', { content: 'Digit string probe: the printer is on floor 2.', labels: 'office' }));
		expect(data<{ count: number }>(await mm.call('retrieve_memories', { query: 'printer', num_results: '3' })).count).toBe(1);
		expect(data<{ count: number }>(await mm.call('retrieve_memories', { num_results: ' 3 ' })).count).toBe(1);
		expect(data<{ time_window_days: number }>(await mm.call('trending_labels', { days: '7', limit: '2' })).time_window_days).toBe(7);
		for (const bad of ['NaN', '-1', '1.5', ''])
			expect(errorText(await mm.call('retrieve_memories', { num_results: bad }))).toMatch(/expected number, received string at num_results$/);
		// Ids stay numbers (ids-are-ids): "1" may be another face's string id.
		expect(errorText(await mm.call('get_memory', { memory_id: String(id) }))).toMatch(/expected number, received string at memory_id$/);
		const listed = (await mm.client.listTools()).tools;
		const schema = (name: string) => listed.find((t) => t.name === name)!.inputSchema.properties as Record<string, { type?: string }>;
		expect(schema('retrieve_memories').num_results.type).toBe('integer');
		expect(schema('trending_labels').days.type).toBe('integer');
	});

	it('codomyrmex memory_search takes k: "3"', async () => {
		const co = await as('codomyrmex');
		for (const c of ['Deadline one is March 1st', 'Deadline two is April 1st', 'Deadline three is May 1st', 'Deadline four is June 1st'])
			await co.call('memory_put', { content: c });
		const r = await co.call('memory_search', { query: 'deadline', k: '3' });
		expect(JSON.parse(text(r))).toHaveLength(3);
	});
});

describe('query_memory_graph nesting', () => {
	it('1,950 nested parentheses or lists are refused naming the rule, not a stack overflow; 32 levels still run', async () => {
		const ak = await as('aiakiv');
		await ak.call('save_memory', { summary: 'Nesting probe', content: 'Nesting probe event.' });
		const deep = [
			'MATCH (n) WHERE ' + '('.repeat(1950) + 'true' + ')'.repeat(1950) + ' RETURN n.id',
			'MATCH (n) RETURN ' + '['.repeat(1950) + ']'.repeat(1950),
			'MATCH (n) WHERE ' + 'NOT '.repeat(990) + 'true RETURN n.id',
		];
		for (const query of deep)
			expect(errorText(await ak.call('query_memory_graph', { query }))).toMatch(
				/^invalid_input: query: at line 1, column \d+ \(offset \d+\): expected at most 32 nested parentheses, lists or NOTs, found one more level$/,
			);
		const ok = await ak.call('query_memory_graph', { query: 'MATCH (n) WHERE ' + '('.repeat(31) + 'NOT false' + ')'.repeat(31) + ' RETURN n.summary' });
		expect(data<{ rows: unknown[] }>(ok).rows).toEqual([{ 'n.summary': 'Nesting probe' }]);
	});

	it('params nested 5,000 deep are refused cleanly', async () => {
		const ak = await as('aiakiv');
		const r = await ak.call('query_memory_graph', {
			query: 'MATCH (n) RETURN $p',
			params: { p: JSON.parse('['.repeat(5000) + ']'.repeat(5000)) as unknown },
		});
		expect(errorText(r)).toMatch(/params/);
		expect(errorText(r)).not.toMatch(/call stack/);
	});
});

describe('automem batch store retried with its ids', () => {
	it('answers with the same ids in order, stores nothing twice; a changed content under an id is a conflict', async () => {
		const am = await as('automem');
		const batch = {
			memories: [
				{ content: 'Batch retry one: the staging database is Postgres 16.', id: 'b-1' },
				{ content: 'Batch retry two: deploys happen on Tuesdays.' },
				{ content: 'Batch retry three: the on-call rotation is weekly.', id: 'b-3' },
			],
		};
		const first = data<{ memory_ids: string[]; stored: number }>(await am.call('store_memory', batch));
		expect(first.stored).toBe(3);
		const again = await am.call('store_memory', batch);
		const out = data<{ memory_ids: string[]; stored: number; message: string }>(again);
		expect(out.memory_ids).toEqual(first.memory_ids);
		expect(out.stored).toBe(0);
		expect(out.message).toMatch(/^Already stored: 2 memories have these ids and contents/);
		expect((await engine.stats({})).total_memories).toBe(3);
		const changed = { memories: [batch.memories[0], { content: 'Batch retry three, changed.', id: 'b-3' }] };
		expect(errorText(await am.call('store_memory', changed))).toMatch(/^conflict: memories\[\d\]\.id: a memory with id "b-[13]" already exists$/);
		expect((await engine.stats({})).total_memories).toBe(3);
	});
});

describe('codomyrmex memory_put of a duplicate', () => {
	it('raises the kept memory to a higher importance asked for, and never lowers it', async () => {
		const co = await as('codomyrmex');
		const first = JSON.parse(text(await co.call('memory_put', { content: 'The project deadline is March 1st' }))) as { id: string; importance: number };
		expect(first.importance).toBe(2);
		const again = JSON.parse(text(await co.call('memory_put', { content: 'The project deadline is March 1st', importance: 'CRITICAL' }))) as {
			id: string;
			importance: number;
		};
		expect(again).toMatchObject({ id: first.id, importance: 4 });
		const lower = JSON.parse(text(await co.call('memory_put', { content: 'The project deadline is March 1st', importance: 'LOW' }))) as {
			importance: number;
		};
		expect(lower.importance).toBe(4);
		expect((JSON.parse(text(await co.call('memory_get', { memory_id: first.id }))) as { importance: number }).importance).toBe(4);
		expect((await engine.stats({})).total_memories).toBe(1);
	});
});

describe('aiakiv save_memory of a duplicate', () => {
	it('adds the entities and tags the kept event lacked, and lists only what the event has', async () => {
		const ak = await as('aiakiv');
		const args = { summary: 'Kafka lag spiked during the release', content: 'Lag hit 2M messages.', entities: [{ name: 'Kafka', type: 'tool' }] };
		const first = data<{ event_id: string }>(await ak.call('save_memory', args)).event_id;
		const again = await ak.call('save_memory', {
			...args,
			entities: [
				{ name: 'kafka', type: 'tool' },
				{ name: 'Orders', type: 'project' },
			],
			tags: ['incident'],
		});
		const out = data<{ event_id: string; status: string; entities: { name: string; type: string }[]; added?: unknown }>(again);
		expect(out).toMatchObject({ event_id: first, status: 'duplicate', added: { entities: [{ name: 'Orders', type: 'project' }], tags: ['incident'] } });
		expect(text(again)).toBe(
			`Not saved again: near-duplicate of event ${first}. Added to it: Orders (project), tag incident. Entities: Kafka (tool), Orders (project).`,
		);
		const [m] = await engine.getMemories([first]);
		expect(m!.entities.map((e) => e.name).sort()).toEqual(['Kafka', 'Orders']);
		expect(m!.tags).toEqual(['incident']);
		const byEntity = await ak.call('find_memories_by_entity', { entity: 'Orders' });
		expect(text(byEntity)).toContain(first);
		// The same save a third time changes nothing and says nothing was added.
		const third = await ak.call('save_memory', { ...args, tags: ['incident'] });
		expect(data<{ added?: unknown }>(third).added).toBeUndefined();
		expect((await engine.stats({})).total_memories).toBe(1);
	});
});

describe('memory-mcp store_memory of a duplicate', () => {
	it('adds the labels the kept memory lacked and says so', async () => {
		const mm = await as('memory-mcp');
		const { id } = data<{ id: number }>(await mm.call('store_memory', { content: "User's favourite beer is a Belgian tripel", labels: 'beer' }));
		const again = data<{ id: number; message: string }>(
			await mm.call('store_memory', { content: "User's favourite beer is a Belgian tripel", labels: 'Beer, preferences' }),
		);
		expect(again).toMatchObject({ id, message: `❌ Not stored again: exact match with memory #${id} (labels preferences added to it)` });
		expect(data<{ labels: string[] }>(await mm.call('get_memory', { memory_id: id })).labels).toEqual(['beer', 'preferences']);
		const third = data<{ message: string }>(await mm.call('store_memory', { content: "User's favourite beer is a Belgian tripel", labels: 'beer' }));
		expect(third.message).toBe(`❌ Not stored again: exact match with memory #${id}`);
	});
});

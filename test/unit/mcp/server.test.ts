/**
 * createMemoryServer at the protocol level, through a real SDK Client: the tool list of every
 * profile, annotations and descriptions, unknown methods (-32601), unknown tools, bad arguments,
 * MemoryError mapping, unexpected errors, onToolCall and the actor recorded in history.
 */
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Engine } from '../../../src/engine/engine';
import type { EngineApi } from '../../../src/engine/types';
import { createMemoryServer, PROFILE_NAMES, PROFILES, type ToolCallEvent } from '../../../src/mcp/server';
import { RELAY_PROFILES } from '../../../src/mcp/transports/relay-protocol';
import { connect, data, errorText, makeEngine, type Connection } from './helpers';

const EXPECTED_TOOLS: Record<string, string[]> = {
	native: [
		'store_memory',
		'recall_memory',
		'get_memory',
		'update_memory',
		'delete_memory',
		'associate_memories',
		'unlink_memories',
		'find_memory_connections',
		'query_memory_graph',
		'list_memory_timeline',
		'find_memories_by_entity',
		'memory_stats',
		'trending_labels',
		'export_memories',
		'import_memories',
		'check_database_health',
	],
	automem: ['store_memory', 'recall_memory', 'associate_memories', 'update_memory', 'delete_memory', 'check_database_health'],
	aiakiv: [
		'save_memory',
		'search_memory',
		'get_memory_content',
		'find_memory_connections',
		'query_memory_graph',
		'list_memory_timeline',
		'find_memories_by_entity',
	],
	codomyrmex: ['memory_put', 'memory_get', 'memory_search'],
	'memory-mcp': [
		'store_memory',
		'retrieve_memories',
		'get_memory',
		'delete_memory',
		'random_memory',
		'memory_stats',
		'trending_labels',
		'add_labels',
		'del_labels',
		'replace_labels',
	],
};

const ALL_TOOL_NAMES = new Set(Object.values(EXPECTED_TOOLS).flat());

let engine: Engine;
beforeAll(async () => {
	engine = await makeEngine();
});
afterAll(async () => {
	await engine.close();
});

describe('createMemoryServer', () => {
	describe('tools/list', () => {
		for (const profile of PROFILE_NAMES) {
			it(`lists exactly the ${profile} tools, each with schemas, annotations and routing advice`, async () => {
				const c = await connect(engine, profile);
				const { tools } = await c.client.listTools();
				expect(tools.map((t) => t.name)).toEqual(EXPECTED_TOOLS[profile]);
				for (const t of tools) {
					expect(t.title, t.name).toBeTruthy();
					expect(t.inputSchema.type, t.name).toBe('object');
					expect(t.outputSchema?.type, t.name).toBe('object');
					expect(t.annotations, t.name).toMatchObject({ openWorldHint: false });
					for (const hint of ['readOnlyHint', 'idempotentHint', 'destructiveHint'] as const)
						expect(typeof t.annotations?.[hint], `${t.name}.${hint}`).toBe('boolean');
					expect(t.description, t.name).toMatch(/Do not use/);
					expect(t.description!.length, t.name).toBeLessThan(4000);
				}
				await c.close();
			});
		}

		it('names only siblings that exist in the same profile', async () => {
			for (const profile of PROFILE_NAMES) {
				const own = new Set(EXPECTED_TOOLS[profile]);
				for (const t of PROFILES[profile].tools) {
					const mentioned = [...t.config.description.matchAll(/\b[a-z]+(?:_[a-z]+)+\b/g)].map((m) => m[0]).filter((w) => ALL_TOOL_NAMES.has(w));
					for (const m of mentioned) expect(own.has(m), `${profile}/${t.name} mentions ${m}`).toBe(true);
				}
			}
		});

		it('offers the relay the same profile names', () => {
			expect([...RELAY_PROFILES]).toEqual(PROFILE_NAMES);
		});

		it('marks reads read-only and deletes destructive', () => {
			const byName = Object.fromEntries(PROFILES.native.tools.map((t) => [t.name, t.config.annotations]));
			for (const n of [
				'recall_memory',
				'get_memory',
				'find_memory_connections',
				'query_memory_graph',
				'list_memory_timeline',
				'memory_stats',
				'export_memories',
				'check_database_health',
			])
				expect(byName[n].readOnlyHint, n).toBe(true);
			for (const n of ['store_memory', 'update_memory', 'delete_memory', 'associate_memories', 'import_memories'])
				expect(byName[n].readOnlyHint, n).toBe(false);
			expect(byName.delete_memory.destructiveHint).toBe(true);
			expect(byName.unlink_memories).toMatchObject({ readOnlyHint: false, destructiveHint: true });
			expect(byName.associate_memories).toMatchObject({
				idempotentHint: true,
				destructiveHint: false,
			});
		});

		it('sends the profile instructions on initialize', async () => {
			const c = await connect(engine, 'automem');
			expect(c.client.getInstructions()).toMatch(/recall_memory to retrieve context/);
			expect(c.client.getServerVersion()).toMatchObject({ name: 'engram', version: '0.1.0' });
			await c.close();
		});
	});

	describe('protocol errors', () => {
		let c: Connection;
		beforeAll(async () => {
			c = await connect(engine);
		});
		afterAll(() => c.close());

		it('answers server/discover (MCP-B probe) with -32601 instead of silence', async () => {
			const err = await c.client.request({ method: 'server/discover' as 'ping' }, z.object({})).catch((e: unknown) => e);
			expect(err).toBeInstanceOf(McpError);
			expect((err as McpError).code).toBe(-32601);
			expect((err as McpError).message).toBe('MCP error -32601: Method not found');
		});

		it('answers any other unknown method with -32601', async () => {
			const err = (await c.client.request({ method: 'memories/everything' as 'ping' }, z.object({})).catch((e: unknown) => e)) as McpError;
			expect(err.code).toBe(-32601);
		});

		it('reports an unknown tool as an error result', async () => {
			expect(errorText(await c.call('forget_everything', {}))).toBe('MCP error -32602: Tool forget_everything not found');
		});

		it('names the field and the rule for bad arguments', async () => {
			expect(errorText(await c.call('store_memory', {}))).toBe(
				'MCP error -32602: Input validation error: Invalid arguments for tool store_memory: is required (or give memories[]) at content',
			);
			expect(errorText(await c.call('recall_memory', { query: 'x', limit: 500 }))).toBe(
				'MCP error -32602: Input validation error: Invalid arguments for tool recall_memory: Too big: expected number to be <=200 at limit',
			);
		});

		it('renders a MemoryError as "code: message"', async () => {
			expect(errorText(await c.call('get_memory', { memory_id: 'no-such-memory' }))).toBe('not_found: memory_id: no memory with id "no-such-memory"');
		});

		it('keeps serving after a tool throws an unexpected error', async () => {
			const broken = new Proxy(engine as EngineApi, {
				get: (t, p) => {
					if (p === 'stats') return async () => Promise.reject(new TypeError('disk on fire'));
					const v = Reflect.get(t, p);
					return typeof v === 'function' ? v.bind(t) : v;
				},
			});
			const b = await connect(broken);
			expect(errorText(await b.call('memory_stats', {}))).toBe('disk on fire');
			expect(data(await b.call('check_database_health', {}))).toMatchObject({ status: 'healthy' });
			await b.close();
		});
	});

	describe('options', () => {
		it('reports every tools/call to onToolCall, failed ones included', async () => {
			const events: ToolCallEvent[] = [];
			const c = await connect(engine, 'native', { onToolCall: (e) => events.push(e) });
			await c.call('memory_stats', {});
			await c.call('store_memory', {});
			await c.call('get_memory', { memory_id: 'nope' });
			await c.call('no_such_tool', {});
			expect(events.map(({ tool, ok }) => ({ tool, ok }))).toEqual([
				{ tool: 'memory_stats', ok: true },
				{ tool: 'store_memory', ok: false },
				{ tool: 'get_memory', ok: false },
				{ tool: 'no_such_tool', ok: false },
			]);
			for (const e of events) expect(e.ms).toBeGreaterThanOrEqual(0);
			await c.close();
		});

		it("records the actor in the memory's history: the option, else the client's name and profile", async () => {
			const named = await connect(engine, 'native', { actor: 'claude-desktop' });
			const a = data<{ memory_id: string }>(
				await named.call('store_memory', {
					content: 'The staging database runs on port 5433 since the March migration.',
				}),
			);
			expect((await engine.history(a.memory_id)).map((h) => h.actor)).toContain('claude-desktop');
			await named.close();
			const plain = await connect(engine, 'codomyrmex');
			const b = data<{ id: string }>(
				await plain.call('memory_put', {
					content: 'Release notes go out every second Tuesday of the month.',
				}),
			);
			expect((await engine.history(b.id)).map((h) => h.actor)).toContain('vitest (codomyrmex)');
			await plain.close();
		});

		it('refuses an unknown profile by name', () => {
			expect(() => createMemoryServer(engine, 'mem0' as never)).toThrow(
				'profile: unknown profile "mem0"; expected one of native, automem, aiakiv, codomyrmex, memory-mcp',
			);
		});

		it('is one server per connection: a second transport is refused', async () => {
			const server = createMemoryServer(engine);
			const [, first] = InMemoryTransport.createLinkedPair();
			const [, second] = InMemoryTransport.createLinkedPair();
			await server.connect(first);
			await expect(server.connect(second)).rejects.toThrow(/Already connected/);
			await server.close();
		});
	});
});

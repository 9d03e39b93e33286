/**
 * The graph tools in the built app, through the real engine worker and real IndexedDB: the
 * page's MCP server answers find_memory_connections and query_memory_graph with one call to the
 * worker each (Engine.findConnections / Engine.queryGraph over comlink), results survive the
 * structured clone, and a MemoryError keeps its code across the boundary.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostReady } from './bridges-support';
import { launchBrowser, startPreview, type Browser, type Server } from './helpers';

let server: Server;
let browser: Browser;
let page: Page;

type Result = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: Record<string, unknown> };

/** Calls a tool the page registered on the stand-in model context (its real MCP server). */
function run(name: string, args: Record<string, unknown>): Promise<Result> {
	return page.evaluate(([n, a]) => (globalThis as unknown as { __tools: Record<string, { execute(x: unknown): Promise<Result> }> }).__tools[n].execute(a), [
		name,
		args,
	] as const);
}

beforeAll(async () => {
	server = await startPreview();
	browser = await launchBrowser();
	// A string, not a function: the test runner's transform would add helpers the page lacks.
	await browser.context.addInitScript({
		content: `(() => {
			const tools = {};
			globalThis.__tools = tools;
			Object.defineProperty(navigator, 'modelContext', {
				configurable: true,
				value: { registerTool(t) { tools[t.name] = t; } },
			});
		})();`,
	});
	page = await browser.context.newPage();
	await page.goto(`${server.url}/`);
	await hostReady(page);
	const stored = await run('store_memory', {
		memories: [
			{
				content: 'Chose PostgreSQL for the billing service: invoices need transactions.',
				entities: [
					{ name: 'PostgreSQL', type: 'tool' },
					{ name: 'billing-service', type: 'project' },
				],
			},
			{
				content: 'The billing service timed out on Friday; PostgreSQL connections ran out.',
				entities: [
					{ name: 'PostgreSQL', type: 'tool' },
					{ name: 'billing-service', type: 'project' },
				],
			},
			{ content: 'Moved the reporting jobs to a PostgreSQL replica so billing stays fast.', entities: [{ name: 'PostgreSQL', type: 'tool' }] },
			{
				content: 'Ana prefers tabs over spaces in the billing repository.',
				entities: [
					{ name: 'billing-service', type: 'project' },
					{ name: 'Ana', type: 'person' },
				],
			},
		],
	});
	expect(stored.isError).toBeFalsy();
});

afterAll(async () => {
	await browser?.close();
	await server?.stop();
});

describe('graph tools through the engine worker', () => {
	it('find_memory_connections walks from a sentence and from an entity', async () => {
		const walked = await run('find_memory_connections', { sentence: 'PostgreSQL ran out of connections for billing.' });
		expect(walked.isError).toBeFalsy();
		const out = walked.structuredContent as { grounding: string; entry: unknown[]; candidates: { path: string[] }[] };
		expect(out.entry.length).toBeGreaterThan(0);
		const explored = await run('find_memory_connections', { relation: 'explore', anchor_entity_id: 'PostgreSQL' });
		expect(explored.structuredContent).toMatchObject({ grounding: 'exploration' });
		expect((explored.structuredContent as { candidates: unknown[] }).candidates).toHaveLength(3);
	});

	it('query_memory_graph matches, aggregates and pages', async () => {
		const r = await run('query_memory_graph', {
			query: 'MATCH (m)-[:MENTIONS]->(e:Entity) RETURN e.name, count(DISTINCT m) AS n ORDER BY n DESC, e.name LIMIT 2',
		});
		expect(r.structuredContent).toMatchObject({
			columns: ['e.name', 'n'],
			rows: [
				// Ties by name in locale order, which ignores case.
				{ 'e.name': 'billing-service', n: 3 },
				{ 'e.name': 'PostgreSQL', n: 3 },
			],
			has_more: true,
			next_skip: 2,
		});
	});

	it('keeps a MemoryError’s code across the worker boundary', async () => {
		const r = await run('find_memory_connections', { relation: 'explore', anchor_entity_id: 'Nobody-At-All' });
		expect(r.isError).toBe(true);
		expect(r.content[0].text).toMatch(/^not_found: anchor_entity_id: no entity "Nobody-At-All"/);
		const bad = await run('query_memory_graph', { query: 'MATCH (m) RETURN m.author' });
		expect(bad.content[0].text).toMatch(/^invalid_input: query: a Memory has no property "author"/);
	});

	it('is one worker call per tool: the engine answers both directly', async () => {
		const direct = await page.evaluate(async () => {
			const e = (
				globalThis as unknown as {
					__engram: { queryGraph(x: unknown): Promise<{ rows: unknown[] }>; findConnections(x: unknown): Promise<{ grounding: string }> };
				}
			).__engram;
			return [
				(await e.queryGraph({ query: 'MATCH (e:Entity {name: "Ana"})<-[:MENTIONS]-(m) RETURN m.content' })).rows.length,
				(await e.findConnections({ relation: 'explore', anchor_entity_id: 'Ana' })).grounding,
			];
		});
		expect(direct).toEqual([1, 'exploration']);
	});
});

/**
 * WebMCP in Chromium: with the @mcp-b/global polyfill installed before the app loads, the built
 * app registers its native tools on `document.modelContext`, and the polyfill's testing API
 * (`navigator.modelContextTesting`, what a browser agent would use) lists and runs them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostReady } from './bridges-support';
import { ROOT, launchBrowser, startPreview, type Browser, type Server } from './helpers';

let server: Server;
let browser: Browser;
let page: Page;

interface Testing {
	listTools(): { name: string; description: string; inputSchema?: string }[];
	executeTool(name: string, argsJson: string): Promise<string | null>;
}

beforeAll(async () => {
	server = await startPreview();
	browser = await launchBrowser();
	// The polyfill bridges its tools to MCP over postMessage too; a channel of its own keeps it
	// apart from Engram's own postMessage server on 'mcp-default'.
	await browser.context.addInitScript(() => {
		(window as unknown as { __webModelContextOptions: unknown }).__webModelContextOptions = {
			transport: { tabServer: { allowedOrigins: [location.origin], channelId: 'webmcp-polyfill' } },
		};
	});
	await browser.context.addInitScript({
		content: readFileSync(join(ROOT, 'node_modules/@mcp-b/global/dist/index.iife.js'), 'utf8'),
	});
	page = await browser.context.newPage();
	await page.goto(`${server.url}/`);
	await hostReady(page);
});

afterAll(async () => {
	await browser?.close();
	await server?.stop();
});

describe('WebMCP', () => {
	it('registers the native tools on document.modelContext', async () => {
		const snapshot = await page.evaluate(() =>
			(
				globalThis as unknown as {
					engramMcpHost: { webmcp(): { available: boolean; tools: string[] } };
				}
			).engramMcpHost.webmcp(),
		);
		expect(snapshot.available).toBe(true);
		const listed = await page.evaluate(() => (navigator as unknown as { modelContextTesting: Testing }).modelContextTesting.listTools());
		expect(listed.map((t) => t.name).sort()).toEqual([...snapshot.tools].sort());
		expect(snapshot.tools).toEqual(expect.arrayContaining(['store_memory', 'recall_memory', 'find_memory_connections']));
		const recall = listed.find((t) => t.name === 'recall_memory')!;
		expect(JSON.parse(recall.inputSchema!)).toMatchObject({
			type: 'object',
			properties: expect.objectContaining({ query: expect.any(Object) }),
		});
	});

	it('runs a tool through the page’s MCP server and shows the agent among the connections', async () => {
		const run = (name: string, args: object) =>
			page.evaluate(([n, a]) => (navigator as unknown as { modelContextTesting: Testing }).modelContextTesting.executeTool(n, a), [
				name,
				JSON.stringify(args),
			] as const);
		const stored = JSON.parse((await run('store_memory', { content: 'A browser agent saved this through WebMCP.' }))!);
		expect(stored.isError).toBeFalsy();
		const recalled = (await run('recall_memory', { query: 'browser agent WebMCP' }))!;
		expect(recalled).toContain('A browser agent saved this through WebMCP.');
		const connections = await page.evaluate(() =>
			(
				globalThis as unknown as {
					engramMcpHost: { connections(): { kind: string; calls: number }[] };
				}
			).engramMcpHost.connections(),
		);
		expect(connections).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'webmcp', calls: 2 })]));
	});
});

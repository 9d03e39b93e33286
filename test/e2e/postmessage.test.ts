/**
 * The postMessage bridge in real Chromium against the built app, with MCP-B's own client
 * transports (@mcp-b/transports 5.x) and the SDK Client, bundled from test/e2e/fixtures.
 *
 * Origins: the app runs at http://127.0.0.1:PORT; the agent page is served by a fixture server
 * and opened as http://localhost:OTHER, another origin. TabClientTransport only talks to a server
 * in its own window (it checks `event.source === window`), so it runs inside the Engram page (an
 * in-page agent or an extension's content script); a page of another origin embeds Engram and
 * talks to it with IframeParentTransport.
 */
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appFrame, clientBundle, hostReady, launchBrowserWithThirdPartyStorage, startFixtureServer, type HostHandle } from './bridges-support';
import { startPreview, type Browser, type Server } from './helpers';

let server: Server;
let fixtures: { port: number; stop(): Promise<void> };
let browser: Browser;
let app: string;
let other: string;

beforeAll(async () => {
	server = await startPreview();
	// The in-page agents are injected as inline scripts, which the app's CSP refuses.
	browser = await launchBrowserWithThirdPartyStorage({ bypassCSP: true });
	app = server.url;
	fixtures = await startFixtureServer(app);
	other = `http://localhost:${fixtures.port}`;
});

afterAll(async () => {
	await browser?.close();
	await fixtures?.stop();
	await server?.stop();
});

type Mcpb = {
	tab(origin: string, name?: string, caps?: Record<string, unknown>): number;
	iframe(selector: string, origin: string, name?: string): number;
	waitConnected(h: number): Promise<string>;
	state(h: number): string;
	listTools(h: number): Promise<string[]>;
	call(h: number, name: string, args: Record<string, unknown>): Promise<{ isError?: boolean; structuredContent?: unknown }>;
	close(h: number): Promise<void>;
	receivedFrom(origin: string): unknown[];
};
/** Runs `fn(window.mcpb, a)` in the page (the fixture client) and returns its result. */
function run<T, A>(p: Page | Frame, fn: (m: Mcpb, a: A) => T | Promise<T>, a: A): Promise<T> {
	return p.evaluate(({ src, arg }) => (0, eval)(`(${src})`)((globalThis as unknown as { mcpb: unknown }).mcpb, arg), {
		src: fn.toString(),
		arg: a,
	}) as Promise<T>;
}
const snapshot = (f: Page | Frame) => f.evaluate(() => (globalThis as unknown as { engramMcpHost: HostHandle }).engramMcpHost.snapshot());

describe('postMessage bridge', () => {
	it('serves an MCP-B TabClientTransport in the Engram page (same origin): tools listed and called', async () => {
		const page = await browser.context.newPage();
		await page.goto(`${app}/`);
		await hostReady(page);
		await page.addScriptTag({ content: await clientBundle() });
		const h = await run(page, (m, o) => m.tab(o, 'in-page-agent'), app);
		expect(await run(page, (m, i) => m.waitConnected(i), h)).toBe('connected');
		const tools = await run(page, (m, i) => m.listTools(i), h);
		expect(tools).toEqual(expect.arrayContaining(['store_memory', 'recall_memory', 'find_memory_connections', 'query_memory_graph']));
		const stored = await run(
			page,
			(m, i) =>
				m.call(i, 'store_memory', {
					content: 'The in-page agent prefers concise answers.',
					tags: ['style'],
				}),
			h,
		);
		expect(stored.isError).toBeFalsy();
		const recalled = await run(page, (m, i) => m.call(i, 'recall_memory', { query: 'concise answers' }), h);
		expect(JSON.stringify(recalled.structuredContent)).toContain('The in-page agent prefers concise answers.');
		const snap = await snapshot(page);
		expect(snap.connections).toEqual([
			expect.objectContaining({
				kind: 'postMessage',
				via: 'same-window',
				origin: app,
				client: { name: 'in-page-agent', version: '1.0.0' },
				profile: 'native',
				calls: 2,
			}),
		]);
		await page.close();
	});

	it('serves a same-origin page that embeds Engram without asking', async () => {
		const page = await browser.context.newPage();
		await page.goto(`${app}/`);
		await hostReady(page);
		await page.addScriptTag({ content: await clientBundle() });
		await page.evaluate((src) => {
			const f = document.createElement('iframe');
			f.id = 'engram';
			f.src = src;
			document.body.append(f);
		}, `${app}/`);
		const frame = await appFrame(page, app);
		await hostReady(frame);
		const h = await run(page, (m, o) => m.iframe('#engram', o, 'same-origin-embedder'), app);
		expect(await run(page, (m, i) => m.waitConnected(i), h)).toBe('connected');
		expect(await run(page, (m, i) => m.listTools(i), h)).toContain('store_memory');
		expect((await snapshot(frame)).connections).toEqual([expect.objectContaining({ via: 'parent', origin: app })]);
		await page.close();
	});

	it('gives another origin nothing until approved in the page, then serves it; after revoking, nothing again', async () => {
		const page = await browser.context.newPage();
		await page.goto(`${other}/__fixture/embed.html`);
		const frame = await appFrame(page, app);
		await hostReady(frame);

		const h = await run(page, (m, o) => m.iframe('#engram', o, 'cross-origin-agent'), app);
		await expect
			.poll(async () => (await snapshot(frame)).pending_origins.map((r) => [r.origin, r.via]), {
				timeout: 10_000,
			})
			.toEqual([[other, 'parent']]);
		await new Promise((r) => setTimeout(r, 1000));
		expect(await run(page, (m, i) => m.state(i), h)).toBe('connecting');
		// Not even the handshake's "server ready": the embedding page heard nothing from Engram.
		expect(await run(page, (m, o) => m.receivedFrom(o), app)).toEqual([]);
		expect((await snapshot(frame)).connections).toEqual([]);

		await frame.evaluate((o) => (globalThis as unknown as { engramMcpHost: HostHandle }).engramMcpHost.origins.approve(o), other);
		expect(await run(page, (m, i) => m.waitConnected(i), h)).toBe('connected');
		expect(await run(page, (m, i) => m.listTools(i), h)).toContain('recall_memory');
		const stored = await run(page, (m, i) => m.call(i, 'store_memory', { content: 'Approved pages can store memories.' }), h);
		expect(stored.isError).toBeFalsy();
		const snap = await snapshot(frame);
		expect(snap.approved_origins.map((a) => a.origin)).toEqual([other]);
		expect(snap.pending_origins).toEqual([]);
		expect(snap.connections).toEqual([
			expect.objectContaining({
				kind: 'postMessage',
				via: 'parent',
				origin: other,
				client: { name: 'cross-origin-agent', version: '1.0.0' },
			}),
		]);

		await frame.evaluate((o) => (globalThis as unknown as { engramMcpHost: HostHandle }).engramMcpHost.origins.revoke(o), other);
		await expect.poll(() => run(page, (m, i) => m.state(i), h)).toBe('closed');
		const heardBefore = (await run(page, (m, o) => m.receivedFrom(o), app)).length;
		const again = await run(page, (m, o) => m.iframe('#engram', o, 'cross-origin-agent-again'), app);
		await expect
			.poll(async () => (await snapshot(frame)).pending_origins.map((r) => r.origin), {
				timeout: 10_000,
			})
			.toEqual([other]);
		await new Promise((r) => setTimeout(r, 1000));
		expect(await run(page, (m, i) => m.state(i), again)).toBe('connecting');
		expect((await run(page, (m, o) => m.receivedFrom(o), app)).length).toBe(heardBefore);
		await page.close();
	});
});

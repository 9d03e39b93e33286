/**
 * Approved origins across tabs, in Chromium: two tabs of a page of another origin each embed
 * Engram (two app instances sharing one storage partition, as two tabs of the app do). Revoking
 * the origin in one closes its connection in the other, at once. And an approved origin gets the
 * profile it was approved with, whatever its client asks for.
 */
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appFrame, hostReady, launchBrowserWithThirdPartyStorage, startFixtureServer, type HostHandle } from './bridges-support';
import { startPreview, type Browser, type Server } from './helpers';

let server: Server;
let fixtures: { port: number; stop(): Promise<void> };
let browser: Browser;
let app: string;
let other: string;

beforeAll(async () => {
	server = await startPreview();
	browser = await launchBrowserWithThirdPartyStorage();
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
	iframe(selector: string, origin: string, name?: string, caps?: Record<string, unknown>): number;
	waitConnected(h: number): Promise<string>;
	state(h: number): string;
	listTools(h: number): Promise<string[]>;
};
function run<T, A>(p: Page, fn: (m: Mcpb, a: A) => T | Promise<T>, a: A): Promise<T> {
	return p.evaluate(({ src, arg }) => (0, eval)(`(${src})`)((globalThis as unknown as { mcpb: unknown }).mcpb, arg), {
		src: fn.toString(),
		arg: a,
	}) as Promise<T>;
}
const host = (f: Frame) => f.evaluate(() => (globalThis as unknown as { engramMcpHost: HostHandle }).engramMcpHost.snapshot());

async function embeddingTab(): Promise<{ page: Page; frame: Frame }> {
	const page = await browser.context.newPage();
	await page.goto(`${other}/__fixture/embed.html`);
	const frame = await appFrame(page, app);
	await hostReady(frame);
	return { page, frame };
}

describe('approved origins across tabs', () => {
	it('revoking in one tab closes the origin’s connection in the other tab', async () => {
		const one = await embeddingTab();
		await one.frame.evaluate(
			(o) =>
				(globalThis as unknown as { engramMcpHost: HostHandle }).engramMcpHost.origins.approve(o, {
					profile: 'native',
				}),
			other,
		);
		const two = await embeddingTab();
		const h = await run(two.page, (m, o) => m.iframe('#engram', o, 'agent-in-tab-two'), app);
		expect(await run(two.page, (m, i) => m.waitConnected(i), h)).toBe('connected');
		expect((await host(two.frame)).connections).toEqual([
			expect.objectContaining({ origin: other, client: { name: 'agent-in-tab-two', version: '1.0.0' } }),
		]);

		// The person revokes in tab one, on the Connections screen.
		await one.frame.evaluate(() => (location.hash = '#/connections'));
		const row = one.frame.locator(`[data-testid="approved-origin"][data-origin="${other}"]`);
		await row.getByRole('button', { name: 'Revoke' }).click();
		await expect.poll(() => run(two.page, (m, i) => m.state(i), h), { timeout: 5_000 }).toBe('closed');
		expect((await host(two.frame)).connections).toEqual([]);
		expect((await host(two.frame)).approved_origins).toEqual([]);
		await one.page.close();
		await two.page.close();
	});

	it('gives an approved origin its approved profile even when its client asks for native', async () => {
		const one = await embeddingTab();
		await one.frame.evaluate(
			(o) =>
				(globalThis as unknown as { engramMcpHost: HostHandle }).engramMcpHost.origins.approve(o, {
					profile: 'codomyrmex',
				}),
			other,
		);
		const h = await run(one.page, (m, o) => m.iframe('#engram', o, 'greedy-agent', { experimental: { engram: { profile: 'native' } } }), app);
		expect(await run(one.page, (m, i) => m.waitConnected(i), h)).toBe('connected');
		expect((await run(one.page, (m, i) => m.listTools(i), h)).sort()).toEqual(['memory_get', 'memory_put', 'memory_search']);
		expect((await host(one.frame)).connections).toEqual([expect.objectContaining({ origin: other, profile: 'codomyrmex' })]);
		await one.page.close();
	});
});

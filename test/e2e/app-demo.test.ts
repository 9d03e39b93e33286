/**
 * The demo agent page end to end: it embeds Engram, connects over postMessage with the MCP SDK
 * Client and MCP-B's IframeParentTransport, stores, links, recalls and reads back — and what it
 * stored is really in Engram's IndexedDB (seen from the app in another tab).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startPreview, type Browser, type Server } from './helpers';
import { engine, engineReady } from './app-support';

let server: Server;
let browser: Browser;

beforeAll(async () => {
	server = await startPreview();
	browser = await launchBrowser();
});
afterAll(async () => {
	await browser?.close();
	await server?.stop();
});

describe('demo agent page', () => {
	it('connects, stores, links, recalls and reads back through MCP', async () => {
		const page = await browser.context.newPage();
		const errors: string[] = [];
		page.on('pageerror', (e) => errors.push(e.message));
		await page.goto(`${server.url}/demo.html`);
		await page.waitForSelector('body[data-connected="true"]', { timeout: 60_000 });
		await page.getByRole('button', { name: 'Run the script' }).click();
		await page.waitForSelector('body[data-done="true"]', { timeout: 60_000 });
		const steps = await page.getByTestId('demo-step').allInnerTexts();
		expect(steps[0]).toMatch(/Engram offers \d+ tools/);
		expect(steps[0]).toContain('store_memory');
		expect(steps.join('\n')).toMatch(/Stored 4 memories/);
		expect(steps.join('\n')).toMatch(/Linked the insight to the decision/);
		const recall = steps.find((s) => s.startsWith('Recalled'))!;
		expect(recall.split('\n')[1]).toContain('PostgreSQL');
		expect(steps.join('\n')).toMatch(/Read the decision back/);
		expect(await page.locator('#log li.error').count()).toBe(0);
		expect(errors).toEqual([]);
		// The embedded app updates live as the agent writes (engine change events → the open list).
		await page.frameLocator('#engram').getByText('4 memories', { exact: true }).waitFor();
		await page
			.frameLocator('#engram')
			.getByRole('link', { name: /billing service from MongoDB to PostgreSQL/ })
			.waitFor();

		const app = await browser.context.newPage();
		await app.goto(`${server.url}/`);
		await engineReady(app);
		const stats = await engine<{ total_memories: number; by_association_type: Record<string, number> }>(app, 'stats', {});
		expect(stats.total_memories).toBe(4);
		expect(stats.by_association_type.DERIVED_FROM).toBe(1);
		const log = await engine<{ actor: string; action: string }[]>(app, 'activity', 50);
		expect(log.some((e) => e.actor.includes('Engram demo agent') && e.action === 'created')).toBe(true);
	});

	it('recalls on demand from the question box', async () => {
		const page = await browser.context.newPage();
		await page.goto(`${server.url}/demo.html`);
		await page.waitForSelector('body[data-connected="true"]', { timeout: 60_000 });
		await page.getByLabel('Question for the agent').fill('when do we deploy?');
		await page.getByRole('button', { name: 'Recall' }).click();
		const step = page.getByTestId('demo-step').filter({ hasText: 'when do we deploy?' });
		await step.waitFor();
		expect(await step.innerText()).toContain('Tuesdays');
	});

	it("keeps its memories in its own scope and offers to remove them, leaving the person's", async () => {
		const app = await browser.context.newPage();
		await app.goto(`${server.url}/`);
		await engineReady(app);
		await engine(app, 'wipe');
		await engine(app, 'store', { content: 'My own note: the dentist is on Thursday at 3pm.', tags: ['demo'] });
		const page = await browser.context.newPage();
		await page.goto(`${server.url}/demo.html`);
		await page.waitForSelector('body[data-connected="true"]', { timeout: 60_000 });
		await page.getByRole('button', { name: 'Run the script' }).click();
		await page.waitForSelector('body[data-done="true"]', { timeout: 60_000 });
		const stats = await engine<{ by_scope: Record<string, number> }>(app, 'stats', {});
		expect(stats.by_scope).toEqual({ default: 1, demo: 4 });
		await page.getByRole('button', { name: 'Remove the demo memories' }).click();
		await page.waitForSelector('body[data-cleared="true"]');
		expect(await page.getByTestId('demo-step').last().innerText()).toContain("Removed the demo's 4 memories");
		expect((await engine<{ by_scope: Record<string, number> }>(app, 'stats', {})).by_scope).toEqual({ default: 1 });
	});
});

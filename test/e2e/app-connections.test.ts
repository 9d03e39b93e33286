/**
 * The Connections screen against the real MCP host: a page on another origin (the same preview
 * server reached as http://localhost:PORT, a different origin from http://127.0.0.1:PORT) opens
 * Engram in a window and speaks MCP-B's postMessage wire format to it. It gets nothing until the
 * person approves its origin on the Connections screen, then lists tools; after Revoke it gets
 * nothing again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, startPreview, type Browser, type Server } from './helpers';
import { engineReady } from './app-support';

let server: Server;
let browser: Browser;
let client: Page;
let engram: Page;
let clientOrigin: string;

/** The other origin's page: opens Engram and exposes a tiny MCP-over-postMessage client. */
function clientHtml(engramUrl: string): string {
	return `<!doctype html><title>Agent on another origin</title><script>
	const target = ${JSON.stringify(engramUrl)};
	const origin = new URL(target).origin;
	window.received = [];
	window.addEventListener('message', (e) => {
		if (e.origin === origin && e.data && e.data.direction === 'server-to-client') window.received.push(e.data.payload);
	});
	window.openEngram = () => { window.engram = window.open(target + '/#/connections', 'engram'); };
	window.send = (payload) => window.engram.postMessage({ channel: 'mcp-default', type: 'mcp', direction: 'client-to-server', payload }, origin);
	</script><h1>agent</h1>`;
}

/** Waits up to `ms` for a payload matching `pred` to arrive in the client page. */
async function receivedWithin(pred: string, ms: number): Promise<boolean> {
	try {
		await client.waitForFunction(
			(p) => (window as unknown as { received: unknown[] }).received.some(new Function('m', `return ${p}`) as (m: unknown) => boolean),
			pred,
			{ timeout: ms },
		);
		return true;
	} catch {
		return false;
	}
}

const READY = `m === 'mcp-server-ready'`;
const TOOLS = `m && m.id === 2 && m.result && Array.isArray(m.result.tools)`;

async function handshake(): Promise<void> {
	await client.evaluate(() => {
		const w = window as unknown as { received: unknown[]; send(p: unknown): void };
		w.received.length = 0;
		w.send('mcp-check-ready');
		w.send({
			jsonrpc: '2.0',
			id: 1,
			method: 'initialize',
			params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'other-origin-agent', version: '1.0' } },
		});
		w.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
		w.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
	});
}

beforeAll(async () => {
	server = await startPreview();
	browser = await launchBrowser();
	clientOrigin = `http://localhost:${server.port}`;
	await browser.context.route(`${clientOrigin}/agent.html`, (route) => route.fulfill({ contentType: 'text/html', body: clientHtml(server.url) }));
	client = await browser.context.newPage();
	await client.goto(`${clientOrigin}/agent.html`);
	const popup = browser.context.waitForEvent('page');
	await client.evaluate(() => (window as unknown as { openEngram(): void }).openEngram());
	engram = await popup;
	await engramReadyAndHost(engram);
});
afterAll(async () => {
	await browser?.close();
	await server?.stop();
});

async function engramReadyAndHost(p: Page): Promise<void> {
	await p.waitForLoadState('domcontentloaded');
	await engineReady(p);
	await p.waitForFunction(() => (globalThis as { engramMcpHost?: unknown }).engramMcpHost !== undefined);
}

describe('connections screen', () => {
	it('gives an unapproved origin nothing, and lists it as waiting for approval', async () => {
		await handshake();
		expect(await receivedWithin(`${READY} || (${TOOLS})`, 1500)).toBe(false);
		const pending = engram.locator(`[data-testid="pending-origin"][data-origin="${clientOrigin}"]`);
		await pending.waitFor();
		expect(await pending.innerText()).toContain(clientOrigin);
	});

	it('lets the origin in after Approve: it lists the tools and shows as connected', async () => {
		const pending = engram.locator(`[data-testid="pending-origin"][data-origin="${clientOrigin}"]`);
		await pending.getByRole('combobox').selectOption('native');
		await pending.getByRole('button', { name: 'Approve' }).click();
		await engram.locator(`[data-testid="approved-origin"][data-origin="${clientOrigin}"]`).waitFor();
		await handshake();
		expect(await receivedWithin(TOOLS, 10_000)).toBe(true);
		const connection = engram.getByTestId('connection').filter({ hasText: 'other-origin-agent' });
		await connection.waitFor();
		expect(await connection.innerText()).toContain(clientOrigin);
		const stored = await engram.evaluate(() =>
			(globalThis as unknown as { __engram: { getSetting(k: string): Promise<unknown> } }).__engram.getSetting('approved_origins'),
		);
		expect(JSON.stringify(stored)).toContain(clientOrigin);
	});

	it("lists the agent's calls newest first, keeping the rows it already shows, and logs them", async () => {
		const rows = engram.locator('section[aria-labelledby="calls-title"] tbody tr');
		const call = (id: number, query: string) =>
			client.evaluate(
				({ id, query }) =>
					(window as unknown as { send(p: unknown): void }).send({
						jsonrpc: '2.0',
						id,
						method: 'tools/call',
						params: { name: 'recall_memory', arguments: { query } },
					}),
				{ id, query },
			);
		await call(10, 'first question');
		expect(await receivedWithin('m && m.id === 10 && m.result', 10_000)).toBe(true);
		await rows.first().waitFor();
		const shown = await rows.count();
		const first = await rows.first().elementHandle();
		await call(11, 'second question');
		expect(await receivedWithin('m && m.id === 11 && m.result', 10_000)).toBe(true);
		await expect.poll(() => rows.count()).toBe(shown + 1);
		// The row drawn for the first call is the same element, now second: one row added, none redrawn.
		expect(await first!.evaluate((tr) => tr.isConnected && tr === tr.parentElement!.children[1])).toBe(true);
		expect(await rows.first().innerText()).toContain('recall_memory');
		// Both calls reach the activity log shown below the table (read again at most once a second).
		const searched = engram.locator('[data-testid="history-entry"][data-action="recalled"]');
		await expect.poll(() => searched.count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
	});

	it('shuts the origin out again after Revoke', async () => {
		await engram.locator(`[data-testid="approved-origin"][data-origin="${clientOrigin}"]`).getByRole('button', { name: 'Revoke' }).click();
		await engram.locator(`[data-testid="approved-origin"][data-origin="${clientOrigin}"]`).waitFor({ state: 'detached' });
		await handshake();
		expect(await receivedWithin(`${READY} || (${TOOLS})`, 1500)).toBe(false);
		await engram.getByTestId('connection').filter({ hasText: 'other-origin-agent' }).waitFor({ state: 'detached' });
	});
});

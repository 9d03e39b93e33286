/**
 * The Content-Security-Policy and "no remote loads from stored text", in Chromium against the
 * built app served by `vite preview`: the policy is in the HTML and in the response headers, normal
 * use (list, search with the embedded model, a memory page, the screens, the relay socket) reports
 * no violation, and memories whose Markdown holds media, srcset, posters and remote URLs make the
 * page request nothing outside its origin.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CDPSession, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineReady, seed, SAMPLE } from './app-support';
import { hostReady } from './bridges-support';
import { ROOT, launchBrowser, startPreview, type Browser, type Server } from './helpers';

let server: Server;
let browser: Browser;
let page: Page;
let cdp: CDPSession;
/** Every request the page or its workers made, by URL. */
const requests: string[] = [];
/** CSP violations and CSP console messages, from the page, its workers and the browser log. */
const violations: string[] = [];

const REMOTE = 'http://remote.example';

beforeAll(async () => {
	server = await startPreview();
	browser = await launchBrowser();
	await browser.context.addInitScript(() => {
		document.addEventListener('securitypolicyviolation', (e) => {
			const list = ((globalThis as { __violations?: string[] }).__violations ??= []);
			list.push(`${e.violatedDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`);
		});
	});
	// Nothing may leave the origin; answer anything that tries, so a request is seen, not hung.
	await browser.context.route(
		(url) => !url.href.startsWith(server.url),
		(route) => route.fulfill({ status: 204, body: '' }),
	);
	browser.context.on('request', (r: Request) => void requests.push(r.url()));
	page = await browser.context.newPage();
	const onConsole = (text: string) => {
		if (/Content Security Policy|Refused to/i.test(text)) violations.push(`console: ${text}`);
	};
	page.on('console', (m) => onConsole(m.text()));
	page.on('worker', (w) => w.on('console', (m) => onConsole(m.text())));
	cdp = await browser.context.newCDPSession(page);
	cdp.on('Log.entryAdded', ({ entry }) => {
		if (entry.source === 'security' || /Content Security Policy/.test(entry.text)) violations.push(`log: ${entry.text}`);
	});
	await cdp.send('Log.enable');
	await page.goto(`${server.url}/`);
	await engineReady(page);
	await hostReady(page);
});

afterAll(async () => {
	await browser?.close();
	await server?.stop();
});

async function pageViolations(): Promise<string[]> {
	return [...violations, ...(await page.evaluate(() => (globalThis as { __violations?: string[] }).__violations ?? []))];
}

describe('Content-Security-Policy', () => {
	it('is served as a meta tag and as a response header', async () => {
		const res = await fetch(`${server.url}/`);
		const header = res.headers.get('content-security-policy') ?? '';
		const meta = (await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')) ?? '';
		for (const policy of [header, meta]) {
			expect(policy).toContain("default-src 'self'");
			expect(policy).toMatch(/script-src 'self' 'wasm-unsafe-eval' 'sha256-[\w+/=]+'/);
			expect(policy).toContain("object-src 'none'");
			expect(policy).toContain("base-uri 'none'");
			expect(policy).toContain("connect-src 'self' ws://127.0.0.1:* ws://localhost:*");
			expect(policy).toContain("img-src 'self' data: blob:");
		}
		const worker = await fetch(`${server.url}/sw.js`);
		expect(worker.headers.get('content-security-policy')).toBe(header);
		const demo = await (await fetch(`${server.url}/demo.html`)).text();
		expect(demo).toContain('<meta http-equiv="Content-Security-Policy"');
	});

	it('reports no violation in normal use: the worker, the model, search, the screens, the relay socket', async () => {
		await seed(page, SAMPLE);
		await page.locator('#search-input').fill('which database does billing use');
		await page.getByTestId('result').first().waitFor();
		const [first] = await seed(page, [{ content: 'A **memory** page, with `code` and a [link](#/graph).' }]);
		await page.goto(`${server.url}/#/memory/${encodeURIComponent(first!)}`);
		await page.getByTestId('memory-content').waitFor();
		for (const screen of ['graph', 'connections', 'import', 'settings']) await page.goto(`${server.url}/#/${screen}`).then(() => page.waitForTimeout(300));
		// A relay that is not there: the socket is attempted (and fails), not refused by the policy.
		await page.evaluate(() =>
			(
				globalThis as unknown as {
					engramMcpHost: { pairRelay(u: string, t: string): Promise<void> };
				}
			).engramMcpHost.pairRelay('ws://127.0.0.1:9', 'csp-test-token-0123456789'),
		);
		await expect
			.poll(async () =>
				page.evaluate(
					() =>
						(
							globalThis as unknown as {
								engramMcpHost: { relay(): { connection?: { attempts: number } } };
							}
						).engramMcpHost.relay().connection?.attempts ?? 0,
				),
			)
			.toBeGreaterThan(0);
		const controlled = await page.evaluate(async () => {
			await navigator.serviceWorker.ready;
			return !!navigator.serviceWorker.controller || (await navigator.serviceWorker.getRegistration()) !== undefined;
		});
		expect(controlled).toBe(true);
		expect(await pageViolations()).toEqual([]);
	});

	it('reports no violation with WebMCP (an in-page MCP client) and on the demo page', async () => {
		const seen: string[] = [];
		const watch = (p: Page) => {
			p.on('console', (m) => {
				// The relay paired above is not there: its failed socket is expected noise.
				if (/^WebSocket connection to 'ws:\/\/127\.0\.0\.1:9\//.test(m.text())) return;
				if (m.type() === 'error' || /Content Security Policy/.test(m.text())) seen.push(m.text());
			});
			p.on('pageerror', (e) => seen.push(e.message));
		};
		const webmcp = await browser.context.newPage();
		watch(webmcp);
		await webmcp.addInitScript(() => {
			(window as unknown as { __webModelContextOptions: unknown }).__webModelContextOptions = {
				transport: { tabServer: { allowedOrigins: [location.origin], channelId: 'webmcp-polyfill' } },
			};
		});
		await webmcp.addInitScript({
			content: readFileSync(join(ROOT, 'node_modules/@mcp-b/global/dist/index.iife.js'), 'utf8'),
		});
		await webmcp.goto(`${server.url}/`);
		await hostReady(webmcp);
		const tools = await webmcp.evaluate(() => (globalThis as unknown as { engramMcpHost: { webmcp(): { tools: string[] } } }).engramMcpHost.webmcp().tools);
		expect(tools).toContain('recall_memory');
		const reported = (p: Page) => p.evaluate(() => (globalThis as { __violations?: string[] }).__violations ?? []);
		seen.push(...(await reported(webmcp)));
		await webmcp.close();

		const demo = await browser.context.newPage();
		watch(demo);
		await demo.goto(`${server.url}/demo.html`);
		await demo.waitForSelector('body[data-connected="true"]', { timeout: 60_000 });
		seen.push(...(await reported(demo)));
		await demo.close();
		expect(seen).toEqual([]);
	});

	it('lets onnxruntime-web load its script and compile its wasm (the path of hub models)', async () => {
		const wasm = readdirSync(join(ROOT, 'dist/assets')).find((f) => /^ort-wasm.*\.wasm$/.test(f));
		const mjs = readdirSync(join(ROOT, 'dist/assets')).find((f) => /^ort-wasm.*\.mjs$/.test(f));
		// A string, so vitest does not rewrite the dynamic import for Node.
		const result = await page.evaluate(`(async () => {
			await import('/assets/${mjs}');
			const module = await WebAssembly.compileStreaming(fetch('/assets/${wasm}'));
			return WebAssembly.Module.exports(module).length > 0;
		})()`);
		expect(result).toBe(true);
		expect(await pageViolations()).toEqual([]);
	});
});

describe('stored text', () => {
	const HOSTILE = [
		`<video src="${REMOTE}/v.mp4" poster="${REMOTE}/poster.png" autoplay></video>`,
		`<audio src="${REMOTE}/a.mp3" autoplay></audio>`,
		`<video><source src="${REMOTE}/s.mp4" srcset="${REMOTE}/s1.png 1x"><track src="${REMOTE}/t.vtt"></video>`,
		`<picture><source srcset="${REMOTE}/p.png"><img src="data:image/png;base64,iVBORw0KGgo=" alt="p"></picture>`,
		`<img src="data:image/png;base64,iVBORw0KGgo=" srcset="${REMOTE}/i.png 2x" alt="srcset">`,
		`![remote](${REMOTE}/md.png) and <img src="${REMOTE}/tag.png">`,
		`<table background="${REMOTE}/bg.png"><tr><td background="${REMOTE}/td.png">x</td></tr></table>`,
		`<a href="${REMOTE}/ping" ping="${REMOTE}/ping-track">a link</a>`,
		`<link rel="stylesheet" href="${REMOTE}/s.css"><style>@import url(${REMOTE}/i.css)</style>`,
		`<object data="${REMOTE}/o.swf"></object><embed src="${REMOTE}/e.swf"><iframe src="${REMOTE}/f"></iframe>`,
	];

	it('makes the page request nothing outside its origin', async () => {
		const ids = await seed(
			page,
			HOSTILE.map((content, i) => ({ content: `hostile ${i}: ${content}`, tags: ['hostile'] })),
		);
		requests.length = 0;
		await page.goto(`${server.url}/#/`);
		await page.locator('#search-input').fill('hostile');
		await page.getByTestId('result').first().waitFor();
		for (const id of ids) {
			await page.goto(`${server.url}/#/memory/${encodeURIComponent(id)}`);
			await page.getByTestId('memory-content').waitFor();
			expect(
				await page
					.getByTestId('memory-content')
					.locator('video, audio, source, track, object, embed, iframe, [srcset], [poster], [background], [ping]')
					.count(),
			).toBe(0);
		}
		await page.waitForTimeout(500);
		expect(requests.filter((u) => !u.startsWith(server.url) && !u.startsWith('data:'))).toEqual([]);
		expect(await pageViolations()).toEqual([]);
	});
});

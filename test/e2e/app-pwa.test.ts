/**
 * The PWA: installable (manifest fields, icons reachable at their declared sizes, a service worker
 * controlling the page, and Chromium's own installability check), working offline after the
 * first visit (the service worker serves the app, the wasm and the model), and prompting for an
 * update when a new version is deployed.
 *
 * The app is served from a copy of dist/ by a plain static server, so the test can "deploy" a new
 * version by changing sw.js on disk, as a real deployment would.
 */
import { appendFileSync, cpSync, createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { freePort, launchBrowser, ROOT, type Browser } from './helpers';
import { engineReady } from './app-support';

const TYPES: Record<string, string> = {
	'.html': 'text/html',
	'.js': 'text/javascript',
	'.mjs': 'text/javascript',
	'.css': 'text/css',
	'.json': 'application/json',
	'.webmanifest': 'application/manifest+json',
	'.wasm': 'application/wasm',
	'.png': 'image/png',
	'.svg': 'image/svg+xml',
	'.onnx': 'application/octet-stream',
};

/** Serves a directory over HTTP on 127.0.0.1, like any static host would. */
async function serveDir(dir: string): Promise<{ url: string; close(): Promise<void> }> {
	const http: HttpServer = createServer((req, res) => {
		const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
		let file = join(dir, path);
		if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
		if (!existsSync(file)) return void res.writeHead(404).end('not found');
		res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
		createReadStream(file).pipe(res);
	});
	const port = await freePort();
	await new Promise<void>((ok) => http.listen(port, '127.0.0.1', ok));
	return { url: `http://127.0.0.1:${port}`, close: () => new Promise((ok) => http.close(() => ok())) };
}

const site = mkdtempSync(join(tmpdir(), 'engram-site-'));
let server: { url: string; close(): Promise<void> };
let browser: Browser;
let page: Page;

beforeAll(async () => {
	if (!existsSync(join(ROOT, 'dist', 'sw.js'))) throw new Error('dist/ is missing: run `npx vite build` first.');
	cpSync(join(ROOT, 'dist'), site, { recursive: true });
	server = await serveDir(site);
	browser = await launchBrowser();
	page = await browser.context.newPage();
	await page.goto(server.url + '/');
	await engineReady(page);
	// First visit: the service worker installs (precaching everything) and activates.
	await page.evaluate(async () => {
		const reg = await navigator.serviceWorker.ready;
		return reg.active?.state;
	});
	await page.reload();
	await engineReady(page);
});
afterAll(async () => {
	await browser?.close();
	await server?.close();
	rmSync(site, { recursive: true, force: true });
});

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
	expect(bytes.subarray(1, 4).toString('ascii')).toBe('PNG');
	return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('PWA', () => {
	it('has a complete manifest whose icons are reachable at their declared sizes', async () => {
		const href = await page.locator('link[rel="manifest"]').getAttribute('href');
		expect(href).toBeTruthy();
		const res = await page.request.get(new URL(href!, server.url).href);
		expect(res.ok()).toBe(true);
		const manifest = (await res.json()) as {
			name: string;
			short_name: string;
			start_url: string;
			display: string;
			theme_color: string;
			background_color: string;
			icons: { src: string; sizes: string; type: string; purpose?: string }[];
		};
		expect(manifest).toMatchObject({ short_name: 'Engram', display: 'standalone', start_url: './' });
		expect(manifest.name).toContain('Engram');
		expect(manifest.theme_color).toMatch(/^#/);
		const sizes = manifest.icons.map((i) => i.sizes);
		expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
		expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);
		for (const icon of manifest.icons) {
			const r = await page.request.get(new URL(icon.src, new URL(href!, server.url)).href);
			expect(r.ok(), icon.src).toBe(true);
			expect(r.headers()['content-type']).toContain('image/png');
			const [w, h] = icon.sizes.split('x').map(Number);
			expect(pngSize(await r.body())).toEqual({ width: w, height: h });
		}
	});

	it('is controlled by the service worker and passes Chromium’s installability check', async () => {
		expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/sw\.js$/);
		const cdp = await browser.context.newCDPSession(page);
		const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
		expect(installabilityErrors.map((e) => e.errorId)).toEqual([]);
		const { errors, url } = (await cdp.send('Page.getAppManifest')) as { errors: { message: string }[]; url: string };
		expect(url).toMatch(/manifest\.webmanifest$/);
		expect(errors).toEqual([]);
	});

	it('works offline after the first visit: reload, search and store with the network off', async () => {
		const requests: string[] = [];
		page.on('requestfailed', (r) => requests.push(`${r.url()} ${r.failure()?.errorText}`));
		await browser.context.setOffline(true);
		try {
			await page.reload();
			await engineReady(page);
			await page.getByRole('searchbox', { name: 'Search memories' }).waitFor();
			const out = await page.evaluate(async () => {
				const e = (
					globalThis as unknown as {
						__engram: {
							store(i: object): Promise<{ memory_id: string }>;
							recall(i: object): Promise<{ results: { memory: { id: string } }[]; lexical_only?: boolean }>;
						};
					}
				).__engram;
				const stored = await e.store({ content: 'Written while offline: the train has no wifi between Lyon and Paris.' });
				const found = await e.recall({ query: 'internet on the train' });
				return { id: stored.memory_id, found: found.results.map((r) => r.memory.id), lexicalOnly: found.lexical_only };
			});
			expect(out.found).toContain(out.id);
			// Semantic search ran: the model was served from the cache, not the network.
			expect(out.lexicalOnly).toBeFalsy();
			await page.locator('#search-input').fill('wifi train');
			await page.getByTestId('result').first().waitFor();
		} finally {
			await browser.context.setOffline(false);
		}
		expect(requests.filter((r) => !r.includes('/sw.js'))).toEqual([]);
	});

	it('offers an update when a new version is deployed, and reloads into it on request', async () => {
		// "Deploy" a new version: the service worker script changes, byte for byte.
		appendFileSync(join(site, 'sw.js'), `\n// deployed ${new Date().toISOString()}\n`);
		await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
		const prompt = page.getByRole('alertdialog', { name: 'A new version of Engram is ready' });
		await prompt.waitFor({ timeout: 30_000 });
		expect(await page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())?.waiting)).toBe(true);
		await Promise.all([page.waitForEvent('load'), prompt.getByRole('button', { name: 'Reload' }).click()]);
		await engineReady(page);
		const reg = await page.evaluate(async () => {
			const r = await navigator.serviceWorker.getRegistration();
			return { waiting: !!r?.waiting, controlled: !!navigator.serviceWorker.controller };
		});
		expect(reg).toEqual({ waiting: false, controlled: true });
		expect(await page.getByRole('alertdialog').count()).toBe(0);
	});
});

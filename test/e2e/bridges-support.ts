/**
 * Shared set-up for the bridge e2e tests: the MCP-B client fixture bundled for the browser,
 * fixture pages served by a tiny loopback server (no change to the app's build), and waiting for
 * the page's MCP host (`globalThis.engramMcpHost`, set by startMcpHost).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Frame, Page } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, ROOT, chromiumPath, type Browser } from './helpers';

/**
 * Chromium as launchBrowser() starts it, but with third-party storage available. This Chromium
 * build ships third-party cookie deprecation (TrackingProtection3pcd) on, which denies IndexedDB
 * to a cross-site iframe; a browser that allows partitioned storage is what the cross-origin
 * embedding test needs (where storage is denied, Engram cannot keep memories there anyway).
 * `bypassCSP` lets a test inject an in-page agent into the app, as an extension's content script
 * would (the app's CSP refuses inline and eval'd scripts; test/e2e/app-csp.test.ts covers it).
 */
export async function launchBrowserWithThirdPartyStorage(opts: { bypassCSP?: boolean } = {}): Promise<Browser> {
	const dir = mkdtempSync(join(tmpdir(), 'engram-chromium-'));
	const context = await chromium.launchPersistentContext(dir, {
		executablePath: chromiumPath(),
		headless: true,
		bypassCSP: opts.bypassCSP ?? false,
		args: [...CHROMIUM_ARGS, '--disable-features=TrackingProtection3pcd'],
		viewport: { width: 1280, height: 800 },
	});
	return {
		context,
		async close() {
			await context.close().catch(() => {});
			rmSync(dir, { recursive: true, force: true });
		},
	};
}

let bundle: Promise<string> | undefined;

/** test/e2e/fixtures/mcp-b-client.ts as one browser script (real @mcp-b/transports + SDK Client). */
export function clientBundle(): Promise<string> {
	bundle ??= build({
		entryPoints: [join(ROOT, 'test/e2e/fixtures/mcp-b-client.ts')],
		bundle: true,
		format: 'iife',
		platform: 'browser',
		target: 'es2022',
		minify: true,
		write: false,
		logLevel: 'silent',
	}).then((r) => r.outputFiles[0]!.text);
	return bundle;
}

/** A page that embeds the Engram app in an iframe and loads the MCP-B client fixture. */
export function embedHtml(appUrl: string): string {
	return `<!doctype html><meta charset="utf-8"><title>Agent page embedding Engram</title>
<iframe id="engram" src="${appUrl}/" style="width:900px;height:600px"></iframe>
<script src="/__fixture/client.js"></script>`;
}

/**
 * Serves the fixture pages on 127.0.0.1 at a free port: `/__fixture/embed.html` (embeds the app)
 * and `/__fixture/client.js`. A real loopback server rather than Playwright routes, because
 * Chromium's Local Network Access checks block a page without a known address (a fulfilled route)
 * from framing a loopback one.
 */
export async function startFixtureServer(appUrl: string): Promise<{ port: number; stop(): Promise<void> }> {
	const js = await clientBundle();
	const server = createServer((req, res) => {
		if (req.url === '/__fixture/client.js') return void res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(js);
		if (req.url === '/__fixture/embed.html') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end(embedHtml(appUrl));
		res.writeHead(404).end();
	});
	await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
	const { port } = server.address() as AddressInfo;
	return { port, stop: () => new Promise((ok) => server.close(() => ok())) };
}

/** Waits until the page (or frame) has started its MCP host. */
export async function hostReady(target: Page | Frame): Promise<void> {
	await target.waitForFunction(() => (globalThis as { engramMcpHost?: unknown }).engramMcpHost !== undefined, null, { timeout: 60_000 });
}

/**
 * Opens a relay pairing link as the person does: the app asks ("Pair with a desktop relay?",
 * naming the address) and pairs on one click of "Pair". Returns once the click is made.
 */
export async function openPairingLink(page: Page, link: string): Promise<void> {
	await page.goto(link);
	await hostReady(page);
	const dialog = page.getByRole('dialog', { name: 'Pair with a desktop relay?' });
	await dialog.getByRole('button', { name: 'Pair', exact: true }).click({ timeout: 60_000 });
	await dialog.waitFor({ state: 'hidden' });
}

/** The Engram app's frame inside an embedding page. */
export async function appFrame(page: Page, appUrl: string): Promise<Frame> {
	for (let i = 0; i < 200; i++) {
		const f = page.frames().find((fr) => fr !== page.mainFrame() && fr.url().startsWith(appUrl));
		if (f) return f;
		await new Promise((r) => setTimeout(r, 50));
	}
	throw new Error(`no frame of ${appUrl} in ${page.url()}`);
}

/** The parts of McpHost the tests call inside the page (`globalThis.engramMcpHost`). */
export interface HostHandle {
	snapshot(): {
		connections: {
			kind: string;
			via: string;
			origin?: string;
			client?: { name: string };
			profile: string;
			calls: number;
		}[];
		pending_origins: { origin: string; via: string }[];
		approved_origins: { origin: string }[];
		relay: { url?: string; connection?: { status: string; sessions: number }; error?: string };
	};
	origins: {
		approve(origin: string, opts?: { profile?: string }): Promise<void>;
		revoke(origin: string): Promise<void>;
	};
	reconnectRelay(): void;
}

/**
 * The built app in headless Chromium, paired through its pairing link with the real
 * `engram-relay` bin, which an MCP SDK client spawns over stdio as a desktop client does: the
 * set-up the agent-path bench and `npm run eval -- --through app` share.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { openPairingLink } from '../../test/e2e/bridges-support';
import { freePort, launchBrowser, ROOT, startPreview } from '../../test/e2e/helpers';
import { newToken, relayHome, spawnRelayClient, type StdioRelayClient } from '../../test/unit/relay/helpers';

/** What `pairedApp` started; `close` stops all of it. */
export interface PairedApp {
	server: Awaited<ReturnType<typeof startPreview>>;
	page: Page;
	desk: StdioRelayClient;
	port: number;
	token: string;
	home: ReturnType<typeof relayHome>;
	close(): Promise<void>;
}

/**
 * Starts `vite preview` on the built app, Chromium and a relay with a desktop client named
 * `clientName` (extra environment in `env`), opens the pairing link (after `initScript`, if
 * given) and resolves once the relay lists the tab's tools. Throws, having stopped everything,
 * when the app is not built or the tab does not pair within a minute.
 */
export async function pairedApp(opts: { clientName: string; env?: Record<string, string>; initScript?: string; what: string }): Promise<PairedApp> {
	if (!existsSync(join(ROOT, 'dist', 'index.html'))) throw new Error(`${opts.what}: build the app first (npm run build)`);
	const server = await startPreview();
	const browser = await launchBrowser();
	const home = relayHome();
	const port = await freePort();
	const token = newToken();
	const desk = await spawnRelayClient(
		['--port', String(port), '--token', token, '--app-url', server.url],
		{ ENGRAM_RELAY_HOME: home.dir, ...opts.env },
		opts.clientName,
	);
	const close = async () => {
		await desk.close().catch(() => {});
		await browser.close();
		await server.stop();
		home.remove();
	};
	try {
		const page = await browser.context.newPage();
		if (opts.initScript) await page.addInitScript({ content: opts.initScript });
		await openPairingLink(page, `${server.url}/#relay=ws://127.0.0.1:${port}&token=${token}`);
		// Paired once the relay lists the tab's tools.
		for (let i = 0; ; i++) {
			const tools = await desk.client.listTools().catch(() => ({ tools: [] }));
			if (tools.tools.some((t) => t.name === 'recall_memory')) break;
			if (i > 600) throw new Error(`the tab did not pair with the relay:\n${desk.log()}`);
			await new Promise((r) => setTimeout(r, 100));
		}
		return { server, page, desk, port, token, home, close };
	} catch (e) {
		await close();
		throw e;
	}
}

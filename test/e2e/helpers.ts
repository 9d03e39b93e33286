/**
 * Shared end-to-end test infrastructure: a real Chromium (Debian's, driven by playwright-core)
 * and the built app served by `vite preview` on a free loopback port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const ROOT = resolve(import.meta.dirname, '../..');

/** Chromium's path: $CHROMIUM_PATH, else Debian's /usr/bin/chromium; fails with how to install. */
export function chromiumPath(): string {
	const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
	if (!existsSync(path))
		throw new Error(`No Chromium at ${path}. Install Debian's: apt-get update && apt-get install -y chromium fonts-liberation, or set CHROMIUM_PATH.`);
	return path;
}

export const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
	return new Promise((ok, fail) => {
		const srv = createServer();
		srv.unref();
		srv.on('error', fail);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address() as { port: number };
			srv.close(() => ok(port));
		});
	});
}

export interface Browser {
	context: BrowserContext;
	close(): Promise<void>;
}

/** A persistent Chromium context in a fresh temp profile (so IndexedDB survives reloads). */
export async function launchBrowser(opts: { offlineCapable?: boolean } = {}): Promise<Browser> {
	const dir = mkdtempSync(join(tmpdir(), 'engram-chromium-'));
	const context = await chromium.launchPersistentContext(dir, {
		executablePath: chromiumPath(),
		headless: true,
		args: CHROMIUM_ARGS,
		serviceWorkers: opts.offlineCapable === false ? 'block' : 'allow',
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

export interface Server {
	url: string;
	port: number;
	stop(): Promise<void>;
}

/** Serves dist/ with `vite preview` on a free port; requires `vite build` to have run. */
export async function startPreview(): Promise<Server> {
	if (!existsSync(join(ROOT, 'dist', 'index.html'))) throw new Error('dist/ is missing: run `npx vite build` (npm test does) before the e2e tests.');
	const port = await freePort();
	const child: ChildProcess = spawn(
		process.execPath,
		// --bypass-lock: vite 8 refuses a second preview of the same project, but test files (and
		// engineers) run several at once, each on its own free port.
		[join(ROOT, 'node_modules/vite/bin/vite.js'), 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort', '--bypass-lock'],
		{ cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PORT: String(port) } },
	);
	const url = `http://127.0.0.1:${port}`;
	await waitForHttp(url, 30_000, child);
	return {
		url,
		port,
		async stop() {
			if (child.exitCode === null) {
				child.kill('SIGTERM');
				await new Promise((r) => child.once('exit', r));
			}
		},
	};
}

/** Polls `url` until it answers, the child dies, or the deadline passes. */
export async function waitForHttp(url: string, timeoutMs: number, child?: ChildProcess): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	let output = '';
	child?.stdout?.on('data', (d) => (output += d));
	child?.stderr?.on('data', (d) => (output += d));
	while (Date.now() < deadline) {
		if (child && child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
		try {
			const res = await fetch(url);
			if (res.ok) return;
		} catch {
			// not up yet
		}
		await new Promise((r) => setTimeout(r, 100));
	}
	throw new Error(`timed out waiting for ${url}:\n${output}`);
}

/**
 * The built app served by `vite preview` on a fixed port, opened in a Chromium profile kept in a
 * folder: a 100k store is imported once and reused by later runs (the origin, hence the port,
 * must stay the same for the profile's IndexedDB to be found). `bench/app-tti.ts --keep` and
 * `bench/store-browser.ts --reads` share it; `dist` serves another build over the same store.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath, ROOT, waitForHttp, type Browser, type Server } from '../../test/e2e/helpers';

export async function keptApp(
	dir: string,
	opts: { port: number; dist?: string; serviceWorkers?: 'allow' | 'block' },
): Promise<{ server: Server; browser: Browser }> {
	const child = spawn(
		process.execPath,
		[
			join(ROOT, 'node_modules/vite/bin/vite.js'),
			'preview',
			'--host',
			'127.0.0.1',
			'--port',
			String(opts.port),
			'--strictPort',
			'--bypass-lock',
			...(opts.dist ? ['--outDir', opts.dist] : []),
		],
		{ cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	// Whatever ends this process ends the server too (the next run needs its port).
	process.once('exit', () => child.kill('SIGTERM'));
	const url = `http://127.0.0.1:${opts.port}`;
	await waitForHttp(url, 30_000, child);
	mkdirSync(dir, { recursive: true });
	// Blocking service workers stops new registrations only: one a kept profile already holds (an
	// `app-tti --keep` run allows them) still answers the page from its cache, so `--dist` A/B runs
	// were served the build of the run before. Its registrations go with the folder.
	if (opts.serviceWorkers === 'block') rmSync(join(dir, 'Default', 'Service Worker'), { recursive: true, force: true });
	const context = await chromium.launchPersistentContext(dir, {
		executablePath: chromiumPath(),
		headless: true,
		args: CHROMIUM_ARGS,
		serviceWorkers: opts.serviceWorkers ?? 'allow',
		viewport: { width: 1280, height: 800 },
	});
	return {
		server: { url, port: opts.port, stop: async () => void child.kill('SIGTERM') },
		browser: { context, close: () => context.close() },
	};
}

/**
 * `npx tsx bench/import-blocks.ts [n=100000] [--bare]`: where a large import's time goes as it
 * grows. Stores `n` bench-corpus memories (seed 42, as `npm run bench`) in batches of 500 through
 * the built app's engine in headless Chromium (`--bare`: the engine worker alone), and prints per
 * 10k block the in-page seconds and the CPU seconds the browser process (IndexedDB's backend)
 * and the renderers (the page and the engine worker) spent meanwhile, read from /proc (Linux),
 * and of the renderers' the engine worker's thread alone. On a 2-core machine the two together
 * show whether the import is bound by both cores or waits; on a shared machine CPU seconds vary
 * far less than wall time, so compare builds by them.
 * Needs `npx vite build` first.
 */
import { launchBrowser, startPreview } from '../test/e2e/helpers';
import { bareEngine } from './lib/bare-engine';
import { cpuSeconds } from './lib/chromium-cpu';
import { Corpus, type GeneratedMemory } from './lib/corpus';

const n = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 100_000);
const BARE = process.argv.includes('--bare');
const BATCH = 500;
const BLOCK = 10_000;

const server = await startPreview();
const browser = await launchBrowser({ offlineCapable: false });
try {
	const page = await browser.context.newPage();
	if (BARE) await bareEngine(page, server.url);
	else await page.goto(server.url);
	await page.waitForFunction(() => '__engram' in globalThis, undefined, { timeout: 60_000 });
	await page.evaluate('globalThis.__engram.stats({})');
	const store = (ms: GeneratedMemory[]) =>
		page.evaluate(async (ms) => {
			const t = performance.now();
			await (globalThis as unknown as { __engram: { store(i: unknown): Promise<unknown> } }).__engram.store({ memories: ms });
			return performance.now() - t;
		}, ms);
	const gen = new Corpus(42);
	console.log(`${n} memories through ${BARE ? 'the bare engine worker' : 'the app'}, batches of ${BATCH}`);
	console.log('   block   in-page s   total s   browser cpu s   renderer cpu s   worker cpu s');
	let total = 0;
	let block = 0;
	let cpu = cpuSeconds();
	for (let i = 0; i < n; i += BATCH) {
		const ms = await store(Array.from({ length: Math.min(BATCH, n - i) }, (_, j) => gen.memory(i + j)));
		total += ms;
		block += ms;
		const done = Math.min(i + BATCH, n);
		if (done % BLOCK === 0 || done === n) {
			const now = cpuSeconds();
			const f = (x: number, w: number) => x.toFixed(1).padStart(w);
			console.log(
				`${String(done).padStart(8)} ${f(block / 1000, 11)} ${f(total / 1000, 9)} ${f(now.browser - cpu.browser, 15)} ${f(now.renderer - cpu.renderer, 16)} ${f(now.worker - cpu.worker, 14)}`,
			);
			cpu = now;
			block = 0;
		}
	}
} finally {
	await browser.close();
	await server.stop();
}

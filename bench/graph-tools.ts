/**
 * The two graph tools' latency in the built app in headless Chromium, through the engine worker:
 * `n` generated memories (bench/lib/corpus.ts, seed 42, as `npm run bench` stores them), then
 * find_memory_connections and query_memory_graph called through the page's MCP server. Prints
 * one JSON line `{"size": N, ...GraphToolsResult}`. Needs `npx vite build` first.
 *
 *   npx tsx bench/graph-tools.ts                  # 10,000 memories, 50 calls of each
 *   npx tsx bench/graph-tools.ts --size 1000 --samples 20
 */
import { launchBrowser, startPreview } from '../test/e2e/helpers';
import { Corpus } from './lib/corpus';
import { catchWebMcpTools, graphToolTimes } from './lib/graph-bench';

const BATCH = 500;

function arg(argv: string[], name: string, dflt: number): number {
	const i = argv.indexOf(name);
	return i >= 0 ? Number(argv[i + 1]) : dflt;
}

async function main(): Promise<void> {
	const n = arg(process.argv, '--size', 10_000);
	const samples = arg(process.argv, '--samples', 50);
	const server = await startPreview();
	const browser = await launchBrowser({ offlineCapable: false });
	try {
		await catchWebMcpTools(browser.context);
		const page = await browser.context.newPage();
		await page.goto(server.url);
		await page.waitForFunction(() => (globalThis as { __engram?: unknown }).__engram !== undefined, null, { timeout: 60_000 });
		const gen = new Corpus(42);
		const t0 = Date.now();
		for (let i = 0; i < n; i += BATCH) {
			const batch = Array.from({ length: Math.min(BATCH, n - i) }, (_, j) => gen.memory(i + j));
			await page.evaluate(async (ms) => {
				await (globalThis as unknown as { __engram: { store(x: unknown): Promise<unknown> } }).__engram.store({ memories: ms });
			}, batch);
		}
		process.stderr.write(`stored ${n} memories in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
		const out = await graphToolTimes(page, n, samples);
		console.log(JSON.stringify({ size: n, samples, ...out }));
	} finally {
		await browser.close();
		await server.stop();
	}
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});

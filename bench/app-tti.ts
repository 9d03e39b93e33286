/**
 * Time to interactive of the built app with N memories (default 10 000): import them once, then
 * reload the page several times and measure, from the start of navigation, how long until
 * (a) the first timeline rows are on screen and (b) a search typed into the search box shows
 * its first result. Medians over the reloads. Also reports the import time and how long the graph
 * view takes to draw its largest setting (3 000 nodes) over that store.
 *
 * Run: npx vite build && npx tsx bench/app-tti.ts [N] [reloads] [--keep DIR [--port P] [--dist DIR]] [--no-graph]
 *
 * `--keep DIR` keeps the Chromium profile in DIR and serves the app on a fixed port (default
 * 47914: IndexedDB belongs to the origin), so a store of N memories is imported once and later
 * runs only reload (a 100k import takes minutes); a profile `bench/store-browser.ts --reads`
 * filled serves too (`--port 47913`). `--dist DIR` serves another build (`vite build --outDir`),
 * to compare two builds over one store. `--no-graph` skips the graph view.
 */
import { launchBrowser, startPreview } from '../test/e2e/helpers';
import { keptApp } from './lib/kept-app';
import { percentile, round } from './lib/stats';

const flag = (name: string) => {
	const i = process.argv.indexOf(`--${name}`);
	return i > 0 ? process.argv[i + 1] : undefined;
};
const positional = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !(i > 0 && ['--keep', '--port', '--dist'].includes(all[i - 1])));
const N = Number(positional[0] ?? 10_000);
const RELOADS = Number(positional[1] ?? 5);
const KEEP = flag('keep');
const GRAPH = !process.argv.includes('--no-graph');

const TOPICS = ['billing', 'deploys', 'reviews', 'database', 'reporting', 'support', 'onboarding', 'security', 'pricing', 'search'];

function corpus(n: number): string {
	const base = Date.parse('2025-01-01T00:00:00Z');
	const lines = [JSON.stringify({ kind: 'header', format: 'engram', version: 1 })];
	for (let i = 0; i < n; i++) {
		const topic = TOPICS[i % TOPICS.length];
		lines.push(
			JSON.stringify({
				kind: 'memory',
				id: `m-${i}`,
				content: `Note ${i} on ${topic}: the team discussed ${topic} item ${i % 211} and agreed on follow-up ${i % 17} with owner ${['Alice', 'Bob', 'Chen', 'Dana'][i % 4]}.`,
				tags: [topic],
				timestamp: new Date(base + i * 60_000).toISOString(),
			}),
		);
	}
	return lines.join('\n');
}

const { server, browser } = KEEP
	? await keptApp(KEEP, { port: Number(flag('port') ?? 47914), dist: flag('dist') })
	: { server: await startPreview(), browser: await launchBrowser() };
try {
	const page = await browser.context.newPage();
	await page.goto(server.url + '/');
	await page.waitForFunction(() => (globalThis as { __engram?: unknown }).__engram !== undefined);
	const held = await page.evaluate(
		async () =>
			(await (globalThis as unknown as { __engram: { stats(i: object): Promise<{ total_memories: number }> } }).__engram.stats({})).total_memories,
	);
	let importS: number | null = null;
	if (held === 0) {
		const data = corpus(N);
		const t0 = performance.now();
		const out = await page.evaluate(
			(d) =>
				(globalThis as unknown as { __engram: { importMemories(i: object): Promise<{ imported: number }> } }).__engram.importMemories({
					data: d,
					format: 'jsonl',
				}),
			data,
		);
		importS = (performance.now() - t0) / 1000;
		console.error(`imported ${out.imported} memories in ${importS.toFixed(1)} s`);
	} else if (held !== N) throw new Error(`the kept profile holds ${held} memories, not ${N}: use another --keep directory`);
	else console.error(`the kept profile holds ${held} memories`);

	const rows: number[] = [];
	const search: number[] = [];
	for (let r = 0; r < RELOADS; r++) {
		await page.reload({ waitUntil: 'commit' });
		await page.getByText(`${N.toLocaleString('en-US')} memories`).waitFor({ timeout: 120_000 });
		await page.locator('[role="listitem"] a[data-primary]').first().waitFor();
		rows.push(await page.evaluate(() => performance.now()));
		await page.locator('#search-input').fill('reporting follow-up Dana');
		await page.getByTestId('result').first().waitFor({ timeout: 120_000 });
		search.push(await page.evaluate(() => performance.now()));
		console.error(`reload ${r + 1}: rows ${rows[r].toFixed(0)} ms, search answered ${search[r].toFixed(0)} ms`);
	}
	const graph: number[] = [];
	let drawn = '';
	for (let r = 0; r < (GRAPH ? 3 : 0); r++) {
		await page.goto(`${server.url}/#/graph`);
		await page.getByLabel('Maximum nodes').selectOption('3000');
		const t = performance.now();
		await page.waitForFunction(
			() => {
				const el = document.querySelector<HTMLElement>('[data-testid="graph-canvas"]');
				return el?.dataset.state === 'ready' && Number(el.dataset.nodeCount) > 2000 && el.querySelector('canvas') !== null;
			},
			undefined,
			{ timeout: 300_000 },
		);
		graph.push(performance.now() - t);
		drawn = (await page.locator('.sub').innerText()).replace(/\s+/g, ' ');
		console.error(`graph ${r + 1}: ${graph[r].toFixed(0)} ms (${drawn})`);
	}
	console.log(
		JSON.stringify({
			memories: N,
			import_s: importS === null ? null : round(importS, 1),
			reloads: RELOADS,
			timeline_rows_visible_p50_ms: round(percentile(rows, 50), 0),
			search_answered_p50_ms: round(percentile(search, 50), 0),
			graph_3000_nodes_p50_ms: GRAPH ? round(percentile(graph, 50), 0) : null,
			graph_drawn: drawn,
		}),
	);
} finally {
	await browser.close();
	await server.stop();
}

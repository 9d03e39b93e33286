/**
 * Time to interactive of the built app with N memories (default 10 000): import them once, then
 * reload the page several times and measure, from the start of navigation, how long until
 * (a) the first timeline rows are on screen and (b) a search typed into the search box shows
 * its first result. Medians over the reloads. Also reports the import time and how long the graph
 * view takes to draw its largest setting (3 000 nodes) over that store.
 *
 * Run: npx vite build && npx tsx bench/app-tti.ts [N] [reloads]
 */
import { launchBrowser, startPreview } from '../test/e2e/helpers';
import { percentile, round } from './lib/stats';

const N = Number(process.argv[2] ?? 10_000);
const RELOADS = Number(process.argv[3] ?? 5);
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

const server = await startPreview();
const browser = await launchBrowser();
try {
	const page = await browser.context.newPage();
	await page.goto(server.url + '/');
	await page.waitForFunction(() => (globalThis as { __engram?: unknown }).__engram !== undefined);
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
	const importS = (performance.now() - t0) / 1000;
	console.error(`imported ${out.imported} memories in ${importS.toFixed(1)} s`);

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
	for (let r = 0; r < 3; r++) {
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
			import_s: round(importS, 1),
			reloads: RELOADS,
			timeline_rows_visible_p50_ms: round(percentile(rows, 50), 0),
			search_answered_p50_ms: round(percentile(search, 50), 0),
			graph_3000_nodes_p50_ms: round(percentile(graph, 50), 0),
			graph_drawn: drawn,
		}),
	);
} finally {
	await browser.close();
	await server.stop();
}

/**
 * The graph tools in the built app, as a browser agent calls them: find_memory_connections and
 * query_memory_graph through the page's own MCP server (the WebMCP bridge, so validation and
 * rendering are counted), whose engine is the worker. A stand-in `navigator.modelContext`
 * installed before the app loads catches the tools the page registers; every duration is
 * measured inside the page.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { Corpus } from './corpus';
import { percentile, round } from './stats';

/** What a caught WebMCP tool offers the bench. */
type Caught = Record<string, { execute(input: Record<string, unknown>): Promise<{ isError?: boolean; content: unknown }> }>;

/** The query_memory_graph pattern measured: a text start, then memories sharing entities. */
export const GRAPH_QUERY = 'START a = events(text: $q, k: 5) MATCH (a)-[s:SHARES]-(b) RETURN b, s.count ORDER BY s.weight DESC LIMIT 10';

/**
 * A scan-shaped query_memory_graph pattern: every memory of a tag (up to the scan cap), their
 * entities, grouped and counted. $tag takes turns over the corpus's tags.
 */
export const GRAPH_SCAN_QUERY = 'MATCH (m:Memory {tag: $tag})-[:MENTIONS]->(e:Entity) RETURN e.name, count(DISTINCT m) AS n ORDER BY n DESC LIMIT 10';
const SCAN_TAGS = ['work', 'home', 'health', 'travel', 'family', 'project', 'reading', 'music', 'finance', 'garden', 'code', 'meeting'];

/** Makes every page of `context` register its WebMCP tools on `globalThis.__graphBenchTools`. */
export async function catchWebMcpTools(context: BrowserContext): Promise<void> {
	// A string, not a function: tsx's name-keeping helper (__name) does not exist in the page.
	await context.addInitScript({
		content: `(() => {
			const tools = {};
			globalThis.__graphBenchTools = tools;
			Object.defineProperty(navigator, 'modelContext', {
				configurable: true,
				value: { registerTool(t) { tools[t.name] = t; } },
			});
		})();`,
	});
}

/** Per-call in-page milliseconds of `tool` over `args` (two warm-up calls first). */
function toolTimes(page: Page, tool: string, args: Record<string, unknown>[]): Promise<number[]> {
	return page.evaluate(
		async ([name, list]) => {
			const g = globalThis as unknown as { __graphBenchTools: Caught };
			for (let i = 0; i < 100 && !g.__graphBenchTools[name]; i++) await new Promise((r) => setTimeout(r, 100));
			const t = g.__graphBenchTools[name];
			if (!t) throw new Error(`the page registered no ${name}`);
			// No named inner functions: tsx's name-keeping helper (__name) does not exist in the page.
			const out: number[] = [];
			for (let i = 0; i < list.length + 2; i++) {
				const t0 = performance.now();
				const r = await t.execute(list[i < 2 ? i : i - 2]);
				if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content).slice(0, 300)}`);
				if (i >= 2) out.push(performance.now() - t0);
			}
			return out;
		},
		[tool, args] as const,
	);
}

/** The graph tools' figures at one size (keys added to the browser bench's JSON), in ms. */
export interface GraphToolsResult {
	find_connections_p50_ms: number;
	find_connections_p90_ms: number;
	query_graph_p50_ms: number;
	query_graph_p90_ms: number;
	query_graph_scan_p50_ms: number;
	query_graph_scan_p90_ms: number;
}

/**
 * Times both tools `samples` times each over the memories `new Corpus(42)` generated (`n` of
 * them, as browser-bench.ts stores them): sentences and queries are drawn from those memories.
 */
export async function graphToolTimes(page: Page, n: number, samples: number): Promise<GraphToolsResult> {
	const gen = new Corpus(42);
	const seen = Array.from({ length: Math.min(n, 2000) }, (_, i) => gen.memory(i));
	const probe = new Corpus(7);
	const pick = (j: number) => seen[(j * 7919) % seen.length];
	const sentences = Array.from({ length: samples }, (_, j) => ({ sentence: pick(j).content.split('. ')[0] }));
	const queries = Array.from({ length: samples }, (_, j) => ({ query: GRAPH_QUERY, params: { q: probe.queryFor(pick(j)) } }));
	const conn = await toolTimes(page, 'find_memory_connections', sentences);
	const graph = await toolTimes(page, 'query_memory_graph', queries);
	const scans = Array.from({ length: Math.max(4, Math.round(samples / 5)) }, (_, j) => ({
		query: GRAPH_SCAN_QUERY,
		params: { tag: SCAN_TAGS[j % SCAN_TAGS.length] },
	}));
	const scan = await toolTimes(page, 'query_memory_graph', scans);
	return {
		find_connections_p50_ms: round(percentile(conn, 50)),
		find_connections_p90_ms: round(percentile(conn, 90)),
		query_graph_p50_ms: round(percentile(graph, 50)),
		query_graph_p90_ms: round(percentile(graph, 90)),
		query_graph_scan_p50_ms: round(percentile(scan, 50)),
		query_graph_scan_p90_ms: round(percentile(scan, 90)),
	};
}

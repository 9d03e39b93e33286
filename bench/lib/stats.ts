/**
 * Small statistics and formatting helpers shared by the benchmarks.
 */

/** The p-th percentile (0–100) of `xs` by nearest rank; NaN for an empty list. */
export function percentile(xs: number[], p: number): number {
	if (xs.length === 0) return NaN;
	const s = [...xs].sort((a, b) => a - b);
	const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
	return s[i];
}

/** Rounds to `digits` decimals (JSON-friendly numbers). */
export function round(x: number, digits = 2): number {
	const f = 10 ** digits;
	return Math.round(x * f) / f;
}

/** Times an async function in milliseconds. */
export async function timeMs(fn: () => Promise<unknown>): Promise<number> {
	const t = performance.now();
	await fn();
	return performance.now() - t;
}

/** One size's figures, as the JSON format names them. */
export interface SizeResult {
	store_p50_ms: number;
	store_p99_ms: number;
	recall_p50_ms: number;
	recall_p99_ms: number;
	import_s: number;
	/** The graph tools through the page's MCP server and the worker (browser only; bench/lib/graph-bench.ts). */
	find_connections_p50_ms?: number;
	find_connections_p90_ms?: number;
	query_graph_p50_ms?: number;
	query_graph_p90_ms?: number;
	query_graph_scan_p50_ms?: number;
	query_graph_scan_p90_ms?: number;
}

/** One environment's figures (null where a figure could not be measured, with the reason logged). */
export interface EnvResult {
	embed_per_s: number | null;
	cold_start_ms: number | null;
	/**
	 * Browser only, largest size: ms from opening the app (a reload) until a query typed into the
	 * search box shows its first result (bench/lib/first-search.ts), median of three reloads.
	 */
	first_search_answer_ms?: number | null;
	heap_mb: number | null;
	idb_bytes_per_memory: number | null;
	sizes: Record<string, SizeResult | null>;
}

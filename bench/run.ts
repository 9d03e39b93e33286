/**
 * `npm run bench`: Engram's speed benchmark in Node and in headless Chromium at 1k, 10k and 100k
 * realistic memories (`-- --quick`: 1k and 10k), then the agent's path next to server-memory
 * (issue 25, bench/lib/agent-path.ts). Prints a human table, then as its very last line one JSON
 * object `{"node": ENV, "browser": ENV, "agent_path": AGENT}` (format in issue 3; null marks a
 * figure that could not be measured, with the reason on stderr). Each browser size also carries
 * the graph tools' latency (`find_connections_p50_ms`, `query_graph_p50_ms`, … from
 * bench/lib/graph-bench.ts; `npx tsx bench/graph-tools.ts` measures them alone), and the browser's
 * `first_search_answer_ms`: the app reopened over the largest store until a typed search shows a
 * result (bench/lib/first-search.ts).
 *
 *   npm run bench                  # both environments, all sizes, and the agent path
 *   npm run bench -- --quick       # 1k and 10k
 *   npm run bench -- --only node   # or --only browser (no agent path)
 *   npm run bench -- --peers       # the agent path only (needs npm run build)
 *   npm run bench -- --peers --agent-n 2000   # its size (default 10k)
 *   npm run bench -- --sync        # also sync between two devices (bench/sync.ts): key "sync"
 */
import { runBrowser } from './lib/browser-bench';
import { agentPathTable, runAgentPath, type AgentPathResult } from './lib/agent-path';
import { runNode } from './lib/node-bench';
import type { EnvResult } from './lib/stats';
import { runSync, syncTable, type SyncBenchResult } from './sync';

interface Args {
	sizes: number[];
	only?: 'node' | 'browser' | 'peers';
	agentN: number;
	sync?: boolean;
}

function parseArgs(argv: string[]): Args {
	const a: Args = { sizes: [1_000, 10_000, 100_000], agentN: 10_000 };
	for (let i = 0; i < argv.length; i++) {
		if (argv[i] === '--quick') a.sizes = [1_000, 10_000];
		else if (argv[i] === '--only') a.only = argv[++i] as Args['only'];
		else if (argv[i] === '--peers') a.only = 'peers';
		else if (argv[i] === '--sync') a.sync = true;
		else if (argv[i] === '--agent-n') a.agentN = Number(argv[++i]);
		else if (argv[i] === '--sizes') a.sizes = argv[++i].split(',').map(Number);
		else throw new Error(`unknown argument ${argv[i]}`);
	}
	return a;
}

/** Progress goes to stderr so stdout stays the table plus the JSON line. */
const log = (s: string) => process.stderr.write(`${s}\n`);

/** An environment whose run failed: every figure null (the error is logged). */
function failed(sizes: number[]): EnvResult {
	return {
		embed_per_s: null,
		cold_start_ms: null,
		heap_mb: null,
		idb_bytes_per_memory: null,
		sizes: Object.fromEntries(sizes.map((n) => [String(n), null])),
	};
}

async function attempt(name: string, sizes: number[], run: () => Promise<EnvResult>): Promise<EnvResult> {
	try {
		return await run();
	} catch (e) {
		log(`${name}: failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
		return failed(sizes);
	}
}

const fmt = (x: number | null | undefined) => (x === null || x === undefined ? '—' : String(x));

/** The human table: one row per environment and size. */
function humanTable(results: Record<string, EnvResult>): string {
	const head = ['env', 'size', 'store p50', 'store p99', 'recall p50', 'recall p99', 'import s'];
	const rows: string[][] = [];
	for (const [env, r] of Object.entries(results))
		for (const [size, s] of Object.entries(r.sizes))
			rows.push([env, size, fmt(s?.store_p50_ms), fmt(s?.store_p99_ms), fmt(s?.recall_p50_ms), fmt(s?.recall_p99_ms), fmt(s?.import_s)]);
	const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
	const line = (r: string[]) => r.map((c, i) => c.padStart(w[i])).join('  ');
	const extra = Object.entries(results).map(
		([env, r]) =>
			`${env}: embed ${fmt(r.embed_per_s)}/s, cold start ${fmt(r.cold_start_ms)} ms, first search answer ${fmt(r.first_search_answer_ms)} ms, heap ${fmt(r.heap_mb)} MB, IndexedDB ${fmt(r.idb_bytes_per_memory)} B/memory (largest size)`,
	);
	return [line(head), w.map((n) => '-'.repeat(n)).join('  '), ...rows.map(line), '', ...extra].join('\n');
}

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	const results: Record<string, EnvResult> = {};
	const skip = (env: 'node' | 'browser') => args.only !== undefined && args.only !== env;
	results.node = skip('node') ? failed(args.sizes) : await attempt('node', args.sizes, () => runNode(args.sizes, log));
	results.browser = skip('browser') ? failed(args.sizes) : await attempt('browser', args.sizes, () => runBrowser(args.sizes, log));
	let agentPath: AgentPathResult | null = null;
	if (args.only === undefined || args.only === 'peers')
		agentPath = await runAgentPath(args.agentN, log).catch((e: unknown) => {
			log(`agent path: failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
			return null;
		});
	let sync: SyncBenchResult | null | undefined;
	if (args.sync)
		sync = await runSync(10_000, 1_000, log).catch((e: unknown) => {
			log(`sync: failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
			return null;
		});
	console.log(humanTable(results));
	if (agentPath) console.log(`\n${agentPathTable(agentPath)}`);
	if (sync) console.log(`\n${syncTable(sync)}`);
	console.log(JSON.stringify({ node: results.node, browser: results.browser, agent_path: agentPath, ...(sync !== undefined ? { sync } : {}) }));
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});

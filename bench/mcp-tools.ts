/**
 * MCP tool latency: per tool, the median time of a call through a real SDK Client over
 * InMemoryTransport (validation, the tool's own work and bounding, rendering, protocol) next to
 * the same engine operation called directly; the difference is what the MCP layer costs. Also
 * the tool count of every profile. Node, fake-indexeddb, the embedded model, realistic corpus.
 *
 *   npx tsx bench/mcp-tools.ts              # 1,000 memories
 *   npx tsx bench/mcp-tools.ts --size 10000
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { createEmbedder } from '../src/engine/embedder';
import { createEngine, type Engine } from '../src/engine/engine';
import { nodeModelPath } from '../src/engine/node-model-path';
import { createMemoryServer, PROFILE_NAMES, PROFILES, type ProfileName } from '../src/mcp/server';
import { Corpus } from './lib/corpus';
import { table } from './lib/metrics';
import { percentile, round } from './lib/stats';

const SAMPLES = 100;

function sizeArg(argv: string[]): number {
	const i = argv.indexOf('--size');
	return i >= 0 ? Number(argv[i + 1]) : 1_000;
}

async function connect(engine: Engine, profile: ProfileName): Promise<(name: string, args: Record<string, unknown>) => Promise<CallToolResult>> {
	const server = createMemoryServer(engine, profile, { actor: 'bench' });
	const client = new Client({ name: 'bench', version: '1.0.0' });
	const [a, b] = InMemoryTransport.createLinkedPair();
	await Promise.all([server.connect(b), client.connect(a)]);
	return async (name, args) => {
		const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
		if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content).slice(0, 300)}`);
		return r;
	};
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
	const t = performance.now();
	await fn();
	return performance.now() - t;
}

/**
 * Paired runs: call i goes through MCP, then straight to the engine, so load from anything else
 * on the machine hits both sides alike; the overhead is the median of the per-pair differences.
 * Two warm-up pairs first. Returns [MCP p50, MCP p90, direct p50, overhead p50] in ms.
 */
async function measure(n: number, viaMcp: (i: number) => Promise<unknown>, direct: ((i: number) => Promise<unknown>) | null): Promise<number[]> {
	for (const i of [0, 1]) await Promise.all([viaMcp(i), direct?.(i)]);
	const mcp: number[] = [];
	const raw: number[] = [];
	const diff: number[] = [];
	for (let i = 2; i < n + 2; i++) {
		const m = await timed(() => viaMcp(i));
		mcp.push(m);
		if (!direct) continue;
		const d = await timed(() => direct(i));
		raw.push(d);
		diff.push(m - d);
	}
	const p = (xs: number[], q: number) => (xs.length ? round(percentile(xs, q)) : NaN);
	return [p(mcp, 50), p(mcp, 90), p(raw, 50), p(diff, 50)];
}

async function main(): Promise<void> {
	const n = sizeArg(process.argv.slice(2));
	const corpus = new Corpus(7);
	const embedder = await createEmbedder({ localModelPath: nodeModelPath() });
	const engine = await createEngine({
		dbName: `bench-mcp-${process.pid}`,
		indexedDB: new IDBFactory(),
		IDBKeyRange,
		embedder,
		snapshotDelayMs: 3_600_000,
	});
	for (let i = 0; i < n; i += 500)
		await engine.store({
			memories: Array.from({ length: Math.min(500, n - i) }, (_, j) => ({
				...corpus.memory(i + j),
				force: true,
			})),
		});
	const ids = (await engine.timeline({ limit: 200, max_content_chars: 0 })).memories.map((m) => m.id);
	const query = (i: number) => corpus.queryFor(corpus.memory((i * 7919) % n));
	const sentence = (i: number) => corpus.memory((i * 104_729) % n).content.split('. ')[0];
	const topEntity = (await engine.stats({})).top_entities[0]?.name ?? 'x';
	const native = await connect(engine, 'native');
	const codo = await connect(engine, 'codomyrmex');
	const mm = await connect(engine, 'memory-mcp');
	const graphQ = 'START a = events(text: $q, k: 5) MATCH (a)-[s:SHARES]-(b) RETURN b, s.count ORDER BY s.weight DESC LIMIT 10';

	const cases: [string, (i: number) => Promise<unknown>, ((i: number) => Promise<unknown>) | null][] = [
		['recall_memory', (i) => native('recall_memory', { query: query(i), limit: 10 }), (i) => engine.recall({ query: query(i), limit: 10 })],
		['get_memory', (i) => native('get_memory', { memory_id: ids[i % ids.length] }), (i) => engine.get({ memory_id: ids[i % ids.length] })],
		[
			'store_memory',
			(i) => native('store_memory', { ...corpus.memory(n + 2 * i), force: true }),
			(i) => engine.store({ ...corpus.memory(n + 2 * i + 1), force: true }),
		],
		[
			'find_memory_connections',
			(i) => native('find_memory_connections', { sentence: sentence(i) }),
			(i) => engine.findConnections({ sentence: sentence(i) }),
		],
		[
			'query_memory_graph',
			(i) => native('query_memory_graph', { query: graphQ, params: { q: query(i) } }),
			(i) => engine.queryGraph({ query: graphQ, params: { q: query(i) } }),
		],
		['list_memory_timeline', () => native('list_memory_timeline', { limit: 20 }), () => engine.timeline({ limit: 20 })],
		['find_memories_by_entity', () => native('find_memories_by_entity', { entity: topEntity }), () => engine.findByEntity({ entity: topEntity })],
		['memory_stats', () => native('memory_stats', {}), () => engine.stats({})],
		['codomyrmex memory_search', (i) => codo('memory_search', { query: query(i), k: 5 }), null],
		['memory-mcp retrieve_memories', (i) => mm('retrieve_memories', { query: query(i) }), null],
	];
	const rows: (string | number)[][] = [];
	for (const [name, viaMcp, direct] of cases) {
		const [p50, p90, d50, over] = await measure(SAMPLES, viaMcp, direct);
		rows.push([name, p50, p90, direct ? d50 : '—', direct ? over : '—']);
	}
	console.log(`MCP tool latency at ${n} memories (ms, ${SAMPLES} calls each, Node ${process.version})`);
	console.log(table(['tool', 'MCP p50', 'MCP p90', 'direct p50', 'overhead p50 (paired)'], rows));
	console.log(`\nTools per profile: ${PROFILE_NAMES.map((p) => `${p} ${PROFILES[p].tools.length}`).join(', ')}`);
	await engine.close();
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});

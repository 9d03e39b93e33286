/**
 * Relay overhead per call: the same cheap calls through the SDK's InMemoryTransport (no relay)
 * and through engram-relay (real bin over stdio, and Streamable HTTP) to a tab, reported as
 * medians. The tab is the page host running in Node over a fake-indexeddb engine, so the figures
 * isolate the relay path (stdio/HTTP → relay → WebSocket → host → McpServer and back); the
 * browser's worker hop is the same with or without the relay.
 *
 * Run: npx tsx bench/relay.ts [calls=400]
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMemoryServer } from '../src/mcp/server';
import { freePort } from '../test/e2e/helpers';
import { makeEngine } from '../test/unit/engine/helpers';
import { newToken, relayHome, spawnRelayClient, startNodeTab } from '../test/unit/relay/helpers';

const N = Number(process.argv[2] ?? 400);
const WARMUP = 50;

type Call = (c: Client) => Promise<unknown>;
const CALLS: Record<string, Call> = {
	ping: (c) => c.ping(),
	'tools/call get_memory': (c) => c.callTool({ name: 'get_memory', arguments: { memory_id: 1, track_access: false } }),
};

function percentile(sorted: number[], p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function measure(client: Client, call: Call): Promise<{ p50: number; p90: number; p99: number }> {
	for (let i = 0; i < WARMUP; i++) await call(client);
	const times: number[] = [];
	for (let i = 0; i < N; i++) {
		const t0 = performance.now();
		await call(client);
		times.push(performance.now() - t0);
	}
	times.sort((a, b) => a - b);
	return { p50: percentile(times, 50), p90: percentile(times, 90), p99: percentile(times, 99) };
}

const fmt = (ms: number) => `${ms.toFixed(3)} ms`;

async function main(): Promise<void> {
	const engine = await makeEngine();
	await engine.store({ content: 'A cheap memory to read back in the benchmark.' });

	const inMemory = new Client({ name: 'bench-inmemory', version: '1' });
	const [a, b] = InMemoryTransport.createLinkedPair();
	await Promise.all([createMemoryServer(engine, 'native').connect(b), inMemory.connect(a)]);

	const home = relayHome();
	const port = await freePort();
	const token = newToken();
	const stdio = await spawnRelayClient(['--port', String(port), '--token', token], { ENGRAM_RELAY_HOME: home.dir }, 'bench-stdio');
	const tab = await startNodeTab(engine, port, token);
	const http = new Client({ name: 'bench-http', version: '1' });
	await http.connect(
		new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
			requestInit: { headers: { Authorization: `Bearer ${token}` } },
		}),
	);

	console.log(`relay overhead, ${N} sequential calls each after ${WARMUP} warm-up (node ${process.version})`);
	for (const [name, call] of Object.entries(CALLS)) {
		const base = await measure(inMemory, call);
		const viaStdio = await measure(stdio.client, call);
		const viaHttp = await measure(http, call);
		console.log(`\n${name}`);
		console.log(`  InMemoryTransport      p50 ${fmt(base.p50)}  p90 ${fmt(base.p90)}  p99 ${fmt(base.p99)}`);
		console.log(
			`  relay (stdio)          p50 ${fmt(viaStdio.p50)}  p90 ${fmt(viaStdio.p90)}  p99 ${fmt(viaStdio.p99)}   overhead p50 ${fmt(viaStdio.p50 - base.p50)}`,
		);
		console.log(
			`  relay (Streamable HTTP) p50 ${fmt(viaHttp.p50)}  p90 ${fmt(viaHttp.p90)}  p99 ${fmt(viaHttp.p99)}   overhead p50 ${fmt(viaHttp.p50 - base.p50)}`,
		);
	}

	await http.close();
	await stdio.close();
	await tab.stop();
	await inMemory.close();
	await engine.close();
	home.remove();
}

main().catch((e: Error) => {
	console.error(e);
	process.exit(1);
});

/**
 * Fairness between relay clients: one greedy client (bursts of 64 heavy exports, the most one
 * client may have waiting, over stdio) and one light client (a recall_memory over Streamable HTTP
 * 300 ms into each burst), through the real engram-relay and the built app in Chromium with 1,000
 * memories. Reports the light call's latency alone and during the bursts, and each burst's length.
 *
 * Run: npx vite build && npx tsx bench/relay-fairness.ts   (ROUNDS=3, SEED=1000)
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { pairedApp } from './lib/paired-app';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SEED = Number(process.env.SEED ?? 1000);
const TIMEOUT = { timeout: 600_000 };
const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;

const app = await pairedApp({ clientName: 'greedy', what: 'bench/relay-fairness.ts' });
try {
	const lines: string[] = [];
	for (let i = 0; i < SEED; i++)
		lines.push(
			JSON.stringify({
				content: `Person ${i % 97} mentioned fact number ${i}: they like ${['tea', 'coffee', 'hiking', 'chess', 'jazz'][i % 5]} and worked on project ${i} for a while, with notes about the outcome and the people involved.`,
				tags: [`t${i % 13}`],
			}),
		);
	const t0 = performance.now();
	const imp = await app.desk.client.callTool({ name: 'import_memories', arguments: { data: lines.join('\n'), format: 'jsonl' } }, undefined, TIMEOUT);
	console.log('seeded in', Math.round(performance.now() - t0), 'ms', JSON.stringify(imp.structuredContent).slice(0, 200));
	const exportArgs = { name: 'export_memories', arguments: { format: 'json', include_vectors: true } };
	const t1 = performance.now();
	await app.desk.client.callTool(exportArgs, undefined, TIMEOUT);
	console.log('one export alone:', Math.round(performance.now() - t1), 'ms');

	const light = new Client({ name: 'light', version: '1' });
	await light.connect(
		new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${app.port}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${app.token}` } } }),
	);
	const probe = async () => {
		const s = performance.now();
		await light.callTool({ name: 'recall_memory', arguments: { query: 'who likes chess', limit: 5 } }, undefined, TIMEOUT);
		return performance.now() - s;
	};
	const alone: number[] = [];
	for (let i = 0; i < 5; i++) alone.push(await probe());

	const busy: number[] = [];
	const bursts: number[] = [];
	for (let r = 0; r < ROUNDS; r++) {
		const tb = performance.now();
		// A burst of 64 heavy exports at once (the most one client may have waiting), then one light call.
		const burst = Promise.all(Array.from({ length: 64 }, () => app.desk.client.callTool(exportArgs, undefined, TIMEOUT)));
		await new Promise((r) => setTimeout(r, 300));
		busy.push(await probe());
		await burst;
		bursts.push(performance.now() - tb);
	}
	console.log(
		JSON.stringify({
			alone_ms: alone.map(Math.round),
			busy_ms: busy.map(Math.round),
			median_alone: Math.round(median(alone)),
			median_busy: Math.round(median(busy)),
			burst_ms: bursts.map(Math.round),
			median_burst: Math.round(median(bursts)),
		}),
	);
	await light.close();
} finally {
	await app.close();
}

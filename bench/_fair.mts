// Scratch: a greedy client (64 heavy exports kept in flight over stdio) vs one light client (HTTP),
// through the real relay and the built app in Chromium. Prints the light client's latencies.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { pairedApp } from './lib/paired-app';

const LIGHT_CALLS = Number(process.env.LIGHT_CALLS ?? 9);
const app = await pairedApp({ clientName: 'greedy', what: 'fair' });
try {
	const lines: string[] = [];
	for (let i = 0; i < Number(process.env.SEED ?? 1000); i++)
		lines.push(JSON.stringify({ content: `Person ${i % 97} mentioned fact number ${i}: they like ${['tea', 'coffee', 'hiking', 'chess', 'jazz'][i % 5]} and worked on project ${i} for a while, with notes about the outcome and the people involved.`, tags: [`t${i % 13}`] }));
	const t0 = performance.now();
	const imp = await app.desk.client.callTool({ name: 'import_memories', arguments: { data: lines.join('\n'), format: 'jsonl' } }, undefined, { timeout: 600_000 });
	console.log('seeded in', Math.round(performance.now() - t0), 'ms', JSON.stringify(imp.structuredContent).slice(0, 200));
	const exportArgs = { name: 'export_memories', arguments: { format: 'json', include_vectors: true } };
	const t1 = performance.now();
	await app.desk.client.callTool(exportArgs, undefined, { timeout: 600_000 });
	console.log('one export alone:', Math.round(performance.now() - t1), 'ms');

	const light = new Client({ name: 'light', version: '1' });
	await light.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${app.port}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${app.token}` } } }));
	const probe = async () => {
		const s = performance.now();
		await light.callTool({ name: 'memory_stats', arguments: {} }, undefined, { timeout: 600_000 });
		return performance.now() - s;
	};
	const alone: number[] = [];
	for (let i = 0; i < 5; i++) alone.push(await probe());

	let stop = false;
	let exports = 0;
	const greedy = async () => {
		while (!stop) {
			await app.desk.client.callTool(exportArgs, undefined, { timeout: 600_000 }).catch(() => {});
			exports++;
		}
	};
	const workers = Array.from({ length: 64 }, greedy);
	await new Promise((r) => setTimeout(r, 1000));
	const busy: number[] = [];
	const tb = performance.now();
	for (let i = 0; i < LIGHT_CALLS; i++) {
		busy.push(await probe());
		await new Promise((r) => setTimeout(r, 200));
	}
	const window = (performance.now() - tb) / 1000;
	stop = true;
	const before = exports;
	await Promise.all(workers);
	const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
	console.log(JSON.stringify({ alone_ms: alone.map(Math.round), busy_ms: busy.map(Math.round), median_alone: Math.round(med(alone)), median_busy: Math.round(med(busy)), greedy_exports_during: before, window_s: +window.toFixed(1), exports_per_s: +(before / window).toFixed(2) }));
	await light.close();
} finally {
	await app.close();
}

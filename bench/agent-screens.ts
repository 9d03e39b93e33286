/**
 * What the open app's screens cost an agent (issue 25: "no call waits behind a UI repaint"):
 * `npm run build && npx tsx bench/agent-screens.ts [--n 10000] [--rounds 2] [--routes '#/,#/connections,#/graph']`.
 * One MCP SDK client talks to the built app through the real relay (bench/lib/paired-app.ts),
 * fills N memories in batches of 500, then, with each screen open in turn (rounds of the whole
 * list, 2.5 s after opening it), makes 100 single stores and 100 searches, alternating, and
 * prints their p50 / p90 and the CPU seconds Chromium's renderer (the page, the engine worker,
 * their helper threads), the page's main thread alone, the engine worker alone and the browser
 * process spent meanwhile.
 */
import { cpuSeconds } from './lib/chromium-cpu';
import { Corpus } from './lib/corpus';
import { pairedApp } from './lib/paired-app';
import { percentile } from './lib/stats';

const arg = (name: string) => {
	const i = process.argv.indexOf(`--${name}`);
	return i > 0 ? process.argv[i + 1] : undefined;
};
const N = Number(arg('n') ?? 10_000);
const ROUNDS = Number(arg('rounds') ?? 2);
const ROUTES = (arg('routes') ?? '#/,#/connections,#/graph,#/settings,#/import').split(',');
const CALLS = 100;

const app = await pairedApp({ clientName: 'agent-screens', what: 'agent-screens' });
const client = app.desk.client;
try {
	const corpus = new Corpus(25);
	const probe = new Corpus(7);
	const asked = new Corpus(42);
	let next = 0;
	for (let i = 0; i < N; i += 500)
		await client.callTool({
			name: 'store_memory',
			arguments: { memories: Array.from({ length: Math.min(500, N - i) }, () => ({ content: corpus.memory(next++).content })) },
		});
	for (let r = 0; r < ROUNDS; r++)
		for (const route of ROUTES) {
			await app.page.evaluate((hash) => void (location.hash = hash), route);
			await new Promise((done) => setTimeout(done, 2500));
			const store: number[] = [];
			const recall: number[] = [];
			const cpu0 = cpuSeconds();
			for (let i = 0; i < CALLS; i++) {
				let t = performance.now();
				await client.callTool({ name: 'store_memory', arguments: { content: corpus.memory(next++).content } });
				store.push(performance.now() - t);
				t = performance.now();
				await client.callTool({ name: 'recall_memory', arguments: { query: probe.queryFor(asked.memory((i * 7919) % 2000)), limit: 10 } });
				recall.push(performance.now() - t);
			}
			const cpu1 = cpuSeconds();
			const ms = (xs: number[], p: number) => percentile(xs, p).toFixed(2);
			console.log(
				`${route.padEnd(14)} store p50 ${ms(store, 50)} p90 ${ms(store, 90)} ms | search p50 ${ms(recall, 50)} p90 ${ms(recall, 90)} ms | CPU s: renderer ${(cpu1.renderer - cpu0.renderer).toFixed(2)} (page ${(cpu1.page - cpu0.page).toFixed(2)}), engine worker ${(cpu1.worker - cpu0.worker).toFixed(2)}, browser ${(cpu1.browser - cpu0.browser).toFixed(2)}`,
			);
		}
} finally {
	await app.close();
}

/**
 * The agent's write path alone, through the real relay (lib/paired-app.ts): fills N memories in
 * batches of 500 over MCP (timed), then S single `store_memory` calls (p50, p99), as
 * `npm run bench -- --peers` measures them but without the peer, the searches and the traces,
 * so two builds can be compared in turns quickly.
 *
 * Run: npx vite build && npx tsx bench/store-relay.ts [--n 10000] [--singles 300] [--profile-out DIR]
 *
 * `--profile-out DIR` takes CPU profiles of the page's workers over the last 4 batches
 * (DIR/fill-*.cpuprofile) and the single stores (DIR/single-*.cpuprofile) and prints each one's summary on stderr. A build without minifying
 * (`npx vite build --minify false`) names every function in them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Corpus } from './lib/corpus';
import { pairedApp } from './lib/paired-app';
import { percentile, round } from './lib/stats';
import { profileWorkers, summary } from './lib/worker-profile';

const arg = (name: string) => {
	const i = process.argv.indexOf(`--${name}`);
	return i > 0 ? process.argv[i + 1] : undefined;
};
const N = Number(arg('n') ?? 10_000);
const SINGLES = Number(arg('singles') ?? 300);
const BATCH = 500;
const PROFILED_BATCHES = 4;

const app = await pairedApp({ clientName: 'engram-store-bench', what: 'store-relay' });
try {
	const call = async (args: Record<string, unknown>) => {
		const r = (await app.desk.client.callTool({ name: 'store_memory', arguments: args })) as CallToolResult;
		if (r.isError) throw new Error(`store_memory: ${JSON.stringify(r.content).slice(0, 300)}`);
	};
	const corpus = new Corpus(25);
	const texts = Array.from({ length: N + SINGLES + 10 }, (_, i) => corpus.memory(i).content);
	const dir = arg('profile-out');
	const save = async (what: string, profile: Awaited<ReturnType<typeof profileWorkers>>) => {
		mkdirSync(dir!, { recursive: true });
		for (const { url, profile: p } of await profile.stop()) {
			const name = `${what}-${(url.split('/').pop() ?? 'worker').replace(/[-.][^.]*\.js$/, '').replace(/\W+/g, '_')}`;
			writeFileSync(join(dir!, `${name}.cpuprofile`), JSON.stringify(p));
			console.error(`\n== ${name} (${url})\n${summary(p, 40)}`);
		}
	};
	const batches: number[] = [];
	let fillProfile: Awaited<ReturnType<typeof profileWorkers>> | undefined;
	for (let from = 0; from < N; from += BATCH) {
		// The last PROFILED_BATCHES batches are profiled when asked.
		if (dir && !fillProfile && from >= N - PROFILED_BATCHES * BATCH) fillProfile = await profileWorkers(app.page);
		const t = performance.now();
		await call({ memories: texts.slice(from, Math.min(N, from + BATCH)).map((content) => ({ content })) });
		batches.push(performance.now() - t);
	}
	if (fillProfile) await save('fill', fillProfile);
	for (let i = 0; i < 10; i++) await call({ content: texts[N + SINGLES + i] });
	const profile = dir ? await profileWorkers(app.page) : undefined;
	const singles: number[] = [];
	for (let i = 0; i < SINGLES; i++) {
		const t = performance.now();
		await call({ content: texts[N + i] });
		singles.push(performance.now() - t);
	}
	if (profile) await save('single', profile);
	const fill = batches.reduce((a, b) => a + b, 0);
	console.log(
		JSON.stringify({
			n: N,
			fill_s: round(fill / 1000, 2),
			batch_p50_ms: round(percentile(batches, 50)),
			last_batches_p50_ms: round(percentile(batches.slice(-4), 50)),
			store_p50_ms: round(percentile(singles, 50)),
			store_p99_ms: round(percentile(singles, 99)),
		}),
	);
} finally {
	await app.close();
}

/**
 * The agent's write path alone, through the real relay (lib/paired-app.ts): fills N memories in
 * batches of 500 over MCP (timed), then S single `store_memory` calls (p50, p99), as
 * `npm run bench -- --peers` measures them but without the peer, the searches and the traces,
 * so two builds can be compared in turns quickly.
 *
 * Run: npx vite build && npx tsx bench/store-relay.ts [--n 10000] [--singles 300] [--profile-out DIR]
 *
 * Besides latency it reports the CPU time every process it started spent per batch and per
 * single store (`cpu_ms_per_*`, by process kind: renderer is the page and its workers, browser
 * the process IndexedDB runs in, node the relay): on a shared machine that compares builds where
 * latency cannot.
 *
 * `--profile-out DIR` takes CPU profiles of the page's workers over the last 4 batches
 * (DIR/fill-*.cpuprofile) and the single stores (DIR/single-*.cpuprofile) and prints each one's summary on stderr. A build without minifying
 * (`npx vite build --minify false`) names every function in them.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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

/**
 * CPU time (ms) used so far by every process this bench started (Chromium's and the relay), by
 * kind: Chromium's `--type` (renderer: the page and its workers; none: the browser process,
 * where IndexedDB runs), or the program's name. Unlike latency, it hardly moves with the load
 * other work puts on the machine, so two builds compare on a shared machine. Linux only ({} elsewhere).
 */
function cpuByKind(): Record<string, number> {
	const out: Record<string, number> = {};
	let procs: { pid: number; ppid: number; ms: number; kind: string }[];
	try {
		const tick = 1000 / 100; // USER_HZ
		procs = readdirSync('/proc')
			.filter((d) => /^\d+$/.test(d))
			.flatMap((d) => {
				try {
					const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
					const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
					// Chromium rewrites its children's command lines as one space-separated string.
					const cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8').split(/[\0 ]/);
					const type = cmd.find((a) => a.startsWith('--type='))?.slice(7);
					const script = cmd
						.find((a) => /\.m?js$/.test(a))
						?.split('/')
						.pop();
					const kind = type ?? (/chrom/.test(cmd[0]) ? 'browser' : (script ?? cmd[0].split('/').pop()!));
					return [{ pid: Number(d), ppid: Number(f[1]), ms: (Number(f[11]) + Number(f[12])) * tick, kind }];
				} catch {
					return [];
				}
			});
	} catch {
		return out;
	}
	const mine = new Set([process.pid]);
	for (let grew = true; grew;) {
		grew = false;
		for (const p of procs)
			if (!mine.has(p.pid) && mine.has(p.ppid)) {
				mine.add(p.pid);
				grew = true;
			}
	}
	for (const p of procs) if (p.pid !== process.pid && mine.has(p.pid)) out[p.kind] = (out[p.kind] ?? 0) + p.ms;
	return out;
}

/** CPU ms per call by kind between two cpuByKind() readings. */
function cpuPer(before: Record<string, number>, after: Record<string, number>, calls: number): Record<string, number> {
	const out: Record<string, number> = {};
	let all = 0;
	for (const k of Object.keys(after)) {
		const d = after[k] - (before[k] ?? 0);
		all += d;
		if (d > 0) out[k] = round(d / calls, 2);
	}
	out.all = round(all / calls, 2);
	return out;
}

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
	// The first batch also loads the embedding model: the CPU figures start after it.
	let cpu0: Record<string, number> = {};
	let fillProfile: Awaited<ReturnType<typeof profileWorkers>> | undefined;
	for (let from = 0; from < N; from += BATCH) {
		// The last PROFILED_BATCHES batches are profiled when asked.
		if (dir && !fillProfile && from >= N - PROFILED_BATCHES * BATCH) fillProfile = await profileWorkers(app.page);
		const t = performance.now();
		await call({ memories: texts.slice(from, Math.min(N, from + BATCH)).map((content) => ({ content })) });
		batches.push(performance.now() - t);
		if (from === 0) cpu0 = cpuByKind();
	}
	const cpu1 = cpuByKind();
	if (fillProfile) await save('fill', fillProfile);
	for (let i = 0; i < 10; i++) await call({ content: texts[N + SINGLES + i] });
	const profile = dir ? await profileWorkers(app.page) : undefined;
	const singles: number[] = [];
	const cpu2 = cpuByKind();
	for (let i = 0; i < SINGLES; i++) {
		const t = performance.now();
		await call({ content: texts[N + i] });
		singles.push(performance.now() - t);
	}
	const cpu3 = cpuByKind();
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
			cpu_ms_per_batch: cpuPer(cpu0, cpu1, batches.length - 1),
			cpu_ms_per_store: cpuPer(cpu2, cpu3, SINGLES),
		}),
	);
} finally {
	await app.close();
}

/**
 * The engine write path in Chromium with real IndexedDB: the built app (`npx vite build`) served
 * by `vite preview`, the engine worker reached through the page's comlink client
 * (`globalThis.__engram`), so each timing includes the worker round trip. Stores N memories one
 * by one (default 1000), then times get, recall, a 500-memory batch and delete at that size.
 *
 * Run: npx vite build && npx tsx bench/store-browser.ts [--n 1000] [--route '#/settings'] [--bare]
 *
 * `--reads --keep DIR [--port P] [--rounds R]`: the read path over a store kept between runs (a
 * 100k fill takes a minute or more, so it is done once). The Chromium profile lives in DIR and the
 * app is served on a fixed port (default 47913: IndexedDB belongs to the origin); the store is
 * filled with the npm run bench corpus (batches of 500) up to N when it holds fewer. Then, R
 * times (default 5): close the engine, reload the page, time from navigation start to the first
 * recall answered (npm run bench's cold start), then, 3 s later (the restore's settling done),
 * 100 recalls (limit 10, its queries), then once more closed and reopened to time the first search
 * typed into the app's search box until its first result shows (bench/lib/first-search.ts). Writes
 * nothing else, so the store stays the same from one run to the next. Prints medians over rounds.
 *
 *   npx tsx bench/store-browser.ts --reads --keep /tmp/engram-100k --n 100000
 *
 * `--dist DIR` serves another build of the app (`npx vite build --outDir DIR`) over the same store:
 * two builds measured in turns over one profile compare code, not stores.
 *
 * `--profile-out DIR` also takes CPU profiles of the workers in the last round (lib/worker-profile.ts):
 * DIR/cold-*.cpuprofile from the reload to the first recall answered, DIR/recall-*.cpuprofile over
 * the 100 recalls, each summarised on stderr.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, startPreview } from '../test/e2e/helpers';
import { firstSearchAnswer } from './lib/first-search';
import { keptApp } from './lib/kept-app';
import { bareEngine } from './lib/bare-engine';
import { profileWorkers, summary, type WorkerProfile } from './lib/worker-profile';
import { Corpus, type GeneratedMemory } from './lib/corpus';
import { browserCpu, cpuDelta } from './lib/proc-cpu';
import { percentile, round } from './lib/stats';

const arg = (name: string) => {
	const i = process.argv.indexOf(`--${name}`);
	return i > 0 ? process.argv[i + 1] : undefined;
};
const N = Number(arg('n') ?? 1000);
/** The app route open during the run: the UI refetches what it shows after every change. */
const ROUTE = arg('route') ?? '#/';
/** --bare: no app, only the engine worker, called over comlink's wire format (the engine alone). */
const BARE = process.argv.includes('--bare');

type Timings = Record<string, number[]>;

/** Runs the workload inside the page and returns raw timings in ms. */
function workload(page: Page, memories: GeneratedMemory[], batch: GeneratedMemory[], queries: string[]): Promise<Timings> {
	return page.evaluate(
		async ({ memories, batch, queries }) => {
			type Api = Record<string, (i: unknown) => Promise<{ memory_id?: string }>>;
			const engram = (globalThis as unknown as { __engram: Api }).__engram;
			const t: Record<string, number[]> = { store: [], get: [], recall: [], batch: [], delete: [] };
			const time = async (k: string, f: () => Promise<unknown>) => {
				const s = performance.now();
				const r = await f();
				t[k].push(performance.now() - s);
				return r;
			};
			const ids: string[] = [];
			for (const m of memories) ids.push(((await time('store', () => engram.store(m))) as { memory_id: string }).memory_id);
			for (let k = 0; k < 100; k++) await time('get', () => engram.get({ memory_id: ids[(k * 37) % ids.length] }));
			for (const q of queries) await time('recall', () => engram.recall({ query: q, limit: 10 }));
			await time('batch', () => engram.store({ memories: batch }));
			for (let k = 0; k < 50; k++) await time('delete', () => engram.delete({ memory_id: ids[k] }));
			return t;
		},
		{ memories, batch, queries },
	);
}

/** The engine's page handle, as far as the read workload uses it. */
type ReadApi = {
	__engram: {
		store(i: unknown): Promise<unknown>;
		recall(i: unknown): Promise<unknown>;
		stats(i: unknown): Promise<{ total_memories: number }>;
		close(): Promise<void>;
	};
};

/** Writes each worker's profile to DIR/<what>-<worker>.cpuprofile and prints its summary. */
async function saveProfiles(dir: string, what: string, profiles: WorkerProfile[]): Promise<void> {
	mkdirSync(dir, { recursive: true });
	for (const { url, profile } of profiles) {
		const name = `${what}-${(url.split('/').pop() ?? 'worker').replace(/[-.][^.]*\.js$/, '').replace(/\W+/g, '_')}`;
		writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
		console.error(`\n== ${name} (${url})\n${summary(profile)}`);
	}
}

/** The threads a start-up's CPU is told by (Linux names, cut to 15 characters): every process's total, the workers (the engine's and its helper), V8's and Chromium's pool (compiling, GC, IndexedDB), the processes' main threads. */
const CPU_THREADS = ['total', 'DedicatedWorker', 'ThreadPoolForeg', 'chromium'];

function cpuLine(d: Record<string, number>): string {
	return CPU_THREADS.map((k) => `${k} ${round(d[k] ?? 0, 0)}`).join(', ');
}

/** The median of each key over `ds`. */
function medians(ds: Record<string, number>[]): Record<string, number> {
	return Object.fromEntries(
		CPU_THREADS.map((k) => [
			k,
			percentile(
				ds.map((d) => d[k] ?? 0),
				50,
			),
		]),
	);
}

/** `--reads`: see the module comment. */
async function reads(dir: string): Promise<void> {
	const port = Number(arg('port') ?? 47913);
	const rounds = Number(arg('rounds') ?? 5);
	const { server, browser } = await keptApp(dir, { port, dist: arg('dist'), serviceWorkers: 'block' });
	const { url } = server;
	const { context } = browser;
	try {
		const page = await context.newPage();
		await page.addInitScript('globalThis.__name = (f) => f');
		await page.goto(`${url}/${ROUTE}`);
		await page.waitForFunction(() => '__engram' in globalThis, undefined, { timeout: 60_000 });
		const count = () => page.evaluate(async () => (await (globalThis as unknown as ReadApi).__engram.stats({})).total_memories);
		const gen = new Corpus(42);
		const t0 = performance.now();
		for (let i = await count(); i < N; i += 500) {
			const ms = Array.from({ length: Math.min(500, N - i) }, (_, j) => gen.memory(i + j));
			await page.evaluate((m) => (globalThis as unknown as ReadApi).__engram.store({ memories: m }), ms);
			if (i % 10_000 === 0) console.error(`filled ${i + ms.length} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
		}
		const n = await count();
		const probe = new Corpus(7);
		const queries = Array.from({ length: 100 }, (_, j) => probe.queryFor(new Corpus(42).memory((j * 7919) % Math.min(n, 2000))));
		const cold: number[] = [];
		const recall: number[] = [];
		const first: number[] = [];
		/** The browser's CPU ms over each cold start and each first search (lib/proc-cpu.ts): steadier than wall time under load. */
		const coldCpu: Record<string, number>[] = [];
		const firstCpu: Record<string, number>[] = [];
		const profileDir = arg('profile-out');
		for (let r = 0; r < rounds; r++) {
			// The last round is profiled when asked: the start-up, then the recalls apart.
			const profiling = profileDir !== undefined && r === rounds - 1;
			await page.evaluate(() => (globalThis as unknown as ReadApi).__engram.close());
			const coldProfile = profiling ? await profileWorkers(page) : undefined;
			const cpu0 = browserCpu(dir);
			await page.reload({ waitUntil: 'commit' });
			await page.waitForFunction(() => '__engram' in globalThis, undefined, { timeout: 60_000 });
			cold.push(
				await page.evaluate(async (q) => {
					await (globalThis as unknown as ReadApi).__engram.recall({ query: q, limit: 10 });
					return performance.now();
				}, queries[0]),
			);
			const cpu1 = browserCpu(dir);
			if (cpu0 && cpu1) coldCpu.push(cpuDelta(cpu0, cpu1));
			if (coldProfile) await saveProfiles(profileDir!, 'cold', await coldProfile.stop());
			// The recalls measure a settled index: the restore leaves some structures to be made a
			// second after it (engine.ts SETTLE_AFTER_MS), which would land inside the first recalls.
			await page.waitForTimeout(3_000);
			const recallProfile = profiling ? await profileWorkers(page) : undefined;
			const t = await page.evaluate(async (qs) => {
				const out: number[] = [];
				for (const q of qs) {
					const s = performance.now();
					await (globalThis as unknown as ReadApi).__engram.recall({ query: q, limit: 10 });
					out.push(performance.now() - s);
				}
				return out;
			}, queries);
			if (recallProfile) await saveProfiles(profileDir!, 'recall', await recallProfile.stop());
			recall.push(percentile(t, 50));
			const firstProfile = profiling ? await profileWorkers(page) : undefined;
			const cpu2 = browserCpu(dir);
			first.push(await firstSearchAnswer(page, queries[r % queries.length]));
			const cpu3 = browserCpu(dir);
			if (cpu2 && cpu3) firstCpu.push(cpuDelta(cpu2, cpu3));
			if (firstProfile) await saveProfiles(profileDir!, 'first', await firstProfile.stop());
			console.error(
				`round ${r + 1}: cold start ${round(cold[r], 0)} ms, recall p50 ${round(recall[r])} ms, p99 ${round(percentile(t, 99))} ms, first search answer ${round(first[r], 0)} ms`,
			);
			if (coldCpu[r] && firstCpu[r]) console.error(`  CPU ms: cold start ${cpuLine(coldCpu[r])}; first search ${cpuLine(firstCpu[r])}`);
		}
		if (coldCpu.length)
			console.log(
				`CPU ms, medians: cold start ${cpuLine(medians(coldCpu))}; first search ${cpuLine(medians(firstCpu))} (load ${loadavg()[0].toFixed(1)})`,
			);
		console.log(
			`${n} memories, app at ${ROUTE}: cold start median ${round(percentile(cold, 50), 0)} ms, recall p50 median ${round(percentile(recall, 50))} ms, first search answer median ${round(percentile(first, 50), 0)} ms (${rounds} rounds)`,
		);
	} finally {
		await browser.close();
		await server.stop();
	}
}

async function main(): Promise<void> {
	const keep = arg('keep');
	if (process.argv.includes('--reads')) {
		if (!keep) throw new Error('--reads needs --keep DIR (the profile kept between runs)');
		return reads(keep);
	}
	const server = await startPreview();
	const browser = await launchBrowser({ offlineCapable: false });
	try {
		const page = await browser.context.newPage();
		// tsx compiles with keepNames: functions sent to page.evaluate call its __name helper.
		await page.addInitScript('globalThis.__name = (f) => f');
		if (BARE) await bareEngine(page, server.url);
		else await page.goto(`${server.url}/${ROUTE}`);
		await page.waitForFunction(() => '__engram' in globalThis, undefined, { timeout: 60_000 });
		await page.evaluate(() => (globalThis as unknown as { __engram: { health(): Promise<unknown> } }).__engram.health());
		const corpus = new Corpus(7);
		const memories = Array.from({ length: N }, (_, k) => corpus.memory(k));
		const batch = Array.from({ length: 500 }, (_, k) => corpus.memory(N + 1000 + k));
		const queries = Array.from({ length: 100 }, (_, k) => corpus.queryFor(memories[(k * 13) % N]));
		const t = await workload(page, memories, batch, queries);
		const s = (xs: number[]) => `p50 ${round(percentile(xs, 50))} ms, p90 ${round(percentile(xs, 90))}, p99 ${round(percentile(xs, 99))}`;
		console.log(
			`Chromium ${browser.context.browser()?.version() ?? ''}, real IndexedDB, via the engine worker, ${BARE ? 'no app (engine only)' : `app at ${ROUTE}`}`,
		);
		console.log(`store (single) while growing to ${N}: ${s(t.store)}`);
		console.log(`store (single) at ~${N} (last 100): ${s(t.store.slice(-100))}`);
		console.log(`get: ${s(t.get)} · recall: ${s(t.recall)} · delete: ${s(t.delete)}`);
		console.log(`store batch of 500 at ${N}: ${round(t.batch[0])} ms (${round(t.batch[0] / 500)} ms/memory)`);
	} finally {
		await browser.close();
		await server.stop();
	}
}

await main();

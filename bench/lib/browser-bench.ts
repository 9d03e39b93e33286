/**
 * The browser half of `npm run bench`: the built app in headless Chromium (Debian's, through
 * playwright-core), driven through the engine client the page exposes as `globalThis.__engram`
 * (the real worker, real IndexedDB). Memories are generated in Node and handed to the page in
 * batches; every duration is measured inside the page, so the harness's transfer is not counted.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { EngineApi } from '../../src/engine/types';
import { launchBrowser, ROOT, startPreview } from '../../test/e2e/helpers';
import { Corpus, type GeneratedMemory } from './corpus';
import { firstSearchAnswer } from './first-search';
import { catchWebMcpTools, graphToolTimes } from './graph-bench';
import { type EnvResult, percentile, round, type SizeResult } from './stats';

const BATCH = 500;
const SAMPLES = 100;
/** Reloads whose first search answer is timed (the median is reported). */
const FIRST_SEARCH_RELOADS = 3;

/** The page's engine handle. */
type PageEngine = { __engram: EngineApi };

/** Builds the app when dist/ is missing (the model first, as `npm run build` does). */
function ensureBuilt(log: (s: string) => void): void {
	if (existsSync(join(ROOT, 'dist', 'index.html'))) return;
	log('browser: building the app (dist/ is missing)…');
	for (const args of [['scripts/ensure-model.mjs'], ['node_modules/vite/bin/vite.js', 'build']]) {
		const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
		if (r.status !== 0) throw new Error(`${args.join(' ')} failed`);
	}
}

/** Waits until the page's engine answers. */
async function engineReady(page: Page): Promise<void> {
	await page.waitForFunction(() => (globalThis as unknown as Partial<PageEngine>).__engram !== undefined, null, { timeout: 60_000 });
	await page.evaluate(async () => void (await (globalThis as unknown as PageEngine).__engram.stats({})));
}

/** Stores `memories` in one batch; returns the in-page milliseconds. */
function storeBatch(page: Page, memories: GeneratedMemory[]): Promise<number> {
	return page.evaluate(async (ms) => {
		const t = performance.now();
		await (globalThis as unknown as PageEngine).__engram.store({ memories: ms });
		return performance.now() - t;
	}, memories);
}

/** Per-call in-page milliseconds of single stores. */
function singleStores(page: Page, memories: GeneratedMemory[]): Promise<number[]> {
	return page.evaluate(async (ms) => {
		const out: number[] = [];
		for (const m of ms) {
			const t = performance.now();
			await (globalThis as unknown as PageEngine).__engram.store(m);
			out.push(performance.now() - t);
		}
		return out;
	}, memories);
}

/** Per-call in-page milliseconds of recalls. */
function recalls(page: Page, queries: string[]): Promise<number[]> {
	return page.evaluate(async (qs) => {
		const out: number[] = [];
		for (const q of qs) {
			const t = performance.now();
			await (globalThis as unknown as PageEngine).__engram.recall({ query: q, limit: 10 });
			out.push(performance.now() - t);
		}
		return out;
	}, queries);
}

/** Texts per second through the page's engine (one embed call per text, pipelined). */
function embedRate(page: Page, texts: string[]): Promise<number> {
	return page.evaluate(async (ts) => {
		const e = (globalThis as unknown as PageEngine).__engram;
		await Promise.all(ts.slice(0, 100).map((t) => e.embed(t)));
		const t0 = performance.now();
		await Promise.all(ts.map((t) => e.embed(t)));
		return ts.length / ((performance.now() - t0) / 1000);
	}, texts);
}

/** Used storage as the browser reports it (IndexedDB plus the service worker's caches). */
function storageUsage(page: Page): Promise<number> {
	return page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
}

/**
 * JS heap of the page plus its workers (the engine worker holds the index), in MB, as the
 * DevTools protocol reports it (`Runtime.getHeapUsage`): performance.memory is missing in
 * workers. The workers are reached through a protocol session on the page, attached to each.
 */
async function heapMb(page: Page, log: (s: string) => void): Promise<number | null> {
	const cdp = await page.context().newCDPSession(page);
	try {
		const workers: string[] = [];
		cdp.on('Target.attachedToTarget', (e) => {
			if (e.targetInfo.type === 'worker') workers.push(e.sessionId);
		});
		let next = 0;
		const pending = new Map<number, (used: number | null) => void>();
		cdp.on('Target.receivedMessageFromTarget', (e) => {
			const m = JSON.parse(e.message) as { id?: number; result?: { usedSize: number } };
			if (m.id !== undefined) pending.get(m.id)?.(m.result?.usedSize ?? null);
		});
		const inWorker = (sessionId: string) =>
			new Promise<number | null>((resolve) => {
				const id = ++next;
				pending.set(id, resolve);
				void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method: 'Runtime.getHeapUsage' }) });
			});
		// Attaching reports the workers already running.
		await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
		await new Promise((r) => setTimeout(r, 500));
		const parts = [(await cdp.send('Runtime.getHeapUsage')).usedSize, ...(await Promise.all(workers.map(inWorker)))];
		if (workers.length === 0 || parts.some((x) => x === null)) {
			log(`browser: heap_mb unavailable: ${workers.length} workers reported`);
			return null;
		}
		return round((parts as number[]).reduce((a, b) => a + b, 0) / 2 ** 20, 0);
	} finally {
		await cdp.detach();
	}
}

/** Reloads the page and returns ms from navigation start to the first recall answered. */
async function coldStart(page: Page, query: string): Promise<number> {
	await page.evaluate(async () => (globalThis as unknown as PageEngine).__engram.close());
	await page.reload({ waitUntil: 'commit' });
	await page.waitForFunction(() => (globalThis as unknown as Partial<PageEngine>).__engram !== undefined, null, { timeout: 60_000 });
	return page.evaluate(async (q) => {
		await (globalThis as unknown as PageEngine).__engram.recall({ query: q, limit: 10 });
		return performance.now();
	}, query);
}

/** One size in a fresh browser profile. */
async function runSize(url: string, n: number, log: (s: string) => void, last: boolean, out: EnvResult): Promise<SizeResult> {
	const browser = await launchBrowser({ offlineCapable: false });
	try {
		await catchWebMcpTools(browser.context);
		const page = await browser.context.newPage();
		await page.goto(url);
		await engineReady(page);
		const corpus = new Corpus(42);
		if (out.embed_per_s === null)
			out.embed_per_s = round(
				await embedRate(
					page,
					Array.from({ length: 2000 }, (_, i) => corpus.memory(i).content),
				),
				0,
			);
		const baseline = await storageUsage(page);
		const gen = new Corpus(42);
		let importMs = 0;
		for (let i = 0; i < n; i += BATCH) {
			importMs += await storeBatch(
				page,
				Array.from({ length: Math.min(BATCH, n - i) }, (_, j) => gen.memory(i + j)),
			);
			if ((i / BATCH) % 20 === 19) log(`  browser: imported ${i + BATCH}/${n} (${(importMs / 1000).toFixed(0)} s)`);
		}
		const probe = new Corpus(7);
		const store = await singleStores(
			page,
			Array.from({ length: SAMPLES }, (_, j) => gen.memory(n + j)),
		);
		const queries = Array.from({ length: SAMPLES }, (_, j) => probe.queryFor(new Corpus(42).memory((j * 7919) % Math.min(n, 2000))));
		const recall = await recalls(page, queries);
		const graph = await graphToolTimes(page, n, SAMPLES / 2);
		if (last) {
			out.heap_mb = await heapMb(page, log);
			out.idb_bytes_per_memory = round(((await storageUsage(page)) - baseline) / (n + SAMPLES), 0);
			out.cold_start_ms = round(await coldStart(page, queries[0]), 0);
			try {
				const firsts: number[] = [];
				for (let r = 0; r < FIRST_SEARCH_RELOADS; r++) firsts.push(await firstSearchAnswer(page, queries[r]));
				log(`  browser: first search answered after ${firsts.map((t) => t.toFixed(0)).join(', ')} ms`);
				out.first_search_answer_ms = round(percentile(firsts, 50), 0);
			} catch (e) {
				// The other figures of this size stand.
				log(`browser: first_search_answer_ms unavailable: ${e instanceof Error ? e.message : String(e)}`);
			}
		}
		return {
			store_p50_ms: round(percentile(store, 50)),
			store_p99_ms: round(percentile(store, 99)),
			recall_p50_ms: round(percentile(recall, 50)),
			recall_p99_ms: round(percentile(recall, 99)),
			import_s: round(importMs / 1000, 1),
			...graph,
		};
	} finally {
		await browser.close();
	}
}

/** Runs the browser benchmark for `sizes`. */
export async function runBrowser(sizes: number[], log: (s: string) => void): Promise<EnvResult> {
	ensureBuilt(log);
	const server = await startPreview();
	const out: EnvResult = { embed_per_s: null, cold_start_ms: null, first_search_answer_ms: null, heap_mb: null, idb_bytes_per_memory: null, sizes: {} };
	try {
		for (const n of sizes) {
			log(`browser: ${n} memories…`);
			out.sizes[String(n)] = await runSize(server.url, n, log, n === Math.max(...sizes), out);
			log(`browser: ${n}: ${JSON.stringify(out.sizes[String(n)])}`);
		}
	} finally {
		await server.stop();
	}
	return out;
}

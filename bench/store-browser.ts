/**
 * The engine write path in Chromium with real IndexedDB: the built app (`npx vite build`) served
 * by `vite preview`, the engine worker reached through the page's comlink client
 * (`globalThis.__engram`), so each timing includes the worker round trip. Stores N memories one
 * by one (default 1000), then times get, recall, a 500-memory batch and delete at that size.
 *
 * Run: npx vite build && npx tsx bench/store-browser.ts [--n 1000] [--route '#/settings'] [--bare]
 */
import type { Page } from 'playwright-core';
import { launchBrowser, startPreview } from '../test/e2e/helpers';
import { bareEngine } from './lib/bare-engine';
import { Corpus, type GeneratedMemory } from './lib/corpus';
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

async function main(): Promise<void> {
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

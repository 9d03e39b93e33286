/**
 * Where a batched store's time goes in Chromium: fills N memories through the page's engine in
 * batches of 500 (content only, as an agent sends them), with a CPU profile of every worker.
 * Run: npx vite build && npx tsx bench/profile-batch.ts [--n 2000] [--out /tmp/prof] [--corpus]
 *
 * `--singles K`: after the fill (then not profiled), K single stores one by one (the next corpus
 * memories, content only), profiled when `--out` is given, with their p50 in the JSON line.
 */
import { writeFileSync } from 'node:fs';
import type { EngineApi } from '../src/engine/types';
import { launchBrowser, startPreview } from '../test/e2e/helpers';
import { cpuSeconds } from './lib/chromium-cpu';
import { Corpus } from './lib/corpus';

/** The page's engine handle. */
type PageEngine = { __engram: EngineApi };

const arg = (name: string) => {
	const i = process.argv.indexOf(`--${name}`);
	return i > 0 ? process.argv[i + 1] : undefined;
};
const N = Number(arg('n') ?? 2000);
const OUT = arg('out');
const FULL = process.argv.includes('--corpus');
const SINGLES = Number(arg('singles') ?? 0);

async function main() {
	const server = await startPreview();
	const browser = await launchBrowser({ offlineCapable: false });
	try {
		const page = await browser.context.newPage();
		await page.goto(server.url);
		await page.waitForFunction(() => (globalThis as unknown as Partial<PageEngine>).__engram !== undefined, null, { timeout: 60_000 });
		await page.evaluate(async () => void (await (globalThis as unknown as PageEngine).__engram.stats({})));
		const corpus = new Corpus(25);
		const mems = Array.from({ length: N + SINGLES }, (_, i) => (FULL ? corpus.memory(i) : { content: corpus.memory(i).content }));
		const cdp = await page.context().newCDPSession(page);
		const workers: { id: string; url: string }[] = [];
		cdp.on('Target.attachedToTarget', (e) => {
			if (e.targetInfo.type === 'worker') workers.push({ id: e.sessionId, url: e.targetInfo.url });
		});
		let next = 0;
		const pending = new Map<number, (r: unknown) => void>();
		cdp.on('Target.receivedMessageFromTarget', (e) => {
			const m = JSON.parse(e.message);
			if (m.id !== undefined) pending.get(m.id)?.(m.result);
		});
		const send = (sessionId: string, method: string, params: object = {}) =>
			new Promise<unknown>((resolve) => {
				const id = ++next;
				pending.set(id, resolve);
				void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
			});
		await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
		await new Promise((r) => setTimeout(r, 500));
		const profile = async () => {
			for (const w of workers) await send(w.id, 'Profiler.enable');
			for (const w of workers) await send(w.id, 'Profiler.setSamplingInterval', { interval: 200 });
			for (const w of workers) await send(w.id, 'Profiler.start');
		};
		if (OUT && !SINGLES) await profile();
		const times: number[] = [];
		const cpu0 = cpuSeconds();
		for (let i = 0; i < N; i += 500) {
			const ms = await page.evaluate(
				async (batch) => {
					const t = performance.now();
					await (globalThis as unknown as PageEngine).__engram.store({ memories: batch as { content: string }[] });
					return performance.now() - t;
				},
				mems.slice(i, i + 500),
			);
			times.push(Math.round(ms));
		}
		const cpu1 = cpuSeconds();
		let singles: number[] = [];
		let cpu2 = cpu1;
		let cpu3 = cpu1;
		if (SINGLES) {
			await new Promise((r) => setTimeout(r, 3000));
			if (OUT) await profile();
			cpu2 = cpuSeconds();
			singles = await page.evaluate(
				async (texts) => {
					const out: number[] = [];
					for (const content of texts) {
						const t = performance.now();
						await (globalThis as unknown as PageEngine).__engram.store({ content });
						out.push(performance.now() - t);
					}
					return out;
				},
				mems.slice(N).map((m) => m.content),
			);
			cpu3 = cpuSeconds();
			singles.sort((a, b) => a - b);
		}
		const round = (x: number) => Math.round(x * 100) / 100;
		const embedMs = await page.evaluate(
			async (texts) => {
				const t = performance.now();
				await Promise.all(texts.map((x: string) => (globalThis as unknown as PageEngine).__engram.embed(x)));
				return performance.now() - t;
			},
			mems.slice(0, 500).map((m) => m.content + ' again'),
		);
		console.log(
			JSON.stringify({
				n: N,
				batches_ms: times,
				total_s: times.reduce((a, b) => a + b, 0) / 1000,
				embed500_ms: Math.round(embedMs),
				fill_cpu_s: {
					worker: round(cpu1.worker - cpu0.worker),
					browser: round(cpu1.browser - cpu0.browser),
					renderer: round(cpu1.renderer - cpu0.renderer),
					renderer_pool: round(cpu1.pool - cpu0.pool),
					browser_pool: round(cpu1.browser_pool - cpu0.browser_pool),
				},
				...(SINGLES
					? {
							single_cpu_ms: {
								worker: round(((cpu3.worker - cpu2.worker) * 1000) / SINGLES),
								browser: round(((cpu3.browser - cpu2.browser) * 1000) / SINGLES),
							},
						}
					: {}),
				...(SINGLES ? { single_p50_ms: singles[singles.length >> 1], single_p90_ms: singles[Math.floor(singles.length * 0.9)] } : {}),
				workers: workers.map((w) => w.url),
			}),
		);
		if (OUT)
			for (const [k, w] of workers.entries()) {
				const r = (await send(w.id, 'Profiler.stop')) as { profile: unknown };
				writeFileSync(`${OUT}-${k}.cpuprofile`, JSON.stringify(r.profile));
			}
	} finally {
		await browser.close();
		await server.stop();
	}
}
main().catch((e) => {
	console.error(e);
	process.exit(1);
});

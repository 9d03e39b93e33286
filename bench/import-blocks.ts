/**
 * `npx tsx bench/import-blocks.ts [n=100000] [--bare]`: where a large import's time goes as it
 * grows. Stores `n` bench-corpus memories (seed 42, as `npm run bench`) in batches of 500 through
 * the built app's engine in headless Chromium (`--bare`: the engine worker alone), and prints per
 * 10k block the in-page seconds and the CPU seconds the browser process (IndexedDB's backend)
 * and the renderers (the page and the engine worker) spent meanwhile, read from /proc (Linux),
 * and of the renderers' the engine worker's thread alone. On a 2-core machine the two together
 * show whether the import is bound by both cores or waits; on a shared machine CPU seconds vary
 * far less than wall time, so compare builds by them.
 * Needs `npx vite build` first.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { launchBrowser, startPreview } from '../test/e2e/helpers';
import { bareEngine } from './lib/bare-engine';
import { Corpus, type GeneratedMemory } from './lib/corpus';

const n = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 100_000);
const BARE = process.argv.includes('--bare');
const BATCH = 500;
const BLOCK = 10_000;

/**
 * CPU seconds (user + system) of this run's Chromium: the browser process (this process's child,
 * with a temporary profile directory) and its descendants, as renderers and the rest.
 */
function cpuSeconds(): Record<'browser' | 'renderer' | 'worker' | 'other', number> {
	const procs = readdirSync('/proc')
		.filter((d) => /^\d+$/.test(d))
		.flatMap((pid) => {
			try {
				const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
				return [{ pid, ppid: stat[1], cpu: (Number(stat[11]) + Number(stat[12])) / 100, cmd: readFileSync(`/proc/${pid}/cmdline`, 'utf8') }];
			} catch {
				return []; // The process ended meanwhile.
			}
		});
	// This run's Chromium: the browser process is a child of this one (other runs on the machine
	// have their own, with the same kind of profile directory).
	const ours = new Set(procs.filter((p) => p.cmd.includes('engram-chromium-') && !/--type=/.test(p.cmd) && p.ppid === String(process.pid)).map((p) => p.pid));
	for (let grew = true; grew;) {
		grew = false;
		for (const p of procs) if (!ours.has(p.pid) && ours.has(p.ppid)) grew = Boolean(ours.add(p.pid));
	}
	const out = { browser: 0, renderer: 0, worker: 0, other: 0 };
	for (const p of procs) if (ours.has(p.pid)) out[/--type=renderer/.test(p.cmd) ? 'renderer' : /--type=/.test(p.cmd) ? 'other' : 'browser'] += p.cpu;
	for (const p of procs) if (ours.has(p.pid) && /--type=renderer/.test(p.cmd)) out.worker += workerThreads(p.pid);
	return out;
}

/** CPU seconds of a renderer's dedicated worker threads (the engine's). */
function workerThreads(pid: string): number {
	let cpu = 0;
	try {
		for (const tid of readdirSync(`/proc/${pid}/task`)) {
			if (!readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').startsWith('DedicatedWorker')) continue;
			const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
			cpu += (Number(stat[11]) + Number(stat[12])) / 100;
		}
	} catch {
		// The process or thread ended meanwhile.
	}
	return cpu;
}

const server = await startPreview();
const browser = await launchBrowser({ offlineCapable: false });
try {
	const page = await browser.context.newPage();
	if (BARE) await bareEngine(page, server.url);
	else await page.goto(server.url);
	await page.waitForFunction(() => '__engram' in globalThis, undefined, { timeout: 60_000 });
	await page.evaluate('globalThis.__engram.stats({})');
	const store = (ms: GeneratedMemory[]) =>
		page.evaluate(async (ms) => {
			const t = performance.now();
			await (globalThis as unknown as { __engram: { store(i: unknown): Promise<unknown> } }).__engram.store({ memories: ms });
			return performance.now() - t;
		}, ms);
	const gen = new Corpus(42);
	console.log(`${n} memories through ${BARE ? 'the bare engine worker' : 'the app'}, batches of ${BATCH}`);
	console.log('   block   in-page s   total s   browser cpu s   renderer cpu s   worker cpu s');
	let total = 0;
	let block = 0;
	let cpu = cpuSeconds();
	for (let i = 0; i < n; i += BATCH) {
		const ms = await store(Array.from({ length: Math.min(BATCH, n - i) }, (_, j) => gen.memory(i + j)));
		total += ms;
		block += ms;
		const done = Math.min(i + BATCH, n);
		if (done % BLOCK === 0 || done === n) {
			const now = cpuSeconds();
			const f = (x: number, w: number) => x.toFixed(1).padStart(w);
			console.log(
				`${String(done).padStart(8)} ${f(block / 1000, 11)} ${f(total / 1000, 9)} ${f(now.browser - cpu.browser, 15)} ${f(now.renderer - cpu.renderer, 16)} ${f(now.worker - cpu.worker, 14)}`,
			);
			cpu = now;
			block = 0;
		}
	}
} finally {
	await browser.close();
	await server.stop();
}

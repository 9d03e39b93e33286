/**
 * `npx tsx bench/import-growth.ts [n=60000] [--window 5000] [--app] [--out /tmp/growth]`: what
 * grows as a batched import grows. Stores `n` bench-corpus memories (seed 42, as `npm run bench`)
 * in batches of 500 through the bare engine worker (`--app`: the built app), with a CPU profile of
 * the engine worker over the first `window` memories and over the last `window`, and prints both
 * profiles' functions by self and total time side by side with the in-page milliseconds per batch.
 * Needs `npx vite build` first.
 */
import { writeFileSync } from 'node:fs';
import { launchBrowser, startPreview } from '../test/e2e/helpers';
import { bareEngine } from './lib/bare-engine';
import { Corpus } from './lib/corpus';
import { profileWorkers, summary } from './lib/worker-profile';

const arg = (name: string) => {
	const i = process.argv.indexOf(`--${name}`);
	return i > 0 ? process.argv[i + 1] : undefined;
};
const n = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 60_000);
const WINDOW = Number(arg('window') ?? 5_000);
const OUT = arg('out');
const BATCH = 500;

const server = await startPreview();
const browser = await launchBrowser({ offlineCapable: false });
try {
	const page = await browser.context.newPage();
	if (process.argv.includes('--app')) await page.goto(server.url);
	else await bareEngine(page, server.url);
	await page.waitForFunction(() => '__engram' in globalThis, undefined, { timeout: 60_000 });
	await page.evaluate('globalThis.__engram.stats({})');
	const gen = new Corpus(42);
	const store = (from: number) =>
		page.evaluate(
			async (ms) => {
				const t = performance.now();
				await (globalThis as unknown as { __engram: { store(i: unknown): Promise<unknown> } }).__engram.store({ memories: ms });
				return performance.now() - t;
			},
			Array.from({ length: Math.min(BATCH, n - from) }, (_, j) => gen.memory(from + j)),
		);
	const windows: [number, number][] = [
		[0, WINDOW],
		[n - WINDOW, n],
	];
	let profile: Awaited<ReturnType<typeof profileWorkers>> | undefined;
	let ms: number[] = [];
	for (let i = 0; i < n; i += BATCH) {
		const w = windows.findIndex(([a]) => a === i);
		if (w >= 0) {
			profile = await profileWorkers(page);
			ms = [];
		}
		ms.push(await store(i));
		const end = windows.findIndex(([, b]) => b === i + BATCH);
		if (end >= 0 && profile) {
			const profiles = await profile.stop();
			profile = undefined;
			const total = ms.reduce((a, b) => a + b, 0);
			console.log(
				`\n== memories ${windows[end][0]}–${windows[end][1]}: ${(total / 1000).toFixed(2)} s in page; per batch ${ms.map(Math.round).join(' ')}`,
			);
			for (const [k, p] of profiles.entries()) {
				if (!/engine/.test(p.url)) continue;
				console.log(summary(p.profile, 40));
				if (OUT) writeFileSync(`${OUT}-${end}-${k}.cpuprofile`, JSON.stringify(p.profile));
			}
		}
	}
} finally {
	await browser.close();
	await server.stop();
}

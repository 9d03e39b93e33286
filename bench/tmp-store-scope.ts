// Throwaway: single-store cost in the worker, {content} in one scope vs corpus items (20 scopes, dated).
import { launchBrowser, startPreview } from '../test/e2e/helpers';
import { Corpus } from './lib/corpus';
const N = Number(process.argv[2] ?? 10000);
const mode = process.argv[3] ?? 'content';
const corpus = new Corpus(25);
const server = await startPreview();
const browser = await launchBrowser();
const page = await browser.context.newPage();
await page.goto(server.url + '/#/settings');
await page.waitForFunction(() => (globalThis as any).__engram !== undefined, null, { timeout: 60000 });
await page.evaluate(() => (globalThis as any).__engram.stats({}));
const item = (i: number) => { const m = corpus.memory(i); return mode === 'content' ? { content: m.content } : m; };
for (let i = 0; i < N; i += 500) {
	const ms = Array.from({ length: 500 }, (_, j) => item(i + j));
	await page.evaluate((ms) => (globalThis as any).__engram.store({ memories: ms }), ms);
}
const singles = Array.from({ length: 200 }, (_, j) => item(N + j));
await new Promise((r) => setTimeout(r, 3000));
const t = await page.evaluate(async (ms) => {
	const out: number[] = [];
	for (const m of ms) { const t = performance.now(); await (globalThis as any).__engram.store(m); out.push(performance.now() - t); await new Promise((r) => setTimeout(r, 20)); }
	return out;
}, singles);
t.sort((a, b) => a - b);
console.log(mode, 'N', N, 'store p50', t[100].toFixed(2), 'p90', t[180].toFixed(2));
await browser.close(); await server.stop();

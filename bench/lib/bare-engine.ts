/**
 * The built engine worker alone in an empty page, for benchmarks that measure the engine without
 * the app: installs `globalThis.__engram` as a minimal comlink caller (APPLY messages with RAW
 * arguments, the protocol comlink speaks). Needs `npx vite build` first.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from '../../test/e2e/helpers';

/** Starts the engine worker in an empty page of `url`'s origin and exposes it as `__engram`. */
export async function bareEngine(page: Page, url: string): Promise<void> {
	const file = readdirSync(join(ROOT, 'dist/assets')).find((f) => /^engine\.worker-.*\.js$/.test(f));
	if (!file) throw new Error('dist/assets has no engine worker: run `npx vite build` first');
	await page.goto(`${url}/favicon.svg`);
	await page.evaluate(`(() => {
		const w = new Worker('/assets/${file}', { type: 'module' });
		let id = 0;
		const pending = new Map();
		w.onmessage = (e) => { const p = pending.get(e.data.id); if (p) { pending.delete(e.data.id); e.data.type === 'HANDLER' ? p[1](e.data.value) : p[0](e.data.value); } };
		const call = (method) => (arg) => new Promise((ok, no) => { const i = String(++id); pending.set(i, [ok, no]); w.postMessage({ id: i, type: 'APPLY', path: [method], argumentList: [{ type: 'RAW', value: arg }] }); });
		globalThis.__engram = new Proxy({}, { get: (_, m) => call(m) });
	})()`);
}

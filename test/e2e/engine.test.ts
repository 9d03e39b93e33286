/**
 * The engine in a real browser: the built app served by `vite preview`, Debian's Chromium, the
 * engine worker with real IndexedDB and the embedded model loaded from the app's own origin.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, startPreview, type Browser, type Server } from './helpers';

let server: Server;
let browser: Browser;
let page: Page;
const requests: string[] = [];

/** Waits until the page's engine client answers, and returns its health report. */
async function engineReady(p: Page): Promise<{ embedder: { model: string; dims: number } }> {
	await p.waitForFunction(() => '__engram' in globalThis, undefined, { timeout: 60_000 });
	return p.evaluate(() => (globalThis as unknown as { __engram: { health(): Promise<{ embedder: { model: string; dims: number } }> } }).__engram.health());
}

beforeAll(async () => {
	server = await startPreview();
	// Service workers blocked: every request then really goes over the network and is recorded.
	browser = await launchBrowser({ offlineCapable: false });
	browser.context.on('request', (r) => requests.push(r.url()));
	page = await browser.context.newPage();
	await page.goto(server.url);
});

afterAll(async () => {
	await browser?.close();
	await server?.stop();
});

describe('engine in Chromium', () => {
	it('the worker loads the embedded model from the app’s own origin and nothing leaves it', async () => {
		const health = await engineReady(page);
		expect(health.embedder).toMatchObject({ model: 'engram/glove-sif-100d', dims: 100 });
		expect(page.workers().some((w) => /engine\.worker/.test(w.url()))).toBe(true);
		const origin = new URL(server.url).origin;
		expect(requests.some((u) => u.startsWith(`${origin}/models/engram/glove-sif-100d/tokenizer.json`))).toBe(true);
		expect(requests.some((u) => u.startsWith(`${origin}/models/engram/glove-sif-100d/onnx/`))).toBe(true);
		const foreign = requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:') && !u.startsWith('blob:'));
		expect(foreign).toEqual([]);
	});

	it('a MemoryError keeps its code across the worker boundary', async () => {
		await engineReady(page);
		const err = await page.evaluate(async () => {
			const engram = (globalThis as unknown as { __engram: { store(i: unknown): Promise<unknown> } }).__engram;
			try {
				await engram.store({ content: '' });
				return null;
			} catch (e) {
				const x = e as { name: string; code: string; message: string };
				return { name: x.name, code: x.code, message: x.message };
			}
		});
		expect(err).toEqual({ name: 'MemoryError', code: 'invalid_input', message: 'content: must not be empty' });
	});

	it('store and recall round trip survives a page reload (IndexedDB persisted)', async () => {
		await engineReady(page);
		type Engram = {
			store(i: unknown): Promise<{ results: { memory_id: string }[] }>;
			recall(i: unknown): Promise<{ results: { memory: { id: string; content: string } }[] }>;
		};
		const stored = await page.evaluate(async () => {
			const engram = (globalThis as unknown as { __engram: Engram }).__engram;
			const out = await engram.store({
				memories: [
					{ content: 'Backups of the database run nightly at two in the morning', tags: ['ops'] },
					{ content: 'Maria Silva owns the billing service' },
				],
			});
			return out.results.map((r: { memory_id: string }) => r.memory_id);
		});
		const recall = () =>
			page.evaluate(async () => {
				const engram = (globalThis as unknown as { __engram: Engram }).__engram;
				const r = await engram.recall({ query: 'when are the database backups taken', limit: 1 });
				return r.results.map((x) => x.memory.id);
			});
		expect(await recall()).toEqual([stored[0]]);
		await page.reload();
		await engineReady(page);
		expect(await recall()).toEqual([stored[0]]);
	});

	it('keeps the index snapshot in an OPFS file and restores from it on the next load', async () => {
		await engineReady(page);
		type Engram = {
			store(i: unknown): Promise<unknown>;
			flushSnapshot(): Promise<void>;
			health(): Promise<{ search_index?: { origin: string; snapshot?: string } }>;
			recall(i: unknown): Promise<{ results: { memory: { content: string } }[] }>;
		};
		// The snapshot row as IndexedDB holds it, and the size of the OPFS file it names.
		const stored = () =>
			page.evaluate(async () => {
				const db = await new Promise<IDBDatabase>((resolve, reject) => {
					const rq = indexedDB.open('engram');
					rq.onsuccess = () => resolve(rq.result);
					rq.onerror = () => reject(rq.error);
				});
				const row = await new Promise<{ file?: string; size?: number; bytes?: Uint8Array }>((resolve, reject) => {
					const rq = db.transaction('snapshots').objectStore('snapshots').get('engram/glove-sif-100d');
					rq.onsuccess = () => resolve(rq.result);
					rq.onerror = () => reject(rq.error);
				});
				db.close();
				const dir = await (await (await navigator.storage.getDirectory()).getDirectoryHandle('engram-index-snapshots')).getDirectoryHandle('engram');
				const file = row.file === undefined ? undefined : await (await dir.getFileHandle(row.file)).getFile();
				return { file: row.file, size: row.size, inRow: row.bytes !== undefined, fileSize: file?.size };
			});
		await page.evaluate(async () => {
			const engram = (globalThis as unknown as { __engram: Engram }).__engram;
			await engram.store({ content: 'The greenhouse thermostat is set to eighteen degrees' });
			await engram.flushSnapshot();
		});
		const before = await stored();
		expect(before).toMatchObject({ file: expect.stringMatching(/\.bin$/), inRow: false });
		expect(before.size).toBeGreaterThan(1000);
		expect(before.fileSize).toBe(before.size);
		await page.reload();
		await engineReady(page);
		const after = await page.evaluate(async () => {
			const engram = (globalThis as unknown as { __engram: Engram }).__engram;
			const r = await engram.recall({ query: 'what temperature is the greenhouse', limit: 1 });
			return { health: (await engram.health()).search_index, top: r.results[0]?.memory.content };
		});
		expect(after).toEqual({ health: { origin: 'snapshot', snapshot: 'file' }, top: 'The greenhouse thermostat is set to eighteen degrees' });
		// Nothing changed, so leaving the page wrote no new snapshot.
		expect(await stored()).toEqual(before);
	});
	it('keeps the model’s parts in an OPFS file that the next load reads instead of the model files, and rewrites one that is damaged', async () => {
		await engineReady(page);
		const text = 'The greenhouse thermostat is set to eighteen degrees';
		const embed = () =>
			page.evaluate(
				async (t) => Array.from((await (globalThis as unknown as { __engram: { embed(t: string): Promise<Float32Array> } }).__engram.embed(t)) ?? []),
				text,
			);
		/** The parts file's size (0 while missing); `damage` cuts it to 100 bytes first. */
		const partsFile = (damage = false) =>
			page.evaluate(async (damage) => {
				try {
					const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('engram-model-parts');
					const handle = await dir.getFileHandle(encodeURIComponent('engram/glove-sif-100d') + '.parts');
					if (damage) {
						const w = await handle.createWritable({ keepExistingData: true });
						await w.truncate(100);
						await w.close();
					}
					return (await handle.getFile()).size;
				} catch {
					return 0;
				}
			}, damage);
		const fullSize = async () => {
			// Written by the start-up helper after it answers, a chunk at a time: wait until it is
			// large and has stopped growing.
			let last = -1;
			for (let i = 0; i < 100; i++) {
				const now = await partsFile();
				if (now > 15e6 && now === last) return now;
				last = now;
				await new Promise((r) => setTimeout(r, 250));
			}
			return partsFile();
		};
		const modelFiles = () => requests.filter((u) => /\/models\/engram\/glove-sif-100d\/(onnx\/model\.onnx|tokenizer\.json)$/.test(u));
		const vector = await embed();
		const size = await fullSize();
		expect(size).toBeGreaterThan(15e6);

		requests.length = 0;
		await page.reload();
		await engineReady(page);
		expect(await embed()).toEqual(vector);
		expect(modelFiles()).toEqual([]);

		// A file cut short is passed over: the model files are read again, and the file rewritten.
		let cut = 0;
		for (let i = 0; i < 50 && cut !== 100; i++) {
			cut = await partsFile(true);
			if (cut !== 100) await new Promise((r) => setTimeout(r, 100));
		}
		expect(cut).toBe(100);
		requests.length = 0;
		await page.reload();
		await engineReady(page);
		expect(await embed()).toEqual(vector);
		// A request made by a worker is reported on its own channel, which can arrive after the
		// page's answer: wait for both files' requests rather than reading the list at once.
		await expect.poll(() => modelFiles().length, { timeout: 10_000 }).toBe(2);
		expect(await fullSize()).toBe(size);
	});
});

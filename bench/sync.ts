/**
 * Sync timings (issue 27) in Chromium: two devices (two profiles, each its own IndexedDB) and a
 * CouchDB-protocol server on loopback (pouchdb-server in memory, started here).
 *
 * - upload_s: device A holding N memories starts syncing → all N on the server;
 * - first_sync_s: an empty device B starts syncing (key derivation included) → B holds all N
 *   (target ≤ 30 s at 10k);
 * - edit_visible_ms: a single edit on A → visible on B, both online (median of 9; target ≤ 2 s);
 * - catchup_s: B paused while A makes C changes (half new memories, half edits) → B resumed →
 *   B has them all (target ≤ 10 s at 1,000);
 * - store / recall p50 on B with live sync running, then with sync stopped (target: within 20%).
 *
 * Run: npx vite build && npx tsx bench/sync.ts [--n 10000] [--changes 1000]
 * Prints a table, then as its last line one JSON object {"sync": {...}}; `npm run bench -- --sync`
 * adds the same object under the key "sync".
 */
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { engine, engineReady } from '../test/e2e/app-support';
import { launchBrowser, startPreview, type Browser } from '../test/e2e/helpers';
import { ctl, join, startCouch, total } from '../test/e2e/sync-support';
import { Corpus } from './lib/corpus';
import { percentile, round } from './lib/stats';

export interface SyncBenchResult {
	n: number;
	changes: number;
	/** Importing the same N memories on the first device, in one call, without sync (this machine, this run). */
	import_ref_s: number;
	upload_s: number;
	first_sync_s: number;
	edit_visible_ms: number;
	catchup_s: number;
	store_p50_ms_sync: number;
	store_p50_ms_nosync: number;
	recall_p50_ms_sync: number;
	recall_p50_ms_nosync: number;
}

const PASS = 'bench passphrase';
const DB = 'engram-bench';

async function waitFor(what: string, check: () => Promise<boolean>, ms: number, every = 50): Promise<void> {
	const end = Date.now() + ms;
	while (!(await check())) {
		if (Date.now() > end) throw new Error(`timed out waiting: ${what}`);
		await new Promise((r) => setTimeout(r, every));
	}
}

/** Store and recall timings inside the page (each through the engine worker). */
function storeRecall(page: Page, memories: unknown[], queries: string[]): Promise<{ store: number[]; recall: number[] }> {
	return page.evaluate(
		async ({ memories, queries }) => {
			const e = (globalThis as unknown as { __engram: Record<string, (i: unknown) => Promise<unknown>> }).__engram;
			const out = { store: [] as number[], recall: [] as number[] };
			for (let i = 0; i < memories.length; i++) {
				let t = performance.now();
				await e.store(memories[i]);
				out.store.push(performance.now() - t);
				t = performance.now();
				await e.recall({ query: queries[i % queries.length], limit: 10 });
				out.recall.push(performance.now() - t);
			}
			return out;
		},
		{ memories, queries },
	);
}

const timings = (p: Page) =>
	p.evaluate(() => {
		const t = (globalThis as unknown as { __engramSync: { timings(): Record<string, number> | undefined } }).__engramSync.timings() ?? {};
		return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Math.round(v)]));
	});

export async function runSync(n: number, changes: number, log: (s: string) => void): Promise<SyncBenchResult> {
	const [couch, app] = await Promise.all([startCouch(), startPreview()]);
	const browsers: Browser[] = [];
	const device = async (): Promise<Page> => {
		const b = await launchBrowser({ offlineCapable: false });
		browsers.push(b);
		const page = await b.context.newPage();
		// tsx compiles with keepNames: functions sent to page.evaluate call its __name helper.
		await page.addInitScript('globalThis.__name = (f) => f');
		await page.goto(`${app.url}/#/settings`);
		await engineReady(page);
		return page;
	};
	try {
		await fetch(`${couch.url}/${DB}`, { method: 'PUT' });
		const server = { url: couch.url, database: DB, passphrase: PASS };
		const docCount = async () => ((await (await fetch(`${couch.url}/${DB}`)).json()) as { doc_count: number }).doc_count;
		const corpus = new Corpus(11);
		const a = await device();
		const lines = [JSON.stringify({ kind: 'header', format: 'engram', version: 1 })];
		for (let i = 0; i < n; i++) lines.push(JSON.stringify({ kind: 'memory', id: `bench-${i}`, ...corpus.memory(i) }));
		let t = Date.now();
		await engine(a, 'importMemories', { data: lines.join('\n'), format: 'jsonl' });
		const import_ref_s = (Date.now() - t) / 1000;
		log(`A holds ${await total(a)} memories (imported in ${import_ref_s} s: the same work without sync, for reference)`);

		t = Date.now();
		await join(a, server).catch(() => undefined); // "Synced" comes after the upload; the server's count decides
		await waitFor('all on the server', async () => (await docCount()) === n + 1, 300_000, 200);
		const upload_s = (Date.now() - t) / 1000;
		log(`upload of ${n}: ${upload_s} s; A's controller (ms): ${JSON.stringify(await timings(a))}`);

		const b = await device();
		t = Date.now();
		await join(b, server).catch(() => undefined); // "Synced" may come only after the pull; the count decides
		await waitFor('B holds everything', async () => (await total(b)) === n, 300_000, 100);
		const first_sync_s = (Date.now() - t) / 1000;
		log(`first sync of ${n} to an empty device: ${first_sync_s} s; B's controller (ms): ${JSON.stringify(await timings(b))}`);
		await ctl(a, 'idle');
		await ctl(b, 'idle');

		const edits: number[] = [];
		for (let k = 0; k < 9; k++) {
			const id = `bench-${k * 7}`;
			const text = `Edited ${k}: ${corpus.memory(n + k).content}`;
			t = Date.now();
			await engine(a, 'update', { memory_id: id, content: text });
			await waitFor(
				'the edit on B',
				async () => (await engine<{ memory: { content: string } }>(b, 'get', { memory_id: id })).memory.content === text,
				30_000,
				10,
			);
			edits.push(Date.now() - t);
		}
		const edit_visible_ms = round(percentile(edits, 50));
		log(`a single edit visible on the other device: p50 ${edit_visible_ms} ms (${edits.join(', ')})`);

		await ctl(b, 'idle');
		await ctl(b, 'pause');
		const fresh = Math.floor(changes / 2);
		const added: string[] = [];
		for (let i = 0; i < fresh; i += 100) {
			const batch = Array.from({ length: Math.min(100, fresh - i) }, (_, k) => corpus.memory(n + 100 + i + k));
			const out = await engine<{ results: { memory_id: string }[] }>(a, 'store', { memories: batch });
			added.push(...out.results.map((r) => r.memory_id));
		}
		let last = '';
		for (let k = 0; k < changes - fresh; k++) {
			last = `Changed while B was away ${k}: ${corpus.memory(n + 5000 + k).content}`;
			await engine(a, 'update', { memory_id: `bench-${1000 + k}`, content: last });
		}
		const lastId = `bench-${1000 + changes - fresh - 1}`;
		const seqBefore = await docCount();
		await ctl(a, 'idle');
		await waitFor(
			'A’s changes on the server',
			async () =>
				((await (await fetch(`${couch.url}/${DB}/${lastId}`)).json()) as { _rev: string })._rev.startsWith('2-') &&
				(await docCount()) >= n + 1 + added.length,
			120_000,
			100,
		);
		log(`A made ${changes} changes (server ${seqBefore} → ${await docCount()} docs)`);
		t = Date.now();
		await ctl(b, 'resume');
		await waitFor(
			'B caught up',
			async () =>
				(await total(b)) === n + added.length &&
				(await engine<{ memory: { content: string } }>(b, 'get', { memory_id: lastId })).memory.content === last,
			120_000,
			50,
		);
		const catchup_s = (Date.now() - t) / 1000;
		log(`catch-up of ${changes} changes: ${catchup_s} s`);
		await ctl(b, 'idle');

		const sample = Array.from({ length: 150 }, (_, k) => corpus.memory(n + 20_000 + k));
		const queries = Array.from({ length: 50 }, (_, k) => corpus.queryFor(corpus.memory((k * 97) % n)));
		// Each measured after 30 untimed calls, so neither inherits the other's (or the catch-up's) background work.
		// The engine's own background work after the catch-up (index upkeep) settles first.
		await new Promise((r) => setTimeout(r, 10_000));
		const warm = Array.from({ length: 60 }, (_, k) => corpus.memory(n + 30_000 + k));
		await storeRecall(b, warm.slice(0, 30), queries);
		const withSync = await storeRecall(b, sample.slice(0, 75), queries);
		await b.evaluate(() => (globalThis as unknown as { __engramSync: { stop(): Promise<void> } }).__engramSync.stop());
		await storeRecall(b, warm.slice(30), queries);
		const without = await storeRecall(b, sample.slice(75), queries);
		const p50 = (xs: number[]) => round(percentile(xs, 50));
		const r: SyncBenchResult = {
			n,
			changes,
			import_ref_s,
			upload_s,
			first_sync_s,
			edit_visible_ms,
			catchup_s,
			store_p50_ms_sync: p50(withSync.store),
			store_p50_ms_nosync: p50(without.store),
			recall_p50_ms_sync: p50(withSync.recall),
			recall_p50_ms_nosync: p50(without.recall),
		};
		log(
			`store p50 ${r.store_p50_ms_sync} ms with live sync, ${r.store_p50_ms_nosync} ms without; recall p50 ${r.recall_p50_ms_sync} / ${r.recall_p50_ms_nosync} ms`,
		);
		return r;
	} finally {
		for (const b of browsers) await b.close();
		await app.stop();
		await couch.stop();
	}
}

/** The human table. */
export function syncTable(r: SyncBenchResult): string {
	return [
		`sync (${r.n} memories, ${r.changes} changes)          target   measured`,
		`first sync to an empty device         ≤ 30 s   ${r.first_sync_s} s (upload from the first device ${r.upload_s} s; a plain import of the same ${r.import_ref_s} s)`,
		`a single edit on the other device     ≤ 2 s    ${r.edit_visible_ms} ms (p50 of 9)`,
		`catch-up of ${r.changes} changes             ≤ 10 s   ${r.catchup_s} s`,
		`store p50, live sync vs none          ±20%     ${r.store_p50_ms_sync} / ${r.store_p50_ms_nosync} ms`,
		`recall p50, live sync vs none         ±20%     ${r.recall_p50_ms_sync} / ${r.recall_p50_ms_nosync} ms`,
	].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
	const arg = (name: string) => {
		const i = process.argv.indexOf(`--${name}`);
		return i > 0 ? process.argv[i + 1] : undefined;
	};
	const log = (s: string) => process.stderr.write(`${s}\n`);
	runSync(Number(arg('n') ?? 10_000), Number(arg('changes') ?? 1_000), log)
		.then((r) => {
			console.log(syncTable(r));
			console.log(JSON.stringify({ sync: r }));
		})
		.catch((e) => {
			console.error(e);
			process.exit(1);
		});
}

/**
 * `npx tsx bench/idb-keys.ts [N] [--rounds R] [--without a,b]`: what the order of new memories'
 * keys costs Chromium's IndexedDB over a large import. Plain IndexedDB in a page (no Dexie, no
 * Engram) writes N memory-shaped rows (default 100,000) with schema v8's secondary indexes, plus
 * one vector row each, in transactions of 500: with random UUIDs (version 4) as keys and with
 * time-ordered ones (version 7, as core/ids.ts makes), each in a fresh browser, R rounds
 * (default 1). Each row links to four random earlier rows and to the one before it, as
 * SIMILAR_TO and PRECEDED_BY would. Prints the total and the time of each 10k rows, then the p50
 * and p99 of 200 read transactions that each get 10 random rows and their vectors (a recall's
 * page read): the figures behind core/ids.ts (docs/BENCHMARKS.md).
 *
 * `--without` drops secondary indexes or the vector rows, to see what each costs: any of seq,
 * tags, scope_seq, session_seq, entity_ids, link_keys, vectors.
 *
 * The page code is a string so the bundler's helpers never leak into the browser; so its ordered
 * ids follow core/ids.ts's layout (milliseconds, version 7, a counter, random bits) without
 * importing it.
 */
import { parseArgs } from 'node:util';
import { launchBrowser, startPreview } from '../test/e2e/helpers';

const { values, positionals } = parseArgs({
	allowPositionals: true,
	options: { rounds: { type: 'string', default: '1' }, without: { type: 'string', default: '' } },
});
const n = Number(positionals[0] ?? 100_000);
const rounds = Number(values.rounds);
const without = values.without.split(',').filter(Boolean);
const KNOWN = ['seq', 'tags', 'scope_seq', 'session_seq', 'entity_ids', 'link_keys', 'vectors'];
for (const w of without) if (!KNOWN.includes(w)) throw new Error(`--without: unknown part "${w}" (one of ${KNOWN.join(', ')})`);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds must be a positive whole number, got ${values.rounds}`);
if (!Number.isInteger(n) || n < 500 || n % 500) throw new Error(`N must be a whole number of 500-row batches, got ${n}`);

const pageCode = (mode: 'random' | 'ordered') => `(async () => {
	const mode = ${JSON.stringify(mode)}; const N = ${n}; const without = ${JSON.stringify(without)};
	const open = () => new Promise((resolve, reject) => {
		const rq = indexedDB.open('idb-keys-' + Math.random(), 1);
		rq.onupgradeneeded = () => {
			const s = rq.result.createObjectStore('memories', { keyPath: 'id' });
			const index = (name, path, opts) => { if (!without.includes(name)) s.createIndex(name, path, opts); };
			index('seq', 'seq', { unique: true });
			index('tags', 'tags', { multiEntry: true });
			index('scope_seq', ['scope', 'seq']);
			index('session_seq', ['session', 'seq']);
			index('entity_ids', 'entity_ids', { multiEntry: true });
			index('link_keys', 'link_keys', { multiEntry: true });
			rq.result.createObjectStore('vectors', { keyPath: ['model', 'memory_id'] });
		};
		rq.onsuccess = () => resolve(rq.result);
		rq.onerror = () => reject(rq.error);
	});
	const t0 = Date.now();
	let counter = 0;
	const hex = (v, w) => v.toString(16).padStart(w, '0');
	const newId = () => {
		const r = crypto.randomUUID();
		if (mode === 'random') return r;
		const ms = hex(t0 + Math.floor(counter / 4096), 12);
		return ms.slice(0, 8) + '-' + ms.slice(8) + '-7' + hex(counter++ % 4096, 3) + r.slice(18);
	};
	const db = await open();
	const ids = [];
	const words = 'the quick brown fox jumps over lazy dog while we talk about travel plans and dinner'.split(' ');
	const at = '2024-01-01T00:00:00.000Z';
	const times = [];
	let seq = 0;
	for (let b = 0; b < N / 500; b++) {
		const rows = [];
		const vectors = [];
		for (let i = 0; i < 500; i++) {
			const id = newId();
			const links = [];
			for (let k = 0; k < 4 && ids.length; k++) links.push({ to: ids[Math.floor(Math.random() * ids.length)], type: 'SIMILAR_TO', strength: 0.8, created_at: at });
			if (ids.length) links.push({ to: ids[ids.length - 1], type: 'PRECEDED_BY', strength: 1, created_at: at });
			const content = Array.from({ length: 40 }, () => words[Math.floor(Math.random() * words.length)]).join(' ');
			seq++;
			rows.push({ id, seq, scope: 'bench', session: 's' + Math.floor(seq / 20), tags: ['t' + (seq % 30)], content, metadata: { a: 1 }, entities: [], entity_ids: ['person:x' + (seq % 5000), 'place:y' + (seq % 300)], links, link_keys: links.map((l) => [l.to, l.type]), timestamp: at, importance: 0.5 });
			if (!without.includes('vectors')) vectors.push({ model: 'm', memory_id: id, dims: 100, data: new Int8Array(100) });
			ids.push(id);
		}
		const t = performance.now();
		await new Promise((resolve, reject) => {
			const tx = db.transaction(['memories', 'vectors'], 'readwrite');
			for (const r of rows) tx.objectStore('memories').put(r);
			for (const v of vectors) tx.objectStore('vectors').put(v);
			tx.oncomplete = resolve;
			tx.onerror = () => reject(tx.error);
		});
		times.push(performance.now() - t);
	}
	// What a recall's page read does: one read transaction getting 10 memories (anywhere in the
	// store) and their vectors.
	const reads = [];
	for (let r = 0; r < 200; r++) {
		const pick = Array.from({ length: 10 }, () => ids[Math.floor(Math.random() * ids.length)]);
		const t = performance.now();
		await new Promise((resolve, reject) => {
			const tx = db.transaction(['memories', 'vectors'], 'readonly');
			for (const id of pick) {
				tx.objectStore('memories').get(id);
				tx.objectStore('vectors').get(['m', id]);
			}
			tx.oncomplete = resolve;
			tx.onerror = () => reject(tx.error);
		});
		reads.push(performance.now() - t);
	}
	db.close();
	reads.sort((a, b) => a - b);
	const per10k = [];
	for (let i = 0; i < times.length; i += 20) per10k.push(times.slice(i, i + 20).reduce((a, b) => a + b, 0));
	return { total: times.reduce((a, b) => a + b, 0), per10k, readP50: reads[100], readP99: reads[197] };
})()`;

const server = await startPreview();
try {
	console.log(`${n} rows in transactions of 500${without.length ? `, without ${without.join(', ')}` : ''}`);
	// A fresh browser (and profile) per run: an origin's databases share one backing store, so a
	// second run in the same profile would write beside the first one's rows. Alternating the
	// order from round to round keeps the machine's drift from favouring one kind.
	for (let round = 0; round < rounds; round++) {
		for (const mode of round % 2 ? (['ordered', 'random'] as const) : (['random', 'ordered'] as const)) {
			const browser = await launchBrowser({ offlineCapable: false });
			try {
				const page = await browser.context.newPage();
				// Any page of the app's origin will do; the manifest loads no app code.
				await page.goto(`${server.url}/manifest.webmanifest`);
				const r = (await page.evaluate(pageCode(mode))) as { total: number; per10k: number[]; readP50: number; readP99: number };
				const s = (ms: number) => (ms / 1000).toFixed(1);
				console.log(
					`${mode.padEnd(8)} keys: ${s(r.total).padStart(6)} s; per 10k: ${r.per10k.map(s).join(' ')}; ` +
						`reading 10 rows + vectors: p50 ${r.readP50.toFixed(1)} ms, p99 ${r.readP99.toFixed(1)} ms`,
				);
			} finally {
				await browser.close();
			}
		}
	}
} finally {
	await server.stop();
}

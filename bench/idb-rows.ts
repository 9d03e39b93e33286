/**
 * `npx tsx bench/idb-rows.ts`: what a write costs in this machine's Chromium IndexedDB, with
 * plain IndexedDB in a page (no Dexie, no Engram): 5,000 link-shaped rows with three, one and no
 * secondary indexes; 500 rows each holding ten links; 500 vector rows; one 200 kB row. Each case
 * is one relaxed-durability transaction, averaged over four. The figures behind docs/decisions/0010-fewer-rows-and-index-entries.md
 * ("Few rows, few indexes"): a write's cost is counted in rows and index entries, not bytes.
 *
 * The page code is a string so the bundler's helpers never leak into the browser.
 */
import { runOnAppOrigin } from './lib/page-code';

const PAGE_CODE = `(async () => {
	const open = (indexes) => new Promise((resolve, reject) => {
		const rq = indexedDB.open('idb-rows-' + Math.random(), 1);
		rq.onupgradeneeded = () => {
			const s = rq.result.createObjectStore('a', { keyPath: ['from', 'to', 'type'] });
			for (const i of indexes) s.createIndex(i, i);
		};
		rq.onsuccess = () => resolve(rq.result);
		rq.onerror = () => reject(rq.error);
	});
	const put = (db, rows) => new Promise((resolve, reject) => {
		const tx = db.transaction('a', 'readwrite', { durability: 'relaxed' });
		const s = tx.objectStore('a');
		for (const r of rows) s.put(r);
		tx.oncomplete = () => resolve();
		tx.onerror = () => reject(tx.error);
	});
	const mean = async (db, make) => {
		let total = 0;
		for (let rep = 0; rep < 4; rep++) {
			const rows = make();
			const t = performance.now();
			await put(db, rows);
			total += performance.now() - t;
		}
		return Math.round(total / 4);
	};
	const link = () => ({ from: crypto.randomUUID(), to: crypto.randomUUID(), type: 'SIMILAR_TO', strength: 0.8123, created_at: '2024-01-01T00:00:00.000Z' });
	const out = {};
	for (const [name, indexes] of [['5000 links, 3 indexes', ['from', 'to', 'type']], ['5000 links, 1 index', ['to']], ['5000 links, no index', []]]) {
		const db = await open(indexes);
		out[name] = await mean(db, () => Array.from({ length: 5000 }, link));
		db.close();
	}
	const db = await open([]);
	out['500 rows of 10 links, no index'] = await mean(db, () => Array.from({ length: 500 }, () => ({ from: crypto.randomUUID(), to: '', type: 'P', links: Array.from({ length: 10 }, link) })));
	out['500 vectors of 100 floats, no index'] = await mean(db, () => Array.from({ length: 500 }, () => ({ from: crypto.randomUUID(), to: '', type: 'V', data: new Float32Array(100) })));
	out['one 200 kB row'] = await mean(db, () => [{ from: crypto.randomUUID(), to: '', type: 'big', data: new Float32Array(50000) }]);
	db.close();
	return out;
})()`;

const result = await runOnAppOrigin<Record<string, number>>(PAGE_CODE);
for (const [name, ms] of Object.entries(result)) console.log(`${name.padEnd(36)} ${String(ms).padStart(6)} ms`);

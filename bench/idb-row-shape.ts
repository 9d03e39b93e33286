/**
 * `npx tsx bench/idb-row-shape.ts`: what one memory-shaped row costs Chromium's IndexedDB by its
 * shape and the store's indexes (plain IndexedDB in a page, no Dexie, no Engram): 500-row
 * relaxed transactions, ms per 500 (median of 16, variants taking turns), and the page thread's
 * share of it (time to issue the adds, before the commit's wait: serialising each row, and
 * deserialising a copy to read its key path and index keys from).
 */
import { runOnAppOrigin } from './lib/page-code';

const PAGE_CODE = `(async () => {
	const open = (key, indexes) => new Promise((resolve, reject) => {
		const rq = indexedDB.open('shape-' + Math.random(), 1);
		rq.onupgradeneeded = () => {
			const s = rq.result.createObjectStore('m', key ? { keyPath: 'id' } : {});
			for (const [n, p, multi] of indexes) s.createIndex(n, p, { unique: n === 'seq', multiEntry: !!multi });
		};
		rq.onsuccess = () => resolve(rq.result);
		rq.onerror = () => reject(rq.error);
	});
	let seq = 0;
	const words = 'alpha beta gamma delta ticket mentioned Maria deploy staging server config review'.split(' ');
	const text = () => Array.from({ length: 24 }, () => words[Math.floor(Math.random() * words.length)]).join(' ');
	const iso = () => new Date(Date.now() - Math.random() * 1e10).toISOString();
	const full = () => {
		const id = crypto.randomUUID();
		seq++;
		return {
			id, seq, content: text(), type: 'Context', tags: [], scope: 'default', importance: 0.5, confidence: 0.8,
			metadata: {}, entities: [{ name: 'Maria', type: 'person' }, { name: 'staging', type: 'concept' }, { name: 'ticket 4411', type: 'concept' }],
			timestamp: iso(), updated_at: iso(), access_count: 0, content_key: crypto.randomUUID().slice(0, 16), entities_given: false,
			links: Array.from({ length: 4 }, (_, i) => ({ to: crypto.randomUUID(), type: i ? 'SIMILAR_TO' : 'PRECEDED_BY', strength: 0.8123, created_at: iso() })),
			vectors: { 'Xenova/all-MiniLM-L6-v2': new Float32Array(384).map(Math.random) },
			vector_models: ['Xenova/all-MiniLM-L6-v2'],
		};
	};
	const SPARSE = [['seq', 'seq'], ['[scope+seq]', ['scope', 'seq']], ['[session+seq]', ['session', 'seq']], ['other_models', 'other_models', true]];
	const IDX = [['seq', 'seq'], ['[scope+seq]', ['scope', 'seq']], ['[session+seq]', ['session', 'seq']], ['vector_models', 'vector_models', true]];
	const all = {
		'now: keyPath + 4 indexes': [true, IDX, full],
		'no vector_models index': [true, IDX.slice(0, 3), full],
		'vector_models indexed, field absent': [true, IDX, () => { const r = full(); delete r.vector_models; return r; }],
		'keyPath, no index': [true, [], full],
		'no keyPath, no index': [false, [], full],
		'links+entities as JSON string': [true, IDX, () => { const r = full(); r.links = JSON.stringify(r.links); r.entities = JSON.stringify(r.entities); return r; }],
		'vector as ArrayBuffer': [true, IDX, () => { const r = full(); r.vectors = { 'Xenova/all-MiniLM-L6-v2': r.vectors['Xenova/all-MiniLM-L6-v2'].buffer }; return r; }],
		'no vector': [true, IDX, () => { const r = full(); delete r.vectors; return r; }],
		'no links': [true, IDX, () => { const r = full(); delete r.links; return r; }],
		'id, seq, scope, session + one JSON string': [true, IDX, () => { const r = full(); const v = r.vectors['Xenova/all-MiniLM-L6-v2']; const { id, seq, scope, session, vector_models, vectors, ...rest } = r; return { id, seq, scope, vector_models, v, rest: JSON.stringify(rest) }; }],
		// Schema v14's row (no vector_models; the sparse other_models absent), as is and packed:
		// the indexed fields and the vector beside one JSON string of the rest, the JSON made
		// inside the timed loop (its cost counts).
		'v14 row': [true, SPARSE, () => { const r = full(); delete r.vector_models; return r; }],
		'v14 row packed, JSON timed': [true, SPARSE, () => { const r = full(); delete r.vector_models; return r; }, (r) => { const { id, seq, scope, session, vectors, ...rest } = r; return { id, seq, scope, session, vectors, p: JSON.stringify(rest) }; }],
	};
	const only = ONLY;
	const cases = Object.fromEntries(Object.entries(all).filter(([n]) => only.length === 0 || only.some((o) => n.startsWith(o))));
	const dbs = {};
	for (const [name, [key, idx]] of Object.entries(cases)) dbs[name] = await open(key, idx);
	const issue = {}, total = {};
	// Variants take turns, round by round, so a busy spell on the machine falls on all of them.
	for (let rep = 0; rep < 16; rep++) {
		for (const [name, [key, , make, pack]] of Object.entries(cases)) {
			const rows = Array.from({ length: 500 }, make);
			const t = performance.now();
			await new Promise((resolve, reject) => {
				const tx = dbs[name].transaction('m', 'readwrite', { durability: 'relaxed' });
				const s = tx.objectStore('m');
				for (const row of rows) {
					const r = pack ? pack(row) : row;
					key ? s.add(r) : s.add(r, r.id);
				}
				(issue[name] ??= []).push(performance.now() - t);
				tx.oncomplete = resolve;
				tx.onerror = () => reject(tx.error);
			});
			(total[name] ??= []).push(performance.now() - t);
		}
	}
	const med = (a) => a.sort((x, y) => x - y)[a.length >> 1].toFixed(1);
	const out = {};
	for (const name of Object.keys(cases)) out[name] = med(total[name]) + ' ms, adds issued in ' + med(issue[name]) + ' ms (fastest ' + issue[name][0].toFixed(1) + ')';
	return out;
})()`;

// `--only <prefix>,<prefix>`: run only the variants whose names start so.
const i = process.argv.indexOf('--only');
const only = i > 0 ? process.argv[i + 1].split(',') : [];
const result = await runOnAppOrigin<Record<string, string>>(PAGE_CODE.replace('ONLY', JSON.stringify(only)));
for (const [name, ms] of Object.entries(result)) console.log(`${name.padEnd(34)} ${ms}`);

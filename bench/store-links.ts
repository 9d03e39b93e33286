/**
 * `npx tsx bench/store-links.ts [n=3000]`: a digest of every stored row's links, seq and turn context
 * (named by import position: ids are random) after a batched import of `n` bench-corpus memories
 * in Node, to compare between builds (a change to the write path must keep it), as
 * bench/store-answers.ts does for the answers.
 */
import { createHash } from 'node:crypto';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { createEmbedder } from '../src/engine/embedder';
import { createEngine } from '../src/engine/engine';
import { nodeModelPath } from '../src/engine/node-model-path';
import { openEngramDB } from '../src/store/db';
import { Corpus } from './lib/corpus';
const n = Number(process.argv[2] ?? 3000);
const embedder = await createEmbedder({ localModelPath: nodeModelPath() });
const dbName = `links-${Date.now()}`;
const engine = await createEngine({ dbName, indexedDB, IDBKeyRange, embedder, snapshotDelayMs: 600_000 });
const gen = new Corpus(42);
const pos = new Map<string, number>();
for (let i = 0; i < n; i += 500) {
	const out = await engine.store({ memories: Array.from({ length: 500 }, (_, j) => gen.memory(i + j)) });
	for (const r of out.results) if (r.status === 'stored') pos.set(r.memory_id, i + r.index);
}
await engine.close();
const db = await openEngramDB({ name: dbName, indexedDB, IDBKeyRange });
const rows = await db.memories.toArray();
const lines = rows
	.map((r) => [pos.get(r.id), r.seq, JSON.stringify((r.links ?? []).map((l) => ({ ...l, to: pos.get(l.to) ?? l.to }))), r.context ?? ''].join(' '))
	.sort();
console.log(
	JSON.stringify({
		rows: rows.length,
		links: rows.reduce((s, r) => s + (r.links?.length ?? 0), 0),
		digest: createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16),
	}),
);

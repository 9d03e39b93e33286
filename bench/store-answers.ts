/**
 * `npx tsx bench/store-answers.ts [n=20000]`: what a batched import answers, as one digest to
 * compare between builds (a change to the write path must keep it). Stores `n` bench-corpus
 * memories (seed 42, as `npm run bench`) in batches of 500 through the engine in Node
 * (fake-indexeddb, the real embedded model), and prints the counts of stored items, duplicates
 * and possible updates and a hash of every item's answer: its status, what it duplicates and
 * what it may update, each named by its position in the import (ids are random).
 */
import { createHash } from 'node:crypto';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { createEmbedder } from '../src/engine/embedder';
import { createEngine } from '../src/engine/engine';
import { nodeModelPath } from '../src/engine/node-model-path';
import { Corpus } from './lib/corpus';

const n = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 20_000);
const BATCH = 500;

const embedder = await createEmbedder({ localModelPath: nodeModelPath() });
const engine = await createEngine({ dbName: `answers-${Date.now()}`, indexedDB, IDBKeyRange, embedder, snapshotDelayMs: 600_000 });
const gen = new Corpus(42);
const position = new Map<string, number>();
const lines: string[] = [];
const counts = { stored: 0, duplicate: 0, near: 0, possible_update: 0 };
const t = performance.now();
for (let i = 0; i < n; i += BATCH) {
	const items = Array.from({ length: Math.min(BATCH, n - i) }, (_, j) => gen.memory(i + j));
	const out = await engine.store({ memories: items });
	for (const r of out.results) {
		const at = i + r.index;
		if (r.status === 'stored') position.set(r.memory_id, at);
		const name = (id: string) => String(position.get(id) ?? id);
		counts[r.status === 'stored' ? 'stored' : 'duplicate']++;
		if (r.near_duplicate_of) counts.near++;
		if (r.possible_update_of) counts.possible_update++;
		lines.push(
			[
				at,
				r.status,
				r.duplicate_of && name(r.duplicate_of),
				r.near_duplicate_of && name(r.near_duplicate_of),
				(r.possible_update_of ?? []).map(name).join(','),
			].join(' '),
		);
	}
}
const seconds = (performance.now() - t) / 1000;
const digest = createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16);
console.log(JSON.stringify({ n, ...counts, answers: digest, seconds: Math.round(seconds) }));
await engine.close();

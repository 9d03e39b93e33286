/**
 * `npx tsx bench/lexical-add.ts [n=10000] [rounds=5]`: the lexical index's add path alone, in
 * Node: CPU time to upsert `n` bench-corpus memories (content, entity names, dates) into a new
 * LexicalIndex, median of `rounds`, and a digest of a few searches (must not change).
 */
import { createHash } from 'node:crypto';
import { extractEntities } from '../src/core/entities';
import { LexicalIndex } from '../src/engine/search/lexical';
import { Corpus } from './lib/corpus';

const n = Number(process.argv[2] ?? 10_000);
const rounds = Number(process.argv[3] ?? 5);
const corpus = new Corpus(42);
const docs = Array.from({ length: n }, (_, i) => {
	const m = corpus.memory(i);
	return {
		id: `m${i}`,
		content: m.content,
		summary: '',
		tags: (m.tags ?? []).join(' '),
		entities: extractEntities(m.content)
			.map((e) => e.name)
			.join(' '),
		dates: '2026 december monday',
		metadata: '',
		context: i % 3 === 0 ? corpus.memory(i + 1).content : '',
	};
});
const ms: number[] = [];
let digest = '';
for (let r = 0; r < rounds; r++) {
	const index = new LexicalIndex();
	const t = process.cpuUsage().user;
	for (const d of docs) index.upsert(d);
	ms.push((process.cpuUsage().user - t) / 1000);
	const h = createHash('sha256');
	for (const q of ['hiking trip', 'database migration', 'Caroline', 'deploy friday', 'dog']) h.update(JSON.stringify(index.search(q, undefined, 20)));
	digest = h.digest('hex').slice(0, 16);
}
ms.sort((a, b) => a - b);
console.log(JSON.stringify({ n, cpu_ms: ms.map(Math.round), median_ms: Math.round(ms[rounds >> 1]), digest }));

/**
 * `npx tsx bench/recall-misses.ts [--data f]… [--split s] [--pool n [--same-pair]] [--conv id,id] [--cat multi-hop,open-domain] [--depth 200]`:
 * for every question of the chosen categories with recall@10 < 1, through the index target, each
 * gold turn's rank (of `--depth`), its text and score components, and the top 5 that outrank it.
 * An analysis aid for issue 28 (what words the missed evidence has, what ranks above it).
 */
import { createEmbedder } from '../src/engine/embedder';
import { nodeModelPath } from '../src/engine/node-model-path';
import { DEV_SET, HARD_SET, loadDataset, poolConversations, splitOf, SPLITS, type Split, turnMemory } from './lib/dataset';
import { categoryTable } from './lib/categories';
import { indexTarget } from './lib/index-target';

async function main(): Promise<void> {
	const argv = process.argv.slice(2);
	const data: string[] = [];
	let splits: Split[] = [...SPLITS];
	let pool = 1;
	let samePair = false;
	let convs: string[] | undefined;
	let cats = ['multi-hop', 'open-domain'];
	let depth = 200;
	for (let i = 0; i < argv.length; i++) {
		const k = argv[i];
		if (k === '--data') data.push(argv[++i]);
		else if (k === '--split') splits = [argv[++i] as Split];
		else if (k === '--pool') pool = Number(argv[++i]);
		else if (k === '--same-pair') samePair = true;
		else if (k === '--conv') convs = argv[++i].split(',');
		else if (k === '--cat') cats = argv[++i].split(',');
		else if (k === '--depth') depth = Number(argv[++i]);
		else throw new Error(`unknown argument ${k}`);
	}
	// heldback.json measures decided changes only: its misses are not for reading.
	if (splits.includes('heldback') || data.some((d) => d.endsWith('heldback.json')))
		throw new Error('recall-misses: not on the held-back split (nothing is tuned on it)');
	let all = loadDataset(...(data.length ? data : [DEV_SET, HARD_SET]));
	if (convs) {
		const keep = new Set(convs);
		all = { conversations: all.conversations.filter((c) => keep.has(c.id)), questions: all.questions.filter((q) => keep.has(q.conversation)) };
	}
	const embedder = await createEmbedder({ localModelPath: nodeModelPath() });
	const target = indexTarget(embedder);
	const text = new Map<string, string>();
	for (const split of splits) {
		const d = poolConversations(splitOf(all, split), pool, samePair);
		for (const conv of d.conversations) {
			await target.storeConversation(conv);
			for (const s of conv.sessions) for (const t of s.turns) text.set(`${conv.id}/${t.dia_id}`, `S${s.session} ${turnMemory(conv, s, t).content}`);
		}
		const f = (x: number) => x.toFixed(2);
		for (const q of d.questions) {
			if (!cats.includes(q.category)) continue;
			const [v] = await embedder.embed([q.question]);
			const page = target.index.rank(
				{ query: q.question, scope: q.conversation, limit: depth },
				{ vectors: [v], categories: categoryTable() },
				Date.now(),
			);
			const ids = page.hits.map((h) => target.dia.get(h.id)!);
			const rank = (e: string) => ids.indexOf(e);
			if (q.evidence.every((e) => rank(e) >= 0 && rank(e) < 10)) continue;
			console.log(`\n[${q.category}] ${q.conversation} ${q.question}  → ${q.answer}`);
			for (const e of q.evidence) {
				const r = rank(e);
				const h = r >= 0 ? page.hits[r] : undefined;
				const c = h?.components;
				console.log(
					`  gold ${e} rank ${r < 0 ? `>${depth}` : r + 1}${c ? ` score ${f(h!.score)} lex ${f(c.lexical)} sem ${f(c.semantic)} nb ${f(c.neighbor)} gr ${f(c.graph)}` : ''}: ${text.get(`${q.conversation}/${e}`)}`,
				);
			}
			for (const h of page.hits.slice(0, 5)) {
				const c = h.components;
				console.log(
					`    top ${target.dia.get(h.id)} ${f(h.score)} lex ${f(c.lexical)} sem ${f(c.semantic)} nb ${f(c.neighbor)} gr ${f(c.graph)}: ${text.get(h.id)?.slice(0, 110)}`,
				);
			}
		}
	}
}

main().catch((e) => {
	console.error(e);
	process.exit(1);
});

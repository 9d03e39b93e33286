/**
 * The eval's `index` target: the search index fed exactly as the engine feeds it on store
 * (metadata, extracted entities, vector, PRECEDED_BY to the previous turn of the session,
 * SIMILAR_TO to the nearest memories of the scope above the model's threshold), without
 * IndexedDB. Fast enough to run a dozen ablations in seconds.
 */
import { entityId, extractEntities } from '../../src/core/entities';
import type { Embedder } from '../../src/engine/embedder';
import { metadataText, turnContext } from '../../src/engine/doc';
import { createSearchIndex } from '../../src/engine/search/index';
import type { SearchIndex } from '../../src/engine/search/types';
import { wordNeighboursFor } from '../../src/engine/search/neighbours';
import { resolveThresholds } from '../../src/engine/thresholds';
import { turnMemory } from './dataset';
import { processTerm } from '../../src/core/text';
import { categoryTable } from './categories';
import type { EvalTarget } from './eval-targets';

/** When the turns are stored: after every session date, so they count as caller-dated (toDocMeta). */
const STORED_AT = new Date().toISOString();

/** SIMILAR_TO links per new memory (the engine's MAX_SIMILAR). */
const MAX_SIMILAR = 5;

/** The index-only target; `index` and `dia` (memory id → turn id) for analysis scripts (bench/recall-misses.ts). */
export function indexTarget(embedder: Embedder): EvalTarget & { index: SearchIndex; dia: Map<string, string> } {
	const index = createSearchIndex({ modelId: embedder.modelId, dims: embedder.dims });
	const similar = resolveThresholds(embedder.modelId).similar;
	const dia = new Map<string, string>();
	const speakerOf = new Map<string, string>();
	let seq = 0;

	return {
		name: 'index',
		index,
		dia,
		async storeConversation(conv) {
			for (const s of conv.sessions) {
				const vectors = await embedder.embed(s.turns.map((t) => turnMemory(conv, s, t).content));
				let prev: string | undefined;
				let before: { content: string; timestamp: string; session?: string } | undefined;
				s.turns.forEach((t, i) => {
					const m = turnMemory(conv, s, t);
					const id = `${conv.id}/${t.dia_id}`;

					const ents = extractEntities(m.content);
					const ts = Date.parse(m.timestamp);
					const v = vectors[i];
					const near = v ? index.nearest(v, MAX_SIMILAR, { scope: conv.id }).filter((n) => n.cosine >= similar) : [];
					index.upsert(
						{
							id,
							seq: ++seq,
							scope: conv.id,
							type: 'Context',
							tags: [],
							session: m.metadata.session,
							group: m.metadata.session === undefined ? `${conv.id}\u0000${m.timestamp}` : undefined,
							timestamp: ts,
							updated_at: ts,
							importance: 0.5,
							confidence: 1,
							access_count: 0,
							entities: [...new Set(ents.map(entityId))],
						},
						{
							content: m.content,
							entityNames: ents.map((e) => e.name),
							metadata: metadataText(m.metadata, m.content),
							context: turnContext({ session: m.metadata.session, timestamp: m.timestamp, updated_at: STORED_AT }, before),
						},
						v,
					);
					dia.set(id, t.dia_id);
					speakerOf.set(id, m.metadata.speaker.toLowerCase());
					if (prev) index.addEdge({ from: id, to: prev, type: 'PRECEDED_BY', strength: 1 });
					for (const n of near) {
						index.addEdge({ from: id, to: n.id, type: 'SIMILAR_TO', strength: n.cosine });
						index.addEdge({ from: n.id, to: id, type: 'SIMILAR_TO', strength: n.cosine });
					}
					prev = id;
					before = { content: m.content, timestamp: m.timestamp, session: m.metadata.session };
				});
			}
		},
		async recall(input) {
			const phrasings = [input.query, ...(input.queries ?? [])].filter((q): q is string => !!q);
			const words = await wordNeighboursFor(index, embedder, phrasings);
			const exp = await nameless(phrasings, input.scope!);
			return index.rank(input, { vectors: exp.vectors, aside: exp.aside, by: exp.by, categories: categoryTable(), words }, Date.now()).hits.map((h) => dia.get(h.id)!);
		},
		async close() {},
	};

	/**
	 * Experiment (issue 28, eighth round), by environment: NAME_W=w embeds the scope's common names (capitalised
	 * words after the first, held by > NAME_SHARE of the scope's memories) at weight w inside the question's sum
	 * (0 strips them, 1 = the whole question); NAME_ONE=1 only when the question names exactly one; NAME_YN=0 leaves
	 * yes/no questions whole; ASIDE=1 passes the name-less vector beside the whole one (EXPERIMENT.aside*); SPEAKER=1
	 * passes `by` (turns by the one speaker named) for EXPERIMENT.speaker.
	 */
	async function nameless(phrasings: string[], scope: string) {
		const full = await embedder.embed(phrasings);
		const env = process.env;
		const w = Number(env.NAME_W ?? 1);
		const share = Number(env.NAME_SHARE ?? 0.1);
		// eslint-disable-next-line @typescript-eslint/no-explicit-any
		const ix = index as any;
		const size: number = ix.scopeSize(scope);
		const inScope = ix.inScope(scope);
		const within = { size, has: (id: string) => inScope(ix.slotOf.get(id)) };
		const common = (word: string) => {
			const t = processTerm(word);
			return t !== null && ix.lexical.contentFrequency(t, within, share * size + 1) > share * size;
		};
		const yn = (q: string) => /^\s*(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would|should)\b/i.test(q);
		const split = (q: string) => {
			const names: string[] = [];
			const rest = q
				.replace(/(?<=\S\s+)([A-Z][\p{L}]+)(?:['’]s)?/gu, (m: string, word: string) => {
					if (!common(word)) return m;
					names.push(m);
					return ' ';
				})
				.replace(/\s+/g, ' ')
				.trim();
			const skip = (env.NAME_ONE === '1' && names.length !== 1) || (env.NAME_YN === '0' && yn(q));
			return skip ? { rest: q, names: [] } : { rest, names };
		};
		const parts = phrasings.map(split);
		const named = parts.map((p) => p.names);
		let by: ((slot: number) => boolean) | undefined;
		const one = [...new Set(named.flat().map((n) => n.replace(/['’]s$/, '').toLowerCase()))];
		if (env.SPEAKER === '1' && one.length === 1) by = (slot: number) => speakerOf.get(ix.metas[slot].id) === one[0];
		if (w === 1 && env.ASIDE !== '1') return { vectors: full, aside: undefined, by };
		const rests = await embedder.embed(parts.map((p) => p.rest));
		const nameVs = await embedder.embed(parts.map((p) => p.names.join(' ') || 'x'));
		// The static embedder sums rows then normalises: the whole vector is a·rest + b·names; recover a, b and reweight.
		const weighted = phrasings.map((_, i) => {
			const f = full[i];
			const r = rests[i];
			const n = nameVs[i];
			if (!f || !r || !n || parts[i].names.length === 0) return f;
			const dot = (x: Float32Array, y: Float32Array) => x.reduce((acc, v, k) => acc + v * y[k], 0);
			const rr = dot(r, r), rn = dot(r, n), nn = dot(n, n), rf = dot(r, f), nf = dot(n, f);
			const det = rr * nn - rn * rn;
			if (Math.abs(det) < 1e-9) return r;
			const a = (rf * nn - nf * rn) / det;
			const b = (nf * rr - rf * rn) / det;
			const out = new Float32Array(f.length);
			for (let k = 0; k < f.length; k++) out[k] = a * r[k] + w * b * n[k];
			return out;
		});
		if (env.ASIDE === '1') return { vectors: full, aside: weighted, by };
		return { vectors: weighted, aside: undefined, by };
	}
}

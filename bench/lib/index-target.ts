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
import { namelessVectors } from '../../src/engine/search/nameless';
import { resolveThresholds } from '../../src/engine/thresholds';
import { turnMemory } from './dataset';
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
			const vectors = await embedder.embed(phrasings);
			const words = await wordNeighboursFor(index, embedder, phrasings);
			const nameless = await namelessVectors(index, embedder, phrasings, input.scope);
			return index.rank(input, { vectors, categories: categoryTable(), words, nameless }, Date.now()).hits.map((h) => dia.get(h.id)!);
		},
		async close() {},
	};
}

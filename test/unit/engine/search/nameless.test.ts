import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEmbedder, type Embedder } from '../../../../src/engine/embedder';
import { nodeModelPath } from '../../../../src/engine/node-model-path';
import { createSearchIndex } from '../../../../src/engine/search/index';
import { NAMELESS, namelessVectors, withoutCommonNames } from '../../../../src/engine/search/nameless';
import { FEEDBACK } from '../../../../src/engine/search/rank';
import { makeEngine } from '../helpers';
import { meta } from './fixtures';

const DEFAULTS = { nameless: { ...NAMELESS }, feedback: { ...FEEDBACK } };
afterEach(() => {
	Object.assign(NAMELESS, DEFAULTS.nameless);
	Object.assign(FEEDBACK, DEFAULTS.feedback);
});

describe('the question without its scope’s everyday names', () => {
	const speakers = (t: string) => t === 'nadia' || t === 'felix';

	it('drops only the common capitalised words after the first, with their possessive', () => {
		expect(withoutCommonNames('Which sports has Nadia tried?', speakers)).toBe('Which sports has tried?');
		expect(withoutCommonNames("What did Nadia's brother say to Felix?", speakers)).toBe('What did brother say to ?');
		// A name the scope rarely holds, and the first word, stay; nothing dropped is undefined.
		expect(withoutCommonNames('Where did Nadia swim in Lake Michigan?', speakers)).toBe('Where did swim in Lake Michigan?');
		expect(withoutCommonNames('Nadia went where?', speakers)).toBeUndefined();
		expect(withoutCommonNames('Which sports has Kanazawa got?', speakers)).toBeUndefined();
		// Yes/no questions stay whole.
		expect(withoutCommonNames('Does Nadia have pets?', speakers)).toBeUndefined();
	});

	it('counts a term as common above the share of the scope’s memories (or the index’s) that hold it', () => {
		const idx = createSearchIndex({ modelId: 'toy', dims: 3 });
		['Nadia: hi', 'Nadia: the padel final', 'Felix: hello there', 'Felix: the gig'].forEach((content, i) =>
			idx.upsert(meta(`c${i}`, { scope: 'chat' }), { content }, null),
		);
		for (let i = 0; i < 6; i++) idx.upsert(meta(`o${i}`, { scope: 'other' }), { content: `note ${i} about Nadia` }, null);
		idx.upsert(meta('o6', { scope: 'other' }), { content: 'note about padel' }, null);
		expect(idx.isCommonTerm('nadia', 0.4, 'chat')).toBe(true);
		expect(idx.isCommonTerm('nadia', 0.5, 'chat')).toBe(false);
		expect(idx.isCommonTerm('padel', 0.2, 'chat')).toBe(true);
		expect(idx.isCommonTerm('padel', 0.2, 'other')).toBe(false);
		expect(idx.isCommonTerm('nadia', 0.7, undefined)).toBe(true);
		expect(idx.isCommonTerm('nadia', 0.8, undefined)).toBe(false);
		expect(idx.isCommonTerm('nadia', 0.1, 'nowhere')).toBe(false);
	});
});

describe('the name-less vector in ranking (embedded model)', () => {
	let embedder: Embedder;
	beforeAll(async () => {
		embedder = await createEmbedder({ localModelPath: nodeModelPath() });
	});

	const turns: [string, string][] = [
		['tired', 'Nadia: So tired today, long week at the clinic and the train was late again twice.'],
		['rain', 'Nadia: Haha the rain here has not stopped once since Monday, my umbrella finally gave up.'],
		['sport', 'Nadia: I signed up for a tennis league and a football team, training starts on Thursday evening.'],
		['gig', 'Felix: The gig went fine, the drummer was late but the crowd did not seem to mind much.'],
		['match', 'Felix: Watched the football match at the pub with my brother, the referee was dreadful.'],
	];

	it('blends the name-less question’s rescaled cosine into each semantic score at NAMELESS.weight', async () => {
		const idx = createSearchIndex({ modelId: embedder.modelId, dims: embedder.dims });
		const vectors = await embedder.embed(turns.map(([, c]) => c));
		turns.forEach(([id, content], i) => idx.upsert(meta(id, { scope: 'chat' }), { content }, vectors[i]));
		FEEDBACK.weight = 0;
		const q = { query: 'Which sports has Nadia tried?', scope: 'chat', limit: 10 };
		const [whole] = await embedder.embed([q.query]);
		const nameless = await namelessVectors(idx, embedder, [q.query], 'chat');
		expect(nameless).toHaveLength(1);
		const [stripped] = await embedder.embed(['Which sports has tried?']);
		expect(Array.from(nameless![0])).toEqual(Array.from(stripped!));

		const off = idx.rank(q, { vectors: [whole] }, Date.now()).hits;
		const on = idx.rank(q, { vectors: [whole], nameless }, Date.now()).hits;
		const semantic = (hits: typeof on, id: string) => hits.find((h) => h.id === id)!.components.semantic;
		// The name-less vector's own rescaled score: its cosine between the scope's mean and best.
		const cos = turns.map(([id]) => idx.cosineTo(id, nameless![0])!);
		const mean = cos.reduce((a, b) => a + b, 0) / cos.length;
		const max = Math.max(...cos);
		turns.forEach(([id], i) => {
			const own = Math.max(0, (cos[i] - mean) / (max - mean));
			expect(semantic(on, id)).toBeCloseTo((1 - NAMELESS.weight) * semantic(off, id) + NAMELESS.weight * own, 5);
		});
		// Her sports turn gains on her small talk; the lexical side is unchanged.
		expect(semantic(on, 'sport') - semantic(on, 'tired')).toBeGreaterThan(semantic(off, 'sport') - semantic(off, 'tired'));
		for (const [id] of turns) expect(on.find((h) => h.id === id)!.components.lexical).toBe(off.find((h) => h.id === id)!.components.lexical);
	});

	it('embeds nothing when off, for a yes/no question, or when the question names no common name', async () => {
		const idx = createSearchIndex({ modelId: embedder.modelId, dims: embedder.dims });
		const vectors = await embedder.embed(turns.map(([, c]) => c));
		turns.forEach(([id, content], i) => idx.upsert(meta(id, { scope: 'chat' }), { content }, vectors[i]));
		expect(await namelessVectors(idx, embedder, ['Does Nadia play sports?'], 'chat')).toBeUndefined();
		expect(await namelessVectors(idx, embedder, ['Which sports has Kofi tried?'], 'chat')).toBeUndefined();
		// Felix is in 2 of 5 turns: common at the default share (0.1), not at 0.5.
		expect(await namelessVectors(idx, embedder, ['Which bands has Felix played in?'], 'chat')).toHaveLength(1);
		NAMELESS.share = 0.5;
		expect(await namelessVectors(idx, embedder, ['Which bands has Felix played in?'], 'chat')).toBeUndefined();
		NAMELESS.weight = 0;
		NAMELESS.share = 0.1;
		expect(await namelessVectors(idx, embedder, ['Which sports has Nadia tried?'], 'chat')).toBeUndefined();
		NAMELESS.weight = 0.3;
		expect(await namelessVectors(idx, embedder, ['Which sports has Nadia tried?'], 'chat')).toHaveLength(1);
		// A sentence encoder does not weight a name as the static model does.
		expect(
			await namelessVectors(idx, { ...embedder, embed: embedder.embed.bind(embedder), path: 'pipeline' }, ['Which sports has Nadia tried?'], 'chat'),
		).toBeUndefined();
	});
});

describe('recall_memory passes the name-less vector', () => {
	it('changes the semantic scores of a question naming a speaker, not those of a yes/no question', async () => {
		const engine = await makeEngine();
		try {
			await engine.store({
				memories: [
					{ content: 'Nadia: So tired today, long week at the clinic and the train was late again twice.', scope: 'chat' },
					{ content: 'Nadia: I signed up for a tennis league and a football team, training starts on Thursday.', scope: 'chat' },
					{ content: 'Felix: The gig went fine, the drummer was late but the crowd did not seem to mind much.', scope: 'chat' },
					{ content: 'Felix: Watched the football match at the pub with my brother, the referee was dreadful.', scope: 'chat' },
				],
			});
			const semantic = async (query: string, weight: number) => {
				NAMELESS.weight = weight;
				const out = await engine.recall({ query, scope: 'chat', limit: 10 });
				return new Map(out.results.map((r) => [r.memory.content, r.components.semantic]));
			};
			const off = await semantic('Which sports has Nadia tried?', 0);
			const on = await semantic('Which sports has Nadia tried?', 0.3);
			expect([...on.keys()].sort()).toEqual([...off.keys()].sort());
			expect([...on].some(([content, s]) => Math.abs(s - off.get(content)!) > 1e-6)).toBe(true);
			expect(await semantic('Does Nadia play sports?', 0.3)).toEqual(await semantic('Does Nadia play sports?', 0));
		} finally {
			await engine.close();
		}
	});
});

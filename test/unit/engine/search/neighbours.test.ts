import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEmbedder, type Embedder } from '../../../../src/engine/embedder';
import { nodeModelPath } from '../../../../src/engine/node-model-path';
import { createSearchIndex, restoreSearchIndex } from '../../../../src/engine/search/index';
import { NEIGHBOURS, neighbourWords, sourceWords, WordVectors, wordNeighboursFor, type WordNeighbours } from '../../../../src/engine/search/neighbours';
import { meta } from './fixtures';

const DEFAULTS = { ...NEIGHBOURS };
afterEach(() => Object.assign(NEIGHBOURS, DEFAULTS));

/** A fixed neighbour table: word → [neighbour, cosine][]. */
function table(t: Record<string, [string, number][]>): WordNeighbours {
	return { near: (w, min) => (t[w] ?? []).filter(([, c]) => c >= min) };
}

describe('which words expand', () => {
	it('takes the content words, never the proper nouns after the first word, stop words or possessives', () => {
		expect(sourceWords('Is Farid religious?').sources).toEqual(['religious']);
		expect(sourceWords("Does June's grandson like school?").sources).toEqual(['grandson', 'like', 'school']);
		expect(sourceWords('Injuries Idris had since autumn').sources).toEqual(['injuries', 'since', 'autumn']);
	});

	it('adds at most perWord neighbours per word that the searched memories hold, none of the question’s own terms', () => {
		Object.assign(NEIGHBOURS, { weight: 0.3, cosine: 0.4, perWord: 2, maxShare: 1, yesNoOnly: 1 });
		const words = table({
			religious: [
				['religion', 0.7],
				['fasting', 0.6],
				['ramadan', 0.55],
				['mosque', 0.5],
				['politics', 0.35],
			],
		});
		// "religion" stems apart from "religious" but the memories hold no "religion": skipped, not counted.
		const holds = (t: string) => t !== 'religion';
		expect(neighbourWords(words, 'Is Farid religious?', holds)).toBe('fasting ramadan');
		NEIGHBOURS.perWord = 8;
		expect(neighbourWords(words, 'Is Farid religious?', holds)).toBe('fasting ramadan mosque');
		// Below the cosine floor: none.
		NEIGHBOURS.cosine = 0.65;
		expect(neighbourWords(words, 'Is Farid religious?', holds)).toBe('');
	});

	it('expands only yes/no questions while yesNoOnly is set, and no word too common in the scope', () => {
		Object.assign(NEIGHBOURS, { weight: 0.3, cosine: 0.4, perWord: 4, yesNoOnly: 1 });
		const words = table({ religious: [['fasting', 0.6]], year: [['month', 0.7]] });
		expect(neighbourWords(words, 'Which holidays is Farid religious about?', () => true)).toBe('');
		expect(neighbourWords(words, 'Was Farid religious this year?', () => true)).toBe('fasting month');
		expect(
			neighbourWords(
				words,
				'Was Farid religious this year?',
				() => true,
				(t) => t === 'year',
			),
		).toBe('fasting');
		NEIGHBOURS.yesNoOnly = 0;
		expect(neighbourWords(words, 'Which holidays is Farid religious about?', () => true)).toBe('fasting');
	});
});

describe('WordVectors over the embedded model', () => {
	let embedder: Embedder;
	beforeAll(async () => {
		embedder = await createEmbedder({ localModelPath: nodeModelPath() });
	});

	const turns: [string, string][] = [
		['ramadan', "Farid: Tired but okay. It's Ramadan, so I'm fasting and break it with dates at sunset."],
		['dog', 'Rosa: Took the dog along the beach this morning, he ate a crab.'],
		['night', 'Rosa: Night night.'],
		['gull', 'June: A gull had my chips off the fork on the pier. The cheek.'],
		['shift', 'Farid: Nights in resus again, Saturday was a different planet.'],
		['rug', "June: I've started making a rag rug from all of Ken's old shirts."],
	];

	async function indexOf(list: [string, string][]) {
		const idx = createSearchIndex({ modelId: embedder.modelId, dims: embedder.dims });
		const vectors = await embedder.embed(list.map(([, c]) => c));
		list.forEach(([id, content], i) => idx.upsert(meta(id, { scope: 'chat' }), { content }, vectors[i]));
		return idx;
	}

	it('finds the indexed words nearest a query word, and words indexed later on the next call', async () => {
		const idx = await indexOf(turns);
		const wv = new WordVectors(embedder, idx);
		const near = (await wv.prepare(['Is Farid religious?'])).near('religious', 0.3).map(([w]) => w);
		expect(near).toContain('fasting');
		expect(near).not.toContain('gull');
		const [v] = await embedder.embed(['Farid: We went to the mosque for Eid prayers.']);
		idx.upsert(meta('eid', { scope: 'chat' }), { content: 'Farid: We went to the mosque for Eid prayers.' }, v);
		const again = (await wv.prepare(['Is Farid religious?'])).near('religious', 0.3).map(([w]) => w);
		expect(again).toEqual(expect.arrayContaining(['fasting', 'mosque']));
	});

	it('pulls a turn that shares no word with a yes/no question into the results, at weight 0.3 only', async () => {
		const idx = await indexOf(turns);
		const q = { query: 'Does Rosa have pets?', scope: 'chat', limit: 10 };
		const [qv] = await embedder.embed([q.query]);
		NEIGHBOURS.weight = 0;
		expect(await wordNeighboursFor(idx, embedder, [q.query])).toBeUndefined();
		const off = idx.rank(q, { vectors: [qv] }, Date.now()).hits;
		NEIGHBOURS.weight = 0.3;
		const words = await wordNeighboursFor(idx, embedder, [q.query]);
		expect(words!.near('pets', NEIGHBOURS.cosine).map(([w]) => w)).toEqual(['dog']);
		const on = idx.rank(q, { vectors: [qv], words }, Date.now()).hits;
		const lex = (hits: typeof on, id: string) => hits.find((h) => h.id === id)?.components.lexical ?? 0;
		expect(lex(off, 'dog')).toBeLessThan(1);
		expect(lex(on, 'dog')).toBeCloseTo(Math.min(1, lex(off, 'dog') + 0.3), 6);
		const score = (hits: typeof on, id: string) => hits.find((h) => h.id === id)!.score;
		expect(score(on, 'dog') - score(on, 'night')).toBeGreaterThan(score(off, 'dog') - score(off, 'night'));
		expect(lex(on, 'gull')).toBe(lex(off, 'gull'));
		// Its words are not the caller's.
		expect(on.find((h) => h.id === 'dog')!.matched_terms).toEqual(['rosa']);
		// Not a yes/no question: nothing to prepare.
		expect(await wordNeighboursFor(idx, embedder, ['Which pets does Rosa have?'])).toBeUndefined();
	});

	it('lists a restored index’s terms as its vocabulary, then words indexed after the restore', async () => {
		const back = restoreSearchIndex((await indexOf(turns)).snapshot());
		const vocabulary = back.vocabulary(0);
		expect(vocabulary).toEqual(expect.arrayContaining(['fast', 'ramadan', 'gull']));
		const [v] = await embedder.embed(['Farid: The mosque was full.']);
		back.upsert(meta('eid', { scope: 'chat' }), { content: 'Farid: The mosque was full.' }, v);
		expect(back.vocabulary(vocabulary.length)).toEqual(['mosque', 'full']);
	});
});

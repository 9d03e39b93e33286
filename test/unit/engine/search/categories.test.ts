import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATEGORIES, expandCategories, parseCategories } from '../../../../src/engine/search/categories';
import { createSearchIndex } from '../../../../src/engine/search/index';
import { FEEDBACK } from '../../../../src/engine/search/rank';
import { COVERAGE } from '../../../../src/engine/search/coverage';
import { nodeModelPath } from '../../../../src/engine/node-model-path';
import { meta, toyEmbed } from './fixtures';
import { buildHyponyms } from '../../../../scripts/build-hyponyms';

const TABLE = parseCategories(
	JSON.stringify({
		recipe: 1,
		source: 'test',
		categories: { sport: 'tennis fencing judo sport sports', home: 'bungalow chalet', instrument: 'cello violin' },
	}),
);

describe('category expansion', () => {
	it('expands only the category a question asks for, never its other nouns or its own words', () => {
		expect(expandCategories(TABLE, 'Which sports has Nadia tried at home?')).toBe('tennis fencing judo');
		expect(expandCategories(TABLE, 'What instruments does Felix have at home?')).toBe('cello violin');
		expect(expandCategories(TABLE, 'Did Nadia play a sport at home?')).toBe('');
		expect(expandCategories(TABLE, 'Which sports, like judo?')).toBe('tennis fencing');
	});

	it('rejects a table of another shape, naming what it expected', () => {
		expect(() => parseCategories('{"sport":"tennis"}')).toThrow(/"categories" object/);
		expect(() => parseCategories('{"categories":{"sport":["tennis"]}}')).toThrow(/members of "sport" must be a string/);
	});

	it('finds a memory naming only a member of the asked-for category, ranked below one with the query word', () => {
		const idx = createSearchIndex({ modelId: 'toy', dims: 64 });
		const docs: [string, string][] = [
			['a', 'Felix: Judo at the leisure centre on Wednesday was brutal.'],
			['b', 'Nadia: The sports hall was closed, so I went home.'],
			['c', 'Felix: The bakery on Mill Road sells sourdough now.'],
		];
		for (const [id, content] of docs) idx.upsert(meta(id, { scope: 'chat' }), { content }, toyEmbed(content, 64));
		const q = { query: 'Which sports has Nadia played?', scope: 'chat', limit: 10, weights: { semantic: 0, neighbor: 0, graph: 0 } };
		const without = idx.rank(q, { vectors: [] }, Date.now());
		// The member match alone, without the coverage stage's bonus for a first mention (coverage.test.ts).
		const saved = COVERAGE.bonus;
		let withTable: typeof without;
		try {
			COVERAGE.bonus = 0;
			withTable = idx.rank(q, { vectors: [], categories: TABLE }, Date.now());
		} finally {
			COVERAGE.bonus = saved;
		}
		const lexOf = (page: typeof without, id: string) => page.hits.find((h) => h.id === id)?.components.lexical ?? 0;
		expect(without.hits.map((h) => h.id)).toEqual(['b']);
		expect(lexOf(withTable, 'a')).toBeGreaterThan(0);
		expect(withTable.hits[0].id).toBe('b');
		// The member match counts at most CATEGORIES.weight of a direct match; its words are not the caller's.
		expect(lexOf(withTable, 'a')).toBeLessThanOrEqual(CATEGORIES.weight * lexOf(withTable, 'b') + 1e-9);
		expect(withTable.hits.find((h) => h.id === 'a')!.matched_terms).toEqual([]);
	});

	it('adds a member match to the direct one (at most 1), where the larger of the two lost it under the person’s name', () => {
		const idx = createSearchIndex({ modelId: 'toy', dims: 64 });
		const docs: [string, string][] = [
			['pet', 'Rosa: two ferrets came to stay with me this week'],
			['chat', 'Rosa: it rained all week'],
			['other', 'Idris: the panto ran late again on Friday'],
		];
		for (const [id, content] of docs) idx.upsert(meta(id, { scope: 'chat' }), { content }, toyEmbed(content, 64));
		const table = parseCategories(JSON.stringify({ recipe: 3, source: 'test', categories: { animal: 'ferret dog' } }));
		const q = { query: 'Which animals has Rosa looked after?', scope: 'chat', limit: 10, weights: { semantic: 0, neighbor: 0, graph: 0 } };
		const lexOf = (page: ReturnType<typeof idx.rank>, id: string) => page.hits.find((h) => h.id === id)?.components.lexical ?? 0;
		const saved = CATEGORIES.add;
		try {
			CATEGORIES.add = 0;
			const larger = idx.rank(q, { vectors: [], categories: table }, Date.now());
			CATEGORIES.add = 1;
			const sum = idx.rank(q, { vectors: [], categories: table }, Date.now());
			// The larger of the two: the ferret turn's member match is lost under its match on "Rosa", and the
			// shorter small talk ranks first.
			expect(larger.hits[0].id).toBe('chat');
			expect(lexOf(sum, 'pet')).toBeCloseTo(Math.min(1, lexOf(larger, 'pet') + CATEGORIES.weight), 9);
			expect(lexOf(sum, 'chat')).toBe(lexOf(larger, 'chat'));
		} finally {
			CATEGORIES.add = saved;
		}
	});

	it('builds members from deeper levels and later senses, dropping those far from the category in vector space', () => {
		// A toy WordNet: entity ← … ← organism (depth 4) ← animal (5) ← chordate ← vertebrate ← mammal ← carnivore ←
		// musteline ← ferret (six steps below animal); "blister" is first a defect, second a sore (an injury);
		// "stone" is an animal here, but its vector is far from "animal"'s.
		const dir = mkdtempSync(join(tmpdir(), 'wordnet-'));
		try {
			const chain = ['entity', 'thing', 'being', 'life', 'organism', 'animal', 'chordate', 'vertebrate', 'mammal', 'carnivore', 'musteline', 'ferret'];
			const off = (i: number) => String(10_000_000 + i);
			const lines: string[] = [];
			const synset = (i: number, word: string, parent?: number) =>
				lines.push(`${off(i)} 05 n 01 ${word} 0 ${parent === undefined ? '000' : `001 @ ${off(parent)} n 0000`} | gloss`);
			chain.forEach((w, i) => synset(i, w, i === 0 ? undefined : i - 1));
			synset(20, 'defect', 4);
			synset(21, 'injury', 4);
			synset(22, 'sore', 21);
			synset(23, 'blister', 20);
			synset(24, 'blister', 22);
			synset(25, 'stone', 5);
			writeFileSync(join(dir, 'data.noun'), lines.join('\n') + '\n');
			const senses: Record<string, number[]> = { ferret: [11], blister: [23, 24], stone: [25] };
			const index = Object.entries(senses).map(([w, o]) => `${w} n ${o.length} 1 @ ${o.length} 0 ${o.map(off).join(' ')}`);
			writeFileSync(join(dir, 'index.noun'), index.join('\n') + '\n');
			const words = ['animal', 'ferret', 'stone', 'injury', 'blister', 'mammal'];
			const vectors = new Float64Array(words.length * 100);
			const set = (w: string, dim: number, extra = 0) => {
				vectors[words.indexOf(w) * 100 + dim] = 1;
				vectors[words.indexOf(w) * 100 + 99] = extra;
			};
			set('animal', 0);
			set('ferret', 0, 0.5);
			set('mammal', 0, 0.2);
			set('stone', 1);
			set('injury', 2);
			set('blister', 2, 0.3);
			const table = buildHyponyms(dir, new Map(words.map((w, i) => [w, i])), vectors);
			expect(table.get('animal')).toEqual(['ferret']);
			expect(table.get('mammal')).toEqual(['ferret']);
			expect(table.get('injury')).toEqual(['blister']);
			expect(table.has('organism')).toBe(false);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	it('ships a built table that knows common categories (scripts/build-hyponyms.ts)', () => {
		const file = join(nodeModelPath(), 'engram', 'categories.json');
		if (!existsSync(file)) throw new Error(`${file} is missing: run \`node scripts/ensure-model.mjs\` (npm test does) to build it`);
		const table = parseCategories(readFileSync(file, 'utf8'));
		const members = (q: string) => expandCategories(table, q).split(' ');
		expect(members('Which sports has she tried?')).toEqual(expect.arrayContaining(['tennis', 'skiing', 'swimming']));
		expect(members('Which cities has she visited?')).toEqual(expect.arrayContaining(['paris', 'lisbon', 'tallinn']));
		expect(members('What dishes has he cooked?')).toEqual(expect.arrayContaining(['soup', 'curry']));
		// Seven hypernym steps below "animal"; musical instruments first, not tools and legal documents.
		expect(members('Which animals has she looked after?')).toEqual(expect.arrayContaining(['dog', 'ferret', 'parrot']));
		expect(members('What instruments does she play?').slice(0, 10)).toEqual(expect.arrayContaining(['piano', 'guitar', 'violin', 'cello']));
		expect(members('What injuries has he had?')).toEqual(expect.arrayContaining(['sprain', 'fracture', 'concussion']));
	});
});

describe('pseudo-relevance feedback', () => {
	it('adds the neighbours of the top hits direction as weaker semantic matches, keeping the raw cosine the query’s', () => {
		const idx = createSearchIndex({ modelId: 'toy', dims: 3 });
		const v = (x: number, y: number, z: number) => Float32Array.of(x, y, z);
		idx.upsert(meta('top', { scope: 's' }), { content: 'alpha' }, v(1, 0.2, 0));
		idx.upsert(meta('near', { scope: 's' }), { content: 'beta' }, v(0.6, 1, 0));
		idx.upsert(meta('far', { scope: 's' }), { content: 'gamma' }, v(0, 0, 1));
		const q = { query: 'alpha', scope: 's', limit: 10, weights: { lexical: 0, neighbor: 0, graph: 0 } };
		const saved = FEEDBACK.weight;
		try {
			FEEDBACK.weight = 0;
			const off = idx.rank(q, { vectors: [v(1, 0, 0)] }, Date.now());
			FEEDBACK.weight = 1;
			const on = idx.rank(q, { vectors: [v(1, 0, 0)] }, Date.now());
			const sem = (p: typeof on, id: string) => p.hits.find((h) => h.id === id)!.components.semantic;
			expect(sem(on, 'near')).toBeGreaterThan(sem(off, 'near'));
			expect(sem(on, 'top')).toBe(1);
			expect(on.hits.map((h) => h.id)).toEqual(off.hits.map((h) => h.id));
		} finally {
			FEEDBACK.weight = saved;
		}
	});
});

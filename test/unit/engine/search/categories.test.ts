import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATEGORIES, expandCategories, parseCategories } from '../../../../src/engine/search/categories';
import { createSearchIndex } from '../../../../src/engine/search/index';
import { FEEDBACK } from '../../../../src/engine/search/rank';
import { nodeModelPath } from '../../../../src/engine/node-model-path';
import { meta, toyEmbed } from './fixtures';

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
		const withTable = idx.rank(q, { vectors: [], categories: TABLE }, Date.now());
		const lexOf = (page: typeof without, id: string) => page.hits.find((h) => h.id === id)?.components.lexical ?? 0;
		expect(without.hits.map((h) => h.id)).toEqual(['b']);
		expect(lexOf(withTable, 'a')).toBeGreaterThan(0);
		expect(withTable.hits[0].id).toBe('b');
		// The member match counts at most CATEGORIES.weight of a direct match; its words are not the caller's.
		expect(lexOf(withTable, 'a')).toBeLessThanOrEqual(CATEGORIES.weight * lexOf(withTable, 'b') + 1e-9);
		expect(withTable.hits.find((h) => h.id === 'a')!.matched_terms).toEqual([]);
	});

	it('ships a built table that knows common categories (scripts/build-hyponyms.ts)', () => {
		const file = join(nodeModelPath(), 'engram', 'categories.json');
		if (!existsSync(file)) throw new Error(`${file} is missing: run \`node scripts/ensure-model.mjs\` (npm test does) to build it`);
		const table = parseCategories(readFileSync(file, 'utf8'));
		const members = (q: string) => expandCategories(table, q).split(' ');
		expect(members('Which sports has she tried?')).toEqual(expect.arrayContaining(['tennis', 'skiing', 'swimming']));
		expect(members('Which cities has she visited?')).toEqual(expect.arrayContaining(['paris', 'ghent', 'tallinn']));
		expect(members('What dishes has he cooked?')).toEqual(expect.arrayContaining(['soup', 'curry']));
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

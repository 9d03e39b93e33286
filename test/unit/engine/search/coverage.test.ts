import { describe, expect, it } from 'vitest';
import { parseCategories } from '../../../../src/engine/search/categories';
import { COVERAGE } from '../../../../src/engine/search/coverage';
import { createSearchIndex } from '../../../../src/engine/search/index';
import { meta, toyEmbed } from './fixtures';

const TABLE = parseCategories(JSON.stringify({ recipe: 3, source: 'test', categories: { animal: 'ferret jackdaw dog' } }));

/** Two sessions of a chat: ferrets twice in the first, a jackdaw and ferrets in the second, and small talk. */
function chat() {
	const idx = createSearchIndex({ modelId: 'toy', dims: 64 });
	const turns: [id: string, session: string, content: string][] = [
		['f1', 's1', 'Rosa: two ferrets came to stay with me this week, they are lovely and very noisy at night'],
		['f2', 's1', 'Rosa: the ferrets escaped again and hid under the sofa in the front room all afternoon'],
		['talk', 's1', 'Rosa: I looked after the shop all day while my cousin was away at the market in town'],
		['j1', 's2', 'Rosa: my latest house guest is a jackdaw with a broken wing who swears at me from the rail'],
		[
			'f3',
			's2',
			'Rosa: the ferrets have had kits, five of them asleep in a cardboard box by the radiator in the kitchen, and the vet came round on Tuesday evening to check on every one of them and weigh them all on the kitchen scales before she left for the night',
		],
		['other', 's2', 'Idris: the panto ran late again on Friday and the whole crew went to the pub after'],
	];
	for (const [id, session, content] of turns) idx.upsert(meta(id, { scope: 'chat', session }), { content }, toyEmbed(content, 64));
	return idx;
}

const QUERY = { query: 'Which animals has Rosa looked after?', scope: 'chat', limit: 10, weights: { semantic: 0, neighbor: 0, graph: 0 } };

function rankWith(bonus: number) {
	const saved = COVERAGE.bonus;
	try {
		COVERAGE.bonus = bonus;
		return chat().rank(QUERY, { vectors: [], categories: TABLE }, Date.parse('2024-06-01T00:00:00Z'));
	} finally {
		COVERAGE.bonus = saved;
	}
}

describe('coverage of expansion terms', () => {
	it('raises the first mention of each member in each session, and no later mention in the same session', () => {
		const off = rankWith(0);
		const on = rankWith(0.2);
		const lex = (page: typeof off, id: string) => page.hits.find((h) => h.id === id)!.components.lexical;
		// In session s1 the better-ranked of the two ferret turns gains; the other does not.
		const order = off.hits.map((h) => h.id);
		const [first, second] = order.indexOf('f1') < order.indexOf('f2') ? ['f1', 'f2'] : ['f2', 'f1'];
		expect(lex(on, first)).toBeGreaterThan(lex(off, first));
		expect(lex(on, second)).toBe(lex(off, second));
		// Session s2's ferret and jackdaw turns are each the first of their (member, session) pair.
		expect(lex(on, 'f3')).toBeGreaterThan(lex(off, 'f3'));
		expect(lex(on, 'j1')).toBeGreaterThan(lex(off, 'j1'));
		// A turn matching no member is left as it was.
		expect(lex(on, 'talk')).toBe(lex(off, 'talk'));
	});

	it('keeps the page sorted by score after raising, with the same hits', () => {
		const off = rankWith(0);
		const on = rankWith(0.2);
		const scores = on.hits.map((h) => h.score);
		expect(scores).toEqual([...scores].sort((a, b) => b - a));
		expect(new Set(on.hits.map((h) => h.id))).toEqual(new Set(off.hits.map((h) => h.id)));
		expect(on.total).toBe(off.total);
	});

	it('puts a later session’s mention of a member above a repeat of it in an earlier session', () => {
		const off = rankWith(0);
		const on = rankWith(0.2);
		const rank = (page: typeof off, id: string) => page.hits.findIndex((h) => h.id === id);
		const repeat = rank(off, 'f1') < rank(off, 'f2') ? 'f2' : 'f1';
		expect(rank(off, 'f3')).toBeGreaterThan(rank(off, repeat));
		expect(rank(on, 'f3')).toBeLessThan(rank(on, repeat));
	});
});

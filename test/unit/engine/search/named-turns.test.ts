import { describe, expect, it } from 'vitest';
import { createSearchIndex } from '../../../../src/engine/search/index';
import { NAMED_TURNS } from '../../../../src/engine/search/named-turns';
import { meta } from './fixtures';

/**
 * A chat of two sessions. In s1 the turn that says the question's words (t1) is followed by the
 * other speaker's small talk and, four turns on (beyond the two-turn neighbour window), by Maya's
 * answer (t5). s2 holds a turn of Maya's about something else.
 */
function chat() {
	const idx = createSearchIndex({ modelId: 'toy', dims: 8 });
	const turns: [id: string, session: string, content: string][] = [
		['t1', 's1', 'Maya: Okay I survived my first two pottery wheel classes at the studio on Elm Street'],
		['t2', 's1', 'Dan: And?? Tell me everything, I want the full report with pictures'],
		['t3', 's1', 'Dan: Wait, first I have to tell you the greyhound ate a whole sock this morning'],
		['t4', 's1', 'Dan: The vet says she will be fine, she is just very proud of herself now'],
		['t5', 's1', 'Maya: Ruth says I keep pulling the clay up too fast and the walls collapse, so slow hands from now on'],
		['t6', 's2', 'Maya: The garden needs weeding and the back fence is falling down again this spring'],
		['t7', 's2', 'Dan: Same here, the landlord has promised to fix the fence for about two years'],
	];
	// Each turn links to the one before it in its session, as the engine links a conversation's turns.
	const last = new Map<string, string>();
	for (const [id, session, content] of turns) {
		idx.upsert(meta(id, { scope: 'chat', session }), { content }, null);
		const prev = last.get(session);
		if (prev) idx.addEdge({ from: id, to: prev, type: 'PRECEDED_BY', strength: 1 });
		last.set(session, id);
	}
	return idx;
}

const NOW = Date.parse('2024-06-01T00:00:00Z');

function rankWith(share: number, scope: string | null = 'chat') {
	const saved = NAMED_TURNS.share;
	try {
		NAMED_TURNS.share = share;
		return chat().rank({ query: 'What was Maya doing wrong on the pottery wheel?', scope: scope ?? undefined, limit: 10 }, { vectors: [] }, NOW);
	} finally {
		NAMED_TURNS.share = saved;
	}
}

const neighbour = (page: ReturnType<typeof rankWith>, id: string) => page.hits.find((h) => h.id === id)?.components.neighbor ?? 0;

describe('named turns near the best hits', () => {
	it("gives the named speaker's turn a few turns from a top hit, in its session, a neighbour share", () => {
		const off = rankWith(0);
		const on = rankWith(NAMED_TURNS.share);
		// t5 is four turns from t1: the two-turn neighbour window does not reach it.
		expect(neighbour(off, 't5')).toBe(0);
		expect(neighbour(on, 't5')).toBeGreaterThan(0);
		const score = (page: typeof off, id: string) => page.hits.find((h) => h.id === id)!.score;
		expect(score(on, 't5')).toBeGreaterThan(score(off, 't5'));
		// NAMED_TURNS.share of t1's relevance (its lexical component: no query vector), t5 being long enough to carry it whole.
		expect(neighbour(on, 't5')).toBeCloseTo(NAMED_TURNS.share * on.hits.find((h) => h.id === 't1')!.components.lexical, 6);
	});

	it("leaves the other speaker's turns and the named speaker's turns of other sessions as they were", () => {
		const off = rankWith(0);
		const on = rankWith(NAMED_TURNS.share);
		// t3 and t4 hold no "Maya"; t6 is Maya's but in session s2, where no strong hit is.
		for (const id of ['t3', 't4', 't6', 't7']) expect(neighbour(on, id)).toBe(neighbour(off, id));
	});

	it('spreads only within a scope (an unscoped recall is unchanged)', () => {
		const off = rankWith(0, null);
		const on = rankWith(NAMED_TURNS.share, null);
		expect(on.hits.map((h) => [h.id, h.score])).toEqual(off.hits.map((h) => [h.id, h.score]));
	});
});

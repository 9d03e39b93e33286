import { describe, expect, it } from 'vitest';
import { ENTITY_FOCUS, namedEntities } from '../../../../src/engine/search/entity-focus';
import { createSearchIndex } from '../../../../src/engine/search/index';
import { meta, toyEmbed } from './fixtures';

/** Runs `fn` with ENTITY_FOCUS.boost set to `boost`, restoring the default after. */
function withBoost<T>(boost: number, fn: () => T): T {
	const saved = ENTITY_FOCUS.boost;
	ENTITY_FOCUS.boost = boost;
	try {
		return fn();
	} finally {
		ENTITY_FOCUS.boost = saved;
	}
}

describe('entity focus (off by default)', () => {
	it('is off by default: no names are looked for', () => {
		expect(ENTITY_FOCUS.boost).toBe(0);
		expect(namedEntities(['Which sports has Nadia tried?'])).toEqual([]);
	});

	it('takes the names the entity extractor finds in the question, as processed terms', () => {
		const named = withBoost(0.2, () => namedEntities(['Which sports has Nadia tried?', 'Did Nadia go to Lisbon?']));
		expect(named).toEqual(expect.arrayContaining([['nadia'], ['lisbon']]));
		expect(named).toHaveLength(2);
	});

	it('when on, ranks the named speaker’s turn above the other speaker’s equally matching turn, components within [0, 1]', () => {
		const idx = createSearchIndex({ modelId: 'toy', dims: 64 });
		// The speaker appears only in metadata (no name in the content), as with plain turns.
		const docs: [string, string, string][] = [
			['felix', 'Felix', 'I watched the padel final on the telly last night.'],
			['nadia', 'Nadia', 'We lost the padel final last night, gutted.'],
		];
		for (const [id, speaker, content] of docs)
			idx.upsert(meta(id, { scope: 'chat', session: 's1' }), { content, metadata: `speaker ${speaker}` }, toyEmbed(content, 64));
		const q = { query: 'What happened at the padel final Nadia was in?', scope: 'chat', limit: 10, weights: { semantic: 0, neighbor: 0, graph: 0 } };
		const off = idx.rank(q, { vectors: [] }, Date.now());
		const on = withBoost(0.2, () => idx.rank(q, { vectors: [] }, Date.now()));
		const lex = (p: typeof on, id: string) => p.hits.find((h) => h.id === id)!.components.lexical;
		expect(lex(on, 'nadia')).toBe(lex(off, 'nadia'));
		expect(lex(on, 'felix')).toBeCloseTo(0.8 * lex(off, 'felix'), 9);
		expect(on.hits[0].id).toBe('nadia');
		for (const h of on.hits) for (const v of Object.values(h.components)) expect(v).toBeLessThanOrEqual(1);
	});
});

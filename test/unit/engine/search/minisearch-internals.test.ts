import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { internalsOf } from '../../../../src/engine/search/minisearch-internals';
import { readFileSync } from 'node:fs';

const json = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));

describe('minisearch internals', () => {
	it('package.json pins the exact minisearch version whose layout the code reads', () => {
		const pinned = json('../../../../package.json').dependencies.minisearch;
		expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
		expect(pinned).toBe(json('../../../../node_modules/minisearch/package.json').version);
	});

	it('a fresh index has every declared field, holding what bm25/lexical/lexical-codec expect', () => {
		const ms = new MiniSearch<{ id: string; content: string; summary: string }>({ fields: ['content', 'summary'] });
		ms.addAll([
			{ id: 'a', content: 'garden plans', summary: 'garden' },
			{ id: 'b', content: 'budget review', summary: '' },
		]);
		ms.discard('b');
		const s = internalsOf(ms);
		expect(s._options.fields).toEqual(['content', 'summary']);
		expect(typeof s._options.tokenize).toBe('function');
		expect(typeof s._options.processTerm).toBe('function');
		expect(s._options.searchOptions).toBeTypeOf('object');
		expect(s._fieldIds).toEqual({ content: 0, summary: 1 });
		expect(s._documentCount).toBe(1);
		expect(s._nextId).toBe(2);
		expect(s._dirtCount).toBe(1);
		expect([...s._documentIds]).toEqual([[0, 'a']]);
		expect(s._idToShortId.get('a')).toBe(0);
		expect(s._fieldLength.get(0)).toEqual([2, 1]);
		expect(s._avgFieldLength).toHaveLength(2);
		expect(s._index.get('garden')).toEqual(
			new Map([
				[0, new Map([[0, 1]])],
				[1, new Map([[0, 1]])],
			]),
		);
		expect([...s._index.atPrefix('gard')].map(([t]) => t)).toEqual(['garden']);
		expect(typeof s.removeTerm).toBe('function');
	});
});

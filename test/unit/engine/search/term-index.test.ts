import SearchableMap from 'minisearch/SearchableMap';
import { describe, expect, it } from 'vitest';
import { PackedTermIndex, strictlySorted, type TermData } from '../../../../src/engine/search/term-index';

/** 20k distinct terms sharing prefixes ('a', 'ab', 'abc…'), sorted, and a data maker that counts its calls. */
function setup() {
	const words = new Set<string>(['a', 'ab', 'abc', 'b', 'café', 'cafés', 'été', '日本', '日本語']);
	for (let i = 0; words.size < 20_000; i++) words.add((i * 7919).toString(36) + (i % 3 ? 'ing' : ''));
	const terms = [...words].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
	const ranges = new Int32Array(terms.length * 2);
	terms.forEach((_, i) => ((ranges[2 * i] = i * 10), (ranges[2 * i + 1] = i * 10 + 7)));
	const made: number[] = [];
	const make = (from: number): TermData => {
		made.push(from / 10);
		return new Map([[0, new Map([[from / 10, 1]])]]);
	};
	const index = new PackedTermIndex(terms, ranges, make);
	const tree = new SearchableMap<number>();
	terms.forEach((t, i) => tree.set(t, i));
	return { terms, index, tree, made };
}

/** The term number a datum was made for. */
const termOf = (d: TermData | undefined) => (d === undefined ? undefined : [...d.get(0)!.keys()][0]);

describe('PackedTermIndex', () => {
	it('answers lookups and prefix walks like minisearch’s tree, making only the terms it reads', () => {
		const { terms, index, tree, made } = setup();
		expect(strictlySorted(terms)).toBe(true);
		expect(index.size).toBe(terms.length);
		for (const t of ['a', 'ab', 'café', '日本語', terms[0], terms[terms.length - 1], terms[12_345]]) {
			expect(index.has(t), t).toBe(true);
			expect(termOf(index.get(t)), t).toBe(tree.get(t));
		}
		for (const t of ['', 'abcd', 'caf', 'zzzzzzzzzz', '\u0000', '\uffff']) {
			expect(index.has(t), t).toBe(tree.has(t));
			expect(index.get(t), t).toBeUndefined();
		}
		for (const p of ['a', 'ab', 'caf', '日', '1', 'zz', 'nothing-starts-so']) {
			const ours = [...index.atPrefix(p)].map(([t, d]) => [t, termOf(d)]);
			const theirs = [...tree.atPrefix(p)].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
			expect(ours, p).toEqual(theirs);
		}
		// Only what was read was made, and reading again gives the same object.
		expect(index.made).toBe(false);
		expect(made.length).toBeLessThan(terms.length);
		const before = made.length;
		expect(index.get('café')).toBe(index.get('café'));
		expect(made.length).toBe(before);
	});

	it('makes the tree in steps, keeping the objects it already handed out', async () => {
		const { terms, index } = setup();
		const early = index.get('café');
		let pauses = 0;
		await index.settle(async () => void pauses++);
		expect(pauses).toBe(2);
		expect(index.made).toBe(true);
		expect(index.size).toBe(terms.length);
		expect(index.get('café')).toBe(early);
		expect([...index.keys()].sort()).toEqual([...terms].sort());
	});

	it('finishes the tree at once when a change comes in while it settles, and the change holds', async () => {
		const { terms, index } = setup();
		let pauses = 0;
		const fresh: TermData = new Map();
		await index.settle(async () => {
			if (pauses++ === 0) index.set('brand-new', fresh);
		});
		expect(pauses).toBe(1);
		expect(index.made).toBe(true);
		expect(index.size).toBe(terms.length + 1);
		expect(index.get('brand-new')).toBe(fresh);
		index.delete('café');
		expect(index.has('café')).toBe(false);
		expect([...index.atPrefix('caf')].map(([t]) => t)).toEqual(['cafés']);
	});

	it('makes the tree for what only the tree can do (fuzzy lookups, walks, fetch)', () => {
		const { index } = setup();
		expect([...index.fuzzyGet('cafe', 1).keys()].sort()).toEqual(['café']);
		expect(index.made).toBe(true);
		const again = setup().index;
		const data = again.fetch('new-term', () => new Map());
		expect(again.get('new-term')).toBe(data);
	});
});

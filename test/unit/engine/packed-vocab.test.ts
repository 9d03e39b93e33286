import { describe, expect, it } from 'vitest';
import { packVocab, vocabLookup, vocabSize } from '../../../src/engine/packed-vocab';
import { prng } from '../../../bench/lib/corpus';

describe('packVocab', () => {
	it('finds every word with its id and nothing else, as the object it was packed from', () => {
		const rnd = prng(3);
		const alphabet = 'abcdeé日😀-_ ';
		const vocab: Record<string, number> = JSON.parse('{"__proto__": 7, "constructor": 8, "": 9, "toString": 10}');
		for (let i = 0; i < 20_000; i++) {
			let w = '';
			for (let k = 1 + Math.floor(rnd() * 9); k > 0; k--) w += alphabet[Math.floor(rnd() * alphabet.length)];
			vocab[w] = 11 + i;
		}
		const lookup = vocabLookup(structuredClone(packVocab(vocab)!));
		const own = Object.keys(vocab);
		expect(vocabSize(packVocab(vocab)!)).toBe(own.length);
		expect(own.filter((w) => lookup(w) !== vocab[w])).toEqual([]);
		// Misses: prefixes, extensions, case and inherited names.
		const misses = ['hasOwnProperty', 'valueOf', 'ABC', ...own.slice(0, 2000).flatMap((w) => [`${w}z`, `z${w}`])].filter((w) => !Object.hasOwn(vocab, w));
		expect(misses.length).toBeGreaterThan(3000);
		expect(misses.filter((w) => lookup(w) !== undefined)).toEqual([]);
	});

	it('handles the empty vocabulary and refuses ids that are not whole numbers', () => {
		expect(vocabLookup(packVocab({})!)('a')).toBeUndefined();
		for (const bad of [-1, 1.5, '3', null, 2 ** 31]) expect(packVocab({ a: 1, b: bad }), String(bad)).toBeNull();
	});
});

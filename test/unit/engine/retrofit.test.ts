import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRetrofit } from '../../../scripts/build-model';
import { DEFAULT_RETROFIT, retrofit, wordnetLexicon, type RetrofitParams } from '../../../scripts/retrofit';

// A toy WordNet 3.1 dictionary (nouns only): car = auto = automobile; "bank" is first a slope, then a depository
// (= "depository"); violin ← "bowed stringed instrument" (no single-word lemma) ← instrument ← device.
const off = (i: number) => String(10_000_000 + i);
const SYNSETS: [number, string[], number[]][] = [
	[1, ['car', 'auto', 'automobile'], []],
	[2, ['bank', 'slope'], []],
	[3, ['bank', 'depository'], []],
	[4, ['device'], []],
	[5, ['instrument'], [4]],
	[6, ['bowed_stringed_instrument'], [5]],
	[7, ['violin', 'fiddle'], [6]],
];
const SENSES: Record<string, number[]> = {
	car: [1],
	auto: [1],
	automobile: [1],
	bank: [2, 3],
	slope: [2],
	depository: [3],
	device: [4],
	instrument: [5],
	violin: [7],
	fiddle: [7],
};
const WORDS = ['car', 'auto', 'automobile', 'bank', 'slope', 'depository', 'device', 'instrument', 'violin', 'fiddle', 'alone'];
const DIMS = 4;

let dir: string;
beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), 'wordnet-retrofit-'));
	const data = SYNSETS.map(([i, words, up]) => {
		const lemmas = words.map((w) => `${w} 0`).join(' ');
		const ptrs = up.map((u) => `@ ${off(u)} n 0000`).join(' ');
		return `${off(i)} 06 n ${words.length.toString(16).padStart(2, '0')} ${lemmas} ${String(up.length).padStart(3, '0')}${ptrs ? ` ${ptrs}` : ''} | gloss`;
	});
	writeFileSync(join(dir, 'data.noun'), `  1 license header\n${data.join('\n')}\n`);
	const index = Object.entries(SENSES).map(([w, o]) => `${w} n ${o.length} 1 @ ${o.length} 0 ${o.map(off).join(' ')}  `);
	writeFileSync(join(dir, 'index.noun'), `  1 license header\n${index.join('\n')}\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const vocab = new Map(WORDS.map((w, i) => [w, i]));
/** Each word on its own axis-ish direction, with a distinct length, so pulls are visible. */
function vectors(): Float64Array {
	const v = new Float64Array(WORDS.length * DIMS);
	WORDS.forEach((_, i) => {
		v[i * DIMS + (i % DIMS)] = 1 + i / 10;
		v[i * DIMS + ((i + 1) % DIMS)] = 0.25;
	});
	return v;
}
const row = (v: Float64Array, w: string) => Array.from(v.subarray(vocab.get(w)! * DIMS, (vocab.get(w)! + 1) * DIMS));
const cos = (v: Float64Array, a: string, b: string) => {
	const x = row(v, a);
	const y = row(v, b);
	const dot = x.reduce((s, xi, k) => s + xi * y[k], 0);
	return dot / Math.sqrt(x.reduce((s, xi) => s + xi * xi, 0) * y.reduce((s, yi) => s + yi * yi, 0));
};
const params = (p: Partial<RetrofitParams>): RetrofitParams => ({ ...DEFAULT_RETROFIT, pos: 'n', ...p });
const neighbours = (lex: ReturnType<typeof wordnetLexicon>, w: string) => Array.from(lex.neighbours[vocab.get(w)!], (r) => WORDS[r]);

describe('retrofitting word vectors to WordNet (scripts/retrofit.ts, opt-in build variant)', () => {
	it('links the words of a synset, and only within the senses asked for', () => {
		const all = wordnetLexicon(dir, vocab, params({ senses: 0 }));
		expect(neighbours(all, 'car')).toEqual(['auto', 'automobile']);
		expect(neighbours(all, 'bank')).toEqual(['slope', 'depository']);
		expect(neighbours(all, 'alone')).toEqual([]);
		// First sense only: "bank" is a slope, not a depository.
		const first = wordnetLexicon(dir, vocab, params({ senses: 1 }));
		expect(neighbours(first, 'bank')).toEqual(['slope']);
		expect(neighbours(first, 'depository')).toEqual([]);
		// No hypernym edges unless asked for.
		expect(neighbours(all, 'violin')).toEqual(['fiddle']);
	});

	it('links hypernyms at their own weight, passing through synsets without a vocabulary word', () => {
		const one = wordnetLexicon(dir, vocab, params({ hyperWeight: 0.5, levels: 1 }));
		// violin → "bowed_stringed_instrument" (not a vocabulary word, not counted) → instrument.
		expect(neighbours(one, 'violin')).toEqual(['instrument', 'fiddle']);
		expect(one.weights[vocab.get('violin')!][0]).toBe(0.5);
		expect(neighbours(one, 'instrument')).toEqual(['device', 'violin', 'fiddle']);
		const two = wordnetLexicon(dir, vocab, params({ hyperWeight: 0.5, levels: 2 }));
		expect(neighbours(two, 'violin')).toEqual(['device', 'instrument', 'fiddle']);
		// 'down': the category word is pulled towards its members, the members keep only their synonyms.
		const down = wordnetLexicon(dir, vocab, params({ hyperWeight: 0.5, levels: 2, hyperDirection: 'down' }));
		expect(neighbours(down, 'violin')).toEqual(['fiddle']);
		expect(neighbours(down, 'instrument')).toEqual(['violin', 'fiddle']);
		expect(neighbours(down, 'device')).toEqual(['instrument', 'violin', 'fiddle']);
	});

	it('converges to the closed form of Faruqui et al. for two linked words and leaves unlinked words alone', () => {
		const lex = wordnetLexicon(dir, vocab, params({ senses: 1 }));
		const v = vectors();
		const before = Float64Array.from(v);
		retrofit(v, DIMS, lex, params({ iterations: 30 }));
		// bank — slope, β = 1, α = 1: q_bank = (b̂ + q_slope)/2, q_slope = (ŝ + q_bank)/2 ⇒ q_bank = (2b̂ + ŝ)/3.
		const expected = row(before, 'bank').map((b, k) => (2 * b + row(before, 'slope')[k]) / 3);
		row(v, 'bank').forEach((x, k) => expect(x).toBeCloseTo(expected[k], 9));
		expect(row(v, 'alone')).toEqual(row(before, 'alone'));
		expect(row(v, 'depository')).toEqual(row(before, 'depository'));
		expect(cos(v, 'car', 'automobile')).toBeGreaterThan(cos(before, 'car', 'automobile') + 0.3);
		// A larger α keeps words nearer where they started.
		const held = Float64Array.from(before);
		retrofit(held, DIMS, lex, params({ alpha: 4 }));
		expect(cos(held, 'car', 'automobile')).toBeLessThan(cos(v, 'car', 'automobile'));
		expect(cos(held, 'car', 'automobile')).toBeGreaterThan(cos(before, 'car', 'automobile'));
	});

	it('keeps lengths when asked, keeps the frozen most frequent rows, and is deterministic', () => {
		const lex = wordnetLexicon(dir, vocab, params({ hyperWeight: 0.5 }));
		const len = (v: Float64Array, w: string) => Math.sqrt(row(v, w).reduce((s, x) => s + x * x, 0));
		const a = vectors();
		retrofit(a, DIMS, lex, params({ keepNorm: true, frozen: 2 }));
		const before = vectors();
		for (const w of WORDS) expect(len(a, w)).toBeCloseTo(len(before, w), 12);
		expect(row(a, 'car')).toEqual(row(before, 'car'));
		expect(row(a, 'auto')).toEqual(row(before, 'auto'));
		expect(row(a, 'automobile')).not.toEqual(row(before, 'automobile'));
		const b = vectors();
		retrofit(b, DIMS, lex, params({ keepNorm: true, frozen: 2 }));
		expect(Buffer.from(b.buffer).equals(Buffer.from(a.buffer))).toBe(true);
	});

	it('reads ENGRAM_MODEL_RETROFIT, and names the key and the rule when it is wrong', () => {
		expect(parseRetrofit(undefined)).toBeUndefined();
		expect(parseRetrofit('0')).toBeUndefined();
		expect(parseRetrofit('1')).toEqual(DEFAULT_RETROFIT);
		expect(parseRetrofit('senses=1,norm=1,hyper=0.5,levels=2,down=1,pos=n')).toEqual({
			...DEFAULT_RETROFIT,
			senses: 1,
			keepNorm: true,
			hyperWeight: 0.5,
			levels: 2,
			hyperDirection: 'down',
			pos: 'n',
		});
		expect(() => parseRetrofit('alpha=x')).toThrow(/alpha must be a number/);
		expect(() => parseRetrofit('pos=q')).toThrow(/pos must be letters of n, v, a, r/);
		expect(() => parseRetrofit('beta=1')).toThrow(/unknown key "beta"/);
	});
});

import { describe, expect, it } from 'vitest';
import { OverlayMap } from '../../../../src/engine/search/overlay-map';

/** A deterministic pseudo-random sequence. */
function prng(seed: number): () => number {
	let s = seed >>> 0;
	return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** An OverlayMap over a frozen copy of `entries`, and a plain Map of the same entries. */
function pair(entries: [string, number][]) {
	const frozen = new Map(entries);
	const overlay = new OverlayMap<string, number>({ size: frozen.size, get: (k) => frozen.get(k), keys: () => frozen.keys() });
	return { overlay, plain: new Map(entries), frozen };
}

const state = (m: Map<string, number>) => ({
	size: m.size,
	entries: [...m].sort(([a], [b]) => a.localeCompare(b)),
	keys: [...m.keys()].sort(),
	values: [...m.values()].sort((a, b) => a - b),
	each: (() => {
		const out: string[] = [];
		m.forEach((v, k, self) => self === m && out.push(`${k}=${v}`));
		return out.sort();
	})(),
});

describe('OverlayMap', () => {
	it('reads through to its base until a key is set or deleted', () => {
		const { overlay } = pair([
			['a', 1],
			['b', 2],
		]);
		expect([overlay.get('a'), overlay.has('b'), overlay.has('c'), overlay.size]).toEqual([1, true, false, 2]);
		overlay.set('a', 10).set('c', 3);
		expect(overlay.delete('b')).toBe(true);
		expect(overlay.delete('b')).toBe(false);
		expect([overlay.get('a'), overlay.get('b'), overlay.has('b'), overlay.size]).toEqual([10, undefined, false, 2]);
		expect([...overlay]).toEqual([
			['a', 10],
			['c', 3],
		]);
		overlay.clear();
		expect([overlay.size, overlay.get('a'), [...overlay.keys()]]).toEqual([0, undefined, []]);
	});

	it('answers like a plain Map through random changes, and never changes its base', () => {
		const rnd = prng(7);
		const keys = Array.from({ length: 40 }, (_, i) => `k${i}`);
		const { overlay, plain, frozen } = pair(keys.slice(0, 25).map((k, i) => [k, i]));
		const before = [...frozen];
		for (let step = 0; step < 2000; step++) {
			const k = keys[Math.floor(rnd() * keys.length)];
			const r = rnd();
			if (r < 0.4) {
				const v = Math.floor(rnd() * 1000);
				overlay.set(k, v);
				plain.set(k, v);
			} else if (r < 0.75) expect(overlay.delete(k), `delete ${k} at ${step}`).toBe(plain.delete(k));
			else expect([overlay.get(k), overlay.has(k)], `read ${k} at ${step}`).toEqual([plain.get(k), plain.has(k)]);
			if (step % 50 === 0) expect(state(overlay), `step ${step}`).toEqual(state(plain));
		}
		expect(state(overlay)).toEqual(state(plain));
		expect([...frozen]).toEqual(before);
	});
});

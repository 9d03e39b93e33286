/**
 * A tokenizer vocabulary (word → id) as an open-addressing hash table in typed arrays. Unlike the
 * parsed tokenizer.json object or a Map, it crosses threads as a transfer, without a copy or a
 * rebuild: the engine's helper thread builds it from the 150k-word vocabulary while the engine
 * restores its index, and the engine only looks words up.
 *
 * @example
 * const v = packVocab({ hello: 5, world: 6 });
 * vocabLookup(v)('world'); // 6
 */

/** The table: each entry's UTF-16 units in `chars` from `starts[e]` to `starts[e + 1]`, its id in `ids[e]`; `slots` holds entry numbers (−1 empty). */
export interface PackedVocab {
	chars: Uint16Array;
	starts: Uint32Array;
	ids: Int32Array;
	slots: Int32Array;
}

/** FNV-1a over UTF-16 units. */
function hashOf(s: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
	return h >>> 0;
}

/**
 * Packs `vocab` (its own keys; ids must be whole numbers from 0 to 2³¹ − 1). Returns null when an
 * id is not, so a caller can decline the vocabulary rather than map words to nonsense.
 */
export function packVocab(vocab: Record<string, unknown>): PackedVocab | null {
	const words = Object.keys(vocab);
	let total = 0;
	for (const w of words) total += w.length;
	const chars = new Uint16Array(total);
	const starts = new Uint32Array(words.length + 1);
	const ids = new Int32Array(words.length);
	// At most half full, so a miss ends after a probe or two.
	let capacity = 1;
	while (capacity < words.length * 2) capacity *= 2;
	const slots = new Int32Array(capacity).fill(-1);
	const mask = capacity - 1;
	let at = 0;
	for (let e = 0; e < words.length; e++) {
		const w = words[e];
		const id = vocab[w];
		if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id > 0x7fffffff) return null;
		ids[e] = id;
		starts[e] = at;
		for (let i = 0; i < w.length; i++) chars[at++] = w.charCodeAt(i);
		let slot = hashOf(w) & mask;
		while (slots[slot] >= 0) slot = (slot + 1) & mask;
		slots[slot] = e;
	}
	starts[words.length] = at;
	return { chars, starts, ids, slots };
}

/** The id of a word in `v`, or undefined when it has none. */
export function vocabLookup(v: PackedVocab): (word: string) => number | undefined {
	const { chars, starts, ids, slots } = v;
	const mask = slots.length - 1;
	return (word) => {
		const n = word.length;
		for (let slot = hashOf(word) & mask; ; slot = (slot + 1) & mask) {
			const e = slots[slot];
			// −1 is an empty slot; undefined, a table whose buffers were transferred away.
			if (!(e >= 0)) return undefined;
			const s = starts[e];
			if (starts[e + 1] - s !== n) continue;
			let i = 0;
			while (i < n && chars[s + i] === word.charCodeAt(i)) i++;
			if (i === n) return ids[e];
		}
	};
}

/** Entries in `v`. */
export const vocabSize = (v: PackedVocab): number => v.ids.length;

/** The buffers to list as transfers when posting `v` to another thread. */
export const vocabBuffers = (v: PackedVocab): ArrayBuffer[] => [v.chars.buffer, v.starts.buffer, v.ids.buffer, v.slots.buffer] as ArrayBuffer[];

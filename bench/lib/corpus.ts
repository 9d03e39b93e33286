/**
 * A deterministic generator of realistic memories for the benchmark. Sentences come from a
 * bigram model trained on the dev set's conversations and the paraphrase fixture (so word
 * frequencies follow natural, Zipf-like text), and every memory also mentions names, places,
 * tools and numbers drawn from large synthetic pools (so the vocabulary keeps growing with the
 * corpus, as real memories' does). Same seed, same corpus.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** mulberry32: a small, fast, seeded PRNG returning [0, 1). */
export function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const SYLLABLES = 'ka lo mi ra ten vo shi na bel dor fen gil har ith jun kel mar nor pel quin ros sul tav ur vin wen yar zel'.split(' ');
const TYPES = ['Context', 'Decision', 'Preference', 'Insight', 'Pattern', 'Habit', 'episodic', 'semantic'] as const;
const TAGS = ['work', 'home', 'health', 'travel', 'family', 'project', 'reading', 'music', 'finance', 'garden', 'code', 'meeting'];

/** Source sentences: the dev conversations' turns and the paraphrase fixture. */
function sourceText(): string[] {
	const read = (rel: string) => readFileSync(fileURLToPath(new URL(rel, import.meta.url)), 'utf8');
	const dev = JSON.parse(read('../../test/fixtures/locomo-style/dev.json')) as {
		conversations: { sessions: { turns: { text: string }[] }[] }[];
	};
	const pairs = JSON.parse(read('../../test/fixtures/paraphrase-pairs.json')) as { paraphrase: string[][]; unrelated: string[][] };
	return [...dev.conversations.flatMap((c) => c.sessions.flatMap((s) => s.turns.map((t) => t.text))), ...pairs.paraphrase.flat(), ...pairs.unrelated.flat()];
}

/** Bigram successors per word ('' starts and ends a sentence). */
function bigrams(sentences: string[]): Map<string, string[]> {
	const next = new Map<string, string[]>();
	for (const s of sentences) {
		const words = s.split(/\s+/).filter(Boolean);
		let prev = '';
		for (const w of [...words, '']) {
			let list = next.get(prev);
			if (!list) next.set(prev, (list = []));
			list.push(w);
			prev = w;
		}
	}
	return next;
}

/** A synthetic proper name of 2–3 syllables, capitalised. */
function name(rnd: () => number): string {
	const n = 2 + Math.floor(rnd() * 2);
	let s = '';
	for (let i = 0; i < n; i++) s += SYLLABLES[Math.floor(rnd() * SYLLABLES.length)];
	return s[0].toUpperCase() + s.slice(1);
}

/** One generated memory, ready for store_memory. */
export interface GeneratedMemory {
	content: string;
	type: (typeof TYPES)[number];
	tags: string[];
	scope: string;
	importance: number;
	timestamp: string;
}

/** A seeded corpus generator; `memory(i)` is deterministic for a given seed. */
export class Corpus {
	private readonly next: Map<string, string[]>;
	private readonly names: string[];
	private readonly rnd: () => number;

	constructor(seed = 42) {
		this.rnd = prng(seed);
		this.next = bigrams(sourceText());
		// A pool that grows the vocabulary: 20k names of people, places, tools, projects.
		const r = prng(seed ^ 0x9e3779b9);
		this.names = Array.from({ length: 20_000 }, () => name(r));
	}

	/** A sentence of 6–40 words from the bigram model. */
	sentence(): string {
		const words: string[] = [];
		let w = this.pick(this.next.get('')!);
		while (w !== '' && words.length < 40) {
			words.push(w);
			w = this.pick(this.next.get(w) ?? ['']);
		}
		return words.length >= 6 ? words.join(' ') : this.sentence();
	}

	/** The i-th memory: 1–4 sentences (≈ 60–600 chars) mentioning one or two pool names. */
	memory(i: number): GeneratedMemory {
		const n = 1 + Math.floor(this.rnd() * 4);
		const parts = Array.from({ length: n }, () => this.sentence());
		const who = this.names[Math.floor(this.zipf() * this.names.length)];
		parts.splice(Math.floor(this.rnd() * parts.length), 0, `${who} mentioned ticket ${1000 + Math.floor(this.rnd() * 90_000)}.`);
		const day = Date.UTC(2023, 0, 1) + Math.floor(this.rnd() * 900) * 86_400_000;
		return {
			content: parts.join(' '),
			type: TYPES[i % TYPES.length],
			tags: [TAGS[Math.floor(this.rnd() * TAGS.length)], ...(this.rnd() < 0.3 ? [TAGS[Math.floor(this.rnd() * TAGS.length)]] : [])],
			scope: `project-${Math.floor(this.zipf() * 20)}`,
			importance: Math.round(this.rnd() * 100) / 100,
			timestamp: new Date(day + Math.floor(this.rnd() * 86_400_000)).toISOString(),
		};
	}

	/** A realistic query about memory `m`: a few of its content words, sometimes its name. */
	queryFor(m: GeneratedMemory): string {
		const words = m.content.split(/\s+/).filter((w) => w.length > 3);
		const k = 2 + Math.floor(this.rnd() * 4);
		const out: string[] = [];
		for (let j = 0; j < k && words.length > 0; j++) out.push(words[Math.floor(this.rnd() * words.length)]);
		return out.join(' ').replace(/[^\p{L}\p{N}\s]/gu, '');
	}

	private pick<T>(xs: T[]): T {
		return xs[Math.floor(this.rnd() * xs.length)];
	}

	/** Skewed towards 0 (some names and scopes are far more common than others). */
	private zipf(): number {
		return Math.pow(this.rnd(), 2.5);
	}
}

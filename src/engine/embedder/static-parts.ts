/**
 * A local static model's parts: its files read, checked and parsed into the int8 row table, the
 * scales and the word-level tokenizer's spec (the work the engine worker's helper thread does at
 * start-up), and kept between loads as one parts file (parts-file.ts).
 */
import { MemoryError } from '../../core/errors';
import { decodePartsFile, encodePartsFile } from '../parts-file';
import { specBuffers, wordLevelSpec, type WordLevelSpec } from '../word-tokenizer';
import { readLocalConfig, readVerified } from './model-files';
import { ONNX_FLOAT, ONNX_INT8, readOnnxInitializers } from './onnx';
import { DEFAULT_MODEL_ID, fail, type Progress, type StaticModelInfo, type StaticModelParts } from './types';

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
		await (opts.parseAfter ?? Promise.resolve()).catch(() => undefined);
		const cached = await opts.cache!.read(name).then(
			(bytes) => decodePartsFile(bytes, key),
			() => undefined,
		);
		if (cached) return cached;
	}
	const files = await readStaticFiles(modelId, info, opts.localModelPath, undefined, opts.parseAfter);
	const parts = files.spec ? partsOf(modelId, info, files, files.spec) : undefined;
	// A copy, written while the caller goes on (and may transfer the parts away).
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

/** A static model's files, read, checked against config.json's digests and parsed. */
export interface StaticFiles {
	config: { model_max_length?: unknown };
	/** The word-level tokenizer's spec, or null when tokenizer.json is not one reproduced here. */
	spec: WordLevelSpec | null;
	onnx: Uint8Array;
}

/** Reads a static model's files, checks their digests, and parses them once `parseAfter` settles. */
export async function readStaticFiles(
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

/** A static model's parts from its parsed files. */
export function partsOf(modelId: string, info: StaticModelInfo, files: StaticFiles, spec: WordLevelSpec): StaticModelParts {
	const { table, scales, dims } = readTable(modelId, info, files.onnx, spec.vocabSize);
	return { modelId, dims, unk: info.unk_token_id, maxTokens: maxTokensOf(files.config), table, scales, tokenizer: spec };
}

/** The int8 row table and its scales, read straight out of the ONNX file and checked against the tokenizer. */
export function readTable(
	modelId: string,
	info: StaticModelInfo,
	bytes: Uint8Array,
	vocabSize: number,
): { table: Int8Array; scales: Float32Array; dims: number } {
	const tensors = readOnnxInitializers(bytes, [info.table_initializer, info.scale_initializer]);
	const table = tensors.get(info.table_initializer);
	const scaleTensor = tensors.get(info.scale_initializer);
	if (!table || !scaleTensor) throw fail(modelId, `${info.onnx_file} has no initializer "${!table ? info.table_initializer : info.scale_initializer}"`);
	const [rows, dims] = table.dims;
	if (table.dataType !== ONNX_INT8 || scaleTensor.dataType !== ONNX_FLOAT || table.dims.length !== 2 || dims !== info.dims || scaleTensor.dims[0] !== rows) {
		throw fail(
			modelId,
			`${info.onnx_file}: table must be int8 [vocab, ${info.dims}] with float [vocab] scales, found types ${table.dataType}/${scaleTensor.dataType} and shapes [${table.dims}]/[${scaleTensor.dims}]`,
		);
	}
	if (vocabSize !== rows) throw fail(modelId, `tokenizer has ${vocabSize} tokens but the table has ${rows} rows; the model files come from different builds`);
	return {
		table: new Int8Array(table.raw.buffer, table.raw.byteOffset, table.raw.byteLength),
		// Copy into a fresh buffer: raw_data sits at an arbitrary byte offset and Float32Array views need 4-byte alignment.
		scales: new Float32Array(new Uint8Array(scaleTensor.raw).buffer),
		dims,
	};
}

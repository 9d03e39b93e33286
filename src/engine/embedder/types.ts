/**
 * What an embedder is and what loading one takes: the {@link Embedder} contract the engine uses,
 * the load options and progress events, and the parts of a static model as one thread hands them
 * to another. Data and types only, so parts-file.ts and the workers can name them without
 * importing any loading code.
 */
import type { ProgressInfo } from '@huggingface/transformers';
import { MemoryError } from '../../core/errors';
import { EMBEDDED_MODEL_ID } from '../../store/names';
import type { WordLevelSpec } from '../word-tokenizer';

/** The embedded model's id: served from `<localModelPath>/engram/glove-sif-100d/` (the store names it too, store/names.ts). */
export const DEFAULT_MODEL_ID = EMBEDDED_MODEL_ID;

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
export interface StaticModelInfo {
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
export type Progress = (p: ProgressInfo | EmbedderProgress) => void;

/** The MemoryError('embedding_failed') every load and embed failure becomes, naming the model. */
export const fail = (modelId: string, message: string, cause?: unknown): MemoryError =>
	new MemoryError('embedding_failed', cause === undefined ? message : `${message}: ${cause instanceof Error ? cause.message : String(cause)}`, { modelId });

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

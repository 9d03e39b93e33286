/**
 * {@link createEmbedder}: decides, per model, between the static fast path and the transformers.js
 * pipeline, and keeps loads from sharing transformers.js's global settings.
 */
import type { ProgressInfo } from '@huggingface/transformers';
import { IS_NODE, readLocalConfig } from './model-files';
import { createPipelineEmbedder, transformers, type Transformers } from './pipeline';
import { createStaticEmbedder } from './static';
import { DEFAULT_MODEL_ID, fail, type CreateEmbedderOptions, type Embedder, type EmbedderProgress, type Progress, type StaticModelInfo } from './types';

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

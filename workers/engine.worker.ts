/**
 * The engine worker: owns IndexedDB, the search index and the embedder, and exposes the Engine
 * over comlink. It serves the embedded model and onnxruntime's wasm from the app's own origin.
 * Calls made before the engine is ready wait for it (see remote-facade.ts).
 */
import { expose } from 'comlink';
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import { createEmbedder, DEFAULT_MODEL_ID, type EmbedderProgress } from '../src/engine/embedder';
import { createEngine, type Engine } from '../src/engine/engine';
import { remoteFacade } from '../src/engine/remote-facade';
import { registerMemoryErrorTransfer } from '../src/engine/transfer';

registerMemoryErrorTransfer();

// A path, not a full URL: transformers.js 4.3 skips local files whose path is an http(s) URL when it
// probes for tokenizer_config.json, and the tokenizer then fails to load ("reading 'tokenizer_class'").
const localModelPath = '/models/';
const wasmPaths = { wasm: new URL(ortWasmUrl, self.location.origin).href, mjs: new URL(ortMjsUrl, self.location.origin).href };

/** Loads any model from the app's origin (the embedded one) or the hub (a user's choice). */
function loadModel(modelId: string, onProgress?: (p: EmbedderProgress) => void) {
	return createEmbedder({ modelId, localModelPath, wasmPaths, onProgress });
}

const ready: Promise<Engine> = createEngine({
	embedder: loadModel(DEFAULT_MODEL_ID),
	modelId: DEFAULT_MODEL_ID,
	embedderFactory: loadModel,
});

expose(remoteFacade(ready));

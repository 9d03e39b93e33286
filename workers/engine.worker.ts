/**
 * The engine worker: owns IndexedDB, the search index and the embedder, and exposes the Engine
 * over comlink. It serves the embedded model and onnxruntime's wasm from the app's own origin.
 * Calls made before the engine is ready wait for it (see remote-facade.ts).
 *
 * Its first lines start what a page load waits for before the engine's own code (Dexie, the
 * search index) has even arrived: a helper thread reading the index snapshot, and the model.
 * The engine is imported afterwards and takes both over.
 */
import { expose } from 'comlink';
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import { createEmbedder, DEFAULT_MODEL_ID, type EmbedderProgress } from '../src/engine/embedder';
import { remoteFacade } from '../src/engine/remote-facade';
import { registerMemoryErrorTransfer } from '../src/engine/transfer';
import { DEFAULT_DB_NAME } from '../src/store/names';
import type { SnapshotOf, StampedSnapshot } from '../src/store/snapshot-reader';

registerMemoryErrorTransfer();

// A path, not a full URL: transformers.js 4.3 skips local files whose path is an http(s) URL when it
// probes for tokenizer_config.json, and the tokenizer then fails to load ("reading 'tokenizer_class'").
const localModelPath = '/models/';
const wasmPaths = { wasm: new URL(ortWasmUrl, self.location.origin).href, mjs: new URL(ortMjsUrl, self.location.origin).href };

/** How long the snapshot helper may take before the engine reads the snapshot itself. */
const HELPER_TIMEOUT_MS = 10_000;

/**
 * Reads an index snapshot in a helper thread: this one is busy loading the model and the engine
 * meanwhile, and a large IndexedDB value arrives only as fast as its reading thread has turns to spare.
 */
function readSnapshotInHelper(of: SnapshotOf): Promise<StampedSnapshot> {
	const helper = new Worker(new URL('./snapshot.worker.ts', import.meta.url), { type: 'module', name: 'engram-snapshot' });
	let timer: ReturnType<typeof setTimeout> | undefined;
	return new Promise<StampedSnapshot>((resolve, reject) => {
		helper.onmessage = (e: MessageEvent<{ ok?: StampedSnapshot; error?: string }>) => (e.data.ok ? resolve(e.data.ok) : reject(new Error(e.data.error)));
		helper.onerror = (e) => reject(new Error(e.message || 'snapshot helper failed'));
		helper.postMessage({ name: DEFAULT_DB_NAME, of });
		// Never wait on it for long (another tab upgrading the database could hold its open): the
		// engine then reads the snapshot itself.
		timer = setTimeout(() => reject(new Error('snapshot helper timed out')), HELPER_TIMEOUT_MS);
	}).finally(() => {
		clearTimeout(timer);
		helper.terminate();
	});
}

/** Loads any model from the app's origin (the embedded one) or the hub (a user's choice). */
function loadModel(modelId: string, onProgress?: (p: EmbedderProgress) => void) {
	return createEmbedder({ modelId, localModelPath, wasmPaths, onProgress });
}

// The active model's snapshot, read while the rest loads. On a first visit there is no database
// yet and the helper says so; the engine then builds an empty index.
const early = readSnapshotInHelper({ active: DEFAULT_MODEL_ID });
early.catch(() => undefined);
const embedder = loadModel(DEFAULT_MODEL_ID);
embedder.catch(() => undefined);

const ready = import('../src/engine/engine').then(({ createEngine }) =>
	createEngine({
		embedder,
		modelId: DEFAULT_MODEL_ID,
		embedderFactory: loadModel,
		snapshotSource: () => early,
	}),
);

expose(remoteFacade(ready));

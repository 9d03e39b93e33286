/**
 * The engine worker: owns IndexedDB, the search index and the embedder, and exposes the Engine
 * over comlink. It serves the embedded model and onnxruntime's wasm from the app's own origin.
 * Calls made before the engine is ready wait for it.
 */
import { expose, proxy } from 'comlink';
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import { createEmbedder, DEFAULT_MODEL_ID, type EmbedderProgress } from '../src/engine/embedder';
import { createEngine, type Engine } from '../src/engine/engine';
import { registerMemoryErrorTransfer } from '../src/engine/transfer';
import type { ChangeEvent } from '../src/engine/types';

registerMemoryErrorTransfer();

const localModelPath = new URL('/models/', self.location.origin).href;
const wasmPaths = { wasm: new URL(ortWasmUrl, self.location.origin).href, mjs: new URL(ortMjsUrl, self.location.origin).href };

/** Loads any model from the app's origin (the embedded one) or the hub (a user's choice). */
function loadModel(modelId: string, onProgress?: (p: EmbedderProgress) => void) {
	return createEmbedder({ modelId, localModelPath, wasmPaths, onProgress });
}

const ready: Promise<Engine> = createEngine({
	embedder: loadModel(DEFAULT_MODEL_ID),
	embedderFactory: loadModel,
});

// Persist a pending snapshot when the worker is about to go away with its page.
self.addEventListener('pagehide', () => void ready.then((e) => e.flushSnapshot()));

/**
 * A stand-in exposed at once: every property is an async function that waits for the engine.
 * subscribe() returns a comlink proxy of the unsubscribe function, since functions don't clone.
 */
const facade = new Proxy({} as Record<string, unknown>, {
	get(_target, prop: string) {
		if (prop === 'then') return undefined;
		if (prop === 'subscribe')
			return async (listener: (e: ChangeEvent) => void) => proxy((await ready).subscribe(listener));
		return async (...args: unknown[]) => {
			const engine = (await ready) as unknown as Record<string, (...a: unknown[]) => unknown>;
			const fn = engine[prop];
			if (typeof fn !== 'function') throw new TypeError(`engine has no method ${prop}`);
			return fn.apply(engine, args);
		};
	},
});

expose(facade);

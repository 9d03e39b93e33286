/**
 * The engine worker: owns IndexedDB, the search index and the embedder, and exposes the Engine
 * over comlink. It serves the embedded model and onnxruntime's wasm from the app's own origin.
 * Calls made before the engine is ready wait for it (see remote-facade.ts).
 *
 * Its first lines start what a page load waits for before the engine's own code (Dexie, the
 * search index) has even arrived: a helper thread that reads the index snapshot and then loads
 * the embedded model. The engine is imported afterwards and takes both over.
 */
import '../src/core/zod-jitless';
import { expose } from 'comlink';
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import { parseCategories } from '../src/engine/search/categories';
import { createEmbedder, DEFAULT_MODEL_ID, staticEmbedder, type EmbedderProgress, type StaticModelParts } from '../src/engine/embedder';
import { remoteFacade } from '../src/engine/remote-facade';
import { registerMemoryErrorTransfer } from '../src/engine/transfer';
import { DEFAULT_DB_NAME } from '../src/store/names';
import type { SourcedSnapshot } from '../src/engine/index-lifecycle';
import type { SnapshotSections } from '../src/engine/search/snapshot';
import type { StartupRequest } from './startup.worker';

registerMemoryErrorTransfer();

// A path, not a full URL: transformers.js 4.3 skips local files whose path is an http(s) URL when it
// probes for tokenizer_config.json, and the tokenizer then fails to load ("reading 'tokenizer_class'").
const localModelPath = '/models/';
const wasmPaths = { wasm: new URL(ortWasmUrl, self.location.origin).href, mjs: new URL(ortMjsUrl, self.location.origin).href };

/** How long each of the helper's answers may take before the engine does that work itself. */
const HELPER_TIMEOUT_MS = 10_000;

/**
 * Starts the helper thread (startup.worker.ts) that reads the index snapshot and loads the
 * embedded model while this thread loads the engine and then restores: both arrive as transfers.
 * Each answer is awaited for HELPER_TIMEOUT_MS at most (another tab upgrading the database could
 * hold the helper's open): the engine then reads the snapshot, or loads the model, itself. The
 * helper is ended once it says it is done (after its last answer it may still be writing the
 * model's parts file for the next load), or at that timeout.
 */
function startHelper(request: StartupRequest): { snapshot: Promise<SourcedSnapshot>; model: Promise<StaticModelParts | null> } {
	const helper = new Worker(new URL('./startup.worker.ts', import.meta.url), { type: 'module', name: 'engram-startup' });
	type Answer = {
		snapshot?: SourcedSnapshot;
		snapshotError?: string;
		sections?: SnapshotSections;
		sectionsError?: string;
		model?: StaticModelParts | null;
		modelError?: string;
		/** The helper has nothing left to do (it may still be writing after its last answer). */
		done?: true;
	};
	const answer = <T,>(take: (a: Answer) => { ok: T } | { error: string } | undefined) =>
		new Promise<T>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error('start-up helper timed out')), HELPER_TIMEOUT_MS);
			const settle = (r: { ok: T } | { error: string }) => {
				clearTimeout(timer);
				if ('ok' in r) resolve(r.ok);
				else reject(new Error(r.error));
			};
			helper.addEventListener('message', (e: MessageEvent<Answer>) => {
				const r = take(e.data);
				if (r) settle(r);
			});
			helper.addEventListener('error', (e) => settle({ error: e.message || 'start-up helper failed' }));
		});
	const sections = answer<SnapshotSections>((a) =>
		a.sections ? { ok: a.sections } : a.sectionsError !== undefined ? { error: a.sectionsError } : undefined,
	);
	sections.catch(() => undefined);
	// A sliced snapshot arrives with its metadata first; the other sections follow.
	const snapshot = answer<SourcedSnapshot>((a) =>
		a.snapshot ? { ok: a.snapshot } : a.snapshotError !== undefined ? { error: a.snapshotError } : undefined,
	).then(({ stamp, snapshot: snap }) => ({ stamp, snapshot: snap && 'slices' in snap ? { ...snap, slices: { ...snap.slices, sections } } : snap }));
	const model = answer<StaticModelParts | null>((a) =>
		a.model !== undefined ? { ok: a.model } : a.modelError !== undefined ? { error: a.modelError } : undefined,
	);
	const done = answer<true>((a) => (a.done ? { ok: true } : undefined));
	helper.postMessage(request);
	void Promise.allSettled([snapshot, sections, model, done]).then(() => helper.terminate());
	return { snapshot, model };
}

/** Loads any model from the app's origin (the embedded one) or the hub (a user's choice). */
function loadModel(modelId: string, onProgress?: (p: EmbedderProgress) => void) {
	return createEmbedder({ modelId, localModelPath, wasmPaths, onProgress });
}

// The active model's snapshot and the embedded model, loaded while the rest loads. On a first
// visit there is no database yet and the helper says so; the engine then builds an empty index.
const helper = startHelper({ name: DEFAULT_DB_NAME, of: { active: DEFAULT_MODEL_ID }, model: { modelId: DEFAULT_MODEL_ID, localModelPath } });
const early = helper.snapshot;
early.catch(() => undefined);
// Should the helper fail, this thread loads the model, and reports the failure if it is real.
const embedder = helper.model.then(
	(parts) => (parts ? staticEmbedder(parts) : loadModel(DEFAULT_MODEL_ID)),
	() => loadModel(DEFAULT_MODEL_ID),
);
embedder.catch(() => undefined);

const ready = import('../src/engine/engine').then(({ createEngine }) =>
	createEngine({
		embedder,
		modelId: DEFAULT_MODEL_ID,
		embedderFactory: loadModel,
		snapshotSource: () => early,
		// WordNet's category table (scripts/build-hyponyms.ts), precached with the model.
		categories: fetch(`${localModelPath}engram/categories.json`).then((r) => (r.ok ? r.text().then(parseCategories) : undefined)),
	}),
);

expose(remoteFacade(ready));

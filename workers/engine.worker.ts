/**
 * The engine worker: owns IndexedDB, the search index and the embedder, and exposes the Engine
 * over comlink. It serves the embedded model and onnxruntime's wasm from the app's own origin.
 * Calls made before the engine is ready wait for it (see remote-facade.ts).
 *
 * Its first lines start what a page load waits for before the engine's own code (Dexie, the
 * search index) has even arrived: a helper thread that reads the index snapshot, then loads
 * the embedded model, then parses WordNet's category table. The engine is imported afterwards
 * and takes them over.
 */
import '../src/core/zod-jitless';
import { expose } from 'comlink';
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import { parseCategories, type CategoryTable } from '../src/engine/search/categories';
import { createEmbedder, DEFAULT_MODEL_ID, staticEmbedder, type EmbedderProgress, type StaticModelParts } from '../src/engine/embedder';
import { reads } from '../src/engine/read-gate';
import { remoteFacade } from '../src/engine/remote-facade';
import { registerMemoryErrorTransfer } from '../src/engine/transfer';
import { DEFAULT_DB_NAME } from '../src/store/names';
import type { SourcedSnapshot } from '../src/engine/index-lifecycle';
import type { RelayControl } from '../src/mcp/relay-host';
import { ERROR_OF, type StartupAnswer, type StartupRequest } from './startup-protocol';

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
function startHelper(request: StartupRequest): {
	snapshot: Promise<SourcedSnapshot>;
	model: Promise<StaticModelParts | null>;
	categories: Promise<CategoryTable | null>;
} {
	const helper = new Worker(new URL('./startup.worker.ts', import.meta.url), { type: 'module', name: 'engram-startup' });
	type Ok = keyof typeof ERROR_OF;
	/** The first answer of type `ok` (or the error that stands for it), within HELPER_TIMEOUT_MS. */
	const answer = <K extends Ok>(ok: K) =>
		new Promise<Extract<StartupAnswer, { type: K }>>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error('start-up helper timed out')), HELPER_TIMEOUT_MS);
			const settle = (fn: () => void) => {
				clearTimeout(timer);
				fn();
			};
			helper.addEventListener('message', (e: MessageEvent<StartupAnswer>) => {
				const a = e.data;
				if (a.type === ok) settle(() => resolve(a as Extract<StartupAnswer, { type: K }>));
				else if (a.type === ERROR_OF[ok] && 'error' in a) settle(() => reject(new Error(a.error)));
			});
			helper.addEventListener('error', (e) => settle(() => reject(new Error(e.message || 'start-up helper failed'))));
		});
	const sections = answer('sections').then((a) => a.sections);
	// Awaited by the restore when it needs them; until then a failure must not count as unhandled.
	sections.catch(() => undefined);
	// A sliced snapshot arrives with its metadata first; the other sections follow.
	const snapshot: Promise<SourcedSnapshot> = answer('snapshot').then(({ snapshot: { stamp, snapshot: snap } }) => ({
		stamp,
		snapshot: snap && 'slices' in snap ? { ...snap, slices: { ...snap.slices, sections } } : snap,
	}));
	const model = answer('model').then((a) => a.model);
	const categories = answer('categories').then((a) => a.categories);
	const done = answer('done');
	helper.postMessage(request);
	void Promise.allSettled([snapshot, sections, model, categories, done]).then(() => helper.terminate());
	return { snapshot, model, categories };
}

/** Loads any model from the app's origin (the embedded one) or the hub (a user's choice). */
function loadModel(modelId: string, onProgress?: (p: EmbedderProgress) => void) {
	return createEmbedder({ modelId, localModelPath, wasmPaths, onProgress });
}

// The active model's snapshot and the embedded model, loaded while the rest loads. On a first
// visit there is no database yet and the helper says so; the engine then builds an empty index.
// WordNet's category table (scripts/build-hyponyms.ts), precached with the model.
const categoriesUrl = `${localModelPath}engram/categories.json`;
const helper = startHelper({
	name: DEFAULT_DB_NAME,
	of: { active: DEFAULT_MODEL_ID },
	model: { modelId: DEFAULT_MODEL_ID, localModelPath },
	categories: categoriesUrl,
});
const early = helper.snapshot;
// The engine awaits it and rebuilds the index on failure; until then it must not count as unhandled.
early.catch(() => undefined);
// Should the helper fail, this thread loads the model, and reports the failure if it is real.
const embedder = helper.model.then(
	(parts) => (parts ? staticEmbedder(parts) : loadModel(DEFAULT_MODEL_ID)),
	() => loadModel(DEFAULT_MODEL_ID),
);
// createEngine awaits it and fails with its error; until then it must not count as unhandled.
embedder.catch(() => undefined);

const ready = import('../src/engine/engine').then(({ createEngine }) =>
	createEngine({
		embedder,
		modelId: DEFAULT_MODEL_ID,
		embedderFactory: loadModel,
		snapshotSource: () => early,
		// Parsed by the helper, off this thread; should it fail, here.
		categories: helper.categories.then(
			(t) => t ?? undefined,
			() => fetch(categoriesUrl).then((r) => (r.ok ? r.text().then(parseCategories) : undefined)),
		),
	}),
);

/** How long the relay host's load waits, once the engine is ready, for the reads queued during the start to finish. */
const RELAY_AFTER_READS_MS = 2_000;

/**
 * The relay host (src/mcp/relay-host.ts): the page pairs and watches through `remote.relay`, and
 * desktop agents' calls are served here, on this thread, straight into the engine. Loaded on the
 * page's first call, and only once the engine is ready and the reads that waited for it (the
 * page's first search) have answered: the page watches the relay as it boots, and evaluating the
 * MCP SDK's 370 kB (40–50 ms at 100k memories, Chromium) landed inside the restore or the first
 * recall.
 */
let relayHost: Promise<RelayControl> | undefined;
const relayControl = new Proxy({} as Record<string, unknown>, {
	get(_target, prop) {
		if (prop === 'then' || typeof prop === 'symbol') return undefined;
		return async (...args: unknown[]) => {
			relayHost ??= ready
				// A task first: the calls queued behind `ready` start, and count as reads in flight.
				.then((engine) => new Promise((next) => setTimeout(next, 0)).then(() => reads.idle(RELAY_AFTER_READS_MS).then(() => engine)))
				.then((engine) => Promise.all([engine, import('../src/mcp/relay-host')]))
				.then(([engine, { RelayHost }]) => new RelayHost(engine, { app: { name: 'Engram', version: __APP_VERSION__ } }));
			const host = (await relayHost) as unknown as Record<string, (...a: unknown[]) => unknown>;
			if (typeof host[prop] !== 'function') throw new TypeError(`the relay host has no method ${prop}`);
			return host[prop](...args);
		};
	},
});

expose(remoteFacade(ready, { relay: relayControl }));

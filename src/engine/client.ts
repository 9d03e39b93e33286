/**
 * The page's handle on the engine worker. Every EngineApi method becomes async over comlink;
 * MemoryError keeps its `code` (see transfer.ts). Callbacks (subscribe's listener, progress
 * callbacks) must be wrapped in `comlink.proxy()`; the returned unsubscribe is a remote function.
 *
 * @example
 * const engine = createEngineClient();
 * const off = await engine.subscribe(proxy((e) => console.log(e.kind)));
 * await engine.store({ content: 'Deploys happen on Tuesdays' });
 */
import { wrap, type Remote } from 'comlink';
import { registerMemoryErrorTransfer } from './transfer';
import type { EngineApi } from './types';

/** The page's engine handle. */
export type EngineClient = Remote<EngineApi>;

/** Starts the engine worker and returns its comlink proxy. */
export function createEngineClient(): EngineClient {
	registerMemoryErrorTransfer();
	const worker = new Worker(new URL('../../workers/engine.worker.ts', import.meta.url), { type: 'module', name: 'engram-engine' });
	const remote = wrap<EngineApi>(worker);
	// Workers get no pagehide: ask the engine to persist its index snapshot while the page goes.
	globalThis.addEventListener?.('pagehide', () => {
		// The page is going: nobody is left to tell; the engine reports its own failure (background.ts).
		void (remote as unknown as { flushSnapshot(): Promise<void> }).flushSnapshot().catch(() => undefined);
	});
	return remote;
}

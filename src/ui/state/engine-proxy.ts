/**
 * The engine as the UI sees it: the worker's comlink proxy of `EngineApi`, every method async.
 * Named apart from the engine's own class (engine/engine.ts `Engine`), which runs in the worker.
 * Its own module so state classes can take it without importing the app context (which imports
 * them: that was a cycle).
 */
import type { Remote } from 'comlink';
import type { EngineApi } from '../../engine/types';

/** The worker's comlink proxy of the engine. */
export type EngineProxy = Remote<EngineApi>;

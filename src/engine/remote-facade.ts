/**
 * The object a worker exposes over comlink in place of the Engine: every property is an async
 * function that waits for the engine to be ready (so the page may call at once), and
 * subscribe() returns its unsubscribe function as a comlink proxy (functions don't clone).
 */
import { proxy } from 'comlink';
import type { EngineApi } from './types';

/** Calls that wait for recalls in flight (stats-ops.ts, browse-ops.ts), started after the others that waited with them. */
const AFTER_OTHERS = new Set(['stats', 'timeline']);

/**
 * Calls whose answers callers that ask at the same time share: after every change the page's
 * sidebar and memory list each ask for the same counts (about 1 ms of this thread at 10k
 * memories, which an agent's call arriving meanwhile waits behind; issue 25).
 */
const SHARED = new Set(['stats']);

/**
 * A facade over a (possibly not yet ready) engine, for `comlink.expose`. `extras` are served
 * as they are, beside the engine's methods (the worker's relay control: `remote.relay.pair(…)`).
 * A SHARED call asked again, with equal arguments, while the first is in flight gets the first
 * one's answer, unless a change was committed in between (the engine's change events end the
 * sharing, so an answer never predates a change its caller was told about).
 */
export function remoteFacade(ready: Promise<EngineApi>, extras: Record<string, object> = {}): EngineApi {
	const inFlight = new Map<string, Promise<unknown>>();
	let watching = false;
	const shared = (engine: EngineApi, key: string, call: () => Promise<unknown>): Promise<unknown> => {
		const first = inFlight.get(key);
		if (first) return first;
		if (!watching) {
			watching = true;
			engine.subscribe(() => inFlight.clear());
		}
		const answer = call().finally(() => {
			if (inFlight.get(key) === answer) inFlight.delete(key);
		});
		inFlight.set(key, answer);
		return answer;
	};
	return new Proxy({} as Record<string, unknown>, {
		get(_target, prop) {
			// Not a thenable: comlink and `await` must not mistake the facade for a promise.
			if (prop === 'then' || typeof prop === 'symbol') return undefined;
			if (Object.hasOwn(extras, prop)) return extras[prop];
			if (prop === 'subscribe') return async (listener: Parameters<EngineApi['subscribe']>[0]) => proxy((await ready).subscribe(listener));
			return async (...args: unknown[]) => {
				const engine = (await ready) as unknown as Record<string, unknown>;
				const fn = engine[prop];
				if (typeof fn !== 'function') throw new TypeError(`engine has no method ${prop}`);
				const call = async () => {
					// The app's own counts and list pages start a step after the calls that waited with
					// them: a recall queued behind the engine's start is then in flight, and they yield to it.
					if (AFTER_OTHERS.has(prop)) await Promise.resolve();
					return (fn as (...a: unknown[]) => unknown).apply(engine, args);
				};
				return SHARED.has(prop) ? shared(engine as unknown as EngineApi, `${prop} ${JSON.stringify(args)}`, call) : call();
			};
		},
	}) as unknown as EngineApi;
}

/**
 * Live updates: one engine subscription, turned into version counters that views read in
 * `$derived`/`$effect` to refetch when something they show has changed (an agent storing a
 * memory over MCP shows up in the open list without a reload).
 */
import { proxy } from 'comlink';
import type { ChangeEvent } from '../../engine/types';
import type { EngineProxy } from './engine-proxy';

/**
 * Engine events within a window are applied together: an agent storing memories one by one then
 * costs the open views one refetch per window instead of one per memory (each refetch also queues
 * reads in the engine worker ahead of the agent's next call). The window starts at `baseMs` and
 * doubles, up to `maxMs`, while events keep coming (a bulk import of 100k memories would otherwise
 * spend a large share of the worker on refetching counts), and falls back once a window is quiet.
 */
export const LIVE_WINDOW = { baseMs: 400, maxMs: 3_200 };

/** Change counters per kind; `memories` also bumps on wipe and import. */
export class Live {
	memories = $state(0);
	associations = $state(0);
	settings = $state(0);
	model = $state(0);
	/** Ids touched by the last memory change, for views showing one memory. */
	lastIds = $state<string[] | undefined>(undefined);
	#unsubscribe: (() => unknown) | undefined;
	#pending: ChangeEvent[] = [];
	#window: ReturnType<typeof setTimeout> | undefined;
	#windowMs = LIVE_WINDOW.baseMs;
	/** The pending flush applies the first event of a quiet spell (it opens a window, not ends one). */
	#opening = false;

	/** Subscribes to the engine's change events. */
	async start(engine: EngineProxy): Promise<void> {
		const unsubscribe = await engine.subscribe(proxy((e: ChangeEvent) => this.#receive(e)));
		this.#unsubscribe = unsubscribe as unknown as () => unknown;
	}

	/** Marks memories changed from the UI's own writes, without waiting for the event. */
	touch(kind: 'memories' | 'associations' | 'settings' | 'model' = 'memories'): void {
		this[kind]++;
	}

	stop(): void {
		void this.#unsubscribe?.();
		clearTimeout(this.#window);
	}

	/**
	 * Applies the first event in the next task, later ones at the end of its window (then opens
	 * another). Not at once: the worker posts a write's change event just before the write's
	 * answer, and reacting in the same task re-rendered the views and queued their refetches in
	 * the worker before the tab had sent an agent its answer (a 500-memory store's answer waited
	 * ~40 ms behind the repaint; issue 25). A task later, the answer goes first.
	 */
	#receive(e: ChangeEvent): void {
		this.#pending.push(e);
		if (this.#window !== undefined) return;
		this.#opening = true;
		this.#window = setTimeout(() => this.#flush(), 0);
	}

	#flush(): void {
		const events = this.#pending;
		const opening = this.#opening;
		this.#opening = false;
		this.#pending = [];
		if (events.length === 0) {
			this.#window = undefined;
			this.#windowMs = LIVE_WINDOW.baseMs;
			return;
		}
		const touched = events.filter((e) => e.kind === 'memories' || e.kind === 'entities');
		// An event without ids means "any memory may have changed".
		if (touched.length) this.lastIds = touched.every((e) => e.ids) ? [...new Set(touched.flatMap((e) => e.ids!))] : undefined;
		for (const kind of new Set(events.map((e) => e.kind))) this.#apply(kind);
		// A window that ended with events pending means a burst: the next one is longer.
		if (!opening) this.#windowMs = Math.min(LIVE_WINDOW.maxMs, this.#windowMs * 2);
		this.#window = setTimeout(() => this.#flush(), this.#windowMs);
	}

	#apply(kind: ChangeEvent['kind']): void {
		switch (kind) {
			case 'memories':
			case 'entities':
				this.memories++;
				break;
			case 'associations':
				this.associations++;
				break;
			case 'settings':
				this.settings++;
				break;
			case 'model':
				this.model++;
				this.memories++;
				break;
			case 'wipe':
				this.memories++;
				this.associations++;
				this.settings++;
				break;
		}
	}
}

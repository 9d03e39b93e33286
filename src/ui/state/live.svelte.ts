/**
 * Live updates: one engine subscription, turned into version counters that views read in
 * `$derived`/`$effect` to refetch when something they show has changed (an agent storing a
 * memory over MCP shows up in the open list without a reload).
 */
import { proxy } from 'comlink';
import type { ChangeEvent } from '../../engine/types';
import type { Engine } from './context';

/** Change counters per kind; `memories` also bumps on wipe and import. */
export class Live {
	memories = $state(0);
	associations = $state(0);
	settings = $state(0);
	model = $state(0);
	/** Ids touched by the last memory change, for views showing one memory. */
	lastIds = $state<string[] | undefined>(undefined);
	#unsubscribe: (() => unknown) | undefined;

	/** Subscribes to the engine's change events. */
	async start(engine: Engine): Promise<void> {
		const unsubscribe = await engine.subscribe(proxy((e: ChangeEvent) => this.#apply(e)));
		this.#unsubscribe = unsubscribe as unknown as () => unknown;
	}

	/** Marks memories changed from the UI's own writes, without waiting for the event. */
	touch(kind: 'memories' | 'associations' | 'settings' | 'model' = 'memories'): void {
		this[kind]++;
	}

	stop(): void {
		void this.#unsubscribe?.();
	}

	#apply(e: ChangeEvent): void {
		switch (e.kind) {
			case 'memories':
			case 'entities':
				this.lastIds = e.ids;
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

/**
 * The engine's change feed: listeners hear a ChangeEvent after each committed write.
 */
import type { ChangeEvent } from './types';

/** A set of listeners; a listener that throws (or a closed comlink proxy) never breaks a write. */
export class ChangeHub {
	#listeners = new Set<(e: ChangeEvent) => void>();

	/** Adds a listener; returns the function that removes it. */
	subscribe(listener: (e: ChangeEvent) => void): () => void {
		this.#listeners.add(listener);
		return () => {
			this.#listeners.delete(listener);
		};
	}

	/** Tells every listener; errors (sync, or a rejected promise from a remote listener) are dropped. */
	emit(e: ChangeEvent): void {
		for (const l of this.#listeners) {
			try {
				const r = l(e) as unknown;
				// A remote listener that rejects is gone (its page closed): stop telling it.
				if (r instanceof Promise) r.catch(() => this.#listeners.delete(l));
			} catch {
				// A broken listener must not fail the write that already committed.
			}
		}
	}
}

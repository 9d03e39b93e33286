/**
 * A FIFO async mutex for the engine's writes. Planning a write reads the in-memory index
 * (duplicates, neighbours) and applying it updates the index after IndexedDB commits; holding
 * the lock across both keeps the index and the database in step when calls overlap.
 */
export class WriteLock {
	#tail: Promise<unknown> = Promise.resolve();

	/** Runs `fn` after every earlier `run` has settled; its result or error passes through. */
	run<T>(fn: () => Promise<T>): Promise<T> {
		const next = this.#tail.then(fn, fn);
		// The chain must not reject, or one failed write would block all later ones.
		this.#tail = next.catch(() => undefined);
		return next;
	}
}

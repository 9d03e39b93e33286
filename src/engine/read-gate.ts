/**
 * Reads in flight, for background work that yields to them: the snapshot's encoding (index-
 * lifecycle.ts) starts its next step only once no recall is running, so a recall that arrives
 * during a snapshot waits for at most the step under way, not one step at each of its awaits.
 * Reads never wait for the write lock the snapshot holds, so waiting for them cannot deadlock;
 * and a wait is bounded, so a steady stream of reads only slows the snapshot down.
 */
export class ReadGate {
	#active = 0;
	#waiters: (() => void)[] = [];
	/** When the last read started or settled (epoch ms; 0: never). */
	#lastActive = 0;

	/** Runs `read`, counted as in flight until it settles. */
	async run<T>(read: () => Promise<T>): Promise<T> {
		this.#active++;
		this.#lastActive = Date.now();
		try {
			return await read();
		} finally {
			this.#lastActive = Date.now();
			if (--this.#active === 0) this.#release();
		}
	}

	/** How long no read has been in flight, in ms: 0 while one is, Infinity when none ever ran. */
	quietFor(now = Date.now()): number {
		if (this.#active > 0) return 0;
		return this.#lastActive === 0 ? Infinity : now - this.#lastActive;
	}

	/** Resolves once no read is in flight, or after `maxWaitMs` at the latest. */
	idle(maxWaitMs: number): Promise<void> {
		if (this.#active === 0) return Promise.resolve();
		return new Promise((resolve) => {
			const timer = setTimeout(resolve, maxWaitMs);
			this.#waiters.push(() => {
				clearTimeout(timer);
				resolve();
			});
		});
	}

	#release(): void {
		const waiters = this.#waiters;
		this.#waiters = [];
		for (const w of waiters) w();
	}
}

/** The engine's reads (one per thread: engines in one thread share it, which only makes them more polite). */
export const reads = new ReadGate();

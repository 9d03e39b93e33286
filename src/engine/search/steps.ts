/**
 * Work in steps: a generator that yields where its caller may pause (to serve other calls) and
 * returns its result. The snapshot's encoders are written this way so the engine can encode a
 * 100k index (seconds of work) without holding its thread for more than a few milliseconds at a
 * time, and still encode synchronously where nothing waits (tests, tools).
 */

/** A stepwise computation of a T. */
export type Steps<T> = Generator<undefined, T, undefined>;

/** Runs `steps` to its end without pausing. */
export function drain<T>(steps: Steps<T>): T {
	for (;;) {
		const r = steps.next();
		if (r.done) return r.value;
	}
}

/**
 * Runs `steps` to its end, awaiting `pause` at the first yield after each `sliceMs` of work:
 * other calls wait at most about that long, and short encodes are not spread over many tasks.
 */
export async function drainWithPauses<T>(steps: Steps<T>, pause: () => Promise<void>, sliceMs = 4): Promise<T> {
	let since = performance.now();
	for (;;) {
		const r = steps.next();
		if (r.done) return r.value;
		if (performance.now() - since < sliceMs) continue;
		await pause();
		since = performance.now();
	}
}

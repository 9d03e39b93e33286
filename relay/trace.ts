/**
 * Opt-in timing of the relay's hops for `npm run bench` (the agent-path breakdown): with
 * `ENGRAM_RELAY_TRACE=1`, each stdin chunk, frame from the tab, and (just before the write) frame
 * to the tab and stdout line logs `engram-relay trace POINT EPOCH_MS` to stderr. Stamping before a
 * write keeps the stamp honest on a busy machine, where the process may lose the CPU right after
 * it. Off by default: one boolean test.
 */

const ON = process.env.ENGRAM_RELAY_TRACE === '1';

/** The four points a call passes through in this process. */
export type TracePoint = 'stdin' | 'to-tab' | 'from-tab' | 'stdout';

/** Logs `point` with a high-resolution wall-clock time, when tracing is on. */
export function trace(point: TracePoint): void {
	if (ON) process.stderr.write(`engram-relay trace ${point} ${(performance.timeOrigin + performance.now()).toFixed(3)}\n`);
}

/**
 * Where work the engine does on its own (snapshots, trimming the log, re-embedding, cleaning up
 * files, mirroring another tab's write) reports a failure: no caller awaits that work, so a
 * failure would otherwise vanish. It becomes a `failed` entry in the activity log, by the actor
 * `engine`, which the app's activity list shows ("re-embedding failed: …").
 */
import type { EngineContext } from './context';

/** The actor of the entries this module writes. */
export const ENGINE_ACTOR = 'engine';

/**
 * Records that background work `what` (a noun phrase: "saving the index snapshot") failed with
 * `err`. Queued on the deferred log, so it never fails itself: if the database is what failed,
 * the entry is lost with it (deferred-log.ts drops a failed write's entries).
 */
export function reportFailure(ctx: Pick<EngineContext, 'log' | 'now'>, what: string, err: unknown): void {
	const why = err instanceof Error ? err.message : String(err);
	ctx.log.add({ at: new Date(ctx.now()).toISOString(), actor: ENGINE_ACTOR, action: 'failed', detail: `${what} failed: ${why}` });
}

/**
 * The state every engine operation works on. The Engine owns one and passes it to the
 * operation modules (store-ops, update-ops, …), which keep no state of their own.
 */
import { MemoryError } from '../core/errors';
import type { EngramDB } from '../store/db';
import type { SnapshotFiles } from '../store/snapshot-files';
import type { Embedder } from './embedder';
import type { DeferredLog } from './deferred-log';
import type { ChangeHub } from './events';
import type { CategoryTable } from './search/categories';
import type { SearchIndex } from './search/types';
import type { Thresholds } from './thresholds';
import type { WriteGuesses } from './write-guess';
import type { WriteLock } from './write-lock';
import type { AssociationType } from '../core/schemas';

/** What one committed write touched; receivers re-read these records from IndexedDB. */
export interface ChangeNotice {
	/** The write stamp the write set. */
	stamp: number;
	upserts: string[];
	removed: string[];
	edges: [string, string, AssociationType][];
	wipe?: boolean;
}

/** Shared engine state; `embedder`, `index` and `thresholds` change together on a model switch. */
export interface EngineContext {
	db: EngramDB;
	embedder: Embedder;
	index: SearchIndex;
	thresholds: Thresholds;
	/** WordNet's category table once loaded (recall expands an asked-for category with it). */
	categories?: CategoryTable;
	now: () => number;
	lock: WriteLock;
	hub: ChangeHub;
	/** What this engine's last writes left in IndexedDB, so a store may skip its read wave. */
	guesses: WriteGuesses;
	/** Activity entries written in batches, outside any other write (recall's entries). */
	log: DeferredLog;
	/** Where index snapshots' bytes go: OPFS files, or undefined to keep them in IndexedDB. */
	snapshotFiles: SnapshotFiles | undefined;
	/**
	 * Called after every committed write that changed indexed data, with what it touched: the
	 * engine schedules a snapshot and tells engines in other tabs (see cross-tab.ts).
	 */
	committed(stamp: number, notice: Omit<ChangeNotice, 'stamp'>): void;
	/**
	 * The write stamp up to which the index reflects every committed write (this engine's and
	 * other tabs'): when the database's stamp equals it, the index holds exactly what is stored.
	 */
	indexedUpTo(): number;
}

/** The model key under which a caller-supplied embedding of `dims` dimensions is stored. */
export function callerModel(dims: number): string {
	return `caller:${dims}`;
}

/** Embeds texts with the active model in one call; failures become MemoryError('embedding_failed'). */
export async function embedTexts(ctx: EngineContext, texts: string[]): Promise<(Float32Array | null)[]> {
	if (texts.length === 0) return [];
	try {
		const out = await ctx.embedder.embed(texts);
		if (out.length !== texts.length) throw new Error(`expected ${texts.length} vectors, got ${out.length}`);
		return out;
	} catch (e) {
		throw new MemoryError('embedding_failed', `embedding with ${ctx.embedder.modelId} failed: ${(e as Error).message}`);
	}
}

/** The current time as an ISO 8601 UTC string. */
export function nowIso(ctx: EngineContext): string {
	return new Date(ctx.now()).toISOString();
}

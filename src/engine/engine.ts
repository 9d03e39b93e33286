/**
 * The memory service: one Engine owns the database, the search index and the embedder, and
 * implements every operation of EngineApi. It runs in a web worker (workers/engine.worker.ts),
 * in the page, or in Node.
 *
 * @example
 * const engine = await createEngine({ embedder: createEmbedder({ localModelPath: nodeModelPath() }) });
 * const { memory_id } = await engine.store({ content: 'We deploy on Tuesdays', tags: ['ops'] });
 * const { results } = await engine.recall({ query: 'when do we ship?' });
 */
import type {
	AssociateInput,
	AssociateOutput,
	Association,
	CallContext,
	DeleteInput,
	DeleteOutput,
	Entity,
	ExportInput,
	ExportOutput,
	FindByEntityInput,
	FindByEntityOutput,
	GetInput,
	GetOutput,
	HealthOutput,
	ImportInput,
	ImportOutput,
	Memory,
	RecallInput,
	RecallOutput,
	StatsInput,
	StatsOutput,
	StoreInput,
	StoreOutput,
	TimelineInput,
	TimelineOutput,
	TrendingInput,
	TrendingOutput,
	UnlinkInput,
	UnlinkOutput,
	UpdateInput,
	UpdateOutput,
} from '../core/schemas';
import { MemoryError } from '../core/errors';
import type { ConnectionsInput, ConnectionsOutput, GraphQueryInput, GraphQueryOutput } from '../core/graph-schemas';
import { recentActivity, appendActivity, trimActivity } from '../store/activity';
import { openEngramDB, type EngramDB, type EngramDBOptions } from '../store/db';
import { getByRef } from '../store/memories';
import { ACTIVE_MODEL_KEY, bumpStamp, getSetting, markSeqsWiped, readStamp, setSetting } from '../store/settings';
import { opfsSnapshotFiles, type SnapshotFiles } from '../store/snapshot-files';
import { removeOrphanFiles, type SnapshotPlace } from '../store/snapshots';
import { associateMemories, unlinkMemories } from './associate-ops';
import { findByEntity, timeline } from './browse-ops';
import type { ChangeNotice, EngineContext } from './context';
import { reportFailure } from './background';
import { deleteMemories } from './delete-ops';
import type { Embedder } from './embedder';
import type { CategoryTable } from './search/categories';
import { applyNotice, CrossTab, StampTracker } from './cross-tab';
import { ChangeHub } from './events';
import { exportByIds, exportMemories } from './export-ops';
import { getMemory } from './get-ops';
import { findConnections } from './graph/connections';
import { runGraphQuery } from './graph/query';
import { GraphReads } from './graph/reads';
import { importMemories } from './import-ops';
import {
	loadIndex,
	nextTask,
	persistSnapshot,
	restoreFromSource,
	restoreIndex,
	SnapshotScheduler,
	type IndexOrigin,
	type LoadedIndex,
	type SnapshotSource,
} from './index-lifecycle';
import { ModelSwitcher, type EmbedderFactory } from './model-switch';
import * as reads from './reads';
import { reads as readGate } from './read-gate';
import { recallMemories } from './recall-ops';
import { dataSize, health, stats, trendingLabels } from './stats-ops';
import { DeferredLog } from './deferred-log';
import { storeMemories } from './store-ops';
import { storeLinked } from './store-linked';
import { applySyncRecords, recordSyncConflict, syncRecords } from './sync-records';
import { resolveThresholds, thresholdsKey, type Thresholds } from './thresholds';
import type {
	ActivityEntry,
	ChangeEvent,
	DataSize,
	EngineApi,
	ModelsInfo,
	Progress,
	StoreLinkedInput,
	StoreLinkedOutput,
	SyncApply,
	SyncRecord,
	UpdateExtra,
} from './types';
import { updateMemory } from './update-ops';
import { WriteGuesses } from './write-guess';
import { WriteLock } from './write-lock';

/** Options of {@link createEngine}. */
export interface CreateEngineOptions {
	/** IndexedDB database name (default 'engram'); tests use a fresh one each. */
	dbName?: string;
	/** IndexedDB factory and key range (Node tests pass fake-indexeddb's). */
	indexedDB?: IDBFactory;
	IDBKeyRange?: typeof IDBKeyRange;
	/** The embedder of the default model (or a promise of it). */
	embedder: Embedder | Promise<Embedder>;
	/**
	 * The model id `embedder` will have, when known before it loads: the index snapshot of the
	 * active model is then restored while the model loads, instead of after.
	 */
	modelId?: string;
	/**
	 * WordNet's category table (search/categories.ts) or a promise of it: recall uses it once it
	 * has loaded and never waits for it; a failed load leaves recall without it.
	 */
	categories?: CategoryTable | Promise<CategoryTable | undefined>;
	/** Loads another model for setActiveModel (and for a stored non-default active model at open). */
	embedderFactory?: EmbedderFactory;
	/** Clock in epoch ms (tests fix it). */
	now?: () => number;
	/** Base quiet spell before a snapshot is persisted after writes (default 2 s). */
	snapshotDelayMs?: number;
	/** Reads the index snapshot at open instead of this engine's connection (the worker's helper thread). */
	snapshotSource?: SnapshotSource;
	/**
	 * Where index snapshots' bytes are kept: by default OPFS files where the platform has OPFS
	 * (store/snapshot-files.ts); null keeps them in IndexedDB.
	 */
	snapshotFiles?: SnapshotFiles | null;
}

/** Writes between activity-log trims. */
const TRIM_EVERY = 200;

/** How long after a restore the index finishes its lazy parts in the background (search/term-index.ts). */
const SETTLE_AFTER_MS = 1_000;

/** How long an unchanged database's stats answer is reused. */
const STATS_MEMO_MS = 1_000;

/** The engine; see the module comment. Construct with {@link createEngine}. */
export class Engine implements EngineApi {
	readonly ctx: EngineContext;
	/** Whether the index came from the snapshot or a rebuild at open. */
	readonly indexOrigin: IndexOrigin;
	/** Where the snapshot this engine last restored or wrote keeps its bytes. */
	#snapshotPlace: SnapshotPlace | undefined;
	/** The model and stamp of that snapshot: a state already persisted is not written again. */
	#snapshotOf: string | undefined;
	readonly #stamps: StampTracker;
	#writes = 0;
	/** Bumped by every write this engine sees (its own or another tab's): what memos key on. */
	#changes = 0;
	#statsMemo: { key: string; at: number; out: Promise<StatsOutput> } | undefined;
	#closed = false;
	readonly #snapshots: SnapshotScheduler;
	readonly #models: ModelSwitcher;
	readonly #cross: CrossTab;

	/** Use {@link createEngine}; this constructor expects an open database and a loaded index. */
	constructor(ctx: Omit<EngineContext, 'committed' | 'indexedUpTo'>, loaded: Omit<LoadedIndex, 'index'>, stamp: number, opts: CreateEngineOptions) {
		this.ctx = { ...ctx, committed: (s, n) => this.#committed(s, n), indexedUpTo: () => this.#stamps.complete };
		this.#cross = new CrossTab(ctx.db.name, (n) => void this.#onNotice(n));
		this.indexOrigin = loaded.origin;
		this.#snapshotPlace = loaded.place;
		if (loaded.stamp !== undefined && loaded.place !== undefined) this.#snapshotOf = `${ctx.index.modelId}@${loaded.stamp}`;
		this.#stamps = new StampTracker(stamp);
		this.#snapshots = new SnapshotScheduler(
			(now) => this.#saveSnapshot(now),
			() => this.ctx.index.size,
			opts.snapshotDelayMs,
			undefined,
			(now) => readGate.quietFor(now),
		);
		this.#models = new ModelSwitcher(this.ctx, opts.embedderFactory);
	}

	/** The database (for tests and the store's own tools). */
	get db(): EngramDB {
		return this.ctx.db;
	}

	#committed(stamp: number, notice: Omit<ChangeNotice, 'stamp'>): void {
		this.#changes++;
		this.#stamps.see(stamp);
		this.#cross.post({ ...notice, stamp });
		this.#snapshots.schedule();
		if (++this.#writes % TRIM_EVERY === 0) void trimActivity(this.ctx.db).catch((e) => reportFailure(this.ctx, 'trimming the activity log', e));
	}

	/** Another tab's engine committed a write: mirror it, then tell our own subscribers. */
	async #onNotice(n: ChangeNotice): Promise<void> {
		if (this.#closed) return;
		this.#changes++;
		const event = await this.ctx.lock.run(() => applyNotice(this.ctx, n)).catch((e) => reportFailure(this.ctx, "mirroring another tab's write", e));
		this.#stamps.see(n.stamp);
		this.#snapshots.schedule();
		if (event) this.ctx.hub.emit(event);
	}

	/** Saves the snapshot; `now`: in one piece (the page is closing), not in steps that let reads in. */
	#saveSnapshot(now = false): Promise<void> {
		if (this.#closed) return Promise.resolve();
		// Under the write lock, so the bytes and the stamp describe the same state. While another
		// tab's write has not reached this index, a snapshot would persist the gap: skip it (the
		// late notice schedules another).
		return this.ctx.lock
			.run(async () => {
				const stamp = await readStamp(this.ctx.db);
				const of = `${this.ctx.index.modelId}@${stamp}`;
				if (stamp !== this.#stamps.complete || of === this.#snapshotOf) return;
				this.#snapshotPlace = await persistSnapshot(this.ctx.db, this.ctx.index, stamp, this.ctx.snapshotFiles, !now);
				this.#snapshotOf = of;
			})
			.catch((e) => (this.#closed ? undefined : reportFailure(this.ctx, 'saving the index snapshot', e)));
	}

	store(input: StoreInput, c?: CallContext): Promise<StoreOutput> {
		return storeMemories(this.ctx, input, c?.actor);
	}
	get(input: GetInput, c?: CallContext): Promise<GetOutput> {
		return getMemory(this.ctx, input, c?.actor);
	}
	update(input: UpdateInput, c?: CallContext, extra?: UpdateExtra): Promise<UpdateOutput> {
		return updateMemory(this.ctx, input, c?.actor, extra);
	}
	delete(input: DeleteInput, c?: CallContext): Promise<DeleteOutput> {
		return deleteMemories(this.ctx, input, c?.actor);
	}
	associate(input: AssociateInput, c?: CallContext): Promise<AssociateOutput> {
		return associateMemories(this.ctx, input, c?.actor);
	}
	storeLinked(input: StoreLinkedInput, c?: CallContext): Promise<StoreLinkedOutput> {
		return storeLinked(this.ctx, input, c?.actor);
	}
	deleteAssociation(input: UnlinkInput, c?: CallContext): Promise<UnlinkOutput> {
		return unlinkMemories(this.ctx, input, c?.actor);
	}
	recall(input: RecallInput, c?: CallContext): Promise<RecallOutput> {
		return recallMemories(this.ctx, input, c?.actor);
	}
	timeline(input: TimelineInput): Promise<TimelineOutput> {
		return timeline(this.ctx, input);
	}
	findByEntity(input: FindByEntityInput): Promise<FindByEntityOutput> {
		return findByEntity(this.ctx, input);
	}
	/**
	 * Memoised while nothing changes, for at most STATS_MEMO_MS (current_memories depends on the
	 * clock): the open app asks from several views after every change, and at 100k memories each
	 * answer walks every memory's metadata.
	 */
	stats(input: StatsInput): Promise<StatsOutput> {
		// A model switch replaces the embedder and the index without a write of its own.
		const key = `${this.#changes}\u0000${this.ctx.embedder.modelId}\u0000${this.ctx.index.size}\u0000${JSON.stringify(input)}`;
		const now = Date.now();
		const memo = this.#statsMemo;
		if (memo && memo.key === key && now - memo.at < STATS_MEMO_MS) return memo.out;
		const out = stats(this.ctx, input);
		this.#statsMemo = { key, at: now, out };
		// A failed count is not remembered; the caller gets the error from `out`.
		out.catch(() => (this.#statsMemo = undefined));
		return out;
	}
	trendingLabels(input: TrendingInput): Promise<TrendingOutput> {
		return trendingLabels(this.ctx, input);
	}
	health(): Promise<HealthOutput> {
		return health(this.ctx, { indexOrigin: this.indexOrigin, snapshotPlace: this.#snapshotPlace, reembedding: this.#models.busy });
	}
	async storageFull(): Promise<string | undefined> {
		const since = this.ctx.db.quotaFullSince;
		return since === undefined ? undefined : new Date(since).toISOString();
	}
	dataSize(): Promise<DataSize> {
		return dataSize(this.ctx);
	}
	exportMemories(input: ExportInput): Promise<ExportOutput> {
		return exportMemories(this.ctx, input);
	}
	/** Imports; `onProgress` hears `{ task: 'import', done, total }` after each batch. */
	exportByIds(ids: string[]): Promise<string> {
		return exportByIds(this.ctx, ids);
	}
	importMemories(input: ImportInput, c?: CallContext, onProgress?: (p: Progress) => void): Promise<ImportOutput> {
		return importMemories(this.ctx, input, c?.actor, onProgress);
	}

	/** find_memory_connections, walked here over this engine's rows and index (one GraphReads per call). */
	findConnections(input: ConnectionsInput): Promise<ConnectionsOutput> {
		return findConnections(new GraphReads(this.ctx), input);
	}
	/** query_memory_graph, run here over this engine's rows and index (one GraphReads per call). */
	queryGraph(input: GraphQueryInput): Promise<GraphQueryOutput> {
		return runGraphQuery(new GraphReads(this.ctx), input);
	}

	getMemories(ids: string[]): Promise<(Memory | undefined)[]> {
		return reads.getMemories(this.ctx, ids);
	}
	async resolveId(ref: string | number): Promise<string | undefined> {
		return (await getByRef(this.ctx.db, ref))?.id;
	}
	associationsOf(id: string): Promise<Association[]> {
		return reads.associationsOf(this.ctx, id);
	}
	entitiesOf(id: string): Promise<Entity[]> {
		return reads.entitiesOf(this.ctx, id);
	}
	async memoryIdsForEntity(entityId: string): Promise<string[]> {
		return this.ctx.index.mentioning(entityId);
	}
	getEntities(ids: string[]): Promise<(Entity | undefined)[]> {
		return reads.getEntities(this.ctx, ids);
	}
	searchEntities(text: string, limit = 20): Promise<Entity[]> {
		return reads.searchEntities(this.ctx, text, limit);
	}
	vectorOf(id: string): Promise<Float32Array | undefined> {
		return reads.vectorOf(this.ctx, id);
	}
	async embed(text: string): Promise<Float32Array | null> {
		return reads.embedOne(this.ctx, text);
	}
	async nearest(vector: Float32Array, k: number, filter?: { scope?: string }): Promise<{ id: string; cosine: number }[]> {
		return this.ctx.index.nearest(vector, k, filter);
	}
	async cosineSample(vector: Float32Array, max: number, filter?: { scope?: string }): Promise<{ cosines: Float32Array; total: number }> {
		return reads.cosineSample(this.ctx, vector, max, filter);
	}

	getSetting<T = unknown>(key: string): Promise<T | undefined> {
		return getSetting<T>(this.ctx.db, key);
	}
	async setSetting(key: string, value: unknown): Promise<void> {
		if (key.startsWith('sys:')) throw new MemoryError('invalid_input', `key: "${key}" is reserved for the engine`);
		await this.ctx.db.write(() => setSetting(this.ctx.db, key, value));
		// stats() reports the sync_state setting: a memoised answer must not outlive it.
		this.#changes++;
		if (key === thresholdsKey(this.ctx.embedder.modelId))
			this.ctx.thresholds = resolveThresholds(this.ctx.embedder.modelId, value as Partial<Thresholds> | undefined);
		this.ctx.hub.emit({ kind: 'settings', ids: [key] });
	}
	async logActivity(entry: Omit<ActivityEntry, 'id' | 'at'>, opts?: { deferred?: boolean }): Promise<void> {
		const row = { ...entry, at: new Date(this.ctx.now()).toISOString() };
		// A tool call's entry joins the deferred log: one write per quiet second, not one per call
		// queued against the next call's transaction (readers of the log flush first).
		if (opts?.deferred) return this.ctx.log.add(row);
		await appendActivity(this.ctx.db, [row]);
	}

	models(): Promise<ModelsInfo> {
		return this.#models.list();
	}
	setActiveModel(modelId: string, onProgress?: (p: Progress) => void): Promise<void> {
		return this.#models.switchTo(modelId, onProgress);
	}
	/** Starts embedding, in the background, every memory lacking an active-model vector. */
	reembedMissing(onProgress?: (p: Progress) => void): void {
		void this.#models.reembedMissing(onProgress);
	}
	/** Resolves when background re-embedding (after a model switch or import) has finished. */
	whenIdle(): Promise<void> {
		return this.#models.idle();
	}

	async history(memoryId: string, limit = 50): Promise<ActivityEntry[]> {
		await this.ctx.log.flush();
		return recentActivity(this.ctx.db, limit, memoryId);
	}
	async activity(limit = 100): Promise<ActivityEntry[]> {
		await this.ctx.log.flush();
		return recentActivity(this.ctx.db, limit);
	}
	subscribe(listener: (e: ChangeEvent) => void): () => void {
		return this.ctx.hub.subscribe(listener);
	}

	/** Deletes every memory, link, entity, vector, snapshot and history entry; settings stay. */
	/** Sync (src/sync): the user-authored records of the memories named, or of every memory. */
	syncRecords(ids?: string[]): Promise<SyncRecord[]> {
		return syncRecords(this.ctx, ids);
	}

	/** Sync: keeps a conflict's losing version in the memory's history. */
	recordSyncConflict(winner: SyncRecord, loser: SyncRecord, detail: string): Promise<void> {
		return recordSyncConflict(this.ctx, winner, loser, detail);
	}

	/** Sync: applies incoming versions, their links and their conflicts' History in one transaction. */
	applySyncRecords(input: SyncApply): Promise<ImportOutput> {
		return applySyncRecords(this.ctx, input);
	}

	async wipe(): Promise<void> {
		await this.#models.cancel();
		await this.ctx.log.flush();
		await this.ctx.lock.run(async () => {
			const db = this.ctx.db;
			const stamp = await db.write(async () => {
				await Promise.all([db.memories, db.entities, db.activity, db.snapshots].map((t) => t.clear()));
				await markSeqsWiped(db);
				return bumpStamp(db);
			});
			this.#snapshots.cancel();
			// The rows naming them are gone: every snapshot file is garbage now.
			if (this.ctx.snapshotFiles)
				await removeOrphanFiles(db, this.ctx.snapshotFiles, Infinity).catch((e) => reportFailure(this.ctx, 'removing snapshot files', e));
			this.ctx.index.clear();
			this.#committed(stamp, { upserts: [], removed: [], edges: [], wipe: true });
		});
		this.ctx.hub.emit({ kind: 'wipe' });
	}

	/** Persists a pending snapshot and closes the database; the engine is unusable afterwards. */
	async close(): Promise<void> {
		if (this.#closed) return;
		await this.#models.cancel();
		await this.#snapshots.flush(true);
		await this.ctx.log.flush();
		this.#closed = true;
		this.#cross.close();
		await this.ctx.lock.run(async () => this.ctx.db.close());
	}

	/** Persists the snapshot now (tests; the page calls it on `pagehide`). */
	async flushSnapshot(): Promise<void> {
		this.#snapshots.schedule();
		await this.#snapshots.flush(true);
	}
}

/**
 * Opens the database, loads the active model's index (snapshot or rebuild) and returns a ready
 * Engine. A stored active model other than the given embedder's is loaded with
 * `embedderFactory` when one is given.
 */
export async function createEngine(opts: CreateEngineOptions): Promise<Engine> {
	const dbOpts: EngramDBOptions = { name: opts.dbName, indexedDB: opts.indexedDB, IDBKeyRange: opts.IDBKeyRange };
	const given = Promise.resolve(opts.embedder);
	// Awaited below; until then a failed model load must not count as an unhandled rejection.
	given.catch(() => undefined);
	// Restoring needs no embedder, and with a source that finds the active model's snapshot itself
	// (the worker's helper thread) not even the database: it starts before the database is open.
	// No snapshot read means the index is rebuilt from the rows below: slower, never wrong.
	const sourced = opts.snapshotSource ? restoreFromSource(opts.snapshotSource).catch(() => undefined) : undefined;
	const db = await openEngramDB(dbOpts);
	const stored = await getSetting<string>(db, ACTIVE_MODEL_KEY);
	// Else it starts now, for the model that will most likely be active.
	const expected = stored ?? opts.modelId;
	const files = opts.snapshotFiles === null ? undefined : (opts.snapshotFiles ?? opfsSnapshotFiles(db.name));
	// As above: a snapshot that cannot be read is rebuilt from the rows (loadIndex).
	const early = sourced ?? (expected === undefined ? undefined : restoreIndex(db, expected, files).catch(() => undefined));
	const embedder = await activeEmbedder(stored, await given, opts.embedderFactory);
	const restored = await early;
	// Used when it is the loaded model's and nothing was written since it was read.
	const current = restored?.index.modelId === embedder.modelId && restored.stamp === (await readStamp(db)) ? restored : undefined;
	const [{ index, ...loaded }, override, stamp] = await Promise.all([
		current ?? loadIndex(db, embedder.modelId, embedder.dims, files),
		getSetting<Partial<Thresholds>>(db, thresholdsKey(embedder.modelId)),
		readStamp(db),
	]);
	const engine = new Engine(
		{
			db,
			embedder,
			index,
			thresholds: resolveThresholds(embedder.modelId, override),
			now: opts.now ?? Date.now,
			lock: new WriteLock(),
			guesses: new WriteGuesses(),
			hub: new ChangeHub(),
			log: new DeferredLog(db),
			snapshotFiles: files,
		},
		loaded,
		stamp,
		opts,
	);
	if (opts.categories)
		void Promise.resolve(opts.categories)
			.then((t) => (engine.ctx.categories = t))
			.catch(() => undefined);
	// Memories left without a vector (an interrupted model switch) are embedded in the background.
	engine.reembedMissing();
	// Snapshot files a closing page cut off mid-write.
	if (files) void removeOrphanFiles(db, files).catch((e) => reportFailure(engine.ctx, 'removing snapshot files', e));
	// What the restore left to be made when first needed, made after the first requests instead.
	if (loaded.origin === 'snapshot') {
		// Best effort: whatever settling did not make is made by the first request that needs it.
		const timer = setTimeout(() => void index.settle(nextTask).catch(() => undefined), SETTLE_AFTER_MS);
		(timer as { unref?: () => void }).unref?.();
	}
	return engine;
}

/** The embedder of the stored active model when it differs from the given one and can be loaded. */
async function activeEmbedder(stored: string | undefined, given: Embedder, factory?: EmbedderFactory): Promise<Embedder> {
	if (!stored || stored === given.modelId || !factory) return given;
	try {
		return await factory(stored);
	} catch {
		// The chosen model is unavailable (offline, evicted cache): the embedded one still works.
		return given;
	}
}

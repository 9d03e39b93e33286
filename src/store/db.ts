/**
 * The one module that owns Dexie: Engram's versioned IndexedDB schema and the database class.
 * Everything else reaches IndexedDB through `EngramDB` and the repository functions beside it.
 *
 * @example
 * const db = await openEngramDB({ name: 'engram' });
 * await db.write(async () => { await db.memories.add(row); });
 */
import Dexie, { type DBCore, type Middleware, type Table, type Transaction } from 'dexie';
import type { ActivityRow, AssociationRow, EntityRow, MemoryRow, RequestRow, SettingRow, SnapshotRow, StoredLink, VectorRow } from './rows';
import { contentKey, entityIdsOf, otherModelsOf, sessionOf } from './derived';
import { isMemoryError } from '../core/errors';
import { AbortForRetry, mapStoreError } from './errors';
import { COUNTERS_KEY, DEFAULT_DB_NAME, EMBEDDED_MODEL_ID } from './names';

export { DEFAULT_DB_NAME };

/**
 * Version 1 of the schema, kept verbatim: Dexie needs every earlier version to upgrade old
 * databases, and the upgrade test writes data with exactly this schema.
 */
export const SCHEMA_V1 = {
	memories: 'id, &seq, scope, type, timestamp, updated_at, *tags, source, [scope+timestamp]',
	associations: '[from+to+type], from, to, type',
	entities: 'id, type, memory_count',
	memoryEntities: '[memory_id+entity_id], memory_id, entity_id',
	vectors: '[model+memory_id], model, memory_id',
	activity: '++id, memory_id, at',
	settings: 'key',
	snapshots: 'model',
} as const;

/**
 * Version 2: indexes sessions (PRECEDED_BY within a conversation), insertion order per scope
 * and a content key per scope (exact-duplicate detection), entity names (lookup by name), and
 * stores vectors as Float32Array instead of number[] (4× smaller, no boxing).
 */
export const SCHEMA_V2 = {
	...SCHEMA_V1,
	memories: 'id, &seq, scope, type, timestamp, updated_at, *tags, source, session, ' + '[scope+timestamp], [scope+seq], [scope+content_key], [session+seq]',
	entities: 'id, type, norm, memory_count, last_seen',
} as const;

/**
 * Version 3 drops the indexes no query uses. Every index entry is one more write per row, and
 * in Chromium each indexed row costs about as much again as the row itself: a memory is
 * written with 5 secondary indexes instead of 12, an association with 2 instead of 3.
 * Kept: seq (integer ids), tags (tag filter), [scope+seq] and [session+seq] (PRECEDED_BY),
 * [scope+content_key] (exact duplicates); association from/to (links both ways); entity norm
 * (lookup by name); activity memory_id (a memory's history).
 */
export const SCHEMA_V3 = {
	...SCHEMA_V2,
	memories: 'id, &seq, *tags, [scope+seq], [scope+content_key], [session+seq]',
	associations: '[from+to+type], from, to',
	entities: 'id, norm',
	activity: '++id, memory_id',
} as const;

/**
 * Version 5 moves a memory's entity mentions onto its own row: `entity_ids` (multi-entry,
 * derived from `entities` on every write, see `derivedFieldsMiddleware`) replaces the memoryEntities
 * table. A store then writes one index entry per mention instead of one row with two indexes.
 */
export const SCHEMA_V5 = {
	...SCHEMA_V3,
	memories: 'id, &seq, *tags, [scope+seq], [scope+content_key], [session+seq], *entity_ids',
	memoryEntities: null,
} as const;

/**
 * Version 6 moves associations onto the memory they leave (`links`, indexed backwards by
 * `link_keys`, see store/associations.ts) and drops their table: a store writes its SIMILAR_TO
 * and PRECEDED_BY links inside its own row instead of one row (with two indexes) each.
 */
export const SCHEMA_V6 = {
	...SCHEMA_V5,
	memories: 'id, &seq, *tags, [scope+seq], [scope+content_key], [session+seq], *entity_ids, *link_keys',
	associations: null,
} as const;

/**
 * Version 7 indexes `memory_ids` of activity entries: a batch store writes one `created` entry
 * naming its memories instead of one row per memory, and a memory's history still finds it.
 */
export const SCHEMA_V7 = {
	...SCHEMA_V6,
	activity: '++id, memory_id, *memory_ids',
} as const;

/**
 * Version 8 drops three indexes a store paid for on every memory. The vectors table's `model`
 * and `memory_id`: its primary key [model+memory_id] already orders the rows by model (a model's
 * vectors are one key range), and a memory's vectors are one key per model (store/vectors.ts).
 * And memories' [scope+content_key]: the search index names exact-duplicate candidates by their
 * content hash (engine/store-ops.ts), and the rows keep `content_key` to confirm them.
 */
export const SCHEMA_V8 = {
	...SCHEMA_V7,
	memories: 'id, &seq, *tags, [scope+seq], [session+seq], *entity_ids, *link_keys',
	vectors: '[model+memory_id]',
} as const;

/**
 * Version 9 drops `link_keys`, the backward index of every memory's links: at about five
 * entries per stored memory it was a third of a batch import's storage work. The links into a
 * memory are named by the engine's index, which mirrors every link both ways (see
 * store/associations.ts). Rows written earlier keep a stale `link_keys` field until rewritten.
 */
export const SCHEMA_V9 = {
	...SCHEMA_V8,
	memories: 'id, &seq, *tags, [scope+seq], [session+seq], *entity_ids',
} as const;

/**
 * Version 10 moves every vector onto its memory's row (`vectors`, by model) and drops the
 * `vectors` table: a stored memory is one row, not two (about an eighth of a large import's
 * time went to the vector rows). `vector_models`, derived on every write, indexes which models
 * a memory has vectors of (see store/vectors.ts).
 */
export const SCHEMA_V10 = {
	...SCHEMA_V9,
	memories: 'id, &seq, *tags, [scope+seq], [session+seq], *entity_ids, *vector_models',
	vectors: null,
} as const;

/**
 * Version 11 drops `*tags` and `*entity_ids`, about four index entries per stored memory (a
 * batch import's storage process spent 15–35% less CPU without them, by 10k block). Which memories carry a
 * tag or mention an entity is answered by the engine's index, which holds both for every memory
 * (engine/entity-orphans.ts says how a write still drops an entity's row exactly when its last
 * mention goes). Rows written earlier keep a stale `entity_ids` field until rewritten.
 */
export const SCHEMA_V11 = {
	...SCHEMA_V10,
	memories: 'id, &seq, [scope+seq], [session+seq], *vector_models',
} as const;

/**
 * Version 12 adds `requests`: the client request ids (idempotency keys) writes applied, with
 * their argument hash and result, so a retried call is applied at most once (see
 * store/requests.ts). Indexed by `at` for trimming the oldest.
 */
export const SCHEMA_V12 = {
	...SCHEMA_V11,
	requests: 'id, at',
} as const;

/**
 * Version 13 adds `*other_models`, the sparse index of which models a memory holds vectors of
 * (store/vectors.ts): the embedded model's, on nearly every row, is left out, so a memory holding
 * only that vector has no entry. The upgrade derives the field on the rows that need it, found by
 * keys alone in v12's `vector_models` index (still there during this step): the rows holding
 * another model, and those without an embedded vector.
 */
export const SCHEMA_V13 = {
	...SCHEMA_V12,
	memories: 'id, &seq, [scope+seq], [session+seq], *vector_models, *other_models',
} as const;

/**
 * Version 14 drops `*vector_models`, which v13 replaced: one index entry fewer for every memory a
 * store or an import writes. Rows written earlier keep a stale `vector_models` until rewritten.
 */
export const SCHEMA_V14 = {
	...SCHEMA_V12,
	memories: 'id, &seq, [scope+seq], [session+seq], *other_models',
} as const;

/**
 * Version 15 indexes a batch's `created` entry by the last seq of the memories it names
 * (`last_seq`, with `first_seq` beside it, unindexed) instead of every one of their ids: the
 * ids go to the unindexed `batch_ids` (store/activity.ts reads them back as `memory_ids`). A
 * memory's history finds its batch entry by its own seq (the batch's seqs are consecutive). The
 * multi-entry `memory_ids` index cost IndexedDB 500 index entries per batch of 500, a third of
 * the index entries a content-only fill wrote; it stays for entries written before and for a
 * link's entry, which names its other end there. No upgrade function: old entries keep theirs.
 */
export const SCHEMA_V15 = {
	...SCHEMA_V14,
	activity: '++id, memory_id, *memory_ids, last_seq',
} as const;

/** Dexie's built-in DBCore middleware Engram has no use for (see the EngramDB constructor). */
const UNUSED_MIDDLEWARE = ['Observability', 'Cache'];

/** The current schema version. */
export const DB_VERSION = 15;

/** Options for opening a database; Node tests pass fake-indexeddb's factory and key range. */
export interface EngramDBOptions {
	name?: string;
	indexedDB?: IDBFactory;
	IDBKeyRange?: typeof IDBKeyRange;
}

/** Engram's IndexedDB database. `write()` runs one read-write transaction over every table. */
export class EngramDB extends Dexie {
	memories!: Table<MemoryRow, string>;
	entities!: Table<EntityRow, string>;
	activity!: Table<ActivityRow, number>;
	settings!: Table<SettingRow, string>;
	snapshots!: Table<SnapshotRow, string>;
	requests!: Table<RequestRow, string>;
	/**
	 * When a write last failed for want of space (ms since the epoch), until a write that adds
	 * data commits again: the app's "storage is full" banner and the engine's fallbacks read it.
	 */
	quotaFullSince: number | undefined;
	/** The IDBKeyRange of the IndexedDB this database lives in (store/raw.ts builds ranges with it). */
	readonly keyRange: typeof IDBKeyRange;
	/**
	 * Whether store/raw.ts may issue requests on the native transaction. Those bypass Dexie's
	 * middleware, so once anyone adds middleware of their own (the unit tests simulate a full disk
	 * so) every request goes through Dexie again, and through it. (Dexie's own, added while its
	 * constructor runs, come before this initialiser.)
	 */
	rawRequests = true;

	constructor(opts: EngramDBOptions = {}) {
		// Only pass what was given: Dexie spreads these over its defaults, so an explicit
		// `undefined` would hide the browser's own indexedDB ("IndexedDB API missing").
		super(opts.name ?? DEFAULT_DB_NAME, {
			...(opts.indexedDB && { indexedDB: opts.indexedDB }),
			...(opts.IDBKeyRange && { IDBKeyRange: opts.IDBKeyRange }),
			cache: 'disabled',
		});
		// Nothing queries through liveQuery (the engine tells its subscribers and the other tabs
		// itself: events.ts, cross-tab.ts), so Dexie's own change tracking only cost time on every
		// write: the observability middleware computed each request's changed key ranges and, on
		// every commit, posted them on a BroadcastChannel to every context of the origin before
		// the store could answer; the cache middleware kept optimistic copies for live queries.
		for (const name of UNUSED_MIDDLEWARE) this.unuse({ stack: 'dbcore', name });
		this.keyRange = opts.IDBKeyRange ?? globalThis.IDBKeyRange;
		this.version(1).stores(SCHEMA_V1);
		this.version(2).stores(SCHEMA_V2).upgrade(upgradeToV2);
		this.version(3).stores(SCHEMA_V3);
		this.version(4).stores(SCHEMA_V3).upgrade(upgradeToV4);
		this.version(5).stores(SCHEMA_V5).upgrade(upgradeToV5);
		this.version(6).stores(SCHEMA_V6).upgrade(upgradeToV6);
		this.version(7).stores(SCHEMA_V7);
		this.version(8).stores(SCHEMA_V8);
		this.version(9).stores(SCHEMA_V9);
		this.version(10).stores(SCHEMA_V10).upgrade(upgradeToV10);
		this.version(11).stores(SCHEMA_V11);
		this.version(12).stores(SCHEMA_V12);
		this.version(13).stores(SCHEMA_V13).upgrade(upgradeToV13);
		this.version(14).stores(SCHEMA_V14);
		this.version(15).stores(SCHEMA_V15);
		this.use(derivedFieldsMiddleware);
	}

	/** Dexie's `use`; middleware other than EngramDB's own turns `rawRequests` off. */
	override use(middleware: Middleware<DBCore>): this {
		if (middleware !== derivedFieldsMiddleware) this.rawRequests = false;
		return super.use(middleware);
	}

	/**
	 * Runs `fn` in one read-write transaction over all tables: it commits as a whole or not at
	 * all. `fn` may await only Dexie calls (awaiting anything else lets IndexedDB auto-commit).
	 * A request that fails aborts the transaction at once (see `abortOnFailure`), so nothing of it
	 * is written even should `fn` catch the failure and go on. Dexie errors come out as
	 * MemoryError (see errors.ts), a failed request's own error first; a MemoryError or
	 * AbortForRetry thrown by `fn` passes unchanged.
	 */
	async write<T>(fn: () => Promise<T>): Promise<T> {
		const failure: { error?: unknown } = {};
		try {
			// An async scope function makes Dexie keep the transaction alive across native awaits.
			const out = await this.transaction('rw', this.tables, async () => {
				abortOnFailure(failure);
				return fn();
			});
			this.quotaFullSince = undefined;
			return out;
		} catch (e) {
			throw this.#noteQuota(mapStoreError(cause(e, failure)));
		}
	}

	/**
	 * Like `write`, for a transaction that only deletes: with the origin's quota reached,
	 * Chromium still commits a transaction whose every request is a delete, and refuses any that
	 * puts or adds, even a row rewritten shorter or a put after deleting more than it adds.
	 * Its success says nothing about room, so it leaves `quotaFullSince` as it was.
	 */
	async deleteOnly(fn: () => Promise<void>): Promise<void> {
		const failure: { error?: unknown } = {};
		try {
			await this.transaction('rw', this.tables, async () => {
				abortOnFailure(failure);
				return fn();
			});
		} catch (e) {
			throw this.#noteQuota(mapStoreError(cause(e, failure)));
		}
	}

	#noteQuota(e: unknown): unknown {
		if (isMemoryError(e) && e.code === 'quota_exceeded') this.quotaFullSince ??= Date.now();
		return e;
	}

	/**
	 * Inside `write()`, once every request has succeeded: asks IndexedDB to commit now rather
	 * than when the task ends, so work done meanwhile overlaps the commit. Issuing a request
	 * afterwards fails. A no-op outside a transaction or where `commit()` is missing.
	 */
	commitNow(): void {
		try {
			(Dexie.currentTransaction?.idbtrans as IDBTransaction | undefined)?.commit?.();
		} catch {
			// Already committing or finished: nothing to hurry.
		}
	}

	/**
	 * Runs `fn` in one read-only transaction (a consistent view) over all tables, or over `tables`
	 * only: a read that names its tables does not wait for writes to the others (a recall's page
	 * read need not queue behind the previous recall's activity entry).
	 */
	async read<T>(fn: () => Promise<T>, tables: Table[] = this.tables): Promise<T> {
		try {
			return await this.transaction('r', tables, async () => fn());
		} catch (e) {
			throw mapStoreError(e);
		}
	}
}

/**
 * Makes any failed request abort the current write transaction at once, and keeps its error in
 * `failure`. Dexie's requests and store/raw.ts's handle a request's error event (so the failure
 * comes back as a rejection, not as an uncaught abort) and leave the abort to the callback's
 * rejection; until then the transaction is live, and a callback that caught the rejection and
 * went on would commit every other request without the failed one. This listener runs first, in
 * the event's capture phase at the transaction, before any request's own handler.
 */
function abortOnFailure(failure: { error?: unknown }): void {
	const tx = Dexie.currentTransaction?.idbtrans as IDBTransaction | undefined;
	tx?.addEventListener(
		'error',
		(ev) => {
			failure.error ??= (ev.target as IDBRequest | null)?.error ?? undefined;
			try {
				tx.abort();
			} catch {
				// Already aborted (a later request's AbortError) or finished.
			}
		},
		{ capture: true },
	);
}

/**
 * What a failed write reports: what `fn` threw on purpose (a MemoryError, AbortForRetry), else
 * the failed request's own error (a QuotaExceededError, a ConstraintError) rather than the
 * AbortError or "committed too early" that aborting the transaction under `fn` leaves behind.
 */
function cause(e: unknown, failure: { error?: unknown }): unknown {
	if (failure.error === undefined || isMemoryError(e) || e instanceof AbortForRetry) return e;
	return failure.error;
}

/** v1 → v2: derive session and content key for every memory; convert vectors to Float32Array. */
async function upgradeToV2(tx: Transaction): Promise<void> {
	await tx
		.table('memories')
		.toCollection()
		.modify((m: MemoryRow) => {
			m.content_key = contentKey(m.content);
			const session = sessionOf(m.metadata);
			if (session !== undefined) m.session = session;
			m.entities_given ??= false;
			m.entities ??= [];
		});
	await tx
		.table('vectors')
		.toCollection()
		.modify((v: VectorRow & { vector?: number[] }) => {
			if (v.vector) {
				v.data = Float32Array.from(v.vector);
				v.dims = v.data.length;
				delete v.vector;
			}
		});
	await tx
		.table('entities')
		.toCollection()
		.modify((e: EntityRow) => {
			e.norm ??= e.id.slice(e.id.indexOf(':') + 1);
		});
}

/** v3 → v4: the seq and write-stamp rows become one counters row (one request per write, not two). */
async function upgradeToV4(tx: Transaction): Promise<void> {
	const settings = tx.table('settings');
	const [seq, stamp] = await settings.bulkGet(['sys:seq', 'sys:write_stamp']);
	if (!seq && !stamp) return;
	await settings.put({ key: COUNTERS_KEY, value: { seq: seq?.value ?? 0, stamp: stamp?.value ?? 0 } });
	await settings.bulkDelete(['sys:seq', 'sys:write_stamp']);
}

/** v4 → v5: every memory gets its `entity_ids` (the ids of its entities, as the middleware derives them on later writes). */
async function upgradeToV5(tx: Transaction): Promise<void> {
	await tx
		.table('memories')
		.toCollection()
		.modify((m: MemoryRow) => {
			m.entity_ids = entityIdsOf(m.entities);
		});
}

/**
 * v5 → v6: each association joins its source memory's `links` (the middleware derives
 * `link_keys`); links whose source memory is gone are dropped with their table.
 */
async function upgradeToV6(tx: Transaction): Promise<void> {
	const bySource = new Map<string, StoredLink[]>();
	await tx.table('associations').each(({ from, ...link }: AssociationRow) => bySource.set(from, [...(bySource.get(from) ?? []), link]));
	if (bySource.size === 0) return;
	await tx
		.table('memories')
		.where(':id')
		.anyOf([...bySource.keys()])
		.modify((m: MemoryRow) => {
			m.links = bySource.get(m.id);
		});
}

/** v9 → v10: each vector joins its memory's row; vectors of memories that are gone are dropped with the table. */
async function upgradeToV10(tx: Transaction): Promise<void> {
	const byMemory = new Map<string, Record<string, Float32Array>>();
	await tx.table('vectors').each((v: VectorRow) => byMemory.set(v.memory_id, { ...byMemory.get(v.memory_id), [v.model]: v.data }));
	if (byMemory.size === 0) return;
	await tx
		.table('memories')
		.where(':id')
		.anyOf([...byMemory.keys()])
		.modify((m: MemoryRow) => {
			m.vectors = byMemory.get(m.id);
		});
}

/**
 * v12 → v13: derives `other_models` on the rows that get an entry in its index: those whose
 * `vector_models` names a model besides the embedded one, and those it does not list under the
 * embedded model (no embedded vector, or a row an earlier step of this upgrade rewrote: the
 * derivation reads `vectors`, so it is right either way). By keys and counts: when every row
 * lists the embedded model (two counts agree), no key list of every row is read, and a store of
 * rows holding only the embedded vector rewrites nothing.
 */
async function upgradeToV13(tx: Transaction): Promise<void> {
	const memories = tx.table('memories');
	const embedded = memories.where('vector_models').equals(EMBEDDED_MODEL_ID);
	const [other, all, withEmbedded] = await Promise.all([
		memories.where('vector_models').noneOf([EMBEDDED_MODEL_ID]).primaryKeys(),
		memories.count(),
		embedded.count(),
	]);
	let lacking: unknown[] = [];
	if (withEmbedded < all) {
		const [keys, has] = await Promise.all([memories.toCollection().primaryKeys(), embedded.primaryKeys()]);
		const held = new Set(has);
		lacking = keys.filter((id) => !held.has(id));
	}
	const ids = [...new Set([...other, ...lacking])];
	if (ids.length === 0) return;
	// The put goes through derivedFieldsMiddleware, which derives the field from `vectors`.
	await memories
		.where(':id')
		.anyOf(ids)
		.modify((m: MemoryRow) => {
			m.other_models = otherModelsOf(m.vectors);
		});
}

/**
 * A memory row as IndexedDB stores it: `other_models` derived from `vectors` (absent when empty),
 * the fields of dropped indexes left out (see derivedFieldsMiddleware; store/raw.ts applies it to
 * the rows it adds itself). A row with nothing to change is returned as it is, not copied: a
 * new row holding only the embedded vector, which is what a store or an import writes.
 */
export function storedMemory(m: MemoryRow): MemoryRow {
	const other = otherModelsOf(m.vectors);
	if (!('link_keys' in m || 'entity_ids' in m || 'vector_models' in m || 'other_models' in m)) return other ? { ...m, other_models: other } : m;
	const { link_keys: _links, entity_ids: _entities, vector_models: _models, other_models: _other, ...rest } = m;
	return other ? { ...rest, other_models: other } : rest;
}

/**
 * Derives `other_models` from `vectors` on every memory the store adds or puts, whichever engine
 * path wrote it: the index never disagrees with the row it indexes. A row written before schema
 * v9 loses its `link_keys`, one written before v11 its `entity_ids`, and one written before v14
 * its `vector_models` (those indexes are gone), when next written.
 */
const derivedFieldsMiddleware: Middleware<DBCore> = {
	stack: 'dbcore',
	name: 'memory-derived-fields',
	create: (down) => ({
		...down,
		table(name) {
			const table = down.table(name);
			if (name !== 'memories') return table;
			return {
				...table,
				mutate(req) {
					if (req.type !== 'add' && req.type !== 'put') return table.mutate(req);
					return table.mutate({ ...req, values: req.values.map(storedMemory) });
				},
			};
		},
	}),
};

/**
 * Opens (creating or upgrading as needed) an Engram database.
 * @throws MemoryError 'storage_failed' when IndexedDB is unavailable or the upgrade fails.
 */
export async function openEngramDB(opts: EngramDBOptions = {}): Promise<EngramDB> {
	const db = new EngramDB(opts);
	try {
		await db.open();
	} catch (e) {
		throw mapStoreError(e);
	}
	return db;
}

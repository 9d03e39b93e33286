/**
 * The shapes Engram keeps in IndexedDB. They extend the public schemas (core/schemas/) only
 * with bookkeeping the engine needs to answer quickly: the derived session key, the
 * duplicate-detection key and whether entities came from the caller.
 */
import type { Association, Entity, EntityRef, MemoryType } from '../core/schemas';
import type { ActivityEntry } from '../core/activity';

/** A memory row. Dates are ISO 8601 UTC strings so that they sort as text. */
export interface MemoryRow {
	id: string;
	seq: number;
	content: string;
	summary?: string;
	type: MemoryType;
	tags: string[];
	source?: string;
	scope: string;
	importance: number;
	confidence: number;
	metadata: Record<string, unknown>;
	entities: EntityRef[];
	timestamp: string;
	updated_at: string;
	last_accessed?: string;
	access_count: number;
	t_valid?: string;
	t_invalid?: string;
	/** metadata.session_id / conversation_id / session, copied out so it can be indexed. */
	session?: string;
	/** Hash of the normalised content: same scope + same key = exact duplicate. */
	content_key: string;
	/**
	 * For a conversation turn: the words of the turn it follows, as they were when it was stored
	 * (engine/doc.ts `turnContext`). Indexed as its own low-weight field, so an answer that never
	 * repeats the question ("Eugene, for thirty years now") is found by the question's words.
	 */
	context?: string;
	/** True when the caller gave the entities (they are then never re-extracted). */
	entities_given: boolean;
	/** Schema v5–v10 only: the ids of the entities in `entities`, then indexed; dropped when the row is next written. */
	entity_ids?: string[];
	/** The associations leaving this memory (see store/associations.ts). */
	links?: StoredLink[];
	/** Schema v6–v8 only: `[to, type]` of each link, then indexed; dropped when the row is next written. */
	link_keys?: [string, string][];
	/** The memory's vectors, by model (see store/vectors.ts). */
	vectors?: Record<string, Float32Array>;
	/** Schema v10–v13 only: the models of `vectors`, then indexed; dropped when the row is next written. */
	vector_models?: string[];
	/**
	 * The models of `vectors` other than the embedded one, and `NO_EMBEDDED_VECTOR` when it has
	 * none of that model; indexed (multi-entry, schema v13), absent when empty. The store derives
	 * it on every write (store/vectors.ts `otherModelsOf`).
	 */
	other_models?: string[];
}

/** An association: the public shape, as the store hands it out (from its source row's links). */
export type AssociationRow = Association;

/** An association as kept in its source memory's `links`. */
export type StoredLink = Omit<Association, 'from'>;

/** An entity row: the public shape plus its normalised name, indexed for lookups by name. */
export interface EntityRow extends Omit<Entity, 'memory_count' | 'first_seen' | 'last_seen'> {
	norm: string;
	/**
	 * Rows written by earlier versions only: counts kept on the row and rewritten on every mention.
	 * They are derived from the memories that mention the entity now (store/entities.ts), and
	 * these stale copies are never read.
	 */
	memory_count?: number;
	first_seen?: string;
	last_seen?: string;
}

/** One memory's vector under one model, as exported and imported (kept on the memory's row, store/vectors.ts). */
export interface VectorRow {
	model: string;
	memory_id: string;
	dims: number;
	data: Float32Array;
}

/**
 * A persisted search-index snapshot for one model, valid while `stamp` equals the write stamp.
 * Its bytes are either in the row or, where the platform has OPFS, in the file `file` of
 * `size` bytes (store/snapshot-files.ts).
 */
export interface SnapshotRow {
	model: string;
	stamp: number;
	bytes?: Uint8Array;
	file?: string;
	size?: number;
	at: string;
}

/** A settings row. Keys starting with `sys:` belong to the engine. */
export interface SettingRow {
	key: string;
	value: unknown;
}

/**
 * An activity row: an entry as stored. A batch's `created` entry keeps its memories' ids in
 * `batch_ids` (unindexed) and their consecutive seqs as `first_seq`..`last_seq` (`last_seq`
 * indexed) instead of the indexed `memory_ids` (schema v15); store/activity.ts turns it back
 * into an entry with `memory_ids`.
 */
export type ActivityRow = ActivityEntry & { batch_ids?: string[]; first_seq?: number; last_seq?: number };

/** A request a write applied. `result` is the operation's own compact result (enough to rebuild its output). */
export interface RequestRow {
	/** The client's request_id. */
	id: string;
	/** The tool that applied it, e.g. `store_memory`. */
	op: string;
	/** Hash of the canonical arguments (request_id left out). */
	hash: string;
	/** When it was applied (ms since the epoch). */
	at: number;
	result: unknown;
}

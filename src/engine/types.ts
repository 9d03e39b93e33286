/**
 * The engine's public surface: what the MCP tools, the UI (through the worker proxy) and the
 * tests call. Every method validates its input with the matching schema in core/schemas/ and
 * throws a MemoryError on bad input; every write is one IndexedDB transaction.
 */
import type {
	AssociateInput,
	AssociationType,
	AuthorableAssociationType,
	AssociateItem,
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
import type { ConnectionsInput, ConnectionsOutput, GraphQueryInput, GraphQueryOutput } from '../core/graph-schemas';
import type { ActivityEntry, FieldChange } from '../core/activity';

/** The activity log's entry and a field's before/after live in core (core/activity.ts): the store keeps them too. */
export type { ActivityEntry, FieldChange };

/** Approximate bytes Engram itself keeps (not the origin's whole estimate, which counts caches). */
export interface DataSize {
	/** Memory records without their vectors: content, fields, links. */
	memories: number;
	/** Embedding vectors of every model. */
	vectors: number;
	/** Persisted search-index snapshots. */
	snapshots: number;
	/** Entities and the activity log. */
	other: number;
	total: number;
}

/** What changed, for live views. */
export interface ChangeEvent {
	kind: 'memories' | 'associations' | 'entities' | 'settings' | 'wipe' | 'model';
	ids?: string[];
}

/**
 * A memory as sync ships it (engine/sync-records.ts): what a person or agent wrote, no derived
 * data. `links` are the caller-authored links leaving it; `entities` only when the caller gave them.
 */
export interface SyncRecord {
	id: string;
	content: string;
	summary?: string;
	type: string;
	tags: string[];
	source?: string;
	scope: string;
	importance: number;
	confidence: number;
	metadata: Record<string, unknown>;
	entities?: { name: string; type: string }[];
	timestamp: string;
	updated_at: string;
	t_valid?: string;
	t_invalid?: string;
	context?: string;
	links: Record<string, unknown>[];
	/** The device that wrote this version (set by sync). */
	device?: string;
	/**
	 * Sync's shared clock at this version's edit (ms; set by sync, docs/SYNC.md "Clocks"): its
	 * `updated_at` plus the largest lead its device had seen another device's clock have. Orders
	 * a clash; a record without it (an older Engram's) counts its `updated_at`.
	 */
	clock?: number;
	/**
	 * Removals this memory's versions made, for a merge without their common version (set by sync,
	 * src/sync/marks.ts): `tag:<tag>`, `link:<to>\u0000<type>` or `meta:<key>` → the sync clock of
	 * the version that removed it. Not part of what the memory says (its fingerprint).
	 */
	removed?: Record<string, number>;
	/** An element added again after a removal carried in `removed`: its key → the sync clock of that version. */
	added?: Record<string, number>;
}

/** What sync applies in one transaction (EngineApi.applySyncRecords). */
export interface SyncApply {
	/** The incoming versions: each replaces the memory, with exactly its `links`. */
	records: SyncRecord[];
	/** Links from memories already here into these (`from`, `to`, `type`, …), made now that their target arrived. */
	links: Record<string, unknown>[];
	/** Conflicts settled on the way: each losing version goes into its memory's History. */
	conflicts: { winner: SyncRecord; loser: SyncRecord; detail: string }[];
}

/** Sync's state as memory_stats reports it (kept in the `sync_state` setting by src/sync). */
export interface SyncState {
	on: boolean;
	status: 'synced' | 'syncing' | 'offline' | 'paused' | 'error' | 'off';
	last_synced?: string;
	pending: number;
	error?: string;
}

/** Progress of long work (import, re-embedding, model download). */
export interface Progress {
	task: string;
	done: number;
	total: number;
	message?: string;
}

/** storeLinked's input: one memory (no batch, no request_id) and a link from an existing memory to it. */
export interface StoreLinkedInput {
	memory: Omit<StoreInput, 'memories' | 'request_id'>;
	/** The link to add: from `memory1_id` to the memory stored (or the one it duplicates). */
	link_from?: Omit<AssociateItem, 'memory2_id'>;
}

/** The store's output, and the link written (absent when none was asked or it was a self-link). */
export type StoreLinkedOutput = StoreOutput & { linked?: AssociateOutput['succeeded'][number] };

/** The embedding models as `models()` reports them. */
export interface ModelsInfo {
	/** The model recall uses now. */
	active: string;
	dims: number;
	/** Every model holding vectors, with how many. */
	available: { model: string; count: number }[];
	/**
	 * True while the background job embeds memories lacking a vector for the active model. Once
	 * it has ended, a memory still without one has no word the model knows (emoji, codes, a
	 * script it was not trained on), or the job failed (the activity log says so).
	 */
	reembedding: boolean;
}

/** The memory service. Usable directly in Node and the page, or through comlink from a worker. */
export interface EngineApi {
	store(input: StoreInput, ctx?: CallContext): Promise<StoreOutput>;
	get(input: GetInput, ctx?: CallContext): Promise<GetOutput>;
	/**
	 * With `extra.base`, the values an editor started from: a field changed elsewhere meanwhile is a
	 * conflict; `extra.link` / `unlink` make or remove a link from it in the same transaction (UpdateExtra).
	 */
	update(input: UpdateInput, ctx?: CallContext, extra?: UpdateExtra): Promise<UpdateOutput>;
	delete(input: DeleteInput, ctx?: CallContext): Promise<DeleteOutput>;
	associate(input: AssociateInput, ctx?: CallContext): Promise<AssociateOutput>;
	/** Stores one memory and links an existing one to it, in one transaction (store-linked.ts). */
	storeLinked(input: StoreLinkedInput, ctx?: CallContext): Promise<StoreLinkedOutput>;
	/** Removes links from memory1 to memory2 (one type, or all): one transaction, an activity entry. */
	deleteAssociation(input: UnlinkInput, ctx?: CallContext): Promise<UnlinkOutput>;
	recall(input: RecallInput, ctx?: CallContext): Promise<RecallOutput>;
	timeline(input: TimelineInput): Promise<TimelineOutput>;
	findByEntity(input: FindByEntityInput): Promise<FindByEntityOutput>;
	stats(input: StatsInput): Promise<StatsOutput>;
	trendingLabels(input: TrendingInput): Promise<TrendingOutput>;
	health(): Promise<HealthOutput>;
	/** Whether writes are being refused for want of space: since when (ISO), or undefined. */
	storageFull(): Promise<string | undefined>;
	/** Approximate bytes of memories, vectors, index snapshots and the rest Engram stores. */
	dataSize(): Promise<DataSize>;
	exportMemories(input: ExportInput): Promise<ExportOutput>;
	/** These memories as Engram JSON with every vector and every link in and out, to put back exactly (export-ops.ts). */
	exportByIds(ids: string[]): Promise<string>;
	/** Imports in transactions of ≤ 500 records; `onProgress` hears `{ task: 'import', done, total }` after each. */
	importMemories(input: ImportInput, ctx?: CallContext, onProgress?: (p: Progress) => void): Promise<ImportOutput>;

	/**
	 * find_memory_connections in one call: the entity–memory walk runs where the rows, vectors
	 * and mention lists are (engine/graph/connections.ts). MemoryError('not_found') for an
	 * unknown anchor entity or event.
	 */
	findConnections(input: ConnectionsInput): Promise<ConnectionsOutput>;
	/**
	 * query_memory_graph in one call: parse, bind, expand, evaluate and project inside the engine
	 * (engine/graph/query.ts). MemoryError('invalid_input') for a bad query, naming the fault.
	 */
	queryGraph(input: GraphQueryInput): Promise<GraphQueryOutput>;

	/** Reads without side effects (no access counted), for the UI and the profiles. */
	getMemories(ids: string[]): Promise<(Memory | undefined)[]>;
	/**
	 * The id of the memory a reference names: a string is an id, matched exactly (never a seq);
	 * a number is a seq, for the profiles that type integer ids (memory-mcp).
	 */
	resolveId(ref: string | number): Promise<string | undefined>;
	associationsOf(id: string): Promise<Association[]>;
	entitiesOf(id: string): Promise<Entity[]>;
	memoryIdsForEntity(entityId: string): Promise<string[]>;
	getEntities(ids: string[]): Promise<(Entity | undefined)[]>;
	searchEntities(text: string, limit?: number): Promise<Entity[]>;
	/** The active model's unit vector of a memory, or undefined when it has none. */
	vectorOf(id: string): Promise<Float32Array | undefined>;
	/** Embeds a text with the active model (null when it has no known word). */
	embed(text: string): Promise<Float32Array | null>;
	/** Nearest memories to a vector by cosine, best first. */
	nearest(vector: Float32Array, k: number, filter?: { scope?: string }): Promise<{ id: string; cosine: number }[]>;
	/**
	 * Cosines between a unit vector and up to `max` memories' active-model vectors (in `scope` when
	 * given): all of them when there are at most `max`, else an evenly spaced sample, unsorted;
	 * `total` counts every memory with a vector. find_memory_connections turns these into
	 * `cosine_percentile` without shipping 100k ids across the worker boundary.
	 */
	cosineSample(vector: Float32Array, max: number, filter?: { scope?: string }): Promise<{ cosines: Float32Array; total: number }>;

	/** Persistent key/value settings (approved origins, relay pairing, weights, theme…). */
	getSetting<T = unknown>(key: string): Promise<T | undefined>;
	setSetting(key: string, value: unknown): Promise<void>;
	/**
	 * Records a tool call or connection event in the activity log; `deferred` entries are written
	 * together within a second (the log's readers flush them first), resolving at once.
	 */
	logActivity(entry: Omit<ActivityEntry, 'id' | 'at'>, opts?: { deferred?: boolean }): Promise<void>;

	/** The model recall uses now, every model holding vectors, and whether the background job is embedding memories for it. */
	models(): Promise<ModelsInfo>;
	/**
	 * Switches the active embedding model (the embedded default, or a transformers.js model id),
	 * downloading it if needed, then re-embeds every memory lacking a vector for it in the
	 * background; vectors of other models are kept. Progress goes to `onProgress`.
	 */
	setActiveModel(modelId: string, onProgress?: (p: Progress) => void): Promise<void>;

	history(memoryId: string, limit?: number): Promise<ActivityEntry[]>;
	activity(limit?: number): Promise<ActivityEntry[]>;
	/** Registers a listener for changes; returns an unsubscribe function. */
	subscribe(listener: (e: ChangeEvent) => void): () => void;
	/** Sync: the user-authored records of the memories named, or of every memory. */
	syncRecords(ids?: string[]): Promise<SyncRecord[]>;
	/** Sync: keeps a conflict's losing version in the memory's history. */
	recordSyncConflict(winner: SyncRecord, loser: SyncRecord, detail: string): Promise<void>;
	/** Sync: applies incoming versions, their links and their conflicts' History in one transaction. */
	applySyncRecords(input: SyncApply): Promise<ImportOutput>;
	/** Deletes everything: memories, links, entities, vectors, history. */
	wipe(): Promise<void>;
	close(): Promise<void>;
}

/** Fields compared to report what changed (updated_at always changes and is not listed). */
export const UPDATE_FIELDS = [
	'content',
	'summary',
	'tags',
	'type',
	'importance',
	'confidence',
	'metadata',
	'entities',
	'source',
	'scope',
	'timestamp',
	't_valid',
	't_invalid',
	'last_accessed',
] as const;

/**
 * The values an editor started from, by field (as `get` returned them): an update given them
 * changes a field only if the memory still holds that value (metadata: per key it sets), else
 * throws a `conflict` naming the fields someone else changed meanwhile. The app's edit form sends
 * them, so saving never overwrites an agent's (or another tab's) change it did not see.
 */
export type UpdateBase = Partial<Record<(typeof UPDATE_FIELDS)[number], unknown>>;

/**
 * What the app's screens add to an update, written in its one transaction: `base` (see
 * UpdateBase); `link`, a link from this memory made or updated with it (the "did this replace
 * …?" prompt marks the older memory invalid and links it to the newer one at once, never one
 * without the other); `unlink`, a link from it removed with it (that prompt's Undo);
 * `replaceTags`, the argument naming `tags_remove`, makes the edit a replacement: refused
 * (not_found, naming that argument) when the memory has none of the tags to remove, unless it
 * already has every tag to add (a retried replacement changes nothing and succeeds).
 */
export interface UpdateExtra {
	base?: UpdateBase;
	replaceTags?: string;
	link?: { to: string; type: AuthorableAssociationType; strength?: number; reason?: string; timestamp?: string };
	unlink?: { to: string; type: AssociationType };
}

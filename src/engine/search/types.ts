/**
 * The contract between the engine (which owns Dexie and every write) and the search index
 * (which owns the in-memory mirror used for ranking). The engine keeps the index in step with
 * every committed write; recall runs entirely on the index and reads full records from the store
 * only for the final page of results. That split is what keeps recall fast at 100k memories:
 * filters, scoring and graph expansion never touch IndexedDB.
 */
import type { WordNeighbours } from './neighbours';
import type { CategoryTable } from './categories';
import type { AssociationType, RecallInput, ScoreComponents } from '../../core/schemas';

/** What the index keeps of a memory: its filterable and rankable fields, dates as epoch ms. */
export interface DocMeta {
	id: string;
	seq: number;
	scope: string;
	type: string;
	tags: string[];
	source?: string;
	/** metadata.session_id / conversation_id / session, when given: neighbour turns share it. */
	session?: string;
	/**
	 * When no session is given and the caller dated the memory: scope and timestamp together.
	 * Memories sharing it (a conversation session stored with its session date) imply a session;
	 * see IndexView.sessionOf and engine/doc.ts.
	 */
	group?: string;
	timestamp: number;
	updated_at: number;
	t_valid?: number;
	t_invalid?: number;
	importance: number;
	confidence: number;
	access_count: number;
	last_accessed?: number;
	/** Entity ids (`type:normalised-name`). */
	entities: string[];
	/** Set by the index: the content ends with a question ("How are the twins?"). */
	asks?: boolean;
	/**
	 * The first 32 bits of the row's content key (store/derived.ts): memories whose normalised
	 * content is equal share it, so it names the candidates of an exact-duplicate check.
	 */
	content_hash?: number;
}

/** The text the lexical index sees. */
export interface DocText {
	content: string;
	summary?: string;
	/** Entity display names, indexed as their own field. */
	entityNames?: string[];
	/** Searchable metadata values (who said it, where it came from), indexed as their own field. */
	metadata?: string;
	/** The words of the conversation turn this memory follows (MemoryRow.context). */
	context?: string;
}

/** One edge in the index's adjacency (both directions are recorded by the index). */
export interface Edge {
	from: string;
	to: string;
	type: AssociationType;
	strength: number;
}

/** One ranked hit, before the engine loads the full memory. */
export interface RankedHit {
	id: string;
	score: number;
	components: ScoreComponents;
	match: 'direct' | 'expanded';
	via?: string;
	matched_terms: string[];
	/** Strong: the memory's own words matched, or its meaning is clearly close (see `isStrong`). */
	strength: 'strong' | 'weak';
}

export interface RankedPage {
	hits: RankedHit[];
	/** Hits that passed filters and min_score, before offset/limit. */
	total: number;
	/** Strong hits among `total`. */
	matched: number;
	lexical_only: boolean;
	time_window?: { start?: string; end?: string };
}

/** Query vectors the engine computed (one per query phrasing; null = no known word). */
export interface QueryVectors {
	vectors: (Float32Array | null)[];
	/** WordNet's category table (categories.ts), when loaded: category words also search their members. */
	categories?: CategoryTable;
	/** The static model's word neighbours among indexed words (neighbours.ts), when the caller has them. */
	words?: WordNeighbours;
	/** The phrasings' vectors without the scope's everyday names (nameless.ts), blended into the semantic score. */
	nameless?: Float32Array[];
}

/**
 * The in-memory index: lexical (minisearch), vectors (one active model) and the metadata +
 * adjacency needed for filters, scoring and graph expansion.
 */
export interface SearchIndex {
	readonly modelId: string;
	readonly size: number;
	upsert(meta: DocMeta, text: DocText, vector: Float32Array | null): void;
	/** Replace only the vector (re-embedding, model switch). */
	setVector(id: string, vector: Float32Array | null): void;
	remove(id: string): void;
	/** Access bookkeeping (get_memory counts an access). */
	touch(id: string, access_count: number, last_accessed: number): void;
	addEdge(edge: Edge): void;
	removeEdge(from: string, to: string, type: AssociationType): void;
	/**
	 * The memories with a link into any of `ids`, each once: the only record of a memory's
	 * inbound links besides a scan of every row (links live on the row they leave).
	 */
	linkedFrom(ids: Iterable<string>): string[];
	/** Nearest neighbours by cosine over the active model's vectors, best first. */
	nearest(vector: Float32Array, k: number, filter?: { scope?: string; exclude?: string[] }): { id: string; cosine: number }[];
	/**
	 * nearest() for several look-ups at once, each answered as if alone (a batch store's new
	 * memories): the scans they share are read once for all of them.
	 */
	nearestMany(lookups: { vector: Float32Array; scope?: string; exclude?: string[] }[], k: number): { id: string; cosine: number }[][];
	/** Ids of the memories of `scope` whose `content_hash` is `hash` (exact-duplicate candidates). */
	withContentHash(scope: string, hash: number): string[];
	/** Whether the memory is indexed. */
	has(id: string): boolean;
	/** The content of a memory indexed lately, as indexed; undefined when not remembered (read its row). */
	contentOf(id: string): string | undefined;
	/** Content words indexed from position `from` of the vocabulary on (LexicalIndex.vocabulary; neighbours.ts). */
	vocabulary(from: number): string[];
	/** Whether more than `share` of `scope`'s memories (the whole index's when unscoped) hold the processed term in their content (nameless.ts). */
	isCommonTerm(term: string, share: number, scope?: string): boolean;
	/** Ids of the memories carrying any (`any`) or all (`all`) of `tags`, optionally only in `scope`. */
	withTags(tags: string[], mode: 'any' | 'all', scope?: string): string[];
	/** Ids of the indexed memories that mention the entity id, in id order. */
	mentioning(entity: string): string[];
	/** How many indexed memories mention the entity id. */
	mentions(entity: string): number;
	/** How many indexed memories mention the entity id, and the first and last of their timestamps (epoch ms); undefined when none. */
	mentionSpan(entity: string): { count: number; first: number; last: number } | undefined;
	/** Whether the index holds an active-model vector for the memory. */
	hasVector(id: string): boolean;
	/** Cosine between a stored memory and a vector (undefined without a stored vector). */
	cosineTo(id: string, vector: Float32Array): number | undefined;
	/** Ranks for recall_memory; `now` is epoch ms (passed in so tests can fix it). */
	rank(input: RecallInput, query: QueryVectors, now: number): RankedPage;
	/**
	 * Calls `fn` with every indexed memory's metadata (the index's own objects: read, never
	 * mutate). Lets stats and trending labels aggregate in memory instead of scanning IndexedDB.
	 */
	eachMeta(fn: (meta: Readonly<DocMeta>) => void): void;
	/** The ids of the memories holding no vector (the background re-embedding's work). */
	idsWithoutVector(): string[];
	/** memory_stats' counts over every indexed memory (meta-codec.ts `tallyMetas`), `now` deciding which are current. */
	tally(now: number): MetaTally;
	/**
	 * Aggregates of what the index mirrors, kept without scanning: edges per type, memories per
	 * entity id, memories holding a vector. IndexedDB's count() walks every key, so stats use these.
	 */
	counts(): { edgesByType: Record<string, number>; memoriesPerEntity: Map<string, number>; vectors: number };
	/**
	 * `counts().memoriesPerEntity` without its Map: how many entities, and each one's memories
	 * as [entity, count] pairs (read once, in no particular order).
	 */
	entityCounts(): { size: number; entries: Iterable<[string, number]> };
	/**
	 * Finishes, in steps awaiting `pause()` between them, what a restore left to be made when
	 * first needed (the lexical term tree), so the first write after a page load does not pay for it.
	 */
	settle(pause: () => Promise<void>): Promise<void>;
	/** Serialised form persisted in IndexedDB so page loads need not rebuild. */
	snapshot(): Uint8Array;
	/**
	 * {@link snapshot}, awaiting `pause()` after every `sliceMs` (default 4) of work so other calls
	 * run in between; the index must not be written to until it resolves (the engine holds its
	 * write lock). Reads in between are fine.
	 */
	snapshotInSteps(pause: () => Promise<void>, sliceMs?: number): Promise<Uint8Array>;
	clear(): void;
}

/**
 * A restored snapshot's slots: each slot's id, and each id's slot (one frozen map, built once
 * at restore and shared by everything that reads the snapshot's packed arrays).
 */
export interface SlotNames {
	ids: readonly string[];
	slotOf: ReadonlyMap<string, number>;
}

/** Counts over memories' metadata, as memory_stats reports them. */
export interface MetaTally {
	total: number;
	/** Not invalidated as of `now` (no t_invalid, or one after it). */
	current: number;
	byType: Record<string, number>;
	byScope: Record<string, number>;
	/** Memories without a source count under '(none)'. */
	bySource: Record<string, number>;
	tags: Record<string, number>;
	oldest: number;
	newest: number;
}

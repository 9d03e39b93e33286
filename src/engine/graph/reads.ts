/**
 * What the graph walks (find_memory_connections, query_memory_graph) read, straight from the
 * engine's own state: memory rows from IndexedDB in bulk, vectors from those same rows, entity
 * mentions and inbound links from the search index. One GraphReads lives for one tool call and
 * caches every row, memory and entity it read, so a walk that meets a memory twice (or needs its
 * record, then its vector) reads it once.
 *
 * Contract: read-only (apart from the `recalled` entry recall() logs, as EngineApi.recall does);
 * every answer equals what the matching EngineApi read would return at that moment. The cache
 * makes one call see one state: a write landing mid-walk may or may not be seen, as before.
 */
import type { Association, Entity, Memory, RecallInput, RecallOutput, TimelineInput, TimelineOutput } from '../../core/schemas';
import { TimelineInputSchema } from '../../core/schemas';
import { linksOut } from '../../store/associations';
import { entityIdsOf } from '../../store/derived';
import { getByRef } from '../../store/memories';
import type { MemoryRow } from '../../store/rows';
import { getSetting } from '../../store/settings';
import { modelsOf } from '../../store/vectors';
import { timeline } from '../browse-ops';
import type { EngineContext } from '../context';
import { toMemory } from '../doc';
import { cosineSample, embedOne, getEntities, searchEntities } from '../reads';
import { recallMemories } from '../recall-ops';
import { parseInput } from '../validate';
import { resolveThresholds, thresholdsKey, type Thresholds } from '../thresholds';

/** Rows read per IndexedDB request. */
const CHUNK = 500;

/** One tool call's reads; see the module comment. */
export class GraphReads {
	readonly #ctx: EngineContext;
	readonly #rows = new Map<string, MemoryRow | null>();
	readonly #memories = new Map<string, Memory | null>();
	readonly #entities = new Map<string, Entity | null>();

	constructor(ctx: EngineContext) {
		this.#ctx = ctx;
	}

	/** The engine's clock (ms). */
	now(): number {
		return this.#ctx.now();
	}

	/** Memory rows by id, in order (undefined for unknown ids): missing ones in bulk requests. */
	async rows(ids: readonly string[]): Promise<(MemoryRow | undefined)[]> {
		const missing = [...new Set(ids.filter((id) => !this.#rows.has(id)))];
		for (let i = 0; i < missing.length; i += CHUNK) {
			const chunk = missing.slice(i, i + CHUNK);
			const got = await this.#ctx.db.memories.bulkGet(chunk);
			chunk.forEach((id, j) => this.#rows.set(id, got[j] ?? null));
		}
		return ids.map((id) => this.#rows.get(id) ?? undefined);
	}

	/** Memories by id, in order; undefined for unknown ids (EngineApi.getMemories). */
	async getMemories(ids: readonly string[]): Promise<(Memory | undefined)[]> {
		const rows = await this.rows(ids);
		return ids.map((id, i) => {
			let m = this.#memories.get(id);
			if (m === undefined) {
				const row = rows[i];
				m = row ? toMemory(row, modelsOf(row)) : null;
				this.#memories.set(id, m);
			}
			return m ?? undefined;
		});
	}

	/** The active model's vector of a memory (EngineApi.vectorOf); the row is read once. */
	async vectorOf(id: string): Promise<Float32Array | undefined> {
		const [row] = await this.rows([id]);
		return row?.vectors?.[this.#ctx.embedder.modelId];
	}

	/** Reads the rows of `ids` in bulk ahead of many vectorOf / getMemories calls. */
	async preload(ids: readonly string[]): Promise<void> {
		await this.rows(ids);
	}

	/** Entities by id, in order (EngineApi.getEntities). */
	async getEntities(ids: readonly string[]): Promise<(Entity | undefined)[]> {
		const missing = [...new Set(ids.filter((id) => !this.#entities.has(id)))];
		if (missing.length) {
			const got = await getEntities(this.#ctx, missing);
			missing.forEach((id, i) => this.#entities.set(id, got[i] ?? null));
		}
		return ids.map((id) => this.#entities.get(id) ?? undefined);
	}

	/** The entities a memory mentions (EngineApi.entitiesOf). */
	async entitiesOf(id: string): Promise<Entity[]> {
		const [row] = await this.rows([id]);
		const ents = await this.getEntities(entityIdsOf(row?.entities));
		return ents.filter((e) => e !== undefined);
	}

	/** Ids of the memories mentioning an entity, in id order (EngineApi.memoryIdsForEntity). */
	memoryIdsForEntity(entityId: string): string[] {
		return this.#ctx.index.mentioning(entityId);
	}

	/** Every association out of and into a memory (EngineApi.associationsOf). */
	async associationsOf(id: string): Promise<Association[]> {
		// Links live on the row they leave (store/associations.ts); the index names the sources.
		const sources = [...new Set(this.#ctx.index.linkedFrom([id]))];
		const [own, ...from] = await this.rows([id, ...sources]);
		return [...linksOut(own), ...from.flatMap(linksOut).filter((a) => a.to === id)];
	}

	/** Entities by name prefix, then substring (EngineApi.searchEntities). */
	searchEntities(text: string, limit: number): Promise<Entity[]> {
		return searchEntities(this.#ctx, text, limit);
	}

	/** The id a reference names (EngineApi.resolveId). */
	async resolveId(ref: string | number): Promise<string | undefined> {
		return (await getByRef(this.#ctx.db, ref))?.id;
	}

	/** One text embedded with the active model (EngineApi.embed). */
	embed(text: string): Promise<Float32Array | null> {
		return embedOne(this.#ctx, text);
	}

	/** Nearest memories by cosine (EngineApi.nearest). */
	nearest(vector: Float32Array, k: number, filter?: { scope?: string }): { id: string; cosine: number }[] {
		return this.#ctx.index.nearest(vector, k, filter);
	}

	/** Cosines to a sample of memories (EngineApi.cosineSample). */
	cosineSample(vector: Float32Array, max: number, filter?: { scope?: string }): { cosines: Float32Array; total: number } {
		return cosineSample(this.#ctx, vector, max, filter);
	}

	/** recall_memory (EngineApi.recall, default actor). */
	recall(input: RecallInput): Promise<RecallOutput> {
		return recallMemories(this.#ctx, input);
	}

	/** list_memory_timeline (EngineApi.timeline). */
	timeline(input: TimelineInput): Promise<TimelineOutput> {
		return timeline(this.#ctx, input);
	}

	/**
	 * Ids of the newest `max` memories matching list_memory_timeline's filters (validated by its
	 * schema, so a bad tag fails as the timeline's would), and how many match in all: the
	 * timeline's own ranking, without reading a row.
	 */
	scanIds(f: { tags?: string[]; types?: string[]; scope?: string }, max: number): { ids: string[]; total: number } {
		const p = parseInput(TimelineInputSchema, { ...f, limit: 1, max_content_chars: 0 });
		const q: RecallInput = { scope: p.scope, types: p.types, tags: p.tags, tag_mode: p.tag_mode, limit: max, offset: 0, sort: 'time_desc' };
		const page = this.#ctx.index.rank(q, { vectors: [] }, this.#ctx.now());
		return { ids: page.hits.map((h) => h.id), total: page.total };
	}

	/** Reads, in bulk, the rows of `ids` and every entity they mention (ahead of entitiesOf). */
	async preloadEntitiesOf(ids: readonly string[]): Promise<void> {
		const rows = await this.rows(ids);
		await this.getEntities([...new Set(rows.flatMap((r) => entityIdsOf(r?.entities)))]);
	}

	/** The active model's similarity thresholds, with the stored override if any. */
	async thresholds(): Promise<Thresholds> {
		const model = this.#ctx.embedder.modelId;
		return resolveThresholds(model, await getSetting<Partial<Thresholds>>(this.#ctx.db, thresholdsKey(model)));
	}
}

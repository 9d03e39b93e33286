/**
 * The in-memory search index behind recall: lexical (minisearch), int8 vectors of the active
 * model, memory metadata, entity postings and the association graph, kept in step by the engine
 * after every committed write and persisted as one snapshot.
 *
 * @example
 * const index = createSearchIndex({ modelId: 'engram-glove-100d', dims: 100 });
 * index.upsert(meta, { content: 'Caroline went hiking' }, vector);
 * const page = index.rank({ query: 'hiking', limit: 5 }, { vectors: [queryVector] }, Date.now());
 * const restored = restoreSearchIndex(index.snapshot());
 */
import type { AssociationType, RecallInput } from '../../core/schemas';
import { Adjacency } from './adjacency';
import { ScopeCodes, type ContiguousScope } from './scope-codes';
import { scopeCollection } from './candidates';
import { carriesTags } from './filters';
import { IVF, Ivf, listCount, SlotLists, trainCentroids } from './ivf';
import { dateWords } from './date-words';
import { EntityDocs } from './entity-docs';
import { LexicalIndex, type LexicalDoc } from './lexical';
import { encodeMetasInSteps, tallyMetas } from './meta-codec';
import { type NearestQuery, nearestMany } from './nearest';
import { rankIndex } from './rank';
import {
	decodeMetaSection,
	encodeSnapshot,
	sliceMetas,
	sliceSections,
	snapshotHead,
	type PackedEdges,
	type SnapshotSections,
	type SnapshotSlices,
} from './snapshot';
import type { DocMeta, DocText, Edge, MetaTally, QueryVectors, RankedPage, SearchIndex, SlotNames } from './types';
import { GroupCounts } from './group-counts';
import { OverlayMap, type MapBase } from './overlay-map';
import { drain, drainWithPauses, type Steps } from './steps';
import { normalize, VectorStore } from './vector-store';
import type { IndexView } from './view';

/** The SearchIndex implementation; see types.ts for each method's contract. */
class MemorySearchIndex implements SearchIndex, IndexView {
	readonly modelId: string;
	readonly dims: number;
	count = 0;
	metas: DocMeta[] = [];
	ids: string[] = [];
	slotOf: Map<string, number> = new Map();
	seqToId: Map<number, string> = new Map();
	vectors: VectorStore;
	lexical: LexicalIndex;
	adj = new Adjacency();
	entityDocs = new EntityDocs();
	/** Memories per DocMeta.group (an implied session needs two). */
	groups = GroupCounts.empty();
	/** Each scope's slots, so a scoped nearest() walks only its own scope. */
	private scopeSlots = new SlotLists();
	private scopeList = new Map<string, number>();
	/** Contiguous copies of large scopes' codes for the exact scoped scans (scope-codes.ts). */
	private scopeCodes: ScopeCodes;
	/** The coarse quantiser for nearest(), once the index is large enough (see ivf.ts). */
	ivf: Ivf | null = null;
	/** content_hash → ids, made by the first look-up (a restore need not build it) and kept from then on. */
	private byContent: Map<number, string[]> | undefined;

	constructor(modelId: string, dims: number, vectors?: VectorStore, lexical?: LexicalIndex) {
		this.modelId = modelId;
		this.dims = dims;
		this.vectors = vectors ?? new VectorStore(dims);
		this.lexical = lexical ?? new LexicalIndex();
		this.scopeCodes = new ScopeCodes(dims);
	}

	get size(): number {
		return this.count;
	}

	upsert(meta: DocMeta, text: DocText, vector: Float32Array | null): void {
		let slot = this.slotOf.get(meta.id);
		if (slot === undefined) {
			slot = this.count++;
			this.slotOf.set(meta.id, slot);
			this.ids[slot] = meta.id;
		} else {
			this.unlinkMeta(this.metas[slot], slot);
			// Re-placing the slot swap-removes it within its scope's list and may change its vector.
			this.scopeCodes.epoch++;
		}
		const m = copyMeta(meta);
		if (asksQuestion(text.content)) m.asks = true;
		else delete m.asks;
		this.metas[slot] = m;
		this.linkMeta(m, slot);
		this.placeScope(slot, m.scope);
		this.vectors.set(slot, vector);
		this.placeVector(slot, vector);
		this.lexical.upsert(lexicalDoc(m, text));
	}

	contentOf(id: string): string | undefined {
		return this.lexical.contentOf(id);
	}

	vocabulary(from: number): string[] {
		return this.lexical.vocabulary(from);
	}

	isCommonTerm(term: string, share: number, scope?: string): boolean {
		const within = scope === undefined ? undefined : scopeCollection(this, scope);
		const most = share * (within ? within.size : this.count);
		return this.lexical.contentFrequency(term, within, most + 1) > most;
	}

	setVector(id: string, vector: Float32Array | null): void {
		const slot = this.slotOf.get(id);
		if (slot === undefined) return;
		this.scopeCodes.epoch++;
		this.vectors.set(slot, vector);
		this.placeVector(slot, vector);
	}

	sessionOf(slot: number): string | undefined {
		const m = this.metas[slot];
		if (m.session !== undefined) return m.session;
		return m.group !== undefined && this.groups.count(slot) >= 2 ? m.group : undefined;
	}

	/** Puts `slot` in its scope's list. */
	placeScope(slot: number, scope: string): void {
		let list = this.scopeList.get(scope);
		if (list === undefined) this.scopeList.set(scope, (list = this.scopeSlots.addList()));
		this.scopeSlots.assign(slot, list);
	}

	scopeSize(scope: string): number {
		const list = this.scopeList.get(scope);
		return list === undefined ? 0 : this.scopeSlots.sizeOf(list);
	}

	inScope(scope: string): (slot: number) => boolean {
		const list = this.scopeList.get(scope);
		if (list === undefined) return () => false;
		const lists = this.scopeSlots;
		return (slot) => lists.listAt(slot) === list;
	}

	scopeId(scope: string): number {
		return this.scopeList.get(scope) ?? -1;
	}

	scopeIdOf(slot: number): number {
		return this.scopeSlots.listAt(slot);
	}

	/** The slots of `scope` (empty when unknown): a live view, valid until the next change. */
	slotsInScope(scope: string): Int32Array {
		const list = this.scopeList.get(scope);
		return list === undefined ? EMPTY_SLOTS : this.scopeSlots.slotsOf(list);
	}

	contiguousScope(scope: string): ContiguousScope | undefined {
		const list = this.scopeList.get(scope);
		return list === undefined ? undefined : this.scopeCodes.get(list, this.scopeSlots.slotsOf(list), this.vectors);
	}

	/** Keeps the quantiser in step with a slot's vector, training it when the index is large enough. */
	private placeVector(slot: number, vector: Float32Array | null): void {
		if (this.ivf && this.count >= this.ivf.trainedAt * IVF.retrainGrowth) this.ivf = null;
		if (!this.ivf) {
			if (this.count >= IVF.trainAt) this.trainIvf();
			return;
		}
		const v = vector && this.vectors.has(slot) ? normalize(vector) : null;
		if (v) this.ivf.assign(slot, this.ivf.nearestList(v));
		else this.ivf.unassign(slot);
	}

	/** Trains the quantiser on the current vectors and assigns every slot. */
	private trainIvf(): void {
		const get = (slot: number) => this.vectors.get(slot);
		const ivf = new Ivf(this.dims, trainCentroids(this.count, this.dims, listCount(this.count), get), this.count);
		for (let slot = 0; slot < this.count; slot++) {
			const v = get(slot);
			if (v) ivf.assign(slot, ivf.nearestList(v));
		}
		this.ivf = ivf;
	}

	remove(id: string): void {
		const slot = this.slotOf.get(id);
		if (slot === undefined) return;
		this.scopeCodes.epoch++;
		this.unlinkMeta(this.metas[slot], slot);
		this.lexical.remove(id);
		this.adj.removeNode(id);
		this.ivf?.unassign(slot);
		this.scopeSlots.unassign(slot);
		// Swap-remove: the last slot moves into the hole so slots stay dense for scans.
		const last = --this.count;
		if (slot !== last) {
			const movedId = this.ids[last];
			this.ids[slot] = movedId;
			this.metas[slot] = this.metas[last];
			this.slotOf.set(movedId, slot);
			this.vectors.move(last, slot);
			this.ivf?.move(last, slot);
			this.scopeSlots.move(last, slot);
			this.groups.move(last, slot);
		} else {
			this.vectors.set(slot, null);
		}
		this.ids.length = last;
		this.metas.length = last;
		this.slotOf.delete(id);
	}

	counts(): { edgesByType: Record<string, number>; memoriesPerEntity: Map<string, number>; vectors: number } {
		let vectors = 0;
		for (let slot = 0; slot < this.count; slot++) if (this.vectors.has(slot)) vectors++;
		const docs = this.entityDocs;
		return {
			edgesByType: Object.fromEntries(this.adj.countsByType()),
			// Made when read: stats reads entityCounts() instead.
			get memoriesPerEntity() {
				return docs.counts();
			},
			vectors,
		};
	}

	entityCounts(): { size: number; entries: Iterable<[string, number]> } {
		return { size: this.entityDocs.size, entries: this.entityDocs.entries() };
	}

	eachMeta(fn: (meta: Readonly<DocMeta>) => void): void {
		for (let slot = 0; slot < this.count; slot++) fn(this.metas[slot]);
	}

	tally(now: number): MetaTally {
		return tallyMetas(this.metas, this.count, now);
	}

	touch(id: string, access_count: number, last_accessed: number): void {
		const slot = this.slotOf.get(id);
		if (slot === undefined) return;
		this.metas[slot].access_count = access_count;
		this.metas[slot].last_accessed = last_accessed;
	}

	async settle(pause: () => Promise<void>): Promise<void> {
		this.groups.settle();
		await pause();
		await this.lexical.settle(pause);
	}

	addEdge(edge: Edge): void {
		this.adj.add(edge);
	}

	removeEdge(from: string, to: string, type: AssociationType): void {
		this.adj.remove(from, to, type);
	}

	linkedFrom(ids: Iterable<string>): string[] {
		const out = new Set<string>();
		for (const id of ids) for (const e of this.adj.of(id)) if (e.dir === 'in') out.add(e.other);
		return [...out];
	}

	nearest(vector: Float32Array, k: number, filter?: { scope?: string; exclude?: string[] }): { id: string; cosine: number }[] {
		return this.nearestMany([{ vector, ...filter }], k)[0];
	}

	nearestMany(lookups: { vector: Float32Array; scope?: string; exclude?: string[] }[], k: number): { id: string; cosine: number }[][] {
		const out: { id: string; cosine: number }[][] = lookups.map(() => []);
		if (k <= 0) return out;
		const queries: NearestQuery[] = [];
		const at: number[] = [];
		lookups.forEach((l, i) => {
			const q = normalize(l.vector);
			if (q === null || q.length !== this.dims) return;
			queries.push({ q, scope: l.scope, exclude: l.exclude });
			at.push(i);
		});
		nearestMany(this, queries, k).forEach((hits, j) => (out[at[j]] = hits));
		return out;
	}

	/** The ids of the memories holding no vector, in slot order: one pass over the vector scales. */
	idsWithoutVector(): string[] {
		const out: string[] = [];
		for (let slot = 0; slot < this.count; slot++) if (!this.vectors.has(slot)) out.push(this.metas[slot].id);
		return out;
	}

	hasVector(id: string): boolean {
		const slot = this.slotOf.get(id);
		return slot !== undefined && this.vectors.has(slot);
	}

	cosineTo(id: string, vector: Float32Array): number | undefined {
		const slot = this.slotOf.get(id);
		if (slot === undefined || !this.vectors.has(slot)) return undefined;
		const q = normalize(vector);
		if (q === null || q.length !== this.dims) return undefined;
		return this.vectors.dot(slot, q);
	}

	rank(input: RecallInput, query: QueryVectors, now: number): RankedPage {
		return rankIndex(this, input, query, now);
	}

	snapshot(): Uint8Array {
		return drain(this.snapshotSteps());
	}

	snapshotInSteps(pause: () => Promise<void>, sliceMs?: number): Promise<Uint8Array> {
		return drainWithPauses(this.snapshotSteps(), pause, sliceMs);
	}

	/**
	 * The snapshot, yielding every few thousand memories, edges or terms: encoding a 100k index
	 * takes seconds, and in one piece it held every call behind it (issue 25: at 10k, one search
	 * in each run waited 200–360 ms for it).
	 */
	private *snapshotSteps(): Steps<Uint8Array> {
		const count = this.count;
		const metas = this.metas.slice(0, count);
		const packedMetas = yield* encodeMetasInSteps(metas);
		const edges = yield* this.packEdges();
		const lexical = yield* this.lexical.packInSteps(this.slotOf);
		yield;
		if (this.count !== count) throw new Error('the index changed while its snapshot was being encoded');
		return encodeSnapshot(
			{
				modelId: this.modelId,
				dims: this.dims,
				metas,
				edges,
				lexical,
				vectors: this.vectors.view(count),
				ivf: this.ivf ? { centroids: this.ivf.centroids, trainedAt: this.ivf.trainedAt, lists: this.ivf.assignments(count) } : undefined,
			},
			packedMetas,
		);
	}

	/** The adjacency's edges by slot, for the snapshot. */
	private *packEdges(): Steps<PackedEdges> {
		const m = this.adj.edgeCount;
		const from = new Int32Array(m);
		const to = new Int32Array(m);
		const strength = new Float64Array(m);
		const type = new Uint8Array(m);
		const types: AssociationType[] = [];
		const typeIndex = new Map<AssociationType, number>();
		const loose: Edge[] = [];
		let i = 0;
		yield* this.adj.eachOut(this.slotOf, (a, b, edgeType, edgeStrength, fromId, toId) => {
			if (a === undefined || b === undefined) {
				loose.push({ from: fromId, to: toId, type: edgeType, strength: edgeStrength });
				return;
			}
			let t = typeIndex.get(edgeType);
			if (t === undefined) typeIndex.set(edgeType, (t = types.push(edgeType) - 1));
			from[i] = a;
			to[i] = b;
			strength[i] = edgeStrength;
			type[i++] = t;
		});
		return { from: from.subarray(0, i), to: to.subarray(0, i), strength: strength.subarray(0, i), type: type.subarray(0, i), types, loose };
	}

	clear(): void {
		this.count = 0;
		this.metas = [];
		this.ids = [];
		this.slotOf.clear();
		this.seqToId.clear();
		this.vectors = new VectorStore(this.dims);
		this.lexical.clear();
		this.adj.clear();
		this.entityDocs.clear();
		this.groups = GroupCounts.empty();
		this.scopeSlots = new SlotLists();
		this.scopeList.clear();
		this.scopeCodes.clear();
		this.ivf = null;
		this.byContent = undefined;
	}

	has(id: string): boolean {
		return this.slotOf.has(id);
	}

	withTags(tags: string[], mode: 'any' | 'all', scope?: string): string[] {
		const out: string[] = [];
		const member = scope === undefined ? undefined : this.inScope(scope);
		for (let slot = 0; slot < this.count; slot++) {
			const m = this.metas[slot];
			if (member && !member(slot)) continue;
			if (carriesTags(m.tags, tags, mode)) out.push(m.id);
		}
		return out;
	}

	mentioning(entity: string): string[] {
		// In id order, as IndexedDB's entity_ids index gave them up to schema v10.
		return [...(this.entityDocs.get(entity) ?? [])].sort();
	}

	mentions(entity: string): number {
		return this.entityDocs.get(entity)?.size ?? 0;
	}

	mentionSpan(entity: string): { count: number; first: number; last: number } | undefined {
		const ids = this.entityDocs.get(entity);
		if (!ids || ids.size === 0) return undefined;
		let first = Infinity;
		let last = -Infinity;
		for (const id of ids) {
			const t = this.metas[this.slotOf.get(id)!].timestamp;
			if (t < first) first = t;
			if (t > last) last = t;
		}
		return { count: ids.size, first, last };
	}

	withContentHash(scope: string, hash: number): string[] {
		if (!this.byContent) {
			this.byContent = new Map();
			for (let slot = 0; slot < this.count; slot++) this.fileContent(this.metas[slot]);
		}
		return (this.byContent.get(hash) ?? []).filter((id) => this.metas[this.slotOf.get(id)!].scope === scope);
	}

	private fileContent(m: DocMeta): void {
		if (m.content_hash === undefined) return;
		const ids = this.byContent!.get(m.content_hash);
		if (ids) ids.push(m.id);
		else this.byContent!.set(m.content_hash, [m.id]);
	}

	/** Registers a memory's seq, group and entities in the lookup maps (unless a restore loads them packed). */
	linkMeta(m: DocMeta, slot: number, packed?: { seqs: boolean; entities: boolean; groups: boolean }): void {
		if (this.byContent) this.fileContent(m);
		if (!packed?.seqs) this.seqToId.set(m.seq, m.id);
		if (!packed?.groups && m.group !== undefined) this.groups.add(m.group, slot);
		if (!packed?.entities) for (const e of m.entities) this.entityDocs.add(e, m.id);
	}

	private unlinkMeta(m: DocMeta, slot: number): void {
		const same = m.content_hash === undefined ? undefined : this.byContent?.get(m.content_hash);
		const at = same ? same.indexOf(m.id) : -1;
		if (at >= 0) {
			same!.splice(at, 1);
			if (same!.length === 0) this.byContent!.delete(m.content_hash!);
		}
		if (this.seqToId.get(m.seq) === m.id) this.seqToId.delete(m.seq);
		if (m.group !== undefined) this.groups.delete(slot);
		for (const e of m.entities) this.entityDocs.delete(e, m.id);
	}
}

const EMPTY_SLOTS = new Int32Array(0);

/** A defensive copy, so later mutation by the caller cannot desynchronise the index. */
function copyMeta(m: DocMeta): DocMeta {
	return { ...m, tags: [...m.tags], entities: [...m.entities] };
}

/** True when a text ends with a question mark (trailing emoji, quotes and spaces aside). */
export function asksQuestion(text: string): boolean {
	return /\?[^\p{L}\p{N}.!?]*$/u.test(text);
}

/** What minisearch indexes for a memory. */
function lexicalDoc(m: DocMeta, text: DocText): LexicalDoc {
	return {
		id: m.id,
		content: text.content,
		summary: text.summary ?? '',
		tags: m.tags.join(' '),
		entities: (text.entityNames ?? []).join(' '),
		dates: dateWords(m.timestamp),
		metadata: text.metadata ?? '',
		context: text.context ?? '',
	};
}

/**
 * seq → id by binary search over a snapshot's seqs (`seqs[slot]`, id `ids[slot]`), when they
 * rise with the slot as memories stored in order have them; undefined when they do not.
 */
function seqsBySlot(seqs: Float64Array, ids: readonly string[]): MapBase<number, string> | undefined {
	for (let i = 1; i < seqs.length; i++) if (!(seqs[i] > seqs[i - 1])) return undefined;
	return {
		size: seqs.length,
		get(seq) {
			let lo = 0;
			let hi = seqs.length - 1;
			while (lo <= hi) {
				const mid = (lo + hi) >> 1;
				if (seqs[mid] === seq) return ids[mid];
				if (seqs[mid] < seq) lo = mid + 1;
				else hi = mid - 1;
			}
			return undefined;
		},
		keys: () => seqs,
	};
}

/** A new, empty index for one embedding model. */
export function createSearchIndex(opts: { modelId: string; dims: number }): SearchIndex {
	if (!Number.isInteger(opts.dims) || opts.dims < 1) throw new RangeError(`dims: must be a positive integer, got ${opts.dims}`);
	return new MemorySearchIndex(opts.modelId, opts.dims);
}

/**
 * Restores an index from `snapshot()` bytes, or from their slices (snapshot.ts, cut in another
 * thread; with the sections in hand, only the stepwise restore awaits them). Throws a MemoryError('invalid_input') when the bytes are not a
 * snapshot of a supported version, so the caller can fall back to a rebuild.
 */
export function restoreSearchIndex(bytes: Uint8Array | SnapshotSlices): SearchIndex {
	const steps = restoreSteps(bytes);
	for (;;) {
		const r = steps.next();
		if (r.done) return r.value;
	}
}

/**
 * `restoreSearchIndex`, awaiting `pause()` between its steps (decoding, metadata, lexical and
 * vectors, graph) so other work of a starting engine runs between them instead of waiting for
 * the whole restore; and awaiting sections that are still being cut in another thread.
 */
export async function restoreSearchIndexInSteps(bytes: Uint8Array | SnapshotSlices, pause: () => Promise<void>): Promise<SearchIndex> {
	const steps = restoreSteps(bytes);
	for (let r = steps.next(); ;) {
		if (r.done) return r.value;
		if (r.value) r = steps.next(await r.value);
		else {
			await pause();
			r = steps.next();
		}
	}
}

/**
 * The restore, yielding between steps. It yields the sections' promise when they are one (the
 * caller resumes it with them): the work that needs only the metadata (strings, maps) comes
 * first, so the engine does it while its helper thread is still cutting the rest.
 */
function* restoreSteps(bytes: Uint8Array | SnapshotSlices): Generator<Promise<SnapshotSections> | undefined, SearchIndex, SnapshotSections | undefined> {
	let head: Pick<SnapshotSlices, 'modelId' | 'dims' | 'count'>;
	let metaSection: SnapshotSlices['metas'];
	let sections: SnapshotSections | Promise<SnapshotSections>;
	if (bytes instanceof Uint8Array) {
		const h = snapshotHead(bytes);
		[head, metaSection, sections] = [h, sliceMetas(bytes, h), sliceSections(bytes, h)];
	} else [head, metaSection, sections] = [bytes, bytes.metas, bytes.sections];
	const { metas, mentions, seqs, groups } = decodeMetaSection(head, metaSection);
	yield undefined;
	const n = metas.length;
	// The ids by snapshot slot and their slots, never changed: the index's own id → slot map,
	// the lexical document tables, the packed graph and the entity sets all read through them.
	const slotIds: readonly string[] = Object.freeze(metas.map((m) => m.id));
	const baseSlotOf = new Map<string, number>();
	for (let i = 0; i < n; i++) baseSlotOf.set(slotIds[i], i);
	const slots: SlotNames = { ids: slotIds, slotOf: baseSlotOf };
	const idx = new MemorySearchIndex(head.modelId, head.dims);
	idx.count = n;
	idx.metas = metas;
	idx.ids = [...slotIds];
	idx.slotOf = new OverlayMap(baseSlotOf);
	const bySeq = seqsBySlot(seqs ?? Float64Array.from(metas, (m) => m.seq), slotIds);
	if (bySeq) idx.seqToId = new OverlayMap(bySeq);
	// Counted from the group column, by string: no key is hashed until a change needs the map.
	if (groups) idx.groups = GroupCounts.packed(mentions.strings, groups);
	const packed = { seqs: bySeq !== undefined, entities: true, groups: true };
	for (let i = 0; i < n; i++) {
		idx.linkMeta(metas[i], i, packed);
		idx.placeScope(i, metas[i].scope);
	}
	idx.entityDocs.loadPacked(slotIds, mentions.strings, mentions.offsets, mentions.values);
	const s = sections instanceof Promise ? yield sections : (yield undefined, sections);
	if (!s) throw new Error('restore resumed without the snapshot sections');
	idx.vectors = VectorStore.adopt(head.dims, s.vectors);
	idx.lexical = LexicalIndex.unpack(s.lexical, slots);
	yield undefined;
	const { from, to, strength, type, types, loose } = s.edges;
	idx.adj.loadPacked(slots, from, to, type, types, strength);
	for (const e of loose) idx.adj.add(e);
	if (s.ivf) {
		const ivf = new Ivf(head.dims, s.ivf.centroids, s.ivf.trainedAt);
		s.ivf.lists.forEach((list, slot) => list >= 0 && ivf.assign(slot, list));
		idx.ivf = ivf;
	}
	return idx;
}

export type { SearchIndex } from './types';

/**
 * store_memory: single or batch (≤ 500). Embeds every text in one call, then in one IndexedDB
 * transaction detects duplicates, writes the memories, their entities, vectors, SIMILAR_TO links
 * (also between items of the batch), PRECEDED_BY links and supersede marks; the search index
 * is updated while the storage process writes and commits (writeIndexed), so the next recall
 * finds them.
 */
import { MemoryError } from '../core/errors';
import { newMemoryId } from '../core/ids';
import { mergeNote } from '../core/merge-note';
import { importanceValue, LIMITS, StoreInputSchema, toIso, type AssociationType, type StoreInput, type StoreItem, type StoreOutput } from '../core/schemas';
import { normalize } from '../core/vector';
import { isoOrder } from '../core/time';
import { contentHash, keyOfNormalised, normaliseContent, SESSION_KEYS, sessionOf } from '../store/derived';
import { appendActivity, batchCreatedRow } from '../store/activity';
import { putLinks, withLinks } from '../store/associations';
import { readEntities, writeEntities, type EntityKey } from '../store/entities';
import { getByRef, previousInScope } from '../store/memories';
import type { ActivityRow, AssociationRow, MemoryRow } from '../store/rows';
import { readCounters, writeCounters } from '../store/settings';
import { setVector } from '../store/vectors';
import { storedMemory } from '../store/db';
import { writeRows } from '../store/raw';
import { BatchDots } from './batch-dots';
import { callerModel, embedTexts, nowIso, type EngineContext } from './context';
import { turnContext } from './doc';
import { packedWordCache } from './duplicates';
import { entityKeys, resolveEntities } from './entity-keys';
import { writeIndexed, type IndexChange } from './index-sync';
import { applyOnce, replayedOutput, requestKey } from './request-ids';
import { sameState, StaleGuess, type GuessedState, type PrevTurn, type WriteState } from './write-guess';
import { parseInput } from './validate';
import {
	batchNeighbours,
	exactDuplicate,
	nearDuplicate,
	nearestOf,
	possibleUpdates,
	contentsAbove,
	round,
	scopeKey,
	similarNeighbours,
	storedNeighbours,
	storedNeighboursOf,
	type Draft,
	type Neighbour,
	type Written,
} from './store-neighbours';

export { MAX_SIMILAR, scopeKey } from './store-neighbours';

/** Defaults for fields a caller leaves out (documented in docs/DESIGN.md). */
export const STORE_DEFAULTS = {
	type: 'Context',
	scope: 'default',
	importance: 0.5,
	// Unknown confidence sits below an explicit "sure" (1) and above an explicit doubt.
	confidence: 0.8,
} as const;

/**
 * Work a caller adds to a store's transaction (store-linked.ts): it runs once the store's own
 * requests have succeeded, before the commit, so a failure there aborts the store too. The
 * index already holds the store's change; edges it adds go in `change` and into the index.
 */
export type AfterStore = (results: StoreOutput['results'], change: IndexChange) => Promise<void>;

/**
 * Stores one memory or a batch; see the module comment for what happens. `after` joins the
 * store's transaction (see AfterStore).
 */
export async function storeMemories(ctx: EngineContext, input: StoreInput, actor = 'agent', after?: AfterStore): Promise<StoreOutput> {
	const parsed = parseInput(StoreInputSchema, input);
	const items: StoreItem[] = parsed.memories ?? [parsed as StoreItem];
	const path = (i: number, f: string) => (parsed.memories ? `memories[${i}].${f}` : f);
	const now = nowIso(ctx);
	const vectors = await embedTexts(
		ctx,
		items.map((i) => i.content),
	);
	const drafts = items.map((item, i) => draftOf(item, i, now, vectors[i], path));
	const key = requestKey('store_memory', parsed);
	return ctx.lock.run(async () => {
		const attempt = async (guess: boolean) => {
			const change: IndexChange = { upserts: [], edges: [] };
			const write = (complete: () => void) => {
				const written = writeDrafts(ctx, drafts, { change, complete }, path, actor, now, guess);
				return after ? written.then(async (results) => (await after(results, change), results)) : written;
			};
			return {
				change,
				applied: await writeIndexed(ctx, change, (complete) =>
					applyOnce(
						ctx,
						key,
						() => write(complete),
						(r) => r,
					),
				),
			};
		};
		const { change, applied } = await attempt(true).catch((e: unknown) => {
			if (!(e instanceof StaleGuess)) throw e;
			ctx.guesses.stale++;
			ctx.guesses.forget();
			return attempt(false);
		});
		const out = output(applied.value, parsed.memories === undefined);
		if (applied.replayed) return replayedOutput(out, key!);
		ctx.hub.emit({ kind: 'memories', ids: change.upserts.map((u) => u.row.id) });
		return out;
	});
}

/** Fills defaults and derives keys; nothing here touches the database. */
function draftOf(item: StoreItem, index: number, now: string, vector: Float32Array | null, path: (i: number, f: string) => string): Draft {
	const caller = item.embedding ? normalize(item.embedding) : null;
	if (item.embedding && !caller) throw new MemoryError('invalid_input', `${path(index, 'embedding')}: must not be all zeros`);
	const { refs, given } = resolveEntities(item.content, item.entities);
	const norm = normaliseContent(item.content);
	const metadata = item.metadata ?? {};
	const timestamp = item.timestamp ? toIso(item.timestamp) : now;
	const row: Omit<MemoryRow, 'seq'> = {
		id: item.id ?? newMemoryId(),
		content: item.content,
		type: item.type ?? STORE_DEFAULTS.type,
		tags: [...new Set(item.tags ?? [])],
		scope: item.scope ?? STORE_DEFAULTS.scope,
		importance: item.importance === undefined ? STORE_DEFAULTS.importance : importanceValue(item.importance),
		confidence: item.confidence ?? STORE_DEFAULTS.confidence,
		metadata,
		entities: refs,
		timestamp,
		updated_at: item.updated_at ? toIso(item.updated_at) : now,
		access_count: 0,
		content_key: keyOfNormalised(norm),
		entities_given: given,
	};
	if (item.summary !== undefined) row.summary = item.summary;
	if (item.source !== undefined) row.source = item.source;
	if (item.last_accessed) row.last_accessed = toIso(item.last_accessed);
	if (item.t_valid) row.t_valid = toIso(item.t_valid);
	if (item.t_invalid) row.t_invalid = toIso(item.t_invalid);
	const session = sessionOf(metadata);
	if (session !== undefined) row.session = session;
	checkValidity(row, (f) => path(index, f));
	let sq = 0;
	if (vector) for (let i = 0; i < vector.length; i++) sq += vector[i] * vector[i];
	return { index, row, norm, vector, sq, caller, keys: entityKeys(refs), item };
}

/** A validity window must not end before it starts. */
export function checkValidity(row: { t_valid?: string; t_invalid?: string }, path: (f: string) => string): void {
	if (row.t_valid !== undefined && row.t_invalid !== undefined && isoOrder(row.t_invalid, row.t_valid) < 0)
		throw new MemoryError('invalid_input', `${path('t_invalid')}: must not be before t_valid (${row.t_valid})`);
}

type StoreResult = StoreOutput['results'][number];

/**
 * Everything one store call writes, gathered in memory first: the transaction then issues a
 * handful of bulk requests whatever the batch size, instead of a dozen requests per memory.
 * Requests go out in two waves (every read at once, then every write at once), because in a
 * browser each awaited request costs a round trip to the storage process: a single store spends
 * two of them instead of a dozen.
 */
interface Plan {
	written: Written[];
	links: AssociationRow[];
	/** The entities of the memories written (their rows are created or aliased as needed). */
	mentions: EntityKey[];
	/** Stored rows rewritten by this store (superseded, or given a duplicate's tags), by id. */
	superseded: Map<string, MemoryRow>;
	/** Activity entries for stored rows a duplicate added tags or metadata to. */
	merges: ActivityRow[];
	/** Last memory per scope + session, so PRECEDED_BY and turn contexts chain through the batch. */
	previous: Map<string, PrevTurn | undefined>;
}

/** Plans every draft in order, then writes the plan, inside the caller's transaction. */
async function writeDrafts(
	ctx: EngineContext,
	drafts: Draft[],
	out: IndexOut,
	path: (i: number, f: string) => string,
	actor: string,
	now: string,
	guess: boolean,
): Promise<StoreResult[]> {
	const keys = new Map(drafts.map((d) => [scopeKey(d.row.scope, d.row.session ?? ''), d.row]));
	const entityIds = [...new Set(drafts.flatMap((d) => d.keys.map((k) => k.id)))];
	const read = () => readState(ctx, keys, entityIds);
	const guessed = guess ? ctx.guesses.guess(keys.keys(), entityIds, (id) => ctx.index.mentions(id) === 0) : undefined;
	const [, exact, state] = await Promise.all([refuseTakenIds(ctx, drafts, path), exactCandidates(ctx, drafts), guessed ?? read()]);
	if (!guessed) ctx.guesses.learn({ ...state, entities: state.entities.values() });
	const plan: Plan = { written: [], links: [], mentions: [], superseded: new Map(), merges: [], previous: new Map(state.previous) };
	// A batch that supersedes nothing never changes a row once planned, so its rows can be
	// written while later ones are still being planned.
	const early = drafts.every((d) => d.item.supersedes_memory_id === undefined);
	const writer = new PlanWriter(ctx, plan, { actor, now, state, verify: guessed && (() => verifyGuess(ctx, guessed)), absent: guessed?.absent }, early);
	const results: (StoreResult | Draft)[] = [];
	/** Drafts stored despite a near-duplicate (their caller gave an id), by index. */
	const nearOf = new Map<number, { row: MemoryRow; similarity: number }>();
	// The batch reaches the index only once its plan is written, so the stored neighbours of
	// every draft that supersedes nothing are looked up together, up front (nearestMany shares
	// their scans); a superseding draft looks up its own, leaving out the memory it replaces.
	const neighbours = storedNeighboursOf(ctx, drafts);
	const similarContents = await contentsAbove(ctx, neighbours);
	/** Memories each stored draft may replace (possible_update_of), by index. */
	const updatesOf = new Map<number, string[]>();
	const words = packedWordCache();
	const dots = batchDots(drafts);
	/** The written items by scope and normalised content (the first of each): exactDuplicate's look-up. */
	const byNorm = new Map<string, Written>();
	// Inside a Dexie transaction every `await` must be an IndexedDB request or soon reach one:
	// Dexie follows native awaits for only ~100 microtasks (ZONE_ECHO_LIMIT), so pure planning
	// steps are synchronous and requests are awaited only when one is really needed.
	for (const d of drafts) {
		const superseded = d.item.supersedes_memory_id === undefined ? undefined : await findSuperseded(ctx, d, plan, path);
		let dup = d.item.force ? undefined : exactDuplicate(d, byNorm, exact, superseded?.id);
		// One index search and one pass over the batch serve both the near-duplicate check and
		// the SIMILAR_TO links.
		const stored = neighbours.get(d) ?? storedNeighbours(ctx, d, superseded?.id);
		const batch = batchNeighbours(ctx, d, plan.written, dots && d.vector ? dots.before(d.index) : undefined);
		if (!dup && !d.item.force) {
			const near = nearDuplicate(ctx, d, batch, stored, words);
			dup = near && 'then' in near ? await near : near;
		}
		// A caller-given id asks for a distinct record (AutoMem's seed stores `a` and `b`, then links
		// them): it is stored, linked SIMILAR_TO to the memory it nearly repeats, and says so.
		const kept = dup && d.item.id !== undefined ? dup : undefined;
		if (dup && !kept) {
			results.push({
				index: d.index,
				memory_id: dup.row.id,
				seq: dup.row.seq,
				status: 'duplicate',
				duplicate_of: dup.row.id,
				similarity: round(dup.similarity),
				...planMerge(d, dup.row, plan, writer, { actor, now }),
			});
			continue;
		}
		const row: MemoryRow = { ...d.row, seq: 0 };
		const near = [...stored, ...batch];
		const nearest = nearestOf(near);
		planExtras(ctx, d, row, plan, near, nearest, scopeKey(row.scope, row.session ?? ''));
		if (kept) {
			if (!plan.links.some((a) => a.from === row.id && a.to === kept.row.id && a.type === 'SIMILAR_TO'))
				plan.links.push(systemLink(row.id, kept.row.id, 'SIMILAR_TO', round(kept.similarity), row.timestamp));
			nearOf.set(d.index, kept);
		}
		if (superseded) planSupersede(superseded, row, d.item, plan);
		else {
			const may = possibleUpdates(ctx, d, near, similarContents, kept?.row.id, words, nearest);
			if (may.length > 0) updatesOf.set(d.index, may);
		}
		const w = { draft: d, row };
		plan.written.push(w);
		const normKey = scopeKey(row.scope, d.norm);
		if (!byNorm.has(normKey)) byNorm.set(normKey, w);
		results.push(d);
		writer.flush();
	}
	await writer.finish(out);
	const byIndex = new Map(plan.written.map((w) => [w.draft.index, w.row]));
	const byId = new Map(plan.written.map((w) => [w.row.id, w.row]));
	return results.map((r) => {
		// A duplicate of an earlier item of the batch learns that item's seq only now.
		if (!('item' in r)) return r.status === 'duplicate' && byId.has(r.memory_id) ? { ...r, seq: byId.get(r.memory_id)!.seq } : r;
		const row = byIndex.get(r.index)!;
		const out: StoreResult = { index: r.index, memory_id: row.id, seq: row.seq, status: 'stored', entities: row.entities };
		const near = nearOf.get(r.index);
		if (near) Object.assign(out, { near_duplicate_of: near.row.id, similarity: round(near.similarity) });
		const may = updatesOf.get(r.index);
		if (may) out.possible_update_of = may;
		return out;
	});
}

/**
 * The drafts' vectors for batchNeighbours' approximate products, when the batch has more than a
 * few and all have one length (else every product is computed exactly).
 */
function batchDots(drafts: Draft[]): BatchDots | null {
	const dims = drafts.find((d) => d.vector)?.vector!.length ?? 0;
	if (drafts.length < 16 || drafts.some((d) => d.vector && d.vector.length !== dims)) return null;
	const dots = BatchDots.create(dims, drafts.length);
	if (dots) for (const d of drafts) if (d.vector) dots.set(d.index, d.vector);
	return dots;
}

/** Caller ids must be new, and distinct within the batch. */
async function refuseTakenIds(ctx: EngineContext, drafts: Draft[], path: (i: number, f: string) => string): Promise<void> {
	const given = drafts.filter((d) => d.item.id !== undefined);
	if (given.length === 0) return;
	const existing = await ctx.db.memories.bulkGet(given.map((d) => d.row.id));
	const seen = new Map<string, number>();
	given.forEach((d, i) => {
		if (existing[i]) throw new MemoryError('conflict', `${path(d.index, 'id')}: a memory with id "${d.row.id}" already exists`);
		const first = seen.get(d.row.id);
		if (first !== undefined)
			throw new MemoryError('invalid_input', `${path(d.index, 'id')}: "${d.row.id}" is also the id of memories[${first}]; ids in one batch must differ`);
		seen.set(d.row.id, d.index);
	});
}

/**
 * The records a store plans with: the counters, the newest stored memory of each scope +
 * session key (PRECEDED_BY's target) and the mentioned entities' rows. Every request is issued
 * before the first await, so a store that guessed them (write-guess.ts) can issue them ahead of
 * its writes in one wave.
 */
function readState(ctx: EngineContext, keys: Map<string, Pick<MemoryRow, 'scope' | 'session'>>, entityIds: string[]): Promise<WriteState> {
	const previous = Promise.all([...keys.values()].map((r) => previousInScope(ctx.db, r.scope, r.session, Infinity)));
	return Promise.all([readCounters(ctx.db), previous, readEntities(ctx.db, entityIds)]).then(([counters, rows, entities]) => ({
		counters,
		previous: new Map([...keys.keys()].map((k, i) => [k, rows[i] && prevTurn(rows[i])])),
		entities,
	}));
}

/**
 * What a guessed store reads to check its guess (write-guess.ts): the counters. The entity rows
 * and the newest memories it remembers are not read again: they can only have changed through a
 * write, and every write that can change them moves the stamp the counters hold. Rereading the
 * entity rows was about an eighth of a batch import's storage work; the newest memory was a
 * cursor per scope + session, a third of a single store's check. The entities it guessed have no
 * row are not read either: their rows are added, not put (store/entities.ts `writeEntities`), so
 * one that exists fails its add and the guess counts as stale (PlanWriter.finish); a read of
 * each was a request per new entity, a few hundred per batch of 500. The one delete that leaves
 * the stamp (deleting while storage is full) takes its memories out of the index, here and,
 * through the cross-tab notice, in other tabs: a remembered newest memory the index no longer
 * holds makes the guess stale.
 */
function verifyGuess(ctx: EngineContext, guessed: GuessedState): Promise<WriteState> {
	// A native promise, as before: awaiting a Dexie one in finish() let the transaction end early
	// (PrematureCommitError in fake-indexeddb, store-linked.test.ts).
	return Promise.all([readCounters(ctx.db)]).then(([counters]) => ({
		counters,
		previous: new Map([...guessed.previous].map(([k, p]) => [k, p && !ctx.index.has(p.id) ? undefined : p])),
		entities: guessed.entities,
	}));
}

/**
 * Stored memories sharing a draft's scope and content key. The index names the candidates (its
 * content hash is 32 bits of the key), so a batch costs one request only when some draft has
 * one, instead of an IndexedDB look-up per draft.
 */
async function exactCandidates(ctx: EngineContext, drafts: Draft[]): Promise<Map<string, MemoryRow[]>> {
	const ids = new Set<string>();
	for (const d of drafts) if (!d.item.force) for (const id of ctx.index.withContentHash(d.row.scope, contentHash(d.row.content_key))) ids.add(id);
	const out = new Map<string, MemoryRow[]>();
	if (ids.size === 0) return out;
	for (const r of await ctx.db.memories.bulkGet([...ids])) {
		if (!r) continue;
		const k = scopeKey(r.scope, r.content_key);
		out.set(k, [...(out.get(k) ?? []), r]);
	}
	return out;
}

/**
 * Vectors, entity mentions, SIMILAR_TO, PRECEDED_BY and the turn context of a new row.
 * SIMILAR_TO is symmetric, so one link (new → older, kept in the new row) records it; every
 * reader of links reads both directions. Two per pair would rewrite each older neighbour's row
 * for nothing.
 */
function planExtras(ctx: EngineContext, d: Draft, row: MemoryRow, plan: Plan, near: Neighbour[], nearest: Neighbour[], key: string): void {
	plan.mentions.push(...d.keys);
	if (d.vector) setVector(row, ctx.embedder.modelId, d.vector);
	if (d.caller) setVector(row, callerModel(d.caller.length), d.caller);
	for (const n of similarNeighbours(ctx, near, nearest)) {
		const strength = round(n.cosine);
		plan.links.push(systemLink(row.id, n.id, 'SIMILAR_TO', strength, row.timestamp));
	}
	const prev = plan.previous.get(key);
	if (prev) plan.links.push(systemLink(row.id, prev.id, 'PRECEDED_BY', 1, row.timestamp));
	const context = turnContext(row, prev);
	if (context !== undefined) row.context = context;
	plan.previous.set(key, prevTurn(row));
}

/** What a later memory of the same scope + session needs of this one. */
function prevTurn(r: MemoryRow): PrevTurn {
	const p: PrevTurn = { id: r.id, content: r.content, timestamp: r.timestamp };
	if (r.session !== undefined) p.session = r.session;
	return p;
}

/** The index change a store fills, and writeIndexed's callback for when it is whole. */
interface IndexOut {
	change: IndexChange;
	complete: () => void;
}

/** What a PlanWriter needs besides the plan: who acts, when, and the state it planned with. */
interface CommitContext {
	actor: string;
	now: string;
	state: WriteState;
	/** Set when `state` was guessed: reads it again, ahead of the writes, to check the guess. */
	verify?: () => Promise<WriteState>;
	/** The entities a guessed state holds to have no row: added, so that one with a row fails. */
	absent?: ReadonlySet<string>;
}

/** New rows a batch plans before its writer issues them (see PlanWriter). */
const CHUNK_ROWS = 64;

/**
 * Writes a plan, seqs assigned in insertion order. When `early`, the new rows (with their links
 * and vectors) go out in chunks while later drafts are still being planned: the storage process
 * writes one chunk while the engine plans the next, instead of idling until the whole batch is
 * planned (at 100k memories, planning a batch takes about as long as writing it). `finish`
 * issues the rest (the remaining rows, superseded rows, entities, activity, counters) and waits
 * for every request. Everything stays one transaction: a failure anywhere aborts it all.
 */
class PlanWriter {
	readonly #pending: Promise<unknown>[] = [];
	/** Links whose source is not a row being written, for `finish` to read and write apart. */
	readonly #apart: AssociationRow[] = [];
	/** How many of the plan's rows and links have been issued. */
	#rows = 0;
	#links = 0;
	readonly #check: Promise<WriteState> | undefined;
	/** Each new row as issued: with its seq and the links it carries. */
	readonly added: MemoryRow[] = [];

	/**
	 * The row plan.written[i] stands for now: as issued (with its links) once its chunk is out,
	 * else as planned.
	 */
	current(i: number): MemoryRow {
		return this.issued(i) ? this.added[i] : this.plan.written[i].row;
	}

	/** Whether new row i has gone out (its chunk was issued). */
	issued(i: number): boolean {
		return i < this.#rows;
	}

	/**
	 * Replaces new row i after its chunk went out: `finish` puts it again (with the superseded
	 * rows, after the chunk's add in the same transaction) and indexes this version.
	 */
	rewrite(i: number, row: MemoryRow): void {
		this.added[i] = row;
		this.plan.superseded.set(row.id, row);
	}

	constructor(
		private readonly ctx: EngineContext,
		private readonly plan: Plan,
		private readonly c: CommitContext,
		private readonly early: boolean,
	) {
		// Issued before any write, so it reads the state they start from.
		this.#check = c.verify?.();
	}

	/** Issues the rows planned since the last chunk once there are CHUNK_ROWS of them. */
	flush(): void {
		// A chunk's links leave its own rows (nothing is superseded); any other goes to `finish`.
		if (this.early && this.plan.written.length - this.#rows >= CHUNK_ROWS) this.#apart.push(...this.#issueNew(new Map()));
	}

	/**
	 * Issues everything not yet issued and waits for the lot; throws StaleGuess on a wrong guess.
	 * The index change is whole once the last request is out, and is mirrored while the storage
	 * process writes.
	 */
	async finish({ change, complete }: IndexOut): Promise<void> {
		const { ctx, plan, c } = this;
		const db = ctx.db;
		const counters = c.state.counters;
		change.stamp = counters.stamp + 1;
		const superseded = new Map([...plan.superseded.values()].map((r) => [r.id, r]));
		const apart = [...this.#apart, ...this.#issueNew(superseded)];
		const old = [...superseded.values()];
		// A stale guess can also fail a write (a seq another tab took): the check tells which it was.
		// A check the failure cut short (the transaction aborts at a failed request) counts as stale:
		// the retry reads afresh, and fails the same way should the failure be real.
		const stale = async () => {
			if (this.#check === undefined) return false;
			const read = await this.#check.catch(() => undefined);
			return read === undefined || !sameState(c.state, read);
		};
		const next = { seq: counters.seq + plan.written.length, stamp: change.stamp };
		const written = plan.written.map((w) => w.row);
		// An entity guessed to have no row that has one fails its add: the guess was stale.
		let clash = false;
		const entityRows = writeEntities(db, plan.mentions, c.state.entities, c.absent);
		entityRows.catch((e: unknown) => void (clash = c.absent !== undefined && (e as { name?: string } | null)?.name === 'ConstraintError'));
		// Empty bulk calls still cost a request each; skip them.
		const requests = Promise.all([
			old.length && db.memories.bulkPut(old),
			putLinks(db, apart),
			entityRows,
			appendActivity(db, [...createdEntries(written, c), ...plan.merges]),
			writeCounters(db, next),
			...this.#pending,
		]).catch(async (e: unknown) => {
			throw clash || (await stale()) ? new StaleGuess() : e;
		});
		// A superseded memory is re-indexed for its new validity window, with the vector its row holds.
		for (const r of old) change.upserts.push({ row: r, vector: r.vectors?.[ctx.embedder.modelId] ?? null });
		plan.written.forEach((w, i) => change.upserts.push({ row: this.added[i], vector: w.draft.vector }));
		change.edges.push(...plan.links);
		complete();
		const [, , entities] = await requests;
		if (await stale()) throw new StaleGuess();
		// Should the commit still fail, the next store's check finds these out.
		ctx.guesses.learn({ counters: next, previous: plan.previous, entities: entities.values() });
	}

	/**
	 * Issues the new rows (with their vectors) planned since the last chunk. Links are written on the rows
	 * they leave: new rows carry theirs, rows in `sources` (superseded ones, written by `finish`)
	 * get theirs added there, and the links of any other source (a superseded memory that was
	 * already invalid) are returned, to be read and written apart.
	 */
	#issueNew(sources: Map<string, MemoryRow>): AssociationRow[] {
		const { plan, c, ctx } = this;
		const seq = c.state.counters.seq;
		const fresh = plan.written.slice(this.#rows).map((w, i) => ((w.row.seq = seq + 1 + this.#rows + i), w.row));
		for (const r of fresh) sources.set(r.id, r);
		const apart: AssociationRow[] = [];
		/** The links to add to each row in `sources`, in order: each row is then copied once (withLinks). */
		const bySource = new Map<string, AssociationRow[]>();
		for (const a of plan.links.slice(this.#links)) {
			if (!sources.has(a.from)) apart.push(a);
			else if (bySource.has(a.from)) bySource.get(a.from)!.push(a);
			else bySource.set(a.from, [a]);
		}
		for (const [id, links] of bySource) sources.set(id, withLinks(sources.get(id)!, links));
		const rows = fresh.map((r) => sources.get(r.id)!);
		for (const r of fresh) sources.delete(r.id);
		this.added.push(...rows);
		this.#rows = plan.written.length;
		this.#links = plan.links.length;
		const issue = (p: Promise<unknown>) => {
			// A chunk that fails aborts the transaction; `finish` (if it is reached) reports it.
			p.catch(() => undefined);
			this.#pending.push(p);
		};
		if (rows.length) issue(writeRows(ctx.db, 'memories', rows, 'add', storedMemory));
		return apart;
	}
}

/** What a duplicate brought to the memory it was folded into (StoreResult's merged_tags / merged_metadata). */
type Merged = Pick<StoreResult, 'merged_tags' | 'merged_metadata' | 'unmerged'>;

/**
 * Folds what a duplicate adds into the memory it repeats, in the store's transaction: its tags
 * the memory lacks (in any case) and its metadata keys the memory lacks (a key it has keeps its
 * value; session keys are never added, as they would move the memory to another session). An
 * agent that stores a fact again with new tags meant them; dropping them lost them silently.
 * Tags or metadata that would break a limit are left out, and the answer says so.
 */
function planMerge(d: Draft, target: MemoryRow, plan: Plan, writer: PlanWriter, c: { actor: string; now: string }): Merged {
	const i = plan.written.findIndex((w) => w.row.id === target.id);
	const row = i >= 0 ? writer.current(i) : (plan.superseded.get(target.id) ?? target);
	// A tag the memory has in another case is the same tag (memory-mcp matches labels so).
	const have = new Set(row.tags.map((t) => t.toLowerCase()));
	const tags = d.row.tags.filter((t) => !have.has(t.toLowerCase()) && have.add(t.toLowerCase()));
	const session = (k: string) => (SESSION_KEYS as readonly string[]).includes(k);
	// Own keys only: `in` finds `constructor` or `toString` on every object, so they were never merged.
	const meta = Object.entries(d.row.metadata).filter(([k]) => !Object.hasOwn(row.metadata, k) && !session(k));
	const unmerged: string[] = [];
	// A key the memory has keeps its value; the answer names the keys whose value it did not take.
	const kept = Object.keys(d.row.metadata).filter(
		(k) => Object.hasOwn(row.metadata, k) && !session(k) && JSON.stringify(d.row.metadata[k]) !== JSON.stringify(row.metadata[k]),
	);
	if (kept.length) unmerged.push(`metadata ${kept.join(', ')} (the memory keeps its own value${kept.length > 1 ? 's' : ''})`);
	if (tags.length && row.tags.length + tags.length > LIMITS.tags) {
		unmerged.push(`tags (the memory would have ${row.tags.length + tags.length}; at most ${LIMITS.tags})`);
		tags.length = 0;
	}
	let metadata = row.metadata;
	if (meta.length) {
		metadata = { ...row.metadata, ...Object.fromEntries(meta) };
		if (JSON.stringify(metadata).length > LIMITS.metadataBytes) {
			unmerged.push(`metadata (the memory's would exceed ${LIMITS.metadataBytes} bytes)`);
			metadata = row.metadata;
			meta.length = 0;
		}
	}
	const out: Merged = unmerged.length ? { unmerged } : {};
	if (tags.length === 0 && meta.length === 0) return out;
	if (tags.length) out.merged_tags = tags;
	if (meta.length) out.merged_metadata = meta.map(([k]) => k);
	const next: MemoryRow = { ...row, tags: [...row.tags, ...tags], metadata };
	if (i < 0) {
		next.updated_at = c.now;
		plan.superseded.set(next.id, next);
		const changes: Record<string, { from?: unknown; to?: unknown }> = {};
		if (tags.length) changes.tags = { from: row.tags, to: next.tags };
		if (meta.length) changes.metadata = { from: row.metadata, to: next.metadata };
		const detail = Object.keys(changes).join(', ');
		plan.merges.push({ at: c.now, actor: c.actor, action: 'updated', memory_id: next.id, detail, changes });
	} else if (!writer.issued(i)) Object.assign(plan.written[i].row, { tags: next.tags, metadata });
	else writer.rewrite(i, next);
	return out;
}

/** One `created` entry for a single memory, one naming them all for a batch (one row, not n). */
function createdEntries(rows: MemoryRow[], c: CommitContext): ActivityRow[] {
	if (rows.length === 0) return [];
	if (rows.length === 1) return [{ at: c.now, actor: c.actor, action: 'created', memory_id: rows[0].id }];
	return [batchCreatedRow(c.now, c.actor, rows)];
}

/** An association Engram creates itself. */
function systemLink(from: string, to: string, type: AssociationType, strength: number, at: string): AssociationRow {
	return { from, to, type, strength, created_at: at };
}

/** The memory this draft supersedes (possibly an earlier item of the batch, by its id). */
async function findSuperseded(ctx: EngineContext, d: Draft, plan: Plan, path: (i: number, f: string) => string): Promise<MemoryRow | undefined> {
	const ref = d.item.supersedes_memory_id;
	if (ref === undefined) return undefined;
	const inBatch = plan.written.find((w) => w.row.id === ref)?.row;
	const old = inBatch ?? plan.superseded.get(String(ref)) ?? (await getByRef(ctx.db, ref));
	if (!old) throw new MemoryError('not_found', `${path(d.index, 'supersedes_memory_id')}: no memory with id ${JSON.stringify(ref)}`);
	return plan.superseded.get(old.id) ?? old;
}

/** Marks `old` invalid from the new memory's time (unless already) and links old → new. */
function planSupersede(old: MemoryRow, row: MemoryRow, item: StoreItem, plan: Plan): void {
	const type = item.supersede_relation ?? 'INVALIDATED_BY';
	if (old.t_invalid === undefined) {
		const inBatch = plan.written.find((w) => w.row === old);
		if (inBatch) old.t_invalid = row.timestamp;
		else plan.superseded.set(old.id, { ...old, t_invalid: row.timestamp, updated_at: row.updated_at });
	}
	const link: AssociationRow = { ...systemLink(old.id, row.id, type, 0.9, row.timestamp) };
	if (item.supersede_reason !== undefined) link.reason = item.supersede_reason;
	if (type === 'INVALIDATED_BY') link.timestamp = row.timestamp;
	plan.links.push(link);
}

/** What a stored memory that nearly repeats another (kept for its caller-given id) says of it. */
function keptApart(r: StoreResult): string {
	return r.near_duplicate_of === undefined
		? ''
		: `; it nearly repeats memory ${r.near_duplicate_of} (similarity ${r.similarity}), kept apart for its given id and linked SIMILAR_TO`;
}

function batchMergeNote(results: StoreResult[]): string {
	const n = results.filter((r) => r.merged_tags || r.merged_metadata).length;
	const left = results.filter((r) => r.unmerged).length;
	return `${n ? ` (${n} brought new tags or metadata, added to the memory each repeats)` : ''}${left ? `; ${left} duplicate(s) brought tags or metadata over a limit, not added (see unmerged)` : ''}`;
}

function output(results: StoreResult[], single: boolean): StoreOutput {
	const stored = results.filter((r) => r.status === 'stored').length;
	const dups = results.length - stored;
	const apart = results.filter((r) => r.near_duplicate_of !== undefined).length;
	const out: StoreOutput = {
		success: true,
		message: single
			? dups
				? `Not stored: near-duplicate of memory ${results[0].duplicate_of} (similarity ${results[0].similarity})${mergeNote(results[0])}; pass force: true to store anyway`
				: `Stored memory ${results[0].memory_id} (#${results[0].seq})${keptApart(results[0])}`
			: `Stored ${stored} of ${results.length} memories${dups ? `; ${dups} near-duplicate(s) skipped` : ''}${batchMergeNote(results)}${apart ? `; ${apart} kept apart from a near-duplicate for their given id` : ''}`,
		results,
		stored_count: stored,
		duplicate_count: dups,
	};
	if (single) {
		out.memory_id = results[0].memory_id;
		out.seq = results[0].seq;
		if (results[0].duplicate_of) out.duplicate_of = results[0].duplicate_of;
	}
	return out;
}

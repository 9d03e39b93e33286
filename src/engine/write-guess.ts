/**
 * What this engine's last writes left in IndexedDB, remembered so the next store can skip its
 * read wave: the counters, the newest memory of each scope + session, and entity rows. In a
 * browser each wave of requests costs a round trip to the storage process; in the one-off
 * measurements of docs/BENCHMARKS.md the saving was a few tenths of a ms, within the noise.
 *
 * A guess is checked in the store's own transaction. The store that uses one issues the check's
 * reads in the same wave as its writes, reads first (IndexedDB runs a transaction's requests in
 * order, so they see the state before the writes), and aborts the transaction when any read
 * differs from the guess: another tab wrote, a delete or an update changed the newest memory or
 * an entity, an entity guessed absent has a row. The store is then run again with a read wave
 * (store-ops.ts). The check reads the counters, whose write stamp every write transaction moves,
 * so an unchanged stamp vouches for the remembered entity rows and newest memories; they are not
 * read again (the one write that leaves the stamp, a delete while storage is full, takes its
 * memories out of the index, and a remembered newest memory the index no longer holds fails the
 * check). The entities guessed absent are read: that guess rests on the index's mention counts. A
 * wrong guess costs a retry, never a wrong write, so nothing here has to be invalidated for
 * correctness.
 */
import { AbortForRetry } from '../store/errors';
import type { EntityRow } from '../store/rows';
import type { Counters } from '../store/settings';

/** The newest memory of a scope + session: PRECEDED_BY's target and a turn's context. */
export interface PrevTurn {
	id: string;
	content: string;
	timestamp: string;
	session?: string;
}

/** The records a store reads before planning its writes. */
export interface WriteState {
	counters: Counters;
	/** Scope + session key → its newest memory (undefined: none). */
	previous: Map<string, PrevTurn | undefined>;
	/** Entity id → stored row, for the ids asked; absent ids have no row. */
	entities: Map<string, EntityRow>;
}

/** A guessed state, and which of its entities it guessed to have no row (the check reads those). */
export interface GuessedState extends WriteState {
	absent: Set<string>;
}

/** Thrown inside a store's transaction when a guess proved wrong; aborts it for a retry. */
export class StaleGuess extends AbortForRetry {
	constructor() {
		super('the remembered write state is stale');
	}
}

/** Entries kept per map; the oldest used go first. */
const LIMITS = { previous: 4_096, entities: 20_000 };

export class WriteGuesses {
	#counters: Counters | undefined;
	readonly #previous = new Map<string, PrevTurn | undefined>();
	readonly #entities = new Map<string, EntityRow>();
	/** Guesses handed out, and those that proved wrong (for tests and profiling). */
	hits = 0;
	stale = 0;

	/**
	 * The state for a store that reads `keys` and `entityIds`, or undefined when something is not
	 * remembered. An entity neither remembered nor mentioned by any indexed memory (`unmentioned`)
	 * is guessed to have no row: rows of entities no memory mentions are deleted.
	 */
	guess(keys: Iterable<string>, entityIds: Iterable<string>, unmentioned: (id: string) => boolean): GuessedState | undefined {
		if (!this.#counters) return undefined;
		const previous = new Map<string, PrevTurn | undefined>();
		for (const k of keys) {
			if (!this.#previous.has(k)) return undefined;
			previous.set(k, this.#previous.get(k));
		}
		const entities = new Map<string, EntityRow>();
		const absent = new Set<string>();
		for (const id of entityIds) {
			const row = this.#entities.get(id);
			if (row) entities.set(id, row);
			else if (unmentioned(id)) absent.add(id);
			else return undefined;
		}
		this.hits++;
		return { counters: { ...this.#counters }, previous, entities, absent };
	}

	/** Remembers records as they are now in IndexedDB (read, or written by this engine). */
	learn(s: { counters?: Counters; previous?: Map<string, PrevTurn | undefined>; entities?: Iterable<EntityRow> }): void {
		if (s.counters) this.#counters = { ...s.counters };
		for (const [k, p] of s.previous ?? []) touch(this.#previous, k, p, LIMITS.previous);
		for (const row of s.entities ?? []) touch(this.#entities, row.id, row, LIMITS.entities);
	}

	/** Forgets everything (after a stale guess; a wipe or model switch needs nothing: the check sees it). */
	forget(): void {
		this.#counters = undefined;
		this.#previous.clear();
		this.#entities.clear();
	}
}

/** Whether what the transaction read equals what the store guessed, for every record it planned with. */
export function sameState(guessed: WriteState, read: WriteState): boolean {
	if (guessed.counters.seq !== read.counters.seq || guessed.counters.stamp !== read.counters.stamp) return false;
	for (const [k, p] of guessed.previous) if (!samePrev(p, read.previous.get(k))) return false;
	if (guessed.entities.size !== read.entities.size) return false;
	for (const [id, row] of guessed.entities) if (!sameRow(row, read.entities.get(id))) return false;
	return true;
}

function samePrev(a: PrevTurn | undefined, b: PrevTurn | undefined): boolean {
	if (a === undefined || b === undefined) return a === b;
	return a.id === b.id && a.content === b.content && a.timestamp === b.timestamp && a.session === b.session;
}

/** Rows are plain data read back by structured clone, so their JSON forms compare them. */
function sameRow(a: EntityRow, b: EntityRow | undefined): boolean {
	return b !== undefined && JSON.stringify(a) === JSON.stringify(b);
}

/** Sets `k` as the most recently used entry of a bounded map. */
function touch<V>(map: Map<string, V>, k: string, v: V, limit: number): void {
	map.delete(k);
	map.set(k, v);
	if (map.size > limit) map.delete(map.keys().next().value!);
}

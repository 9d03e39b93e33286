/**
 * Sync's bookkeeping on this device, kept in the mirror as a `_local` document (never replicated):
 * the fingerprint per memory of the last record sent or applied (the echo guard), the changes
 * feed's checkpoint, the ids written and not yet sent, and the links waiting for their target.
 */
import type { SyncRecord } from '../engine/types';
import { stampClock } from './records';

/* eslint-disable @typescript-eslint/no-explicit-any */

const MAP_DOC = '_local/engram-sync-map';

interface MapDoc {
	_id: string;
	_rev?: string;
	fp: Record<string, string>;
	since: number | string;
	/** Ids written to the mirror and not yet seen going to the server ("N waiting"). */
	unsent?: string[];
	/** Links that arrived before the memory they point to: target id → the ids of their sources. */
	wait?: Record<string, string[]>;
	/** The scopes synced when this map was last used (sorted; empty: every scope). */
	scopes?: string[];
	/** How far ahead of this device's clock another device's has been seen to run, ms (records.ts `learnLead`). */
	lead?: number;
}

/**
 * The map of one controller, across its runs: `load` reads it from a run's mirror, `save` writes it
 * back. Losing the last seconds of it costs only a re-check (a record re-sent or re-read is a
 * no-op), so saves are batched (`scheduleSave`).
 */
export class SyncMap {
	#doc: MapDoc = { _id: MAP_DOC, fp: {}, since: 0 };
	#saveTimer: ReturnType<typeof setTimeout> | undefined;
	/** Ids written to the mirror and not yet seen going to the server. */
	unsent = new Set<string>();
	/** The revision this device last wrote to the mirror, per id: its echo in the changes feed is skipped unread. */
	readonly written = new Map<string, string>();
	/**
	 * The clock of each version applied or stamped here (by its `updated_at`): sent again unchanged
	 * (a merge), it keeps that clock; an edit here (a new `updated_at`) gets a new one. Not kept
	 * across runs: a merge not yet sent by then goes out as this device's edit.
	 */
	readonly clocks = new Map<string, { updated_at: string; clock: number }>();
	/**
	 * When the engine said each memory changed (Date.now(), from its change event): the time its
	 * latest version was written here, which a stamp never goes past (records.ts `stampClock`).
	 * Taken by `clockFor`; a change without an event (made while sync was off, an import) is
	 * stamped with the time it is sent.
	 */
	readonly writtenAt = new Map<string, number>();
	/**
	 * The removal marks of a version applied here (marks.ts), which the engine does not keep: a
	 * merge sent again, or the next edit, carries them. Not kept across runs (the mirror's version
	 * carries them too).
	 */
	readonly marks = new Map<string, Pick<SyncRecord, 'removed' | 'added'>>();

	/**
	 * @param db the current run's mirror, read at each save (undefined once sync stopped: no save)
	 * @param serial the controller's queue, which scheduled saves go through
	 */
	constructor(
		private readonly db: () => any,
		private readonly serial: (fn: () => Promise<void>) => Promise<unknown>,
	) {}

	/** Reads the map from the mirror; none there (a first sync) starts an empty one. */
	async load(local: any): Promise<void> {
		// No map yet (a first sync): start from an empty one.
		this.#doc = await local.get(MAP_DOC).catch(() => ({ _id: MAP_DOC, fp: {}, since: 0 }));
		this.unsent = new Set(this.#doc.unsent ?? []);
	}

	/** Memory id → fingerprint of the last record sent or applied; mutable. */
	get fp(): Record<string, string> {
		return this.#doc.fp;
	}

	/** The changes feed's checkpoint: 0 before the first sync applied anything. */
	get since(): number | string {
		return this.#doc.since;
	}

	set since(seq: number | string) {
		this.#doc.since = seq;
	}

	/** The scopes synced when this map was last used (sorted; [] for every scope), undefined for a map older than this field. */
	get scopes(): string[] | undefined {
		return this.#doc.scopes;
	}

	set scopes(s: string[] | undefined) {
		this.#doc.scopes = s;
	}

	/** This device's lead over its own clock (0 until it saw a clock ahead of its own). */
	get lead(): number {
		return this.#doc.lead ?? 0;
	}

	set lead(ms: number) {
		this.#doc.lead = ms;
	}

	/**
	 * The clock of a version of this device's store: the one it was applied or first stamped with,
	 * else its `updated_at` (never later than when it was written here) plus the lead now, remembered (records.ts `stampClock`). A local edit merged with an incoming
	 * version and later sent thus carries one clock, though the lead may grow in between.
	 */
	clockFor(rec: SyncRecord): number {
		const kept = this.clocks.get(rec.id);
		if (kept?.updated_at === rec.updated_at) return kept.clock;
		const clock = stampClock(rec, this.lead, this.writtenAt.get(rec.id));
		this.writtenAt.delete(rec.id);
		this.clocks.set(rec.id, { updated_at: rec.updated_at, clock });
		return clock;
	}

	/** Keeps a link from `from` to `to`, a memory not here yet, until `to` arrives. */
	holdLink(to: string, from: string): void {
		const wait = (this.#doc.wait ??= {});
		if (!(wait[to] ??= []).includes(from)) wait[to].push(from);
	}

	/** The sources of links waiting for any of `ids`, other than `ids` themselves. */
	waitingSources(ids: Set<string>): string[] {
		const wait = (this.#doc.wait ??= {});
		return [...new Set([...ids].flatMap((id) => wait[id] ?? []))].filter((s) => !ids.has(s));
	}

	/** Forgets the links waiting for `ids` (they arrived). */
	release(ids: Iterable<string>): void {
		const wait = (this.#doc.wait ??= {});
		for (const id of ids) delete wait[id];
	}

	/** Saves within 5 s, through the queue; later calls before then join that save. */
	scheduleSave(): void {
		if (this.#saveTimer !== undefined) return;
		this.#saveTimer = setTimeout(() => {
			this.#saveTimer = undefined;
			void this.serial(() => this.save());
		}, 5_000);
	}

	/** Writes the map to the current mirror now (nothing when sync stopped). */
	async save(): Promise<void> {
		if (!this.db()) return;
		this.#doc.unsent = [...this.unsent];
		const res = await this.db()
			.put(this.#doc)
			.catch(async () => {
				// No stored map: the put below creates it.
				const cur = await this.db()
					.get(MAP_DOC)
					.catch(() => undefined);
				return this.db().put({ ...this.#doc, _rev: cur?._rev });
			});
		if (res?.rev) this.#doc._rev = res.rev;
	}
}

/**
 * The incoming path: the mirror's changes feed → decrypt → apply through the engine's import
 * (ids, timestamps and updated_at kept; derived data recomputed) or delete. This device's own
 * writes, records it already has and records outside its scopes are passed over; documents it
 * cannot read are skipped and listed in the status; conflicting versions are merged three ways
 * over the version they both came from (merge.ts), found in the revision tree; a field both changed
 * keeps the later value (by sync's shared clock) and the other goes into the memory's history.
 * Without that base version (a mirror that never held it, on a server that compacted it away)
 * they merge over an empty one (merge.ts `mergeWithoutBase`).
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import type { SyncRecord } from '../engine/types';
import { inScope, type SyncContext } from './context';
import { open, SALT_DOC_ID } from './crypto';
import { losingView, mergeRecords, mergeWithoutBase, versionOrder, type Merged } from './merge';
import { errorMessage } from './status';
import { asRecord, checkDoc, docIdOf, fingerprint, learnLead, memoryIdOf } from './records';

/** A conflict for the memory's history: what was kept, what was not, and which fields (all when undefined). */
type Conflict = { winner: SyncRecord; loser: SyncRecord; fields?: string[] };

/** A merge's true conflicts, for the memory's history: the merge, and the losing side's values in those fields. */
function conflictOf(m: Merged): Conflict {
	return { winner: m.record, loser: losingView(m), fields: m.conflicts };
}

/** The History entry's words for a conflict. */
function conflictDetail({ winner, loser, fields }: Conflict): string {
	return `Sync conflict${fields ? ` on ${fields.join(', ')}` : ''}: the version from device ${winner.device ?? '?'} (updated ${winner.updated_at}) was kept; the one from device ${loser.device ?? '?'} (updated ${loser.updated_at}) lost and is kept here.`;
}

/** How long after a failed batch the feed is read again from the checkpoint. */
const RETRY_MS = 10_000;

/** History actions that leave a memory as it was stored (anything else, by anyone but sync, changed it here). */
const UNCHANGING = new Set(['created', 'imported', 'accessed', 'recalled']);

/** How many ancestors of a revision are tried for a base version, newest first. */
const BASE_DEPTH = 20;

/** A revision's ancestors (itself first), as full revision ids, from `get(…, { revs: true })`. */
function ancestry(doc: { _revisions?: { start: number; ids: string[] } }): string[] {
	const r = doc._revisions;
	return r ? r.ids.map((h, i) => `${r.start - i}-${h}`) : [];
}

/**
 * Follows the mirror's changes feed (from the map's checkpoint) and applies its changes in
 * batches, through the controller's queue; the checkpoint moves past each batch applied.
 */
export class Incoming {
	#feed: any;
	#incoming: any[] = [];
	#incomingTimer: ReturnType<typeof setTimeout> | undefined;
	/** Imports sync made whose id-less "memories" event has not come back yet. */
	#ownImports = 0;
	/** The last change the feed delivered (its seq), and who waits for one at or past a seq. */
	#lastSeq = 0;
	#waiters: { seq: number; done: () => void }[] = [];
	/** The feed now followed: batches of an earlier one (given up after a failure) are not applied. */
	#gen = 0;
	#retryTimer: ReturnType<typeof setTimeout> | undefined;
	/** A batch failed and none has been applied since. */
	#failed = false;
	/** Batches queued and not yet applied (or failed). */
	#inFlight = 0;

	constructor(private readonly ctx: SyncContext) {}

	/**
	 * Starts following the feed of `ctx.local` from the map's checkpoint; a batch goes at 500
	 * changes, or 50 ms after its first.
	 */
	listen(): void {
		const gen = ++this.#gen;
		this.#feed = this.ctx.local
			.changes({ since: this.ctx.map.since, live: true, include_docs: true, conflicts: true })
			.on('change', (c: any) => {
				if (gen !== this.#gen) return;
				this.#incoming.push(c);
				this.#saw(c.seq);
				if (this.#incoming.length >= 500) this.flush();
				else this.#incomingTimer ??= setTimeout(() => this.flush(), 50);
			})
			.on('error', (e: Error) => this.ctx.status.set({ status: 'error', error: `Local sync database: ${errorMessage(e)}` }));
	}

	/** Stops following the feed (changes already batched are still applied when flushed). */
	cancel(): void {
		clearTimeout(this.#retryTimer);
		this.#retryTimer = undefined;
		this.#feed?.cancel();
		this.#feed = undefined;
		for (const w of this.#waiters.splice(0)) w.done();
	}

	/**
	 * A batch failed (a full disk, the engine refusing): the checkpoint stays before it, the feed's
	 * later changes are dropped unapplied (a later batch moving the checkpoint past the failed one
	 * would leave its memories out for good), and the feed is read again from the checkpoint.
	 */
	#retry(): void {
		this.#feed?.cancel();
		this.#feed = undefined;
		clearTimeout(this.#incomingTimer);
		this.#incomingTimer = undefined;
		this.#incoming = [];
		this.#lastSeq = 0;
		const gen = ++this.#gen;
		clearTimeout(this.#retryTimer);
		this.#retryTimer = setTimeout(() => {
			this.#retryTimer = undefined;
			if (gen === this.#gen && this.ctx.local) this.listen();
		}, RETRY_MS);
	}

	/**
	 * Resolves once the feed has delivered every change up to `seq` (the mirror's update_seq after
	 * a pull), so a `flush` then queues all of them. A seq that is not a number (another adapter)
	 * does not wait; nor does a feed that delivers nothing for 10 s (the caller then compares
	 * with what arrived, as before).
	 */
	delivered(seq: unknown): Promise<void> {
		const since = Number(this.ctx.map.since ?? 0);
		if (typeof seq !== 'number' || !this.#feed || seq <= Math.max(this.#lastSeq, Number.isFinite(since) ? since : 0)) return Promise.resolve();
		return new Promise((resolve) => {
			const w = { seq, done: () => (clearTimeout(t), resolve()) };
			const t = setTimeout(() => {
				this.#waiters = this.#waiters.filter((x) => x !== w);
				resolve();
			}, 10_000);
			this.#waiters.push(w);
		});
	}

	#saw(seq: unknown): void {
		if (typeof seq !== 'number') return;
		this.#lastSeq = Math.max(this.#lastSeq, seq);
		if (!this.#waiters.length) return;
		const ready = this.#waiters.filter((w) => w.seq <= this.#lastSeq);
		this.#waiters = this.#waiters.filter((w) => w.seq > this.#lastSeq);
		for (const w of ready) w.done();
	}

	/**
	 * Whether changes the feed delivered are not applied yet: batched, queued, or a failed batch
	 * waiting for its retry. Replication caught up does not mean "synced" then.
	 */
	get unapplied(): boolean {
		return this.#failed || this.#incoming.length > 0 || this.#inFlight > 0;
	}

	/** Queues the changes batched so far now. */
	flush(): void {
		clearTimeout(this.#incomingTimer);
		this.#incomingTimer = undefined;
		const batch = this.#incoming.splice(0);
		const gen = this.#gen;
		if (!batch.length) return;
		this.#inFlight++;
		void this.ctx
			.serial(() => this.#applyIncoming(batch, gen))
			.finally(() => {
				this.#inFlight--;
				// The last batch applied: replication caught up meanwhile may say "synced" now.
				if (!this.unapplied) this.ctx.recovered();
			})
			// A failure went to the status through the queue.
			.catch(() => undefined);
	}

	/**
	 * Whether an id-less "memories" event is the echo of sync's own import (each import's echo is
	 * claimed once): what it wrote is already accounted for.
	 */
	claimOwnImport(): boolean {
		if (this.#ownImports <= 0) return false;
		this.#ownImports--;
		return true;
	}

	/** Applies a batch of the mirror's changes to the engine. */
	async #applyIncoming(changes: any[], gen: number): Promise<void> {
		// A batch of a feed given up after a failure: it is read again from the checkpoint.
		if (!this.ctx.local || gen !== this.#gen) return;
		const { timings } = this.ctx;
		const t0 = performance.now();
		try {
			await this.#applyIncomingTimed(changes);
			this.#failed = false;
		} catch (e) {
			this.#failed = true;
			this.#retry();
			throw e;
		} finally {
			timings.apply += performance.now() - t0;
			timings.batches++;
			timings.docs += changes.length;
		}
	}

	async #applyIncomingTimed(changes: any[]): Promise<void> {
		const { map, status } = this.ctx;
		const key = this.ctx.key!;
		const upserts = new Map<string, SyncRecord>();
		const deletes = new Set<string>();
		const conflicts: Conflict[] = [];
		/** Ids applied as a merge of two versions → the version the server holds: the merge must go out. */
		const merged = new Map<string, SyncRecord>();
		/** The mirror's revision each upsert came from (where its base version is looked for). */
		const revOf = new Map<string, string>();
		for (const c of changes) {
			const doc: string = c.id;
			if (doc === SALT_DOC_ID || doc.startsWith('_design/')) continue;
			const id = memoryIdOf(doc);
			upserts.delete(id);
			deletes.delete(id);
			const mine = map.written.get(doc);
			if (mine !== undefined && c.doc?._rev === mine && !c.doc._conflicts?.length) {
				map.written.delete(doc);
				continue; // this device's own write
			}
			if (c.deleted) {
				if (map.fp[id] !== undefined) deletes.add(id);
				continue;
			}
			const bad = checkDoc(c.doc);
			if (bad) {
				status.skip(id, bad);
				continue;
			}
			let rec: SyncRecord;
			try {
				const to = performance.now();
				const r = asRecord(id, await open(key, c.doc, doc));
				this.ctx.timings.open += performance.now() - to;
				if (typeof r === 'string') {
					status.skip(id, `not an Engram memory record: ${r}`);
					continue;
				}
				rec = r;
				map.lead = learnLead(map.lead, rec, Date.now());
			} catch {
				status.skip(id, 'could not be decrypted: tampered with, or encrypted with another passphrase');
				continue;
			}
			if (c.doc._conflicts?.length) rec = await this.#resolve(id, c.doc, rec, conflicts, merged);
			// A device syncing chosen scopes takes only those.
			if (inScope(this.ctx, rec)) {
				upserts.set(id, rec);
				revOf.set(id, c.doc._rev);
			}
		}
		// What this device already has (sent or applied) needs no more work.
		for (const [id, rec] of upserts) if (map.fp[id] === fingerprint(rec)) upserts.delete(id);
		// A local edit not yet sent that is newer than the incoming version wins (and goes out next).
		const local = new Map((await this.ctx.engine.syncRecords([...upserts.keys()])).map((r) => [r.id, r]));
		for (const [id, rec] of upserts) {
			const mine = local.get(id);
			if (map.fp[id] === fingerprint(rec) || (mine && fingerprint(mine) === fingerprint(rec))) {
				map.fp[id] = fingerprint(rec);
				upserts.delete(id);
				continue;
			}
			if (mine && map.fp[id] !== fingerprint(mine)) {
				// A local edit not sent yet meets an incoming version: merged over the version this
				// device last had, the incoming one's newest ancestor it holds.
				const minev = { ...mine, device: this.ctx.device, clock: map.clockFor(mine) };
				const rev = revOf.get(id);
				const base = rev
					? await this.#base(id, [ancestry(await this.ctx.local.get(docIdOf(id), { rev, revs: true }).catch(() => ({}))).slice(1)])
					: undefined;
				const first =
					!base && map.fp[id] === undefined && (await this.#untouched(id))
						? Date.parse(rec.updated_at) >= Date.parse(mine.updated_at)
							? minev
							: rec
						: undefined;
				const m = base ? mergeRecords(base, minev, rec) : first ? mergeRecords(first, minev, rec) : mergeWithoutBase(minev, rec);
				if (m.conflicts.length) conflicts.push(conflictOf(m));
				if (fingerprint(m.record) === fingerprint(mine)) upserts.delete(id);
				else {
					upserts.set(id, m.record);
					if (fingerprint(m.record) !== fingerprint(rec)) merged.set(id, merged.get(id) ?? rec);
				}
			}
		}
		if (deletes.size) {
			for (const id of deletes) delete map.fp[id];
			await this.ctx.engine.delete({ memory_ids: [...deletes] }, { actor: 'sync' });
		}
		// A conflict on a memory applied now goes into its History in the same transaction; one whose
		// memory stays as it is here (this device's edit won whole) gets its entry on its own.
		const withApply = conflicts.filter((c) => upserts.has(c.winner.id));
		if (upserts.size) await this.#apply([...upserts.values()], withApply);
		// A merge differs from what the server holds: it goes out (outgoing sends a memory whose
		// record differs from its fingerprint).
		const resend: string[] = [];
		for (const [id, server] of merged)
			if (upserts.has(id)) {
				map.fp[id] = fingerprint(server);
				resend.push(id);
			}
		if (resend.length) this.ctx.resend(resend);
		for (const c of conflicts)
			if (!upserts.has(c.winner.id))
				await this.ctx.engine
					.recordSyncConflict(c.winner, c.loser, conflictDetail(c))
					// The winner is applied either way; only the losing version's history entry is lost.
					.catch(() => undefined);
		const p = status.current.progress;
		if (p) status.set({ progress: { done: Math.min(p.total, p.done + upserts.size), total: p.total } });
		map.since = changes[changes.length - 1].seq;
		map.scheduleSave();
	}

	/**
	 * Whether nobody changed memory `id` on this device since it was stored or imported here (its
	 * History holds nothing but those, reads and sync's own entries). Two devices that never synced
	 * meet with the same memory (the same backup restored on both): a version untouched here is
	 * where the other device's started from if that one is newer (it then comes in whole: a tag it
	 * removed stays removed, and no History entry says "conflict"), and one the other device's
	 * version started from if older (this one stays). A version changed here merges without a base.
	 */
	async #untouched(id: string): Promise<boolean> {
		const entries = await this.ctx.engine.history(id).catch(() => undefined);
		return !!entries?.every((e) => e.actor === 'sync' || UNCHANGING.has(e.action));
	}

	/**
	 * Writes incoming records through the engine, each memory with its content, links and the
	 * History of its conflicts in one transaction (`applySyncRecords`): a full disk midway leaves
	 * the version this device had. A link to a memory not here yet waits (in the map) and is made
	 * when that memory arrives; links the record no longer has are removed (an unlink on another
	 * device).
	 */
	async #apply(recs: SyncRecord[], conflicts: Conflict[]): Promise<void> {
		const { engine, map, status, timings } = this.ctx;
		const arriving = new Set(recs.map((r) => r.id));
		const targets = [...new Set(recs.flatMap((r) => r.links.map((l) => String(l.to))))].filter((t) => !arriving.has(t));
		const here = new Set((await engine.syncRecords(targets)).map((r) => r.id));
		const waiting: [to: string, from: string][] = [];
		const records = recs.map((r) => ({
			...r,
			links: r.links.filter((l) => {
				const to = String(l.to);
				if (arriving.has(to) || here.has(to)) return true;
				waiting.push([to, r.id]);
				return false;
			}),
		}));
		// Links waiting for a memory that arrives now: their sources' latest records, from the mirror.
		const sources = map.waitingSources(arriving);
		const late = (await this.#mirrorRecords(sources)).flatMap((r) => r.links.filter((l) => arriving.has(String(l.to))).map((l) => ({ ...l, from: r.id })));
		const ti = performance.now();
		this.#ownImports++;
		const out = await engine
			.applySyncRecords({ records, links: late, conflicts: conflicts.map((c) => ({ winner: c.winner, loser: c.loser, detail: conflictDetail(c) })) })
			.catch((e: unknown) => {
				this.#ownImports--;
				throw e;
			});
		timings.import += performance.now() - ti;
		// Only once applied: a batch that failed is read again with the same links waiting.
		for (const [to, from] of waiting) map.holdLink(to, from);
		map.release(arriving);
		for (const r of recs) {
			if (r.clock !== undefined) map.clocks.set(r.id, { updated_at: r.updated_at, clock: r.clock });
			if (r.removed || r.added) map.marks.set(r.id, { removed: r.removed, added: r.added });
			else map.marks.delete(r.id);
		}
		for (const e of out.errors) status.skip('?', `refused by the engine: ${e.error}`);
		// What the engine stored (normalised) is what "unchanged" means from now on.
		for (const r of await engine.syncRecords([...arriving, ...sources])) map.fp[r.id] = fingerprint(r);
	}

	/** The decrypted records of the mirror's current documents (unreadable ones left out). */
	async #mirrorRecords(ids: string[]): Promise<SyncRecord[]> {
		if (!ids.length) return [];
		const out: SyncRecord[] = [];
		for (const row of (await this.ctx.local.allDocs({ keys: ids.map(docIdOf), include_docs: true })).rows) {
			if (!row.doc || checkDoc(row.doc)) continue;
			try {
				const r = asRecord(memoryIdOf(row.id), await open(this.ctx.key!, row.doc, row.id));
				if (typeof r !== 'string') out.push(r);
			} catch {
				// Skipped when it arrived.
			}
		}
		return out;
	}

	/**
	 * The newest version that every one of `lines` (revision ids, newest first) descends from and
	 * whose body is still here, or failing that on the server (the base of a three-way merge);
	 * undefined when neither holds one (compacted away, or never seen).
	 */
	async #base(id: string, lines: string[][]): Promise<SyncRecord | undefined> {
		const [first, ...rest] = lines;
		const common = (first ?? []).filter((r) => rest.every((l) => l.includes(r))).slice(0, BASE_DEPTH);
		if (!common.length) return undefined;
		const d = docIdOf(id);
		// One request per database for every candidate (open_revs answers each as ok or missing).
		for (const db of [this.ctx.local, this.ctx.remote]) {
			const got: any[] = (await db?.get(d, { open_revs: common }).catch(() => undefined)) ?? [];
			const byRev = new Map(got.filter((x) => x.ok && !x.ok._deleted).map((x) => [x.ok._rev, x.ok]));
			for (const rev of common) {
				const doc = byRev.get(rev);
				if (!doc || checkDoc(doc)) continue;
				try {
					const r = asRecord(id, await open(this.ctx.key!, doc, d));
					if (typeof r !== 'string') return r;
				} catch {
					// Unreadable: an older one may do.
				}
			}
		}
		return undefined;
	}

	/**
	 * Settles a document's conflicting revisions: the winner (`versionOrder`) merged with each other
	 * version over their common base (or, without one, over an empty one: `mergeWithoutBase`); the
	 * other revisions are removed from the mirror. Deterministic: every device holding the same
	 * revisions (and their base) settles them the same way.
	 */
	async #resolve(id: string, doc: any, current: SyncRecord, conflicts: Conflict[], merged: Map<string, SyncRecord>): Promise<SyncRecord> {
		const versions: { rev: string; rec: SyncRecord; line: string[] }[] = [];
		for (const rev of [doc._rev, ...(doc._conflicts as string[])]) {
			try {
				const other = await this.ctx.local.get(doc._id, { rev, revs: true });
				const r = rev === doc._rev ? current : asRecord(id, await open(this.ctx.key!, other, doc._id));
				if (typeof r === 'string') continue;
				versions.push({ rev, rec: r, line: ancestry(other) });
				this.ctx.map.lead = learnLead(this.ctx.map.lead, r, Date.now());
			} catch {
				// Unreadable revisions lose.
			}
		}
		versions.sort((a, b) => versionOrder(b.rec, a.rec) || (a.rev < b.rev ? 1 : -1));
		const [win, ...lose] = versions;
		let rec = win.rec;
		for (const l of lose) {
			if (fingerprint(l.rec) === fingerprint(rec)) continue;
			const base = await this.#base(id, [win.line, l.line]);
			const m = base ? mergeRecords(base, rec, l.rec) : mergeWithoutBase(rec, l.rec);
			if (m.conflicts.length) conflicts.push(conflictOf(m));
			rec = m.record;
		}
		if (fingerprint(rec) !== fingerprint(win.rec)) merged.set(id, win.rec);
		else rec = win.rec;
		const drop = [doc._rev, ...doc._conflicts].filter((r: string) => r !== win.rev).map((r: string) => ({ _id: doc._id, _rev: r, _deleted: true }));
		// Losing revisions left in place are dropped again at the next reconcile.
		await this.ctx.local.bulkDocs(drop).catch(() => undefined);
		return rec;
	}
}

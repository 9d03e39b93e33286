/**
 * The three-way merge of two versions of a memory changed on two devices while apart, given the
 * version they both started from (the base): each field that only one side changed keeps that
 * change; tags and links merge element by element (an addition on either side stays, a removal on
 * either side stays removed); metadata merges key by key. Only a field both sides changed to
 * different values is a true conflict: the later version's value is kept (`compareVersions`) and
 * the other goes into the memory's History. Pure and symmetric, so every device that settles the
 * same pair gets the same record, and the devices converge without a new conflict. Without a
 * base (`mergeWithoutBase`) the merge runs over an empty one and the removal marks (marks.ts): see there.
 */
import type { SyncRecord } from '../engine/types';
import { mergeMarks } from './marks';
import { canonical, compareVersions, fingerprint, linkKey } from './records';

/** The outcome of `mergeRecords`. */
export interface Merged {
	/** The merged record (with the winner's device, which a writer replaces by its own). */
	record: SyncRecord;
	/** The version whose values win a true conflict. */
	winner: SyncRecord;
	/** The other version. */
	loser: SyncRecord;
	/** The fields both versions changed to different values (`metadata.<key>` for a metadata key, `links` for a link's values). */
	conflicts: string[];
}

/** The fields merged as one value each (tags, links and metadata merge finer). */
const SCALARS = [
	'content',
	'summary',
	'type',
	'source',
	'scope',
	'importance',
	'confidence',
	'timestamp',
	't_valid',
	't_invalid',
	'context',
	'entities',
] as const;

/** Equal values (objects by their canonical JSON; strings and numbers directly, the common case). */
const same = (x: unknown, y: unknown) => x === y || (typeof x === 'object' && typeof y === 'object' && canonical({ v: x }) === canonical({ v: y }));

/**
 * > 0 when `a` wins a true conflict over `b`: the later `updated_at`, then the greater device
 * id, then (equal stamps, different contents: only a forged or re-stamped record) the greater
 * fingerprint, so the order never depends on which version a device holds.
 */
export function versionOrder(a: SyncRecord, b: SyncRecord): number {
	const c = compareVersions(a, b);
	if (c) return c;
	const fa = fingerprint(a),
		fb = fingerprint(b);
	return fa === fb ? 0 : fa > fb ? 1 : -1;
}

/** `a` and `b` as [winner, loser] by `versionOrder`. */
export function ordered(a: SyncRecord, b: SyncRecord): [SyncRecord, SyncRecord] {
	return versionOrder(a, b) >= 0 ? [a, b] : [b, a];
}

/** One value three ways: the side that changed it, else (both changed it, differently) the winner's. */
function pick<T>(base: T, w: T, l: T): { v: T; conflict: boolean } {
	if (same(w, l) || same(l, base)) return { v: w, conflict: false };
	if (same(w, base)) return { v: l, conflict: false };
	return { v: w, conflict: true };
}

/**
 * Keyed elements three ways: an element kept by both stays (its value merged with `pick`), one
 * added on either side stays, one removed on either side (and not changed on the other) goes.
 * The winner's order, then the loser's additions in its order.
 */
function mergeKeyed<T>(base: readonly T[], w: readonly T[], l: readonly T[], key: (x: T) => string): { v: T[]; conflict: boolean } {
	const bm = new Map(base.map((x) => [key(x), x]));
	const wm = new Map(w.map((x) => [key(x), x]));
	const lm = new Map(l.map((x) => [key(x), x]));
	const out: T[] = [];
	let conflict = false;
	for (const x of w) {
		const k = key(x);
		const lx = lm.get(k);
		const bx = bm.get(k);
		if (lx !== undefined) {
			const p = pick(bx, x, lx);
			out.push(p.v as T);
			conflict ||= p.conflict;
		} else if (bx === undefined || !same(x, bx)) out.push(x); // added by the winner, or changed by it while the loser removed it
	}
	for (const x of l) {
		const k = key(x);
		if (wm.has(k)) continue;
		const bx = bm.get(k);
		if (bx === undefined || !same(x, bx)) out.push(x); // added by the loser, or changed by it while the winner removed it
	}
	return { v: out, conflict };
}

/** Merges `a` and `b`, both changed from `base` (see the file's comment); symmetric in `a` and `b`. */
export function mergeRecords(base: SyncRecord, a: SyncRecord, b: SyncRecord): Merged {
	const [winner, loser] = ordered(a, b);
	// The winner's device stays on the record only so that a fold over several versions orders
	// them the same way; whoever writes the merge stamps its own.
	const rec: Record<string, unknown> = { id: winner.id, updated_at: winner.updated_at, device: winner.device };
	if (winner.clock !== undefined) rec.clock = winner.clock;
	const conflicts: string[] = [];
	const W = winner as unknown as Record<string, unknown>,
		L = loser as unknown as Record<string, unknown>,
		B = base as unknown as Record<string, unknown>;
	for (const f of SCALARS) {
		const p = pick(B[f], W[f], L[f]);
		if (p.conflict) conflicts.push(f);
		if (p.v !== undefined) rec[f] = p.v;
	}
	const meta: Record<string, unknown> = {};
	const bm = base.metadata ?? {},
		wm = winner.metadata ?? {},
		lm = loser.metadata ?? {};
	for (const k of [...new Set([...Object.keys(wm), ...Object.keys(lm), ...Object.keys(bm)])].sort()) {
		const p = pick(bm[k], wm[k], lm[k]);
		if (p.conflict) conflicts.push(`metadata.${k}`);
		if (p.v !== undefined) meta[k] = p.v;
	}
	rec.metadata = meta;
	rec.tags = mergeKeyed(base.tags, winner.tags, loser.tags, String).v;
	const links = mergeKeyed(base.links ?? [], winner.links, loser.links, linkKey);
	rec.links = links.v;
	if (links.conflict) conflicts.push('links');
	return { record: mergeMarks(rec as unknown as SyncRecord, winner, loser, false), winner, loser, conflicts };
}

/**
 * Merges two versions whose common base is not held anywhere (a device that never had it, on a
 * server that compacted it away): over an empty base, so every tag, link and metadata key either
 * side has stays, except one the other side marked removed (marks.ts: a removal made by a device
 * that synced it sticks, unless it was added again after), a field only one side has (a summary, a
 * supersede's end of validity) is kept, and a field both have with different values is a conflict
 * the winner takes, the other in History. Symmetric like `mergeRecords`.
 */
export function mergeWithoutBase(a: SyncRecord, b: SyncRecord): Merged {
	const empty = { id: a.id, tags: [], links: [], metadata: {} } as unknown as SyncRecord;
	const m = mergeRecords(empty, a, b);
	return { ...m, record: mergeMarks(m.record, a, b, true) };
}

/**
 * What History keeps of a merge's losing side: the merged record with the losing version's
 * values in the conflicting fields only, so the entry shows exactly what was not kept.
 */
export function losingView(m: Merged): SyncRecord {
	const out = { ...m.record, metadata: { ...m.record.metadata } } as unknown as Record<string, unknown>;
	const L = m.loser as unknown as Record<string, unknown>;
	for (const f of m.conflicts) {
		if (f.startsWith('metadata.')) {
			const k = f.slice('metadata.'.length);
			if (m.loser.metadata[k] === undefined) delete (out.metadata as Record<string, unknown>)[k];
			else (out.metadata as Record<string, unknown>)[k] = m.loser.metadata[k];
		} else if (f === 'links') out.links = m.loser.links;
		else if (L[f] === undefined) delete out[f];
		else out[f] = L[f];
	}
	out.device = m.loser.device;
	return out as unknown as SyncRecord;
}

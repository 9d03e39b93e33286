/**
 * Removal marks: what a memory's versions removed (a tag, a link, a metadata key), carried in the
 * encrypted record, so a merge without the two versions' common one (merge.ts `mergeWithoutBase`:
 * a device that never held it, on a server that compacted it away) can tell a removal on one side
 * from an addition on the other. A device that sends a version compares it with the version its
 * mirror holds (the last one sent or applied here): what that one had and this one lacks is marked
 * removed with this version's clock; an element marked removed that comes back is marked added.
 * Marks are carried from version to version, at most `MAX_MARKS` of each kind (the newest).
 */
import type { SyncRecord } from '../engine/types';
import { linkKey } from './records';

/** How many removal (and re-addition) marks a record keeps, newest first. */
export const MAX_MARKS = 200;

/** The keys of a record's elements that removals can mark: its tags, links and metadata keys. */
export function elementKeys(r: Pick<SyncRecord, 'tags' | 'links' | 'metadata'>): Set<string> {
	return new Set([
		...r.tags.map((t) => `tag:${t}`),
		...(r.links ?? []).map((l) => `link:${linkKey(l)}`),
		...Object.keys(r.metadata ?? {}).map((k) => `meta:${k}`),
	]);
}

/** The newest `MAX_MARKS` entries of a mark map, undefined when empty. */
function bounded(m: Record<string, number>): Record<string, number> | undefined {
	const e = Object.entries(m);
	if (!e.length) return undefined;
	return Object.fromEntries(e.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, MAX_MARKS));
}

/** Two mark maps as one, each key with its later clock. */
function union(a: Record<string, number> | undefined, b: Record<string, number> | undefined): Record<string, number> {
	const out: Record<string, number> = { ...a };
	for (const [k, v] of Object.entries(b ?? {})) out[k] = Math.max(out[k] ?? -Infinity, v);
	return out;
}

/** `rec` with its marks: only removals of elements it lacks, only additions of elements it has. */
function withMarks(rec: SyncRecord, removed: Record<string, number>, added: Record<string, number>): SyncRecord {
	const has = elementKeys(rec);
	const out: SyncRecord = { ...rec };
	delete out.removed;
	delete out.added;
	const r = bounded(Object.fromEntries(Object.entries(removed).filter(([k]) => !has.has(k))));
	const a = bounded(Object.fromEntries(Object.entries(added).filter(([k]) => has.has(k))));
	if (r) out.removed = r;
	if (a) out.added = a;
	return out;
}

/**
 * The version this device sends (`next`, stamped with `clock`) with its marks, given the version
 * its mirror holds (`prev`, undefined for a first send): `prev`'s marks carried, each element `prev`
 * had and `next` lacks marked removed at `clock`, each element marked removed that `next` has again
 * marked added at `clock`.
 */
export function markChanges(prev: SyncRecord | undefined, next: SyncRecord, clock: number): SyncRecord {
	const removed = union(prev?.removed, next.removed);
	const added = union(prev?.added, next.added);
	const had = prev ? elementKeys(prev) : new Set<string>();
	const has = elementKeys(next);
	for (const k of had) if (!has.has(k)) removed[k] = Math.max(removed[k] ?? -Infinity, clock);
	// Added again after a removal this device knew of: after it, whatever the clocks say.
	for (const k of has) if (!had.has(k) && removed[k] !== undefined) added[k] = Math.max(added[k] ?? -Infinity, clock, removed[k] + 1);
	return withMarks(next, removed, added);
}

/**
 * A merge's result with the marks of both versions it came from (each key's later clock). With
 * `apply` (a merge without a base), an element only one side has is dropped when the other side
 * marked it removed later than any re-addition either marked: a removal sticks.
 */
export function mergeMarks(merged: SyncRecord, a: SyncRecord, b: SyncRecord, apply: boolean): SyncRecord {
	const removed = union(a.removed, b.removed);
	const added = union(a.added, b.added);
	let rec = merged;
	if (apply) {
		const ka = elementKeys(a),
			kb = elementKeys(b);
		const gone = (k: string) => ka.has(k) !== kb.has(k) && removed[k] !== undefined && !(added[k] >= removed[k]);
		rec = {
			...merged,
			tags: merged.tags.filter((t) => !gone(`tag:${t}`)),
			links: merged.links.filter((l) => !gone(`link:${linkKey(l)}`)),
			metadata: Object.fromEntries(Object.entries(merged.metadata).filter(([k]) => !gone(`meta:${k}`))),
		};
	}
	return withMarks(rec, removed, added);
}

/**
 * Pure helpers for sync: fingerprints (the echo guard), the conflict rule and the check that a
 * decrypted document is a memory record Engram can apply.
 */
import { canonicalJson, cyrb53 } from '../core/canonical';
import type { SyncRecord } from '../engine/types';

/** Sorted-key JSON, so equal records give equal text. */
export const canonical = canonicalJson;

/** A 53-bit hash (cyrb53) of a record's canonical text, without its device: what "unchanged" means. */
export function fingerprint(rec: SyncRecord): string {
	const { device: _d, ...rest } = rec;
	const s = canonical(rest);
	return cyrb53(s).toString(36) + ':' + s.length.toString(36);
}

/** > 0 when `a` wins over `b`: the later `updated_at`, then the greater device id. */
export function compareVersions(a: SyncRecord, b: SyncRecord): number {
	const ta = Date.parse(a.updated_at),
		tb = Date.parse(b.updated_at);
	if (ta !== tb) return ta > tb ? 1 : -1;
	const da = a.device ?? '',
		db = b.device ?? '';
	return da === db ? 0 : da > db ? 1 : -1;
}

/** The largest record sync accepts (content ≤ 50,000 chars, metadata ≤ 32 KB, and the rest). */
export const MAX_RECORD_CHARS = 400_000;

/** A decrypted value as a record for `id`, or the reason it is not one. */
export function asRecord(id: string, v: unknown): SyncRecord | string {
	const r = v as Partial<SyncRecord> | null;
	if (!r || typeof r !== 'object' || Array.isArray(r)) return 'not an object';
	if (r.id !== id) return 'its id does not match the document id';
	if (typeof r.content !== 'string' || r.content.length === 0) return 'no content';
	if (typeof r.updated_at !== 'string' || Number.isNaN(Date.parse(r.updated_at))) return 'no valid updated_at';
	if (typeof r.timestamp !== 'string' || typeof r.scope !== 'string' || typeof r.type !== 'string') return 'missing fields';
	if (!Array.isArray(r.tags) || !Array.isArray(r.links ?? [])) return 'bad tags or links';
	return { ...r, links: r.links ?? [] } as SyncRecord;
}

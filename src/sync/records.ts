/**
 * Pure helpers for sync: fingerprints (the echo guard), the conflict rule and the check that a
 * decrypted document is a memory record Engram can apply.
 */
import { canonicalJson, cyrb53 } from '../core/canonical';
import type { SyncRecord } from '../engine/types';
import { SALT_DOC_ID } from './crypto';

/** The prefix of a document id that stands for a memory id CouchDB would not keep as it is. */
const ESCAPE = '~~';

/**
 * The server document id of a memory. CouchDB reserves ids starting with "_" ("_design/…" is a
 * design document, "_local/…" never replicates, any other is refused) and the key document has
 * its own id: a memory with such an id (an agent may choose any) goes under `~~` + its id, and
 * so does one already starting with `~~`, so the mapping stays one to one.
 */
export function docIdOf(memoryId: string): string {
	return memoryId.startsWith('_') || memoryId.startsWith(ESCAPE) || memoryId === SALT_DOC_ID ? ESCAPE + memoryId : memoryId;
}

/** The memory id of a server document id (the inverse of `docIdOf`). */
export function memoryIdOf(docId: string): string {
	return docId.startsWith(ESCAPE) ? docId.slice(ESCAPE.length) : docId;
}

/** Sorted-key JSON, so equal records give equal text. */
export const canonical = canonicalJson;

/**
 * A 53-bit hash (cyrb53) of a record's canonical text, without its device, clock and removal marks
 * (who wrote it, when by sync's clock and what it removed before, not what it says): what
 * "unchanged" means.
 */
export function fingerprint(rec: SyncRecord): string {
	const { device: _d, clock: _c, removed: _r, added: _a, ...rest } = rec;
	const s = canonical(rest);
	return cyrb53(s).toString(36) + ':' + s.length.toString(36);
}

/** A version's time on sync's shared clock: its `clock`, or its `updated_at` for a record written without one. */
export function clockOf(r: SyncRecord): number {
	return r.clock ?? Date.parse(r.updated_at);
}

/**
 * This device's lead after seeing `rec` at `now`: how far ahead of this device's clock any other
 * device's clock has been seen to run (never below 0). A version written just now by a device whose
 * clock runs a day ahead carries a clock a day ahead, and every device that sees it adopts that
 * lead, so its own later edits are stamped later than that device's earlier ones whatever the
 * clocks say (docs/SYNC.md "Clocks"; decision 0015). Only a version's `clock` counts, which its
 * device stamped no later than its own time then (`stampClock`): a record without one (an older
 * Engram's) says only its `updated_at`, which a caller may set to any date, so it teaches nothing.
 */
export function learnLead(lead: number, rec: SyncRecord, now: number): number {
	if (rec.clock === undefined) return lead;
	const ahead = rec.clock - now;
	return Number.isFinite(ahead) && ahead > lead ? ahead : lead;
}

/**
 * The clock of a version of this device written at `now` (default: stamped now): its `updated_at`,
 * but never later than `now` (an agent or an imported file may set `updated_at` to any date; the
 * version was written then), plus the device's lead. A far-future `updated_at` thus moves no
 * device's lead and wins no clash it was not written after.
 */
export function stampClock(rec: SyncRecord, lead: number, now?: number): number {
	return Math.min(Date.parse(rec.updated_at), now ?? Date.now()) + lead;
}

/** > 0 when `a` wins over `b`: the later clock (`clockOf`), then the greater device id. */
export function compareVersions(a: SyncRecord, b: SyncRecord): number {
	const ta = clockOf(a),
		tb = clockOf(b);
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
	if (r.clock !== undefined && (typeof r.clock !== 'number' || !Number.isFinite(r.clock))) return 'clock is not a finite number';
	if (!Array.isArray(r.tags) || !Array.isArray(r.links ?? [])) return 'bad tags or links';
	for (const f of ['removed', 'added'] as const) {
		const m = r[f] as unknown;
		if (m === undefined) continue;
		if (!m || typeof m !== 'object' || Array.isArray(m) || !Object.values(m).every((x) => typeof x === 'number' && Number.isFinite(x)))
			return `${f} is not a map of finite numbers`;
	}
	return { ...r, links: r.links ?? [] } as SyncRecord;
}

/** The largest document sync opens: a record at its limit, encrypted and base64-encoded, with room to spare. */
export const MAX_DOC_CHARS = 600_000;

/**
 * Why a server document is not one this version of Engram can open, or undefined when it is: a
 * document of another app (no Engram box), a box of a newer schema version, or one too large.
 * Checked before decrypting, so a huge document costs no decryption.
 */
export function checkDoc(doc: unknown): string | undefined {
	const d = doc as Record<string, unknown> | null;
	if (!d || typeof d !== 'object') return 'not a document';
	const size = JSON.stringify(d).length;
	if (size > MAX_DOC_CHARS) return `too large (${Math.round(size / 1000)} kB; the largest memory record is under ${MAX_DOC_CHARS / 1000} kB)`;
	if (typeof d.iv !== 'string' || typeof d.ct !== 'string' || d.v === undefined) return 'not an Engram document (another app’s?)';
	if (d.v !== 1) return `unknown schema version ${JSON.stringify(d.v)} (written by a newer Engram? update this app)`;
	return undefined;
}

/** Whether a memory in `scope` syncs: every scope when none are chosen. */
export function inScopes(scope: string, scopes: readonly string[] | undefined): boolean {
	return !scopes?.length || scopes.includes(scope);
}

/** A link's identity within its source: target and type. */
export function linkKey(l: Record<string, unknown>): string {
	return `${String(l.to)}\u0000${String(l.type)}`;
}

/** Scopes as typed in the form ("work, team-x"): trimmed, without empties and repeats. */
export function parseScopes(text: string): string[] {
	return [
		...new Set(
			text
				.split(',')
				.map((s) => s.trim())
				.filter(Boolean),
		),
	];
}

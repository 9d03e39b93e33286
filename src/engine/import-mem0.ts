/**
 * mem0's exported memories (`get_all` / export): `{ results: [...] }`, `{ memories: [...] }` or a
 * bare array of `{ id, memory, hash, metadata, categories, created_at, updated_at, user_id,
 * agent_id, run_id, ... }`. Each becomes an Engram memory record: memory → content, categories →
 * tags, created_at → timestamp, updated_at → updated_at, metadata kept, and every other field
 * (id, user_id, agent_id, run_id, app_id, hash, score, expiration_date, …) under `metadata.mem0`:
 * nothing the record holds is dropped.
 */

type Rec = Record<string, unknown>;

const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The fields mapped onto Engram's own; every other one is kept under metadata.mem0. */
const MAPPED = new Set(['memory', 'created_at', 'updated_at', 'metadata']);

/** The list of records of a mem0 export, and the key it is under (for error positions); undefined when `doc` is not one. */
export function mem0List(doc: unknown): { key: string; list: unknown[] } | undefined {
	const looks = (list: unknown[]) => list.length > 0 && list.every((r) => isRec(r) && 'memory' in r && !('content' in r));
	if (Array.isArray(doc)) return looks(doc) ? { key: '', list: doc } : undefined;
	if (!isRec(doc)) return undefined;
	for (const key of ['results', 'memories']) {
		const list = doc[key];
		if (Array.isArray(list) && looks(list)) return { key, list };
	}
	return undefined;
}

/** One mem0 record as an Engram memory record (validated later by the import's schema), or why it can't be. */
export function mem0Memory(r: unknown): { record: Rec } | { error: string } {
	if (!isRec(r)) return { error: 'memory: a mem0 record must be an object' };
	if (typeof r.memory !== 'string' || r.memory.trim() === '') return { error: 'memory: a mem0 record needs its "memory" text (it is empty or missing)' };
	const record: Rec = { content: r.memory };
	const categories = Array.isArray(r.categories) ? (r.categories as unknown[]) : undefined;
	const tags = categories?.filter((c): c is string => typeof c === 'string' && c.trim() !== '');
	if (tags) record.tags = tags;
	// Categories all taken as tags need no copy; any left out (a number, a blank) keep the list whole.
	const allTags = tags !== undefined && tags.length === categories!.length;
	const asDate = (v: unknown) => typeof v === 'string' && v !== '';
	if (asDate(r.created_at)) record.timestamp = r.created_at;
	if (asDate(r.updated_at)) record.updated_at = r.updated_at;
	// Dates that are not strings are kept as they are too.
	const own = Object.fromEntries(
		Object.entries(r).filter(
			([k, v]) =>
				v !== undefined && v !== null && !(MAPPED.has(k) && (k === 'memory' || k === 'metadata' || asDate(v))) && !(k === 'categories' && allTags),
		),
	);
	record.metadata = { ...(isRec(r.metadata) ? r.metadata : {}), ...(Object.keys(own).length ? { mem0: own } : {}) };
	return { record };
}

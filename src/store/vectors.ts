/**
 * A memory's vectors live on its own row: `MemoryRow.vectors`, one Float32Array per model (the
 * active embedded model's; a caller's embedding under `caller:<dims>`; those of a model switched
 * away from). Up to schema v9 each vector was a row of its own in a `vectors` table: in Chromium a
 * row costs about as much to write whatever its size, and that row was an eighth of a large
 * import's time.
 *
 * Which rows hold which models is indexed sparsely (schema v13): `other_models` (multi-entry,
 * derived on every write, see `otherModelsOf`) names the models other than the embedded one, and
 * `NO_EMBEDDED_VECTOR` on a row without an embedded vector. A row holding only the embedded
 * model's vector, nearly every row, has no index entry; v10–v12 indexed every model of every row
 * (`vector_models`), one more index entry per stored memory for what every row has. The embedded
 * model's count is then the row count less the rows marked without it.
 *
 * Vectors are Float32Array: exact (import/export round-trips bit for bit) and 4 bytes a dimension.
 */
import type { Collection } from 'dexie';
import type { EngramDB } from './db';
import type { MemoryRow, VectorRow } from './rows';
import { EMBEDDED_MODEL_ID } from './names';
import { NO_EMBEDDED_VECTOR } from './derived';

export { NO_EMBEDDED_VECTOR, otherModelsOf } from './derived';

/** `v` as a compact Float32Array (copied unless it already is one). */
function f32(v: ArrayLike<number>): Float32Array {
	return v instanceof Float32Array ? v : Float32Array.from(v);
}

/** Sets `row`'s vector under `model` (on the row itself: for a row being planned or rewritten). */
export function setVector(row: MemoryRow, model: string, v: ArrayLike<number>): void {
	row.vectors = { ...row.vectors, [model]: f32(v) };
}

/** A memory's vectors as rows for export, in model order. */
export function vectorRowsOf(row: MemoryRow): VectorRow[] {
	return Object.keys(row.vectors ?? {})
		.sort()
		.map((model) => ({ model, memory_id: row.id, dims: row.vectors![model].length, data: row.vectors![model] }));
}

/** The models holding a vector for `row`, sorted (`Memory.embedding_tables`). */
export function modelsOf(row: MemoryRow): string[] {
	return Object.keys(row.vectors ?? {}).sort();
}

/** The vector of `memoryId` under `model`, or undefined. */
export async function getVector(db: EngramDB, model: string, memoryId: string): Promise<Float32Array | undefined> {
	return (await db.memories.get(memoryId))?.vectors?.[model];
}

/**
 * Every memory holding a vector of `model`: one key of the `other_models` index, except for the
 * embedded model, whose rows are not indexed (a scan of every row: no caller asks for them).
 */
export function rowsWithVector(db: EngramDB, model: string): Collection<MemoryRow, string> {
	if (model === EMBEDDED_MODEL_ID) return db.memories.filter((r) => r.vectors?.[model] !== undefined);
	return db.memories.where('other_models').equals(model);
}

/** How many memories hold a vector of `model` (two index counts for the embedded model). */
export function vectorCount(db: EngramDB, model: string): Promise<number> {
	if (model !== EMBEDDED_MODEL_ID) return db.memories.where('other_models').equals(model).count();
	const without = db.memories.where('other_models').equals(NO_EMBEDDED_VECTOR).count();
	return db.memories.count().then((all) => without.then((n) => all - n));
}

/**
 * The models holding at least one vector, in key order, one key seek each: the first key, then
 * the first key past each model. Reading every key to find the distinct models took 1.3 s for
 * 100k vectors in Chromium.
 */
export async function vectorModels(db: EngramDB): Promise<string[]> {
	const out: string[] = [];
	for (let k = await firstKeyAbove(db, NO_EMBEDDED_VECTOR); k !== undefined; k = await firstKeyAbove(db, k)) out.push(k);
	if ((await vectorCount(db, EMBEDDED_MODEL_ID)) > 0) out.push(EMBEDDED_MODEL_ID);
	return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The first `other_models` key after `k`, if any. */
async function firstKeyAbove(db: EngramDB, k: string): Promise<string | undefined> {
	const next = await db.memories.where('other_models').above(k).firstKey();
	return next === undefined ? undefined : String(next);
}

/** How many vectors each model holds. */
export async function modelCounts(db: EngramDB): Promise<{ model: string; count: number }[]> {
	const models = await vectorModels(db);
	return Promise.all(models.map(async (model) => ({ model, count: await vectorCount(db, model) })));
}

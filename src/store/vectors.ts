/**
 * A memory's vectors live on its own row: `MemoryRow.vectors`, one Float32Array per model (the
 * active embedded model's; a caller's embedding under `caller:<dims>`; those of a model switched
 * away from). The store derives `vector_models` from it on every write (multi-entry, indexed), so
 * a model's vectors are one index key and the models in use are its distinct keys. Up to schema
 * v9 each vector was a row of its own in a `vectors` table: in Chromium a row costs about as much
 * to write whatever its size, and that row was an eighth of a large import's time.
 *
 * Vectors are Float32Array: exact (import/export round-trips bit for bit) and 4 bytes a dimension.
 */
import type { Collection } from 'dexie';
import type { EngramDB } from './db';
import type { MemoryRow, VectorRow } from './rows';

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

/** Every memory holding a vector of `model`: one key of the `vector_models` index. */
export function rowsWithVector(db: EngramDB, model: string): Collection<MemoryRow, string> {
	return db.memories.where('vector_models').equals(model);
}

/**
 * The models holding at least one vector, one key seek each: the first key, then the first key
 * past each model. Reading every key to find the distinct models took 1.3 s for 100k vectors in
 * Chromium.
 */
export async function vectorModels(db: EngramDB): Promise<string[]> {
	const out: string[] = [];
	for (let k = await db.memories.orderBy('vector_models').firstKey(); k !== undefined; k = await db.memories.where('vector_models').above(k).firstKey())
		out.push(String(k));
	return out;
}

/** How many vectors each model holds. */
export async function modelCounts(db: EngramDB): Promise<{ model: string; count: number }[]> {
	const models = await vectorModels(db);
	return Promise.all(models.map(async (model) => ({ model, count: await rowsWithVector(db, model).count() })));
}

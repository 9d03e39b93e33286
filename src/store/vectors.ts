/**
 * Per-model vector rows, keyed by [model+memory_id] and indexed by nothing else: a model's
 * vectors are the key range [model, *], and a memory's vectors are one key per model (there are
 * only ever a few models). Vectors are stored as Float32Array: exact (import/export round-trips
 * bit for bit) and 4 bytes a dimension.
 */
import Dexie, { type Collection } from 'dexie';
import type { EngramDB } from './db';
import type { VectorRow } from './rows';

/** A vector row for `memory_id` under `model` (copies the data into a compact Float32Array). */
export function vectorRow(model: string, memoryId: string, v: ArrayLike<number>): VectorRow {
	const data = v instanceof Float32Array ? v : Float32Array.from(v);
	return { model, memory_id: memoryId, dims: data.length, data };
}

/** The vector of `memoryId` under `model`, or undefined. */
export async function getVector(db: EngramDB, model: string, memoryId: string): Promise<Float32Array | undefined> {
	return (await db.vectors.get([model, memoryId]))?.data;
}

/** Every vector of `model`: one key range of the primary key. */
export function vectorsOfModel(db: EngramDB, model: string): Collection<VectorRow, [string, string]> {
	return db.vectors.where('[model+memory_id]').between([model, Dexie.minKey], [model, Dexie.maxKey], true, true);
}

/** The stored vectors of the given memories, under every model. */
export async function vectorsOf(db: EngramDB, ids: string[]): Promise<VectorRow[]> {
	if (ids.length === 0) return [];
	const models = await vectorModels(db);
	const rows = await db.vectors.bulkGet(models.flatMap((m) => ids.map((id) => [m, id] as [string, string])));
	return rows.filter((r): r is VectorRow => r !== undefined);
}

/**
 * Deletes the vectors of every model for the given memories. Listing the models costs one
 * request per model plus one, in sequence (the price of not indexing `memory_id`).
 */
export async function deleteVectorsOf(db: EngramDB, ids: string[]): Promise<void> {
	if (ids.length === 0) return;
	const models = await vectorModels(db);
	await db.vectors.bulkDelete(models.flatMap((m) => ids.map((id) => [m, id] as [string, string])));
}

/**
 * The models holding at least one vector, one key seek each: the first key, then the first key
 * past each model's range. Reading every key to find the distinct models took 1.3 s for 100k
 * vectors in Chromium.
 */
export async function vectorModels(db: EngramDB): Promise<string[]> {
	const out: string[] = [];
	const pk = '[model+memory_id]';
	for (let k = await db.vectors.orderBy(pk).firstKey(); k !== undefined; k = await db.vectors.where(pk).above([(k as [string, string])[0], Dexie.maxKey]).firstKey())
		out.push((k as [string, string])[0]);
	return out;
}

/** How many vectors each model holds. */
export async function modelCounts(db: EngramDB): Promise<{ model: string; count: number }[]> {
	const models = await vectorModels(db);
	return Promise.all(models.map(async (model) => ({ model, count: await vectorsOfModel(db, model).count() })));
}

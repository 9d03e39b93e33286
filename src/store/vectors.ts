/**
 * Per-model vector rows, keyed by [model+memory_id]. Vectors are stored as Float32Array: exact
 * (import/export round-trips bit for bit) and 4 bytes a dimension.
 */
import type { EngramDB } from './db';
import type { VectorRow } from './rows';
import { primaryKeysWhere } from './lookup';

/** A vector row for `memory_id` under `model` (copies the data into a compact Float32Array). */
export function vectorRow(model: string, memoryId: string, v: ArrayLike<number>): VectorRow {
	const data = v instanceof Float32Array ? v : Float32Array.from(v);
	return { model, memory_id: memoryId, dims: data.length, data };
}

/** The vector of `memoryId` under `model`, or undefined. */
export async function getVector(db: EngramDB, model: string, memoryId: string): Promise<Float32Array | undefined> {
	return (await db.vectors.get([model, memoryId]))?.data;
}

/** Deletes the vectors of every model for the given memories; returns how many were removed. */
export async function deleteVectorsOf(db: EngramDB, ids: string[]): Promise<number> {
	if (ids.length === 0) return 0;
	const keys = await primaryKeysWhere(db.vectors, 'memory_id', ids);
	await db.vectors.bulkDelete(keys);
	return keys.length;
}

/**
 * The models holding at least one vector, one index seek each. Dexie's `uniqueKeys()` reads
 * every key of the index (1.3 s for 100k vectors in Chromium); there are only ever a few models.
 */
export async function vectorModels(db: EngramDB): Promise<string[]> {
	const out: string[] = [];
	for (let k = await db.vectors.orderBy('model').firstKey(); k !== undefined; k = await db.vectors.where('model').above(k).firstKey()) out.push(String(k));
	return out;
}

/** How many vectors each model holds. */
export async function modelCounts(db: EngramDB): Promise<{ model: string; count: number }[]> {
	const models = await vectorModels(db);
	return Promise.all(
		models.map(async (model) => ({ model, count: await db.vectors.where('model').equals(model).count() })),
	);
}

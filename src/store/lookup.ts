/**
 * Lookups of many keys on one index. Dexie's `anyOf` walks a cursor and seeks between keys;
 * on a non-unique index that is O(rows × keys) in fake-indexeddb (50 ids over 5k associations
 * took 19 s) and gains nothing in browsers over one indexed `getAll` per key issued in
 * parallel, which is what `rowsWhere` does.
 */
import type { IndexableType, Table } from 'dexie';

/** Every row whose `index` equals one of `keys` (rows matching several keys appear once per key). */
export async function rowsWhere<T, K>(table: Table<T, K>, index: string, keys: readonly IndexableType[]): Promise<T[]> {
	const unique = [...new Set(keys)];
	return (await Promise.all(unique.map((k) => table.where(index).equals(k).toArray()))).flat();
}

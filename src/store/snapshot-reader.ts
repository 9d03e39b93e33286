/**
 * Reads the write stamp and one model's index snapshot with the bare IndexedDB API, for a helper
 * thread. Reading a large value needs its thread's turns (in Chromium a 47 MB snapshot arrives in
 * chunks, and a busy thread holds them up), so the engine worker has a helper read it while it
 * loads the model, and takes the bytes as a transfer. The helper opens the database only after
 * the engine has opened (and so created or upgraded) it, and closes it at once. A snapshot kept
 * in an OPFS file is read here too (store/snapshot-files.ts).
 */
import type { SnapshotRow } from './rows';
import { ACTIVE_MODEL_KEY, COUNTERS_KEY } from './names';
import type { SnapshotFiles } from './snapshot-files';
import { loadSnapshotBytes, type LoadedSnapshot } from './snapshots';

/** The database's write stamp and a model's stored snapshot, read in one transaction. */
export interface StampedSnapshot {
	stamp: number;
	snapshot: LoadedSnapshot | undefined;
}

/**
 * Whose snapshot to read: a model's, or the active model's (the stored setting, else
 * `fallback`), for a reader that starts before anything has read the settings.
 */
export type SnapshotOf = string | { active: string };

/**
 * Reads a model's snapshot and the write stamp from the existing database `name`, and the
 * snapshot's file from `files` when its row names one.
 */
export async function readStampedSnapshot(factory: IDBFactory, name: string, of: SnapshotOf, files?: SnapshotFiles): Promise<StampedSnapshot> {
	const { stamp, row } = await readStampedRow(factory, name, of);
	return { stamp, snapshot: row && (await loadSnapshotBytes(row, files)) };
}

/** The write stamp and the snapshots row `of` names (without reading a file it names). */
export function readStampedRow(factory: IDBFactory, name: string, of: SnapshotOf): Promise<{ stamp: number; row: SnapshotRow | undefined }> {
	return new Promise((resolve, reject) => {
		const open = factory.open(name);
		open.onerror = () => reject(open.error);
		// The engine creates the database; a helper must never create an empty one.
		open.onupgradeneeded = () => {
			open.transaction?.abort();
			reject(new Error(`database ${name} does not exist`));
		};
		open.onsuccess = () => {
			const db = open.result;
			db.onversionchange = () => db.close();
			let tx: IDBTransaction;
			try {
				tx = db.transaction(['settings', 'snapshots'], 'readonly');
			} catch (e) {
				db.close();
				reject(e);
				return;
			}
			const settings = tx.objectStore('settings');
			const counters = settings.get(COUNTERS_KEY);
			let snapshot: IDBRequest | undefined;
			if (typeof of === 'string') snapshot = tx.objectStore('snapshots').get(of);
			else {
				const active = settings.get(ACTIVE_MODEL_KEY);
				active.onsuccess = () => {
					const model = (active.result as { value?: unknown } | undefined)?.value;
					snapshot = tx.objectStore('snapshots').get(typeof model === 'string' ? model : of.active);
				};
			}
			tx.oncomplete = () => {
				db.close();
				const stamp = (counters.result as { value?: { stamp?: number } } | undefined)?.value?.stamp ?? 0;
				resolve({ stamp, row: snapshot?.result as SnapshotRow | undefined });
			};
			tx.onerror = tx.onabort = () => {
				db.close();
				reject(tx.error ?? new Error('snapshot read aborted'));
			};
		};
	});
}

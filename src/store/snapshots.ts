/**
 * Persisted search-index snapshots, one per model. A snapshot is only used when its stamp
 * equals the current write stamp, i.e. no write happened after it was taken. The bytes go to an
 * OPFS file when `files` is given (see snapshot-files.ts for why and how), else into the row.
 */
import type { EngramDB } from './db';
import type { SnapshotRow } from './rows';
import type { SnapshotFiles } from './snapshot-files';

/** Where a snapshot's bytes are kept. */
export type SnapshotPlace = 'file' | 'indexeddb';

/** A snapshot with its bytes in hand, wherever they were kept. */
export interface LoadedSnapshot {
	model: string;
	stamp: number;
	bytes: Uint8Array;
	at: string;
	place: SnapshotPlace;
}

/** Files no row names are removed once they are this old (a younger one may be another tab's, about to be named). */
const ORPHAN_AGE_MS = 10 * 60_000;

/**
 * The bytes of a stored snapshot row: its own, or its file's. Undefined when the file is gone or
 * is not the size the row recorded (a rebuild is then the answer, never a wrong index).
 */
export async function loadSnapshotBytes(row: SnapshotRow, files: SnapshotFiles | undefined): Promise<LoadedSnapshot | undefined> {
	const base = { model: row.model, stamp: row.stamp, at: row.at };
	if (row.file === undefined) return row.bytes ? { ...base, bytes: row.bytes, place: 'indexeddb' } : undefined;
	if (!files) return undefined;
	// A file that cannot be read is no snapshot: the engine rebuilds the index from the rows.
	const bytes = await files.read(row.file).catch(() => undefined);
	return bytes && bytes.byteLength === row.size ? { ...base, bytes, place: 'file' } : undefined;
}

/** The stored snapshot for `model` with its bytes, if any can be read. */
export async function readSnapshot(db: EngramDB, model: string, files?: SnapshotFiles): Promise<LoadedSnapshot | undefined> {
	const row = await db.snapshots.get(model);
	return row && loadSnapshotBytes(row, files);
}

/**
 * Stores (replaces) the snapshot for `model`: into a new file then a row naming it when `files`
 * is given and the file can be written, else into the row. Returns where the bytes went. The
 * replaced snapshot's file, and files no row names that are old enough, are removed afterwards.
 * `pause`, when given, is awaited between the file's pieces (SnapshotFiles.write).
 */
export async function writeSnapshot(
	db: EngramDB,
	snap: { model: string; stamp: number; bytes: Uint8Array; at: string },
	files?: SnapshotFiles,
	pause?: () => Promise<void>,
): Promise<SnapshotPlace> {
	const { bytes, ...meta } = snap;
	// A new name every time: a reader of the current file never meets a half-written one.
	const name = `${fileModel(snap.model)}.${snap.stamp}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.bin`;
	let written = false;
	if (files) {
		written = await files.write(name, bytes, pause).then(
			() => true,
			// Quota, or a platform that refuses: the row can still carry the bytes.
			() =>
				files.remove(name).then(
					() => false,
					() => false,
				),
		);
	}
	const row: SnapshotRow = written ? { ...meta, file: name, size: bytes.byteLength } : { ...meta, bytes };
	let replaced: string | undefined;
	try {
		await db.transaction('rw', db.snapshots, async () => {
			replaced = (await db.snapshots.get(snap.model))?.file;
			await db.snapshots.put(row);
		});
	} catch (e) {
		// The write's own error (rethrown below) is the one to report; an orphan is swept later.
		if (written) await files!.remove(name).catch(() => undefined);
		throw e;
	}
	if (files) {
		// The new snapshot is saved; a file left behind is an orphan, swept at the next start.
		if (replaced !== undefined && replaced !== name) await files.remove(replaced).catch(() => undefined);
		// Housekeeping after a saved snapshot: what it leaves, the engine's start-up sweep reports.
		await removeOrphanFiles(db, files).catch(() => undefined);
	}
	return written ? 'file' : 'indexeddb';
}

/** A model id as the first part of its files' names: no dots, so the name splits at the first one. */
const fileModel = (model: string) => encodeURIComponent(model).replaceAll('.', '%2E');

/**
 * Removes the snapshot files no row names that were last modified before `before` (epoch ms;
 * by default ten minutes ago): left by a write cut off with its page, or by a wipe. Only the rows
 * of the models those files name are read: a row that keeps its bytes is tens of MB.
 */
export async function removeOrphanFiles(db: EngramDB, files: SnapshotFiles, before = Date.now() - ORPHAN_AGE_MS): Promise<void> {
	const old = (await files.list()).filter((f) => f.modified < before);
	const named = new Map<string, string | undefined>();
	for (const f of old) {
		const dot = f.name.indexOf('.');
		let model: string;
		try {
			model = decodeURIComponent(dot < 0 ? f.name : f.name.slice(0, dot));
		} catch {
			model = f.name;
		}
		if (!named.has(model)) named.set(model, (await db.snapshots.get(model))?.file);
		if (named.get(model) !== f.name) await files.remove(f.name);
	}
}

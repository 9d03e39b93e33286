/**
 * Index snapshot bytes as files in the origin private file system (OPFS), where the platform has
 * one. The snapshot is a cache of what IndexedDB holds, tens of MB at 100k memories, and page
 * load waits for it: in Chromium a 47 MB IndexedDB value took 0.67–0.97 s to read in a worker,
 * the same bytes from an OPFS file 0.19–0.24 s through a sync access handle (docs/BENCHMARKS.md).
 *
 * The snapshots table still says which snapshot is current: its row names the file, and a file
 * no row names is garbage. Each snapshot goes to a new file, written in full before the row
 * naming it is put, so a reader never sees a half-written file and a crash leaves at worst an
 * unnamed file (removed by a later write). Where OPFS is missing (Node, some private modes) the
 * bytes stay in the row.
 *
 * Through a sync access handle a write blocks its thread, most of it in the flush: 52–57 ms for the
 * 47 MB snapshot of 100k memories in headless Chromium (medians, more under load), during which
 * the engine worker would answer nothing. So the bytes go
 * in pieces of {@link WRITE_PIECE}, each flushed, with the caller's `pause` between them (recalls
 * in flight, then a task); the handle stays open throughout, so no other context opens the file half-written, and
 * it is flushed and closed before `write` resolves, i.e. before any row names it.
 */

/** Where snapshot files live: one directory per database. */
export interface SnapshotFiles {
	/**
	 * Writes `bytes` as the new file `name` (never an existing one), fully and flushed when it
	 * resolves. With `pause`, a long write goes in pieces, awaiting `pause()` between them.
	 */
	write(name: string, bytes: Uint8Array, pause?: () => Promise<void>): Promise<void>;
	/** The bytes of file `name`; throws when it is missing. */
	read(name: string): Promise<Uint8Array>;
	remove(name: string): Promise<void>;
	/** Every file's name and last-modified time (epoch ms). */
	list(): Promise<{ name: string; modified: number }[]>;
	/**
	 * File `name` open for reads at offsets, each straight into the caller's buffer; undefined
	 * where the platform has no sync access handles or another context holds the file. Throws when
	 * it is missing. Close it when done.
	 */
	openSync?(name: string): Promise<SyncFile | undefined>;
}

/** A file open for synchronous reads at offsets. */
export interface SyncFile {
	size: number;
	/** Fills `into` from offset `at`; throws on a short read. */
	read(into: Uint8Array, at: number): void;
	close(): void;
}

/** Bytes per synchronous write and flush when the caller pauses between pieces: the longest stretch in Chromium was 4–6 ms for a 4.7 MB file, 10–25 ms for 47 MB. */
export const WRITE_PIECE = 1 << 20;

/** The directory under the origin's root that holds every database's snapshot files. */
const ROOT_DIR = 'engram-index-snapshots';

/** A sync access handle, as dedicated workers have them (not in the DOM typings of every target). */
interface SyncHandle {
	read(buffer: Uint8Array, opts: { at: number }): number;
	write(buffer: Uint8Array, opts: { at: number }): number;
	truncate(size: number): void;
	getSize(): number;
	flush(): void;
	close(): void;
}
type SyncCapable = FileSystemFileHandle & { createSyncAccessHandle?: () => Promise<SyncHandle> };

/** The origin's file system root, or undefined where there is none. */
function opfsRoot(): Promise<FileSystemDirectoryHandle> | undefined {
	const storage = (globalThis as { navigator?: { storage?: Partial<StorageManager> } }).navigator?.storage;
	return typeof storage?.getDirectory === 'function' ? storage.getDirectory() : undefined;
}

/**
 * Snapshot files of database `dbName` in OPFS, or undefined where the platform has no OPFS.
 * Sync access handles (dedicated workers only) are used where they exist: they read a large
 * file several times faster than `getFile()`.
 */
export const opfsSnapshotFiles = (dbName: string): SnapshotFiles | undefined => opfsFiles(ROOT_DIR, encodeURIComponent(dbName));

/**
 * The files of directory `path` (made when first used) under the origin's OPFS root, or
 * undefined where the platform has no OPFS. Snapshot files are one use; the embedded model's
 * parts (engine/parts-file.ts) another.
 */
export function opfsFiles(...path: string[]): SnapshotFiles | undefined {
	const root = opfsRoot();
	if (!root) return undefined;
	// Guard against the rejection going unheard when no method is ever called.
	root.catch(() => undefined);
	let dir: Promise<FileSystemDirectoryHandle> | undefined;
	const directory = () =>
		(dir ??= path.reduce<Promise<FileSystemDirectoryHandle>>((d, name) => d.then((h) => h.getDirectoryHandle(name, { create: true })), root));
	return {
		async write(name, bytes, pause) {
			const file = (await (await directory()).getFileHandle(name, { create: true })) as SyncCapable;
			if (file.createSyncAccessHandle) {
				const h = await file.createSyncAccessHandle();
				try {
					h.truncate(0);
					const piece = pause ? WRITE_PIECE : Math.max(bytes.byteLength, 1);
					// At least once, so an empty file is flushed too.
					for (let at = 0; at === 0 || at < bytes.byteLength; at += piece) {
						// Between pieces only: the handle stays open, so the file is never seen half-written.
						if (at > 0) await pause!();
						const part = bytes.subarray(at, Math.min(at + piece, bytes.byteLength));
						if (h.write(part, { at }) !== part.byteLength) throw new Error(`file ${name}: short write`);
						// Each piece flushed: one flush of the whole file was the longest stretch (33–38 ms at 47 MB).
						h.flush();
					}
				} finally {
					// Closed before the caller removes a failed file: an open handle locks it.
					h.close();
				}
				return;
			}
			const w = await file.createWritable();
			try {
				await w.write(bytes as Uint8Array<ArrayBuffer>);
				await w.close();
			} catch (e) {
				// The write's error (rethrown below) is the one that matters.
				await w.abort().catch(() => undefined);
				throw e;
			}
		},
		async read(name) {
			const file = (await (await directory()).getFileHandle(name)) as SyncCapable;
			if (file.createSyncAccessHandle) {
				// Another thread holds the file: read it the asynchronous way below.
				const h = await file.createSyncAccessHandle().catch(() => undefined);
				// Another context holding the file open: read it the shared way instead.
				if (h) {
					try {
						const out = new Uint8Array(h.getSize());
						if (h.read(out, { at: 0 }) !== out.byteLength) throw new Error(`file ${name}: short read`);
						return out;
					} finally {
						h.close();
					}
				}
			}
			return new Uint8Array(await (await file.getFile()).arrayBuffer());
		},
		async openSync(name) {
			const file = (await (await directory()).getFileHandle(name)) as SyncCapable;
			// No sync handle (held elsewhere, or unsupported): the caller reads the file whole.
			const h = await file.createSyncAccessHandle?.().catch(() => undefined);
			if (!h) return undefined;
			return {
				size: h.getSize(),
				read(into, at) {
					if (h.read(into, { at }) !== into.byteLength) throw new Error(`file ${name}: short read`);
				},
				close: () => h.close(),
			};
		},
		async remove(name) {
			await (await directory()).removeEntry(name).catch((e: unknown) => {
				if ((e as { name?: string }).name !== 'NotFoundError') throw e;
			});
		},
		async list() {
			const out: { name: string; modified: number }[] = [];
			const d = (await directory()) as FileSystemDirectoryHandle & { values(): AsyncIterable<FileSystemHandle> };
			for await (const h of d.values()) {
				if (h.kind !== 'file') continue;
				// A file removed while listed is no orphan to remove.
				const f = await (h as FileSystemFileHandle).getFile().catch(() => undefined);
				out.push({ name: h.name, modified: f?.lastModified ?? 0 });
			}
			return out;
		},
	};
}

/**
 * store/snapshot-files.ts: a snapshot file written through a sync access handle goes in pieces
 * with the caller's pause between them, and keeps the guarantees of one write: the bytes as given,
 * flushed and closed before the row naming the file is put, and a failed write leaves no named
 * file. OPFS is faked here at the level the module uses it (navigator.storage.getDirectory, file
 * handles, exclusive sync access handles); the real one is covered by test/e2e/engine.test.ts.
 */
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openEngramDB, type EngramDB } from '../../../src/store/db';
import { opfsFiles, WRITE_PIECE, type SnapshotFiles } from '../../../src/store/snapshot-files';
import { readSnapshot, writeSnapshot } from '../../../src/store/snapshots';
import { freshName } from '../engine/helpers';

/** What happened to the fake file system, in order. */
type Event = { op: 'write'; file: string; at: number; length: number } | { op: 'flush' | 'close' | 'pause'; file?: string };

/** A fake OPFS: files by name, one open sync handle per file at most (as in browsers). */
function fakeOpfs(opts: { failAt?: number } = {}) {
	const files = new Map<string, { bytes: Uint8Array; flushed: boolean }>();
	const open = new Set<string>();
	const events: Event[] = [];
	const locked = (name: string) => new DOMException(`${name} is open`, 'NoModificationAllowedError');
	const dir = {
		kind: 'directory',
		async getDirectoryHandle() {
			return dir;
		},
		async getFileHandle(name: string, o?: { create?: boolean }) {
			if (!files.has(name)) {
				if (!o?.create) throw new DOMException(name, 'NotFoundError');
				files.set(name, { bytes: new Uint8Array(0), flushed: false });
			}
			return {
				kind: 'file',
				name,
				async getFile() {
					const f = files.get(name)!;
					return { lastModified: 0, arrayBuffer: async () => f.bytes.slice().buffer };
				},
				async createSyncAccessHandle() {
					if (open.has(name)) throw locked(name);
					open.add(name);
					const f = files.get(name)!;
					return {
						truncate(size: number) {
							f.bytes = f.bytes.slice(0, size);
						},
						write(buf: Uint8Array, { at }: { at: number }) {
							if (opts.failAt !== undefined && at >= opts.failAt) throw new DOMException('quota', 'QuotaExceededError');
							events.push({ op: 'write', file: name, at, length: buf.byteLength });
							const next = new Uint8Array(Math.max(f.bytes.byteLength, at + buf.byteLength));
							next.set(f.bytes);
							next.set(buf, at);
							f.bytes = next;
							f.flushed = false;
							return buf.byteLength;
						},
						read(into: Uint8Array, { at }: { at: number }) {
							const part = f.bytes.subarray(at, at + into.byteLength);
							into.set(part);
							return part.byteLength;
						},
						getSize: () => f.bytes.byteLength,
						flush() {
							events.push({ op: 'flush', file: name });
							f.flushed = true;
						},
						close() {
							events.push({ op: 'close', file: name });
							open.delete(name);
						},
					};
				},
			};
		},
		async removeEntry(name: string) {
			if (!files.has(name)) throw new DOMException(name, 'NotFoundError');
			if (open.has(name)) throw locked(name);
			files.delete(name);
		},
		async *values() {
			for (const name of files.keys()) yield await dir.getFileHandle(name);
		},
	};
	return { files, open, events, dir };
}

/** Bytes 0..n-1 with a pattern no shifted or repeated piece matches. */
function pattern(n: number): Uint8Array {
	const out = new Uint8Array(n);
	for (let i = 0; i < n; i++) out[i] = (i * 7 + (i >> 8) * 13) & 0xff;
	return out;
}

/** Byte-for-byte equality (an element-wise toEqual on MBs is far too slow). */
const same = (a: Uint8Array | undefined, b: Uint8Array) => a !== undefined && a.byteLength === b.byteLength && Buffer.compare(a, b) === 0;

let fs: ReturnType<typeof fakeOpfs>;
const dbs: EngramDB[] = [];

function useFs(opts: { failAt?: number } = {}): SnapshotFiles {
	fs = fakeOpfs(opts);
	vi.stubGlobal('navigator', { storage: { getDirectory: async () => fs.dir } });
	return opfsFiles('snapshots-test')!;
}

beforeEach(() => useFs());
afterEach(() => {
	vi.unstubAllGlobals();
	dbs.splice(0).forEach((d) => d.close());
});

async function openDb(): Promise<EngramDB> {
	const db = await openEngramDB({ name: freshName(), indexedDB, IDBKeyRange });
	dbs.push(db);
	return db;
}

describe('snapshot files', () => {
	it('writes the bytes as given for sizes around the piece size, pausing only between pieces', async () => {
		for (const size of [0, 1, WRITE_PIECE - 1, WRITE_PIECE, WRITE_PIECE + 1, 2 * WRITE_PIECE, 2 * WRITE_PIECE + 3]) {
			const files = useFs();
			const bytes = pattern(size);
			const pause = vi.fn(async () => void fs.events.push({ op: 'pause' }));
			await files.write(`f${size}`, bytes, pause);
			expect(same(fs.files.get(`f${size}`)!.bytes, bytes)).toBe(true);
			expect(fs.files.get(`f${size}`)!.flushed).toBe(true);
			const pieces = Math.max(Math.ceil(size / WRITE_PIECE), 1);
			expect(pause).toHaveBeenCalledTimes(pieces - 1);
			// write, flush, pause, write, flush, …, close: no pause before the first piece or after the last.
			const ops = fs.events.map((e) => e.op);
			expect(ops).toEqual([...Array.from({ length: pieces }, (_, i) => (i ? ['pause', 'write', 'flush'] : ['write', 'flush'])).flat(), 'close']);
			expect(fs.events.filter((e) => e.op === 'write').every((e) => e.op === 'write' && e.length <= WRITE_PIECE)).toBe(true);
			expect(same(await files.read(`f${size}`), bytes)).toBe(true);
		}
	});

	it('writes in one piece without a pause, as before', async () => {
		const files = useFs();
		const bytes = pattern(3 * WRITE_PIECE + 5);
		await files.write('whole', bytes);
		expect(fs.events.map((e) => e.op)).toEqual(['write', 'flush', 'close']);
		expect(same(fs.files.get('whole')!.bytes, bytes)).toBe(true);
	});

	it('keeps the file open and unnamed while paused: readers still get the previous snapshot', async () => {
		const db = await openDb();
		const files = useFs();
		const old = pattern(100);
		expect(await writeSnapshot(db, { model: 'm', stamp: 1, bytes: old, at: 'a' }, files)).toBe('file');
		const next = pattern(2 * WRITE_PIECE + 1).map((b) => b ^ 0x5a);
		const seen: (Uint8Array | undefined)[] = [];
		const pause = async () => {
			seen.push((await readSnapshot(db, 'm', files))?.bytes);
			// The half-written file is locked to every other opener.
			const partial = [...fs.open];
			expect(partial).toHaveLength(1);
			await expect(files.remove(partial[0])).rejects.toThrow();
		};
		expect(await writeSnapshot(db, { model: 'm', stamp: 2, bytes: next, at: 'b' }, files, pause)).toBe('file');
		expect(seen.map((b) => same(b, old))).toEqual([true, true]);
		expect(same((await readSnapshot(db, 'm', files))?.bytes, next)).toBe(true);
		// The replaced file is gone; only the named one is left.
		expect([...fs.files.keys()]).toEqual([(await db.snapshots.get('m'))!.file]);
	});

	it('a write failing mid-way leaves no named file and no file at all; the row carries the bytes', async () => {
		const db = await openDb();
		const files = useFs({ failAt: WRITE_PIECE });
		const bytes = pattern(2 * WRITE_PIECE + 7);
		const pause = vi.fn(async () => undefined);
		await expect(files.write('direct', bytes, pause)).rejects.toThrow(/quota/);
		// Closed even so, so the caller can remove it.
		expect(fs.open.size).toBe(0);
		await files.remove('direct');

		expect(await writeSnapshot(db, { model: 'm', stamp: 3, bytes, at: 'c' }, files, pause)).toBe('indexeddb');
		expect(pause).toHaveBeenCalled();
		const row = (await db.snapshots.get('m'))!;
		expect(row.file).toBeUndefined();
		expect(fs.files.size).toBe(0);
		expect(same((await readSnapshot(db, 'm', files))?.bytes, bytes)).toBe(true);
	});
});

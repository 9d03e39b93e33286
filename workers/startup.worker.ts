/**
 * The engine worker's start-up helper: reads what a page load waits for on a thread of its own,
 * while the engine worker loads its code and then restores its index, and hands each over as a
 * transfer. One request, { name, of, model }; the answers are startup-protocol.ts's `StartupAnswer`.
 *
 * 1. The index snapshot (see src/store/snapshot-reader.ts for why it is read here), in two parts:
 *    its metadata section, which the engine decodes at once, then the other sections
 *    (src/engine/search/snapshot.ts), read from the file section by section where it can
 *    (`postFromFile`), else cut out of the whole bytes (`postSnapshot`); or `snapshot-error`.
 * 2. The embedded model's parts (src/engine/embedder/static-parts.ts `loadStaticParts`: fetching,
 *    checking the digests of and parsing 18 MB of files), posted as `model` (null when the model
 *    is not a local static one) or `model-error`. Once the snapshot is posted they are read
 *    from an OPFS file an earlier load wrote (src/engine/parts-file.ts), which spares fetching
 *    and parsing the files while they are unchanged; else the files are fetched and parsed, and
 *    the file written for the next load.
 * 3. WordNet's category table (src/engine/search/categories.ts), fetched at once and parsed once
 *    the model is posted, as `categories` (null when the file is missing) or `categories-error`:
 *    parsing it stems ~100k member words, 80–200 ms that were the engine thread's during a
 *    start-up (Chromium, 100k memories); receiving the parsed table costs it a structured clone.
 */
import { loadStaticParts, staticPartsBuffers } from '../src/engine/embedder';
import { parseCategories } from '../src/engine/search/categories';
import { readHead, readMetas, readSections, sectionBuffers, sliceMetas, sliceSections, snapshotHead, type SnapshotHead } from '../src/engine/search/snapshot';
import type { SnapshotRow } from '../src/store/rows';
import { opfsFiles, opfsSnapshotFiles, type SnapshotFiles } from '../src/store/snapshot-files';
import { readStampedRow, type SnapshotOf } from '../src/store/snapshot-reader';
import { loadSnapshotBytes, type LoadedSnapshot } from '../src/store/snapshots';
import type { StartupAnswer, StartupRequest } from './startup-protocol';

/** Posts one answer to the engine worker (see startup-protocol.ts), moving `transfer`. */
function post(answer: StartupAnswer, transfer: Transferable[] = []): void {
	self.postMessage(answer, { transfer });
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The OPFS directory where the embedded model's parts are kept between page loads. */
const MODEL_PARTS_DIR = 'engram-model-parts';

/**
 * Posts the snapshot in two messages: its header and metadata section as soon as they are cut
 * (`snapshot`, whose slices' `sections` the engine worker fills in from the next message), and
 * then the rest (`sections`), cut while the engine decodes the metadata. A snapshot that does
 * not slice goes whole (the engine then refuses it as it would anyway, and rebuilds).
 */
function postSnapshot(stamp: number, snapshot: LoadedSnapshot | undefined): void {
	const whole = () => {
		post({ type: 'snapshot', snapshot: { stamp, snapshot } }, snapshot ? [snapshot.bytes.buffer as ArrayBuffer] : []);
		post({ type: 'sections-error', error: 'no sections: the snapshot was sent whole' });
	};
	// A stale snapshot is never restored: not worth cutting.
	if (!snapshot || snapshot.stamp !== stamp) return whole();
	const { bytes, ...rest } = snapshot;
	let head: SnapshotHead;
	try {
		head = snapshotHead(bytes);
	} catch {
		return whole();
	}
	const metas = sliceMetas(bytes, head);
	const { modelId, dims, count } = head;
	post({ type: 'snapshot', snapshot: { stamp, snapshot: { ...rest, slices: { modelId, dims, count, metas } } } }, [metas.bytes.buffer as ArrayBuffer]);
	try {
		const sections = sliceSections(bytes, head);
		post({ type: 'sections', sections }, sectionBuffers(sections));
	} catch (err) {
		post({ type: 'sections-error', error: message(err) });
	}
}

/**
 * Posts a current snapshot kept in a file as its sections are read, each straight into an array
 * of its own: the metadata first, so the engine starts decoding it while the rest is read.
 * False when it cannot (no sync access handle, or a file that is not the row's): the caller then
 * reads the snapshot whole.
 */
async function postFromFile(stamp: number, row: SnapshotRow | undefined, files: SnapshotFiles | undefined): Promise<boolean> {
	if (row?.file === undefined || !files?.openSync || row.stamp !== stamp) return false;
	// No sync handle: the snapshot is read whole below.
	const file = await files.openSync(row.file).catch(() => undefined);
	if (!file) return false;
	try {
		if (file.size !== row.size) return false;
		let head: SnapshotHead;
		let metas: ReturnType<typeof readMetas>;
		try {
			head = readHead(file.size, file.read);
			metas = readMetas(head, file.read);
		} catch {
			return false;
		}
		const { modelId, dims, count } = head;
		const snapshot = { model: row.model, stamp: row.stamp, at: row.at, place: 'file' as const, slices: { modelId, dims, count, metas } };
		post({ type: 'snapshot', snapshot: { stamp, snapshot } }, [metas.bytes.buffer as ArrayBuffer]);
		try {
			const sections = readSections(head, file.read);
			post({ type: 'sections', sections }, sectionBuffers(sections));
		} catch (err) {
			post({ type: 'sections-error', error: message(err) });
		}
		return true;
	} finally {
		file.close();
	}
}

/** Reads the snapshot and posts it (see postFromFile and postSnapshot), or posts why it cannot. */
async function postIndex(name: string, of: SnapshotOf): Promise<void> {
	const files = opfsSnapshotFiles(name);
	try {
		const { stamp, row } = await readStampedRow(indexedDB, name, of);
		if (!(await postFromFile(stamp, row, files))) postSnapshot(stamp, row && (await loadSnapshotBytes(row, files)));
	} catch (err) {
		post({ type: 'snapshot-error', error: message(err) });
		post({ type: 'sections-error', error: message(err) });
	}
}

self.onmessage = async (e: MessageEvent<StartupRequest>) => {
	const { name, of, model, categories } = e.data;
	const indexPosted = postIndex(name, of);
	const table = fetch(categories).then((r) => (r.ok ? r.text() : undefined));
	// Awaited below, after the model; until then a failure must not count as unhandled.
	table.catch(() => undefined);
	// The model's config is fetched while the snapshot is read; its parts are read (or its files
	// parsed) once the snapshot is on its way.
	const cache = partsCache();
	const parts = loadStaticParts({ ...model, parseAfter: indexPosted, cache: cache?.files });
	// Awaited below, after the snapshot; until then a failure must not count as unhandled.
	parts.catch(() => undefined);
	await indexPosted;
	try {
		const loaded = await parts;
		post({ type: 'model', model: loaded ?? null }, loaded ? staticPartsBuffers(loaded) : []);
	} catch (err) {
		post({ type: 'model-error', error: message(err) });
	}
	try {
		const text = await table;
		post({ type: 'categories', categories: text === undefined ? null : parseCategories(text) });
	} catch (err) {
		post({ type: 'categories-error', error: message(err) });
	}
	// The engine worker ends this thread on `done`: not before the parts file is written.
	await cache?.written();
	post({ type: 'done' });
};

/** The OPFS directory for the model's parts, and a promise of the writes it was asked for. */
function partsCache(): { files: SnapshotFiles; written: () => Promise<unknown> } | undefined {
	const files = opfsFiles(MODEL_PARTS_DIR);
	if (!files) return undefined;
	const writes: Promise<unknown>[] = [];
	return {
		files: { ...files, write: (name, bytes) => track(writes, files.write(name, bytes)) },
		written: () => Promise.all(writes),
	};
}

function track(writes: Promise<unknown>[], write: Promise<void>): Promise<void> {
	// Only waited for before `done`; the caller of write() gets its error.
	writes.push(write.catch(() => undefined));
	return write;
}

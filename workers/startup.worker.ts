/**
 * The engine worker's start-up helper: reads what a page load waits for on a thread of its own,
 * while the engine worker loads its code and then restores its index, and hands each over as a
 * transfer. One request: { name, of, model }.
 *
 * 1. The index snapshot (see src/store/snapshot-reader.ts for why it is read here), cut into its
 *    sections (src/engine/search/snapshot.ts) and posted in two parts (`postSnapshot`), or
 *    { snapshotError }: the restore waits for it.
 * 2. Then the embedded model's parts (src/engine/embedder.ts `loadStaticParts`: fetching,
 *    checking the digests of and parsing 18 MB of files), posted as { model } (null when the model
 *    is not a local static one) or { modelError }.
 */
import { loadStaticParts, staticPartsBuffers } from '../src/engine/embedder';
import { sectionBuffers, sliceMetas, sliceSections, snapshotHead, type SnapshotHead } from '../src/engine/search/snapshot';
import { opfsSnapshotFiles } from '../src/store/snapshot-files';
import type { LoadedSnapshot } from '../src/store/snapshots';
import { readStampedSnapshot, type SnapshotOf } from '../src/store/snapshot-reader';

/** What the engine worker asks for. */
export interface StartupRequest {
	name: string;
	of: SnapshotOf;
	model: { modelId: string; localModelPath: string };
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Posts the snapshot in two messages: its header and metadata section as soon as they are cut
 * ({ snapshot }, whose slices' `sections` the engine worker fills in from the next message), and
 * then the rest ({ sections }), cut while the engine decodes the metadata. A snapshot that does
 * not slice goes whole (the engine then refuses it as it would anyway, and rebuilds).
 */
function postSnapshot(stamp: number, snapshot: LoadedSnapshot | undefined): void {
	const whole = () => {
		self.postMessage({ snapshot: { stamp, snapshot } }, snapshot ? { transfer: [snapshot.bytes.buffer as ArrayBuffer] } : {});
		self.postMessage({ sectionsError: 'no sections: the snapshot was sent whole' });
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
	self.postMessage({ snapshot: { stamp, snapshot: { ...rest, slices: { modelId, dims, count, metas } } } }, { transfer: [metas.bytes.buffer as ArrayBuffer] });
	try {
		const sections = sliceSections(bytes, head);
		self.postMessage({ sections }, { transfer: sectionBuffers(sections) });
	} catch (err) {
		self.postMessage({ sectionsError: message(err) });
	}
}

self.onmessage = async (e: MessageEvent<StartupRequest>) => {
	const { name, of, model } = e.data;
	try {
		const { stamp, snapshot } = await readStampedSnapshot(indexedDB, name, of, opfsSnapshotFiles(name));
		postSnapshot(stamp, snapshot);
	} catch (err) {
		self.postMessage({ snapshotError: message(err) });
		self.postMessage({ sectionsError: message(err) });
	}
	try {
		const parts = await loadStaticParts(model);
		self.postMessage({ model: parts ?? null }, parts ? { transfer: staticPartsBuffers(parts) } : {});
	} catch (err) {
		self.postMessage({ modelError: message(err) });
	}
};

/**
 * The engine worker's start-up helper: reads what a page load waits for on a thread of its own,
 * while the engine worker loads its code and then restores its index, and hands each over as a
 * transfer. One request: { name, of, model }.
 *
 * 1. The index snapshot (see src/store/snapshot-reader.ts for why it is read here), posted as
 *    { snapshot } or { snapshotError } as soon as it is read: the restore waits for it.
 * 2. Then the embedded model's parts (src/engine/embedder.ts `loadStaticParts`: fetching,
 *    checking the digests of and parsing 18 MB of files), posted as { model } (null when the model
 *    is not a local static one) or { modelError }.
 */
import { loadStaticParts, staticPartsBuffers } from '../src/engine/embedder';
import { opfsSnapshotFiles } from '../src/store/snapshot-files';
import { readStampedSnapshot, type SnapshotOf } from '../src/store/snapshot-reader';

/** What the engine worker asks for. */
export interface StartupRequest {
	name: string;
	of: SnapshotOf;
	model: { modelId: string; localModelPath: string };
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

self.onmessage = async (e: MessageEvent<StartupRequest>) => {
	const { name, of, model } = e.data;
	try {
		const snapshot = await readStampedSnapshot(indexedDB, name, of, opfsSnapshotFiles(name));
		const bytes = snapshot.snapshot?.bytes;
		self.postMessage({ snapshot }, bytes ? { transfer: [bytes.buffer] } : {});
	} catch (err) {
		self.postMessage({ snapshotError: message(err) });
	}
	try {
		const parts = await loadStaticParts(model);
		self.postMessage({ model: parts ?? null }, parts ? { transfer: staticPartsBuffers(parts) } : {});
	} catch (err) {
		self.postMessage({ modelError: message(err) });
	}
};

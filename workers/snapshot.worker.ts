/**
 * Reads the index snapshot for the engine worker (see src/store/snapshot-reader.ts for why) and
 * hands the bytes over as a transfer. One request per message: { name, model }.
 */
import { opfsSnapshotFiles } from '../src/store/snapshot-files';
import { readStampedSnapshot } from '../src/store/snapshot-reader';

self.onmessage = async (e: MessageEvent<{ name: string; model: string }>) => {
	try {
		const read = await readStampedSnapshot(indexedDB, e.data.name, e.data.model, opfsSnapshotFiles(e.data.name));
		const bytes = read.snapshot?.bytes;
		self.postMessage({ ok: read }, bytes ? { transfer: [bytes.buffer] } : {});
	} catch (err) {
		self.postMessage({ error: err instanceof Error ? err.message : String(err) });
	}
};

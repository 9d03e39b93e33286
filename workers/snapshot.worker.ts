/**
 * Reads the index snapshot for the engine worker (see src/store/snapshot-reader.ts for why) and
 * hands the bytes over as a transfer. One request per message: { name, of } (a model, or
 * { active: fallback } for the active model's).
 */
import { opfsSnapshotFiles } from '../src/store/snapshot-files';
import { readStampedSnapshot, type SnapshotOf } from '../src/store/snapshot-reader';

self.onmessage = async (e: MessageEvent<{ name: string; of: SnapshotOf }>) => {
	try {
		const read = await readStampedSnapshot(indexedDB, e.data.name, e.data.of, opfsSnapshotFiles(e.data.name));
		const bytes = read.snapshot?.bytes;
		self.postMessage({ ok: read }, bytes ? { transfer: [bytes.buffer] } : {});
	} catch (err) {
		self.postMessage({ error: err instanceof Error ? err.message : String(err) });
	}
};

import { describe, expect, it } from 'vitest';
import { createEmbedder, loadStaticParts, staticEmbedder, staticPartsBuffers, type PartsCache, type StaticModelParts } from '../../../src/engine/embedder';
import { nodeModelPath } from '../../../src/engine/node-model-path';
import { decodePartsFile, encodePartsFile } from '../../../src/engine/parts-file';

const texts = ['Maya moved the launch to Friday.', "Don't ship on a Friday!", 'Ünïcödé — naïve café', '', 'zzqxv qqqyx'];

/** A cache in memory, as the OPFS directory behaves: `read` rejects when the file is missing. */
class MemoryCache implements PartsCache {
	files = new Map<string, Uint8Array>();
	writes = 0;
	async read(name: string): Promise<Uint8Array> {
		const f = this.files.get(name);
		if (!f) throw new Error(`${name} not found`);
		return f.slice();
	}
	async write(name: string, bytes: Uint8Array): Promise<void> {
		this.writes++;
		this.files.set(name, bytes.slice());
	}
}

const vectors = async (parts: StaticModelParts) => (await staticEmbedder(parts).embed(texts)).map((v) => v && Array.from(v));
const settled = () => new Promise((r) => setTimeout(r, 0));

describe('parts file', () => {
	it('gives back parts that embed exactly as the ones it was made from, in one transferable buffer', async () => {
		const parts = (await loadStaticParts({ localModelPath: nodeModelPath() }))!;
		const file = encodePartsFile('k1', parts);
		const decoded = decodePartsFile(file, 'k1')!;
		expect(decoded).toBeDefined();
		expect([decoded.modelId, decoded.dims, decoded.unk, decoded.maxTokens]).toEqual([parts.modelId, parts.dims, parts.unk, parts.maxTokens]);
		expect(staticPartsBuffers(decoded)).toEqual([file.buffer]);
		expect(await vectors(decoded)).toEqual(await vectors(parts));
	});

	it('reads as nothing when made from other files, cut short, of another layout or not its own buffer', async () => {
		const parts = (await loadStaticParts({ localModelPath: nodeModelPath() }))!;
		const file = encodePartsFile('k1', parts);
		expect(decodePartsFile(file, 'k2')).toBeUndefined();
		expect(decodePartsFile(file.slice(0, file.length - 8), 'k1')).toBeUndefined();
		expect(decodePartsFile(file.slice(0, 40), 'k1')).toBeUndefined();
		const other = file.slice();
		other[4] = 99; // version
		expect(decodePartsFile(other, 'k1')).toBeUndefined();
		const inside = new Uint8Array(file.length + 8);
		inside.set(file, 8);
		expect(decodePartsFile(inside.subarray(8), 'k1')).toBeUndefined();
		expect(decodePartsFile(new Uint8Array(0), 'k1')).toBeUndefined();
	});

	it('lets the next load read the parts instead of the model files, and only files made from the same ones', async () => {
		const cache = new MemoryCache();
		const first = (await loadStaticParts({ localModelPath: nodeModelPath(), cache }))!;
		await settled();
		expect(cache.writes).toBe(1);
		const [name] = cache.files.keys();
		// Mark the stored table: a load that returns the mark read the file, not the model.
		const stored = cache.files.get(name)!;
		const length = new DataView(stored.buffer).getUint32(8, true);
		const { key } = JSON.parse(new TextDecoder().decode(stored.subarray(12, 12 + length))) as { key: string };
		const parsed = decodePartsFile(stored, key);
		expect(parsed).toBeDefined();
		parsed!.table[0] = parsed!.table[0] === 7 ? 8 : 7;
		const second = (await loadStaticParts({ localModelPath: nodeModelPath(), cache }))!;
		expect(second.table[0]).toBe(parsed!.table[0]);
		expect(cache.writes).toBe(1);
		// A file another build of the model made is passed over, and replaced.
		cache.files.set(name, encodePartsFile('some other build', first));
		const third = (await loadStaticParts({ localModelPath: nodeModelPath(), cache }))!;
		await settled();
		expect(cache.writes).toBe(2);
		expect(await vectors(third)).toEqual(await vectors(first));
		expect(await vectors(first)).toEqual((await (await createEmbedder({ localModelPath: nodeModelPath() })).embed(texts)).map((v) => v && Array.from(v)));
	});
});

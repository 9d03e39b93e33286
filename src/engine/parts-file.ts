/**
 * A static model's parts (embedder/types.ts `StaticModelParts`) as one file, so a page load can read
 * them in one go instead of fetching, hashing and parsing 18 MB of model files: in Chromium the
 * 15 MB ONNX file alone took 300–460 ms to come from the HTTP cache at start-up, and was what the
 * engine waited for last (docs/BENCHMARKS.md). The file is a cache: it names the model files'
 * digests it was made from (`key`), and a file made from other files, of another layout, cut
 * short or unreadable decodes to undefined, never to parts.
 *
 * Layout (little-endian): magic "ENGM" · u32 version · u32 header length · header JSON (UTF-8)
 * · each array of `header.arrays` in order, each starting 8-byte aligned.
 */
import type { StaticModelParts } from './embedder/types';
import type { PackedVocab } from './packed-vocab';
import type { WordLevelSpec } from './word-tokenizer';

const MAGIC = 0x4d474e45; // "ENGM" read as a little-endian u32
const VERSION = 1;

type ArrayName = 'table' | 'scales' | 'chars' | 'starts' | 'ids' | 'slots';
const KINDS = { table: Int8Array, scales: Float32Array, chars: Uint16Array, starts: Uint32Array, ids: Int32Array, slots: Int32Array };

interface Header {
	key: string;
	modelId: string;
	dims: number;
	unk: number;
	/** null for no limit (JSON has no Infinity). */
	maxTokens: number | null;
	tokenizer: Omit<WordLevelSpec, 'vocab'>;
	/** Each array's element count, in file order. */
	arrays: [ArrayName, number][];
}

const pad8 = (n: number) => (n + 7) & ~7;

function arraysOf(p: StaticModelParts): [ArrayName, ArrayBufferView][] {
	const v = p.tokenizer.vocab;
	return [
		['table', p.table],
		['scales', p.scales],
		['chars', v.chars],
		['starts', v.starts],
		['ids', v.ids],
		['slots', v.slots],
	];
}

/** The file of `parts`, made from model files whose digests `key` names. Copies every array. */
export function encodePartsFile(key: string, parts: StaticModelParts): Uint8Array {
	const { vocab: _vocab, ...tokenizer } = parts.tokenizer;
	const arrays = arraysOf(parts);
	const header: Header = {
		key,
		modelId: parts.modelId,
		dims: parts.dims,
		unk: parts.unk,
		maxTokens: Number.isFinite(parts.maxTokens) ? parts.maxTokens : null,
		tokenizer,
		arrays: arrays.map(([name, a]) => [name, (a as Int8Array).length]),
	};
	const json = new TextEncoder().encode(JSON.stringify(header));
	let at = pad8(12 + json.byteLength);
	const starts = arrays.map(([, a]) => {
		const start = at;
		at = pad8(at + a.byteLength);
		return start;
	});
	const out = new Uint8Array(at);
	const head = new DataView(out.buffer);
	head.setUint32(0, MAGIC, true);
	head.setUint32(4, VERSION, true);
	head.setUint32(8, json.byteLength, true);
	out.set(json, 12);
	arrays.forEach(([, a], i) => out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), starts[i]));
	return out;
}

/**
 * The parts in `bytes` (a buffer of its own, which they then view in place), or undefined when
 * the file is not one `encodePartsFile` made with `key`, or does not read.
 */
export function decodePartsFile(bytes: Uint8Array, key: string): StaticModelParts | undefined {
	try {
		if (bytes.byteOffset !== 0 || bytes.byteLength < 12) return undefined;
		const view = new DataView(bytes.buffer, 0, bytes.byteLength);
		if (view.getUint32(0, true) !== MAGIC || view.getUint32(4, true) !== VERSION) return undefined;
		const length = view.getUint32(8, true);
		if (12 + length > bytes.byteLength) return undefined;
		const header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + length))) as Header;
		if (header.key !== key || !Array.isArray(header.arrays)) return undefined;
		let at = pad8(12 + length);
		const got = new Map<ArrayName, ArrayBufferView>();
		for (const [name, count] of header.arrays) {
			const Kind = KINDS[name];
			if (!Kind || !Number.isInteger(count) || count < 0 || at + count * Kind.BYTES_PER_ELEMENT > bytes.byteLength) return undefined;
			got.set(name, new Kind(bytes.buffer as ArrayBuffer, at, count));
			at = pad8(at + count * Kind.BYTES_PER_ELEMENT);
		}
		if (at !== pad8(bytes.byteLength)) return undefined;
		const vocab = { chars: got.get('chars'), starts: got.get('starts'), ids: got.get('ids'), slots: got.get('slots') } as PackedVocab;
		const table = got.get('table') as Int8Array | undefined;
		const scales = got.get('scales') as Float32Array | undefined;
		if (!table || !scales || Object.values(vocab).some((a) => a === undefined)) return undefined;
		if (table.length !== scales.length * header.dims || vocab.starts.length !== vocab.ids.length + 1) return undefined;
		return {
			modelId: header.modelId,
			dims: header.dims,
			unk: header.unk,
			maxTokens: header.maxTokens ?? Infinity,
			table,
			scales,
			tokenizer: { ...header.tokenizer, vocab },
		};
	} catch {
		return undefined;
	}
}

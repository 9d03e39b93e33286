/**
 * The index snapshot: one Uint8Array persisted by the engine so a page load restores the index
 * instead of rebuilding it. Layout (little-endian):
 *
 *   magic "ENGX" · u32 version · u32 header length · header JSON (UTF-8) · pad to 4
 *   · int8 codes (count × dims) · pad to 4 · float32 scales (count)
 *   · [float32 IVF centroids (nlist × dims) · int32 list of each slot (count)]
 *   · lexical varints (see lexical-codec.ts) · pad to 4
 *   · int32 edge sources (slots) · int32 edge targets (slots) · float64 strengths · uint8 types · pad to 8
 *   · memory metadata as columns (see meta-codec.ts)
 *
 * The header holds the model, the lexical index's shape and the edge types; vectors, edges and
 * metadata stay binary, so restoring 100k memories and their million links is mostly copies,
 * not parsing (as JSON, the edges were ~80% of a 100k header, and later the metadata was half
 * the snapshot and most of its decoding time). Edges whose ends are not both in the index
 * (rare) stay in the header as JSON.
 */
import { MemoryError } from '../../core/errors';
import type { AssociationType } from '../../core/schemas';
import type { PackedLexical } from './lexical-codec';
import { decodeMetas, encodeMetas, type DecodedMetas } from './meta-codec';
import type { DocMeta, Edge } from './types';

const MAGIC = 0x58474e45; // "ENGX" read as a little-endian u32
/**
 * Bump when the layout or header shape changes, and when core/text.ts or date-words.ts change
 * what terms are indexed (a restored index must analyse text as queries will); older snapshots
 * are then refused and the engine rebuilds from IndexedDB.
 */
export const SNAPSHOT_VERSION = 14;

/** Everything a snapshot carries. */
export interface SnapshotData {
	modelId: string;
	dims: number;
	metas: DocMeta[];
	edges: PackedEdges;
	lexical: PackedLexical;
	vectors: { codes: Int8Array; scales: Float32Array };
	/** Decoded snapshots only: the metadata's entity column as stored (see meta-codec.ts). */
	mentions?: DecodedMetas['mentions'];
	/** Decoded snapshots only: each memory's seq, by slot. */
	seqs?: Float64Array;
	/** The trained coarse quantiser, when there is one. */
	ivf?: { centroids: Float32Array; trainedAt: number; lists: Int32Array };
}

/** The association edges, by slot: edge i goes from slot `from[i]` to slot `to[i]`. */
export interface PackedEdges {
	from: Int32Array;
	to: Int32Array;
	strength: Float64Array;
	/** Index into `types` of each edge's type. */
	type: Uint8Array;
	types: AssociationType[];
	/** Edges with an end outside the index, kept by id. */
	loose: Edge[];
}

/** Bytes of a typed array, as a Uint8Array view. */
const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

const pad4 = (n: number) => (n + 3) & ~3;
const pad8 = (n: number) => (n + 7) & ~7;

/** Serialises an index's parts into one buffer. */
export function encodeSnapshot(s: SnapshotData): Uint8Array {
	const ivf = s.ivf ? { nlist: s.ivf.centroids.length / s.dims, trainedAt: s.ivf.trainedAt } : null;
	const { bytes: lexBytes, ...lexical } = s.lexical;
	const e = s.edges;
	const edges = { count: e.from.length, types: e.types, loose: e.loose };
	const metas = encodeMetas(s.metas);
	const header = new TextEncoder().encode(
		JSON.stringify({
			modelId: s.modelId,
			dims: s.dims,
			count: s.metas.length,
			metas: { bytes: metas.bytes.length, odd: metas.odd },
			edges,
			lexical: { ...lexical, bytes: lexBytes.length },
			ivf,
		}),
	);
	const codesAt = pad4(12 + header.length);
	const scalesAt = pad4(codesAt + s.vectors.codes.length);
	const ivfAt = scalesAt + s.vectors.scales.length * 4;
	const ivfBytes = s.ivf ? s.ivf.centroids.byteLength + s.ivf.lists.byteLength : 0;
	const lexAt = ivfAt + ivfBytes;
	const edgesAt = pad4(lexAt + lexBytes.length);
	const metasAt = pad8(edgesAt + edges.count * 17);
	const out = new Uint8Array(metasAt + metas.bytes.length);
	out.set(metas.bytes, metasAt);
	out.set(lexBytes, lexAt);
	out.set(bytesOf(e.from), edgesAt);
	out.set(bytesOf(e.to), edgesAt + edges.count * 4);
	out.set(bytesOf(e.strength), edgesAt + edges.count * 8);
	out.set(e.type, edgesAt + edges.count * 16);
	const dv = new DataView(out.buffer);
	dv.setUint32(0, MAGIC, true);
	dv.setUint32(4, SNAPSHOT_VERSION, true);
	dv.setUint32(8, header.length, true);
	out.set(header, 12);
	out.set(new Uint8Array(s.vectors.codes.buffer, s.vectors.codes.byteOffset, s.vectors.codes.length), codesAt);
	out.set(new Uint8Array(s.vectors.scales.buffer, s.vectors.scales.byteOffset, s.vectors.scales.length * 4), scalesAt);
	if (s.ivf) {
		out.set(bytesOf(s.ivf.centroids), ivfAt);
		out.set(bytesOf(s.ivf.lists), ivfAt + s.ivf.centroids.byteLength);
	}
	return out;
}

/** `n` float32s at `at`: a view when aligned, else a copy. */
function floats(bytes: Uint8Array, at: number, n: number): Float32Array {
	const offset = bytes.byteOffset + at;
	return offset % 4 === 0 ? new Float32Array(bytes.buffer, offset, n) : new Float32Array(bytes.slice(at, at + n * 4).buffer);
}

/** Parses `encodeSnapshot` output; a MemoryError('invalid_input') for anything else. */
export function decodeSnapshot(bytes: Uint8Array): SnapshotData {
	const bad = (why: string) => new MemoryError('invalid_input', `snapshot: ${why}`);
	if (!(bytes instanceof Uint8Array) || bytes.length < 12) throw bad('too short to be an index snapshot');
	const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	if (dv.getUint32(0, true) !== MAGIC) throw bad('not an index snapshot (bad magic)');
	const version = dv.getUint32(4, true);
	if (version !== SNAPSHOT_VERSION) throw bad(`version ${version} is not supported (expected ${SNAPSHOT_VERSION})`);
	const hlen = dv.getUint32(8, true);
	if (12 + hlen > bytes.length) throw bad('header runs past the end');
	const h = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + hlen))) as Omit<SnapshotData, 'vectors' | 'ivf' | 'lexical' | 'edges' | 'metas'> & {
		count: number;
		metas: { bytes: number; odd: [number, string][] };
		ivf: { nlist: number; trainedAt: number } | null;
		lexical: Omit<PackedLexical, 'bytes'> & { bytes: number };
		edges: { count: number; types: AssociationType[]; loose: Edge[] };
	};
	const n = h.count;
	const codesAt = pad4(12 + hlen);
	const scalesAt = pad4(codesAt + n * h.dims);
	if (scalesAt + n * 4 > bytes.length) throw bad(`vector section is truncated (${n} vectors of ${h.dims} dims)`);
	// Views where the reader copies anyway (the vector store, the metadata decoder); copies of
	// what the index keeps, so it holds only those bytes and not the whole snapshot.
	const codes = new Int8Array(bytes.buffer, bytes.byteOffset + codesAt, n * h.dims);
	const scales = floats(bytes, scalesAt, n);
	const { ivf: ivfHead, lexical: lexHead, edges: edgeHead, metas: metaHead, count: _count, ...rest } = h;
	let at = scalesAt + n * 4;
	let ivf: SnapshotData['ivf'];
	if (ivfHead) {
		const listsAt = at + ivfHead.nlist * h.dims * 4;
		if (listsAt + n * 4 > bytes.length) throw bad('IVF section is truncated');
		ivf = {
			centroids: new Float32Array(bytes.slice(at, listsAt).buffer),
			trainedAt: ivfHead.trainedAt,
			lists: new Int32Array(bytes.slice(listsAt, listsAt + n * 4).buffer),
		};
		at = listsAt + n * 4;
	}
	if (at + lexHead.bytes > bytes.length) throw bad('lexical section is truncated');
	const lexical = { ...lexHead, bytes: bytes.slice(at, at + lexHead.bytes) };
	at = pad4(at + lexHead.bytes);
	const m = edgeHead.count;
	if (at + m * 17 > bytes.length) throw bad('edge section is truncated');
	const edges: PackedEdges = {
		from: new Int32Array(bytes.slice(at, at + m * 4).buffer),
		to: new Int32Array(bytes.slice(at + m * 4, at + m * 8).buffer),
		strength: new Float64Array(bytes.slice(at + m * 8, at + m * 16).buffer),
		type: bytes.slice(at + m * 16, at + m * 17),
		types: edgeHead.types,
		loose: edgeHead.loose,
	};
	at = pad8(at + m * 17);
	if (at + metaHead.bytes > bytes.length) throw bad('metadata section is truncated');
	let decoded: DecodedMetas;
	try {
		decoded = decodeMetas(bytes.subarray(at, at + metaHead.bytes), metaHead.odd);
	} catch (e) {
		throw bad((e as Error).message);
	}
	const { metas, mentions, seqs } = decoded;
	if (metas.length !== n) throw bad(`metadata holds ${metas.length} memories, the header ${n}`);
	return { ...rest, metas, mentions, seqs, vectors: { codes, scales }, ivf, lexical, edges };
}

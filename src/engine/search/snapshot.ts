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
import { decodeMetas, encodeMetas, type DecodedMetas, type PackedMetas } from './meta-codec';
import type { DocMeta, Edge } from './types';
import { sumVectors, vectorArraysFor, type VectorArrays } from './vector-store';

const MAGIC = 0x58474e45; // "ENGX" read as a little-endian u32
/**
 * Bump when the layout or header shape changes, and when core/text.ts or date-words.ts change
 * what terms are indexed (a restored index must analyse text as queries will); older snapshots
 * are then refused and the engine rebuilds from IndexedDB.
 */
export const SNAPSHOT_VERSION = 16;

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

/** A decoded snapshot: its vectors as a vector store adopts them. */
export type DecodedSnapshot = SnapshotData & { vectors: VectorArrays };

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

/** Serialises an index's parts into one buffer; `packedMetas`: `s.metas` already encoded (encodeMetasInSteps). */
export function encodeSnapshot(s: SnapshotData, packedMetas?: PackedMetas): Uint8Array {
	const ivf = s.ivf ? { nlist: s.ivf.centroids.length / s.dims, trainedAt: s.ivf.trainedAt } : null;
	const { bytes: lexBytes, ...lexical } = s.lexical;
	const e = s.edges;
	const edges = { count: e.from.length, types: e.types, loose: e.loose };
	const metas = packedMetas ?? encodeMetas(s.metas);
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
	// A decoded snapshot's arrays have room to grow: only the first count × dims are vectors.
	const n = s.metas.length;
	const codes = s.vectors.codes.subarray(0, n * s.dims);
	const scales = s.vectors.scales.subarray(0, n);
	const codesAt = pad4(12 + header.length);
	const scalesAt = pad4(codesAt + codes.length);
	const ivfAt = scalesAt + scales.length * 4;
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
	out.set(bytesOf(codes), codesAt);
	out.set(bytesOf(scales), scalesAt);
	if (s.ivf) {
		out.set(bytesOf(s.ivf.centroids), ivfAt);
		out.set(bytesOf(s.ivf.lists), ivfAt + s.ivf.centroids.byteLength);
	}
	return out;
}

/**
 * A snapshot cut into its sections, each a typed array with a buffer of its own, and the header
 * parsed. The metadata's decoding makes strings and so must happen in the thread that keeps the
 * index; the rest (`sections`) is copies and sums that any thread can make. The engine worker's
 * helper thread reads the snapshot, posts the metadata section first and then, while the engine
 * decodes it, cuts and posts the rest: then `sections` is a promise. The vectors come with room
 * to grow and their running sum made, so the vector store adopts them as they are.
 */
export interface SnapshotSlices {
	modelId: string;
	dims: number;
	count: number;
	metas: { bytes: Uint8Array; odd: [number, string][] };
	sections: SnapshotSections | Promise<SnapshotSections>;
}

/** A snapshot's vectors, quantiser, lexical index and edges. */
export interface SnapshotSections {
	vectors: VectorArrays;
	ivf?: { centroids: Float32Array; trainedAt: number; lists: Int32Array };
	lexical: PackedLexical;
	edges: PackedEdges;
}

/** The buffers to list as transfers when posting `s` to another thread. */
export function sectionBuffers(s: SnapshotSections): ArrayBuffer[] {
	const views: ArrayBufferView[] = [
		s.vectors.codes,
		s.vectors.scales,
		s.vectors.sum,
		s.lexical.bytes,
		s.edges.from,
		s.edges.to,
		s.edges.strength,
		s.edges.type,
	];
	if (s.ivf) views.push(s.ivf.centroids, s.ivf.lists);
	return [...new Set(views.map((v) => v.buffer as ArrayBuffer))];
}

/** Parses `encodeSnapshot` output; a MemoryError('invalid_input') for anything else. */
export function decodeSnapshot(bytes: Uint8Array): DecodedSnapshot {
	const head = snapshotHead(bytes);
	const metas = decodeMetaSection(head, sliceMetas(bytes, head));
	return { modelId: head.modelId, dims: head.dims, ...metas, ...sliceSections(bytes, head) };
}

/**
 * Decodes the metadata section of a snapshot with `head.count` memories; a
 * MemoryError('invalid_input') when it does not read. The decoded memories read `section.bytes`
 * in place, so it must be a buffer of its own (as readMetas makes), never written again.
 */
export function decodeMetaSection(head: Pick<SnapshotSlices, 'count'>, section: SnapshotSlices['metas']): DecodedMetas {
	let decoded: DecodedMetas;
	try {
		decoded = decodeMetas(section.bytes, section.odd, true);
	} catch (e) {
		throw bad((e as Error).message);
	}
	if (decoded.metas.length !== head.count) throw bad(`metadata holds ${decoded.metas.length} memories, the header ${head.count}`);
	return decoded;
}

const bad = (why: string) => new MemoryError('invalid_input', `snapshot: ${why}`);

/** A snapshot's header, checked, with where each section starts. */
export interface SnapshotHead {
	modelId: string;
	dims: number;
	count: number;
	header: {
		metas: { bytes: number; odd: [number, string][] };
		ivf: { nlist: number; trainedAt: number } | null;
		lexical: Omit<PackedLexical, 'bytes'> & { bytes: number };
		edges: { count: number; types: AssociationType[]; loose: Edge[] };
	};
	at: { codes: number; scales: number; ivf: number; lexical: number; edges: number; metas: number };
}

/**
 * Reads `into.length` bytes of a snapshot from offset `at`: a file's sync access handle, or a
 * copy out of bytes in memory (`readFrom`). Sections are read straight into their own arrays.
 */
export type ReadAt = (into: Uint8Array, at: number) => void;

/** A ReadAt over bytes in memory. */
export const readFrom =
	(bytes: Uint8Array): ReadAt =>
	(into, at) => {
		if (at + into.length > bytes.length) throw bad('a section runs past the end');
		into.set(bytes.subarray(at, at + into.length));
	};

/** Checks `encodeSnapshot` output and finds its sections; a MemoryError('invalid_input') for anything else. */
export function snapshotHead(bytes: Uint8Array): SnapshotHead {
	if (!(bytes instanceof Uint8Array)) throw bad('too short to be an index snapshot');
	return readHead(bytes.length, readFrom(bytes));
}

/** The head of a snapshot of `size` bytes read through `read`; a MemoryError('invalid_input') when it is not one. */
export function readHead(size: number, read: ReadAt): SnapshotHead {
	if (size < 12) throw bad('too short to be an index snapshot');
	const start = new Uint8Array(12);
	read(start, 0);
	const dv = new DataView(start.buffer);
	if (dv.getUint32(0, true) !== MAGIC) throw bad('not an index snapshot (bad magic)');
	const version = dv.getUint32(4, true);
	if (version !== SNAPSHOT_VERSION) throw bad(`version ${version} is not supported (expected ${SNAPSHOT_VERSION})`);
	const hlen = dv.getUint32(8, true);
	if (12 + hlen > size) throw bad('header runs past the end');
	const json = new Uint8Array(hlen);
	read(json, 12);
	const {
		modelId,
		dims,
		count: n,
		...header
	} = JSON.parse(new TextDecoder().decode(json)) as SnapshotHead['header'] & Pick<SnapshotHead, 'modelId' | 'dims' | 'count'>;
	const codes = pad4(12 + hlen);
	const scales = pad4(codes + n * dims);
	if (scales + n * 4 > size) throw bad(`vector section is truncated (${n} vectors of ${dims} dims)`);
	const ivf = scales + n * 4;
	const lexical = header.ivf ? ivf + header.ivf.nlist * dims * 4 + n * 4 : ivf;
	if (lexical > size) throw bad('IVF section is truncated');
	if (lexical + header.lexical.bytes > size) throw bad('lexical section is truncated');
	const edges = pad4(lexical + header.lexical.bytes);
	if (edges + header.edges.count * 17 > size) throw bad('edge section is truncated');
	const metas = pad8(edges + header.edges.count * 17);
	if (metas + header.metas.bytes > size) throw bad('metadata section is truncated');
	return { modelId, dims, count: n, header, at: { codes, scales, ivf, lexical, edges, metas } };
}

/** The metadata section (a copy). */
export const sliceMetas = (bytes: Uint8Array, head: SnapshotHead): SnapshotSlices['metas'] => readMetas(head, readFrom(bytes));

/** The other sections (copies), the vectors with room to grow and their sum. */
export const sliceSections = (bytes: Uint8Array, head: SnapshotHead): SnapshotSections => readSections(head, readFrom(bytes));

/** The metadata section, read into a buffer of its own. */
export function readMetas(head: SnapshotHead, read: ReadAt): SnapshotSlices['metas'] {
	const bytes = new Uint8Array(head.header.metas.bytes);
	read(bytes, head.at.metas);
	return { bytes, odd: head.header.metas.odd };
}

/** The other sections, each read into an array of its own; the vectors with room to grow and their sum. */
export function readSections(head: SnapshotHead, read: ReadAt): SnapshotSections {
	const { dims, count: n, header: h, at } = head;
	const into = <T extends ArrayBufferView>(a: T, from: number): T => {
		read(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), from);
		return a;
	};
	const vectors = vectorArraysFor(dims, n);
	into(vectors.codes.subarray(0, n * dims), at.codes);
	into(vectors.scales.subarray(0, n), at.scales);
	sumVectors(vectors, n);
	const ivf = h.ivf
		? { centroids: into(new Float32Array(h.ivf.nlist * dims), at.ivf), trainedAt: h.ivf.trainedAt, lists: into(new Int32Array(n), at.lexical - n * 4) }
		: undefined;
	const lexical = { ...h.lexical, bytes: into(new Uint8Array(h.lexical.bytes), at.lexical) };
	const m = h.edges.count;
	const e = at.edges;
	const edges: PackedEdges = {
		from: into(new Int32Array(m), e),
		to: into(new Int32Array(m), e + m * 4),
		strength: into(new Float64Array(m), e + m * 8),
		type: into(new Uint8Array(m), e + m * 16),
		types: h.edges.types,
		loose: h.edges.loose,
	};
	return { vectors, ivf, lexical, edges };
}

/**
 * A compact binary form of a minisearch index for snapshots. minisearch's own toJSON/loadJSON
 * turns every posting into an object key and back (measured: ~3 s each way at 30k memories, a
 * 20 MB string), which would blow the 1.5 s cold-start budget at 100k. Here everything numeric
 * is one byte string of varints (short ids as deltas, so a posting is usually 2–3 bytes, not the
 * 8 of two int32s: postings were 40% of a 100k snapshot), terms are one NUL-joined string, and
 * document ids are the index's slot numbers when the caller gives them (the snapshot already
 * holds every id once). A term's postings stay packed until something reads them
 * (`PackedTermData`): a query touches a handful of terms, and making the maps of all of them
 * (millions of entries at 100k memories) was most of restoring the index.
 *
 * It reads and writes minisearch v7's internal fields (`_index`, `_documentIds`, …, declared in
 * minisearch-internals.ts), the same ones its loadJS fills; `FORMAT` guards the layout, and
 * index.test.ts checks that a restored index answers exactly like the original, so a minisearch
 * upgrade that moves them fails loudly.
 */
import type MiniSearch from 'minisearch';
import { internalsOf, type TermTree } from './minisearch-internals';
import { OverlayMap } from './overlay-map';
import { drain, type Steps } from './steps';
import { PackedTermIndex, strictlySorted, type TermData } from './term-index';
import type { SlotNames } from './types';

/** Layout version of the packed form. */
const FORMAT = 2;
const SEP = '\u0000';

/** The packed index: small scalars, the terms and one byte string. */
export interface PackedLexical {
	format: number;
	documentCount: number;
	nextId: number;
	dirtCount: number;
	fieldIds: Record<string, number>;
	avgFieldLength: number[];
	/** Documents in the document section. */
	docs: number;
	/** Document ids, NUL-joined, in the document section's order; empty when documents are given by slot. */
	ids: string;
	/** Whether the document section names each document by the caller's slot number instead of `ids`. */
	bySlot: boolean;
	/** Terms in the order of the posting section, NUL-joined. */
	terms: string;
	/**
	 * Varints. Per document: short id (zigzag delta from the previous), slot (when `bySlot`),
	 * each field's length + 1 (0: none). Then per term: its byte length, field count, and per
	 * field: field id, posting count, then (short id as zigzag delta, term frequency) pairs.
	 */
	bytes: Uint8Array;
}

/** A growable varint writer. */
class VarintWriter {
	buf = new Uint8Array(1 << 16);
	n = 0;
	#room(k: number): void {
		if (this.n + k <= this.buf.length) return;
		const bigger = new Uint8Array(Math.max(this.buf.length * 2, this.n + k));
		bigger.set(this.buf.subarray(0, this.n));
		this.buf = bigger;
	}
	/** A non-negative integer below 2^32, 7 bits per byte. */
	uint(x: number): void {
		this.#room(5);
		while (x >= 0x80) {
			this.buf[this.n++] = (x & 0x7f) | 0x80;
			x >>>= 7;
		}
		this.buf[this.n++] = x;
	}
	/** A 32-bit signed integer, zigzag-encoded. */
	int(x: number): void {
		this.uint(((x << 1) ^ (x >> 31)) >>> 0);
	}
	bytes(b: Uint8Array): void {
		this.#room(b.length);
		this.buf.set(b, this.n);
		this.n += b.length;
	}
}

/** Reads varints from `bytes` starting at `at`. */
class VarintReader {
	constructor(
		readonly bytes: Uint8Array,
		public at: number,
	) {}
	uint(): number {
		let x = 0;
		let shift = 0;
		for (;;) {
			const b = this.bytes[this.at++];
			x += (b & 0x7f) * 2 ** shift;
			if (b < 0x80) return x;
			shift += 7;
		}
	}
	int(): number {
		const z = this.uint();
		return z % 2 === 1 ? -(z + 1) / 2 : z / 2;
	}
}

/** One field's postings as read from the packed bytes, in minisearch's Map order: short ids and their term frequencies. */
export interface FieldPostings {
	shortIds: Int32Array;
	tfs: Int32Array;
}

/**
 * The postings of field `fieldId` of a term's data as far as counting reads them (their number
 * and short ids), without making a restored term's maps; undefined when there are none.
 */
export function postingsOf(data: TermData | undefined, fieldId: number): { size: number; keys(): Iterable<number> } | undefined {
	if (data === undefined) return undefined;
	const packed = data instanceof PackedTermData ? data.fieldPostings(fieldId) : null;
	if (packed === null) return data.get(fieldId);
	return packed && { size: packed.shortIds.length, keys: () => packed.shortIds };
}

/**
 * One term's entry in minisearch's index (field id → short id → term frequency), made from the
 * packed bytes the first time any Map method is called on it; until then it only points into them.
 */
export class PackedTermData extends Map<number, Map<number, number>> {
	#bytes: Uint8Array | undefined;
	/** The fields' postings decoded by `fieldPostings` (while not made). */
	#fields: Map<number, FieldPostings> | undefined;
	readonly #from: number;
	readonly #to: number;

	/** `bytes[from..to)`: the field count, then each field's id, posting count and postings. */
	constructor(bytes: Uint8Array, from: number, to: number) {
		super();
		this.#bytes = bytes;
		this.#from = from;
		this.#to = to;
	}

	/** The packed range while not yet made (packLexical copies it as is). */
	packed(): Uint8Array | undefined {
		return this.#bytes?.subarray(this.#from, this.#to);
	}

	/**
	 * Field `fieldId`'s postings as two typed arrays, decoded once, while the maps are not made:
	 * `null` once they are (read the maps then), undefined when the term has no such field. A
	 * search only reads postings; making a Map of each term it touches (tens of thousands of
	 * entries for a common word at 100k memories) cost more than the search itself.
	 */
	fieldPostings(fieldId: number): FieldPostings | null | undefined {
		const bytes = this.#bytes;
		if (!bytes) return null;
		if (!this.#fields) {
			this.#fields = new Map();
			const r = new VarintReader(bytes, this.#from);
			for (let nf = r.uint(); nf > 0; nf--) {
				const id = r.uint();
				const n = r.uint();
				const shortIds = new Int32Array(n);
				const tfs = new Int32Array(n);
				let shortId = 0;
				for (let k = 0; k < n; k++) {
					shortId += r.int();
					shortIds[k] = shortId;
					tfs[k] = r.uint();
				}
				this.#fields.set(id, { shortIds, tfs });
			}
		}
		return this.#fields.get(fieldId);
	}

	#make(): void {
		const bytes = this.#bytes;
		if (!bytes) return;
		this.#bytes = undefined;
		this.#fields = undefined;
		const r = new VarintReader(bytes, this.#from);
		for (let nf = r.uint(); nf > 0; nf--) {
			const fieldId = r.uint();
			const postings = new Map<number, number>();
			let shortId = 0;
			for (let np = r.uint(); np > 0; np--) {
				shortId += r.int();
				postings.set(shortId, r.uint());
			}
			super.set(fieldId, postings);
		}
	}

	override get(key: number): Map<number, number> | undefined {
		this.#make();
		return super.get(key);
	}
	override set(key: number, value: Map<number, number>): this {
		this.#make();
		return super.set(key, value);
	}
	override has(key: number): boolean {
		this.#make();
		return super.has(key);
	}
	override delete(key: number): boolean {
		this.#make();
		return super.delete(key);
	}
	override clear(): void {
		this.#bytes = undefined;
		this.#fields = undefined;
		super.clear();
	}
	override get size(): number {
		this.#make();
		return super.size;
	}
	override forEach(fn: (value: Map<number, number>, key: number, map: Map<number, Map<number, number>>) => void, thisArg?: unknown): void {
		this.#make();
		super.forEach(fn, thisArg);
	}
	override entries(): MapIterator<[number, Map<number, number>]> {
		this.#make();
		return super.entries();
	}
	override keys(): MapIterator<number> {
		this.#make();
		return super.keys();
	}
	override values(): MapIterator<Map<number, number>> {
		this.#make();
		return super.values();
	}
	override [Symbol.iterator](): MapIterator<[number, Map<number, number>]> {
		return this.entries();
	}
}

/**
 * Packs a minisearch index. With `slotOf`, documents are named by slot number (every document's
 * id must be in it, else ids are written out after all).
 */
export function packLexical(ms: MiniSearch<unknown>, slotOf?: ReadonlyMap<string, number>): PackedLexical {
	return drain(packLexicalInSteps(ms, slotOf));
}

/** Documents or terms packed between two yields of {@link packLexicalInSteps}. */
const PACKED_PER_STEP = 256;

/**
 * {@link packLexical}, yielding after every PACKED_PER_STEP documents and terms so the caller
 * may pause (the engine serves reads between steps); the index must not change until it returns.
 */
export function* packLexicalInSteps(ms: MiniSearch<unknown>, slotOf?: ReadonlyMap<string, number>): Steps<PackedLexical> {
	const s = internalsOf(ms);
	const nFields = Object.keys(s._fieldIds).length;
	const w = new VarintWriter();
	let bySlot = slotOf !== undefined;
	// Each loop runs as a plain function over the next PACKED_PER_STEP items, called between
	// yields: V8 optimises those far better than a generator's own body.
	const check = (it: Iterator<string>) => {
		for (let k = 0; k < PACKED_PER_STEP; k++) {
			const r = it.next();
			if (r.done) return false;
			if (!slotOf!.has(r.value)) bySlot = false;
		}
		return true;
	};
	if (slotOf) for (const it = s._documentIds.values(); check(it);) yield;
	const ids: string[] = [];
	let previous = 0;
	const documents = (it: Iterator<[number, string]>) => {
		for (let k = 0; k < PACKED_PER_STEP; k++) {
			const r = it.next();
			if (r.done) return false;
			const [shortId, id] = r.value;
			w.int(shortId - previous);
			previous = shortId;
			if (bySlot) w.uint(slotOf!.get(id)!);
			else ids.push(id);
			const lengths = s._fieldLength.get(shortId) ?? [];
			for (let f = 0; f < nFields; f++) w.uint(lengths[f] === undefined ? 0 : lengths[f] + 1);
		}
		return true;
	};
	for (const it = s._documentIds.entries(); documents(it);) yield;
	// Terms in sorted order, so a restore can look them up without making minisearch's tree.
	const entries: [string, TermData][] = [];
	const collect = (it: Iterator<[string, TermData]>) => {
		for (let k = 0; k < PACKED_PER_STEP; k++) {
			const r = it.next();
			if (r.done) return false;
			entries.push(r.value);
		}
		return true;
	};
	const source: Iterable<[string, TermData]> = s._index instanceof PackedTermIndex ? s._index.all() : s._index;
	for (const it = source[Symbol.iterator](); collect(it);) yield;
	const terms = entries.map(([t]) => t);
	if (!strictlySorted(terms)) {
		entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
		for (let i = 0; i < entries.length; i++) terms[i] = entries[i][0];
	}
	yield;
	const term = new VarintWriter();
	const pack = (from: number, to: number) => {
		for (let i = from; i < to; i++) {
			const fields = entries[i][1];
			const packed = fields instanceof PackedTermData ? fields.packed() : undefined;
			if (packed) {
				w.uint(packed.length);
				w.bytes(packed);
				continue;
			}
			term.n = 0;
			term.uint(fields.size);
			for (const [fieldId, postings] of fields) {
				term.uint(fieldId);
				term.uint(postings.size);
				let last = 0;
				for (const [shortId, tf] of postings) {
					term.int(shortId - last);
					last = shortId;
					term.uint(tf);
				}
			}
			w.uint(term.n);
			w.bytes(term.buf.subarray(0, term.n));
		}
	};
	for (let i = 0; i < entries.length; i += PACKED_PER_STEP) {
		pack(i, Math.min(entries.length, i + PACKED_PER_STEP));
		yield;
	}
	return {
		format: FORMAT,
		documentCount: s._documentCount,
		nextId: s._nextId,
		dirtCount: s._dirtCount,
		fieldIds: { ...s._fieldIds },
		avgFieldLength: [...s._avgFieldLength],
		docs: s._documentIds.size,
		ids: ids.join(SEP),
		bySlot,
		terms: terms.join(SEP),
		bytes: w.buf.slice(0, w.n),
	};
}

/**
 * Fills a fresh minisearch (built with the index's options) from a packed form. A form packed
 * by slot names documents through `slots`: each slot's id (`ids`) and, as the snapshot's one
 * shared id → slot map, `slotOf`. Its document tables then stay packed too (`readDocuments`).
 */
export function unpackLexical(p: PackedLexical, ms: MiniSearch<unknown>, slots?: SlotNames): void {
	if (p.format !== FORMAT) throw new Error(`lexical snapshot format ${p.format} is not supported`);
	if (p.bySlot && !slots) throw new Error('lexical snapshot names documents by slot, and no slots were given');
	const s = internalsOf(ms);
	const nFields = Object.keys(p.fieldIds).length;
	const r = new VarintReader(p.bytes, 0);
	const docs = readDocuments(p, r, nFields, slots);
	s._documentIds = docs.documentIds;
	s._idToShortId = docs.idToShortId;
	s._fieldLength = docs.fieldLength;
	const terms = p.terms.length > 0 ? p.terms.split(SEP) : [];
	const ranges = new Int32Array(terms.length * 2);
	for (let i = 0; i < terms.length; i++) {
		const length = r.uint();
		ranges[2 * i] = r.at;
		ranges[2 * i + 1] = r.at += length;
	}
	if (r.at > p.bytes.length) throw new Error('lexical snapshot is truncated');
	if (r.at !== p.bytes.length) throw new Error('lexical snapshot has bytes left over');
	const make = (from: number, to: number) => new PackedTermData(p.bytes, from, to);
	if (strictlySorted(terms)) s._index = new PackedTermIndex(terms, ranges, make);
	// Packed before terms were sorted: make the tree now.
	else for (let i = 0; i < terms.length; i++) (s._index as TermTree).set(terms[i], make(ranges[2 * i], ranges[2 * i + 1]));
	s._documentCount = p.documentCount;
	s._nextId = p.nextId;
	s._dirtCount = p.dirtCount;
	s._fieldIds = { ...p.fieldIds };
	s._avgFieldLength = [...p.avgFieldLength];
}

/** minisearch's three document tables. */
interface DocumentTables {
	documentIds: Map<number, string>;
	idToShortId: Map<string, number>;
	fieldLength: Map<number, number[]>;
}

/**
 * Reads the document section into typed arrays and serves minisearch's document tables from
 * them (OverlayMaps: later adds and removals are kept on top). Making the three Maps and 100k
 * field-length arrays took about a fifth of restoring a 100k index (0.18–0.28 s in Node).
 */
function readDocuments(p: PackedLexical, r: VarintReader, nFields: number, slots: SlotNames | undefined): DocumentTables {
	const n = p.docs;
	const shortIds = new Int32Array(n);
	const lengths = new Int32Array(n * nFields);
	const named = p.bySlot ? undefined : p.ids.length > 0 ? p.ids.split(SEP) : [];
	const slotOfDoc = named ? undefined : new Int32Array(n);
	const docOfShort = new Int32Array(Math.max(p.nextId, 0)).fill(-1);
	let shortId = 0;
	for (let d = 0; d < n; d++) {
		shortId += r.int();
		shortIds[d] = shortId;
		if (shortId < 0 || shortId >= docOfShort.length) throw new Error('lexical snapshot has a short id out of range');
		docOfShort[shortId] = d;
		if (slotOfDoc) {
			const slot = r.uint();
			if (slot >= slots!.ids.length) throw new Error('lexical snapshot names a document that does not exist');
			slotOfDoc[d] = slot;
		} else if (named![d] === undefined) throw new Error('lexical snapshot names a document that does not exist');
		for (let f = 0; f < nFields; f++) lengths[d * nFields + f] = r.uint() - 1;
	}
	const idOf = slotOfDoc ? (d: number) => slots!.ids[slotOfDoc[d]] : (d: number) => named![d];
	let docOfId: (id: string) => number | undefined;
	if (slotOfDoc) {
		const docOfSlot = new Int32Array(slots!.ids.length).fill(-1);
		for (let d = 0; d < n; d++) docOfSlot[slotOfDoc[d]] = d;
		docOfId = (id) => {
			const slot = slots!.slotOf.get(id);
			const d = slot === undefined ? -1 : docOfSlot[slot];
			return d < 0 ? undefined : d;
		};
	} else {
		const byId = new Map(named!.map((id, d) => [id, d]));
		docOfId = (id) => byId.get(id);
	}
	const docOf = (short: number) => (short >= 0 && short < docOfShort.length && docOfShort[short] >= 0 ? docOfShort[short] : undefined);
	function* docKeys<T>(key: (d: number) => T): Generator<T> {
		for (let d = 0; d < n; d++) yield key(d);
	}
	return {
		documentIds: new OverlayMap({
			size: n,
			get: (short) => {
				const d = docOf(short);
				return d === undefined ? undefined : idOf(d);
			},
			// bm25.ts asks this of every posting it reads: no id string needed for the answer.
			has: (short) => docOf(short) !== undefined,
			keys: () => docKeys((d) => shortIds[d]),
		}),
		idToShortId: new OverlayMap({
			size: n,
			get: (id) => {
				const d = docOfId(id);
				return d === undefined ? undefined : shortIds[d];
			},
			keys: () => docKeys(idOf),
		}),
		fieldLength: Object.assign(
			new OverlayMap({
				size: n,
				get: (short: number) => {
					const d = docOf(short);
					if (d === undefined) return undefined;
					// A fresh array each time, with holes where the document has no such field (as minisearch's own).
					const out: number[] = new Array(nFields);
					for (let f = 0; f < nFields; f++) if (lengths[d * nFields + f] >= 0) out[f] = lengths[d * nFields + f];
					return out;
				},
				keys: () => docKeys((d) => shortIds[d]),
			}),
			{
				/** `get(short)[field]` without making the array (bm25.ts reads one per posting). */
				lengthOf(this: OverlayMap<number, number[]>, short: number, field: number): number | undefined {
					if (!this.fromBase(short)) return this.get(short)?.[field];
					const d = docOf(short);
					const v = d === undefined ? -1 : lengths[d * nFields + field];
					return v >= 0 ? v : undefined;
				},
			},
		),
	};
}

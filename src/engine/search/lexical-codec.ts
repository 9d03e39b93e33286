/**
 * A compact binary form of a minisearch index for snapshots. minisearch's own toJSON/loadJSON
 * turns every posting into an object key and back (measured: ~3 s each way at 30k memories, a
 * 20 MB string), which would blow the 1.5 s cold-start budget at 100k. Here postings are packed
 * into one Int32Array and the strings (terms, ids) into one NUL-joined string each, so encoding
 * is a walk and decoding fills minisearch's maps directly. A term's postings stay packed until
 * something reads them (`PackedTermData`): a query touches a handful of terms, and making the
 * maps of all of them (millions of entries at 100k memories) was most of restoring the index.
 *
 * It reads and writes minisearch v7's internal fields (`_index`, `_documentIds`, …), the same
 * ones its loadJS fills; `FORMAT` guards the layout, and index.test.ts checks that a restored
 * index answers exactly like the original, so a minisearch upgrade that moves them fails loudly.
 */
import type MiniSearch from 'minisearch';

/** minisearch v7's internal state (what loadJS restores). */
interface Internals {
	_index: { set(term: string, data: Map<number, Map<number, number>>): void; [Symbol.iterator](): Iterator<[string, Map<number, Map<number, number>>]> };
	_documentCount: number;
	_nextId: number;
	_documentIds: Map<number, string>;
	_idToShortId: Map<string, number>;
	_fieldIds: Record<string, number>;
	_fieldLength: Map<number, number[]>;
	_avgFieldLength: number[];
	_dirtCount: number;
}

/** Layout version of the packed form. */
const FORMAT = 1;
const SEP = '\u0000';

/** The packed index: small scalars, two strings and one Int32Array. */
export interface PackedLexical {
	format: number;
	documentCount: number;
	nextId: number;
	dirtCount: number;
	fieldIds: Record<string, number>;
	avgFieldLength: number[];
	/** Document ids in shortId order of `ints`' document section, NUL-joined. */
	ids: string;
	/** Terms in the order of `ints`' posting section, NUL-joined. */
	terms: string;
	/**
	 * [n docs × (shortId, field lengths…)] then per term: field count, then per field:
	 * fieldId, posting count, (shortId, term frequency) pairs.
	 */
	ints: Int32Array;
}

/** A growable Int32Array writer. */
class IntWriter {
	buf = new Int32Array(1 << 16);
	n = 0;
	push(x: number): void {
		if (this.n === this.buf.length) {
			const bigger = new Int32Array(this.buf.length * 2);
			bigger.set(this.buf);
			this.buf = bigger;
		}
		this.buf[this.n++] = x;
	}
}

/**
 * One term's entry in minisearch's index (field id → short id → term frequency), made from the
 * packed ints the first time any Map method is called on it; until then it only points into them.
 */
export class PackedTermData extends Map<number, Map<number, number>> {
	#ints: Int32Array | undefined;
	readonly #from: number;
	readonly #to: number;

	constructor(ints: Int32Array, from: number, to: number) {
		super();
		this.#ints = ints;
		this.#from = from;
		this.#to = to;
	}

	/** The packed range while not yet made (packLexical copies it as is). */
	packed(): Int32Array | undefined {
		return this.#ints?.subarray(this.#from, this.#to);
	}

	#make(): void {
		const ints = this.#ints;
		if (!ints) return;
		this.#ints = undefined;
		let at = this.#from;
		for (let nf = ints[at++]; nf > 0; nf--) {
			const fieldId = ints[at++];
			const postings = new Map<number, number>();
			for (let np = ints[at++]; np > 0; np--) postings.set(ints[at++], ints[at++]);
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
		this.#ints = undefined;
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

/** Packs a minisearch index. */
export function packLexical(ms: MiniSearch<unknown>): PackedLexical {
	const s = ms as unknown as Internals;
	const nFields = Object.keys(s._fieldIds).length;
	const w = new IntWriter();
	const ids: string[] = [];
	for (const [shortId, id] of s._documentIds) {
		ids.push(id);
		w.push(shortId);
		const lengths = s._fieldLength.get(shortId) ?? [];
		for (let f = 0; f < nFields; f++) w.push(lengths[f] ?? -1);
	}
	const terms: string[] = [];
	for (const [term, fields] of s._index) {
		terms.push(term);
		const packed = fields instanceof PackedTermData ? fields.packed() : undefined;
		if (packed) {
			for (const x of packed) w.push(x);
			continue;
		}
		w.push(fields.size);
		for (const [fieldId, postings] of fields) {
			w.push(fieldId);
			w.push(postings.size);
			for (const [shortId, tf] of postings) {
				w.push(shortId);
				w.push(tf);
			}
		}
	}
	return {
		format: FORMAT,
		documentCount: s._documentCount,
		nextId: s._nextId,
		dirtCount: s._dirtCount,
		fieldIds: { ...s._fieldIds },
		avgFieldLength: [...s._avgFieldLength],
		ids: ids.join(SEP),
		terms: terms.join(SEP),
		ints: w.buf.slice(0, w.n),
	};
}

/** Fills a fresh minisearch (built with the index's options) from a packed form. */
export function unpackLexical(p: PackedLexical, ms: MiniSearch<unknown>): void {
	if (p.format !== FORMAT) throw new Error(`lexical snapshot format ${p.format} is not supported`);
	const s = ms as unknown as Internals;
	const nFields = Object.keys(p.fieldIds).length;
	const ints = p.ints;
	const ids = p.ids.length > 0 ? p.ids.split(SEP) : [];
	let at = 0;
	for (const id of ids) {
		const shortId = ints[at++];
		const lengths: number[] = new Array(nFields);
		for (let f = 0; f < nFields; f++) {
			const l = ints[at++];
			if (l >= 0) lengths[f] = l;
		}
		s._documentIds.set(shortId, id);
		s._idToShortId.set(id, shortId);
		s._fieldLength.set(shortId, lengths);
	}
	const terms = p.terms.length > 0 ? p.terms.split(SEP) : [];
	for (const term of terms) {
		const from = at;
		// Skip each field: its id, its posting count, then (short id, frequency) pairs.
		for (let nf = ints[at++]; nf > 0; nf--) at += 2 + 2 * ints[at + 1];
		s._index.set(term, new PackedTermData(ints, from, at));
	}
	s._documentCount = p.documentCount;
	s._nextId = p.nextId;
	s._dirtCount = p.dirtCount;
	s._fieldIds = { ...p.fieldIds };
	s._avgFieldLength = [...p.avgFieldLength];
}

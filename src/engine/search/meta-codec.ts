/**
 * The snapshot's memory metadata as columns: numbers in typed arrays, strings (ids, scopes,
 * types, tags, entity ids…) in one deduplicated table. As JSON the metadata was half of a 100k
 * snapshot's bytes and most of its decoding time; here decoding is one UTF-8 decode, slicing,
 * and one small object per memory that reads the columns (PackedMeta).
 *
 * Layout (little-endian, every section 8-byte aligned within the block):
 *
 *   u32 count · u32 strings · u32 optional-column flags · u32 UTF-8 byte length
 *   · i32 string lengths (UTF-16 units) · i32 scope, type · [i32 source, session, group]
 *   · i32 tag offsets (count + 1), tag strings · i32 entity offsets (count + 1), entity strings
 *   · u8 asks · f64 seq, timestamp, updated_at, importance, confidence, access_count
 *   · [f64 t_valid, t_invalid, last_accessed, content_hash] · UTF-8 of every string, back to back
 *
 * Bracketed columns are written only when some memory has the field (flags); an absent
 * string is -1, an absent number NaN. The first `count` strings are the ids, in slot order.
 * Strings that UTF-8 cannot carry exactly (lone surrogates) travel in `odd`, as JSON.
 */
import { bump, countRecord } from '../../core/counts';
import { drain, type Steps } from './steps';
import type { DocMeta, MetaTally } from './types';

/** Optional string columns and their flag bits. */
const OPTIONAL_STRINGS = [
	['source', 1],
	['session', 2],
	['group', 4],
] as const;
/** Optional number columns and their flag bits. */
const OPTIONAL_NUMBERS = [
	['t_valid', 8],
	['t_invalid', 16],
	['last_accessed', 32],
	['content_hash', 64],
] as const;
const NUMBERS = ['seq', 'timestamp', 'updated_at', 'importance', 'confidence', 'access_count'] as const;

const pad8 = (n: number) => (n + 7) & ~7;

/** The encoded block and the strings it could not carry as UTF-8 (index → string). */
export interface PackedMetas {
	bytes: Uint8Array;
	odd: [number, string][];
}

/** Interns strings into a table whose first entries are the ids. */
class StringTable {
	readonly list: string[] = [];
	readonly #at = new Map<string, number>();

	/** Appends without interning (ids are unique, and must keep their slots). */
	push(s: string): void {
		this.list.push(s);
	}

	of(s: string | undefined): number {
		if (s === undefined) return -1;
		let i = this.#at.get(s);
		if (i === undefined) this.#at.set(s, (i = this.list.push(s) - 1));
		return i;
	}
}

/** Encodes metadata in slot order. */
export function encodeMetas(metas: readonly DocMeta[]): PackedMetas {
	return drain(encodeMetasInSteps(metas));
}

/** Memories encoded between two yields of {@link encodeMetasInSteps}. */
const METAS_PER_STEP = 256;

/**
 * {@link encodeMetas}, yielding after every METAS_PER_STEP memories so the caller may pause (the
 * engine serves calls between steps); `metas` must not change until it returns.
 */
export function* encodeMetasInSteps(metas: readonly DocMeta[]): Steps<PackedMetas> {
	const n = metas.length;
	const table = new StringTable();
	let flags = 0;
	// The loops are plain functions over a range, called between yields: V8 optimises those, and
	// code inside a generator far less (measured: a 10k encode took twice as long).
	const scan = (from: number, to: number) => {
		for (let i = from; i < to; i++) {
			const m = metas[i];
			table.push(m.id);
			for (const [k, bit] of OPTIONAL_STRINGS) if (m[k] !== undefined) flags |= bit;
			for (const [k, bit] of OPTIONAL_NUMBERS) if (m[k] !== undefined) flags |= bit;
		}
	};
	for (let i = 0; i < n; i += METAS_PER_STEP) {
		scan(i, Math.min(n, i + METAS_PER_STEP));
		yield;
	}
	const ints = (len: number) => new Int32Array(len);
	const scope = ints(n);
	const type = ints(n);
	const optional = OPTIONAL_STRINGS.filter(([, bit]) => flags & bit).map(([k]) => [k, ints(n)] as const);
	const tagOff = ints(n + 1);
	const entOff = ints(n + 1);
	const tags: number[] = [];
	const ents: number[] = [];
	const asks = new Uint8Array(n);
	const numbers = NUMBERS.map((k) => [k, new Float64Array(n)] as const);
	const optNumbers = OPTIONAL_NUMBERS.filter(([, bit]) => flags & bit).map(([k]) => [k, new Float64Array(n)] as const);
	// A restored memory's strings are interned by their index in its columns' table: an array
	// look-up instead of hashing the string, and its tag and entity lists are never made (at
	// 100k, making and keeping them was most of a snapshot's garbage; BENCHMARKS.md).
	const memo = new Map<MetaColumns, Int32Array>();
	const fromColumns = (c: MetaColumns, k: number): number => {
		if (k < 0) return -1;
		let at = memo.get(c);
		if (at === undefined) memo.set(c, (at = new Int32Array(c.strings.length).fill(-1)));
		if (at[k] < 0) at[k] = table.of(c.strings[k]);
		return at[k];
	};
	const encode = (i: number) => {
		const m = metas[i];
		const c = PackedMeta.columnsOf(m);
		if (c !== undefined) {
			const r = PackedMeta.rowOf(m);
			scope[i] = fromColumns(c, c.scope[r]);
			type[i] = fromColumns(c, c.type[r]);
			for (const [k, col] of optional) col[i] = fromColumns(c, c[k]?.[r] ?? -1);
			for (let j = c.tagOff[r]; j < c.tagOff[r + 1]; j++) tags.push(fromColumns(c, c.tags[j]));
			for (let j = c.entOff[r]; j < c.entOff[r + 1]; j++) ents.push(fromColumns(c, c.ents[j]));
		} else {
			scope[i] = table.of(m.scope);
			type[i] = table.of(m.type);
			for (const [k, col] of optional) col[i] = table.of(m[k]);
			for (const t of m.tags) tags.push(table.of(t));
			for (const e of m.entities) ents.push(table.of(e));
		}
		tagOff[i + 1] = tags.length;
		entOff[i + 1] = ents.length;
		asks[i] = m.asks ? 1 : 0;
		for (const [k, col] of numbers) col[i] = m[k];
		for (const [k, col] of optNumbers) col[i] = m[k] ?? NaN;
	};
	for (let i = 0; i < n; i += METAS_PER_STEP) {
		for (let j = i; j < Math.min(n, i + METAS_PER_STEP); j++) encode(j);
		yield;
	}
	const odd: [number, string][] = [];
	const lengths = ints(table.list.length);
	const parts = table.list.map((s, i) => {
		if (s.isWellFormed()) {
			lengths[i] = s.length;
			return s;
		}
		odd.push([i, s]);
		return '';
	});
	const utf8 = new TextEncoder().encode(parts.join(''));
	const sections: ArrayBufferView[] = [
		new Uint32Array([n, table.list.length, flags, utf8.length]),
		lengths,
		scope,
		type,
		...optional.map(([, col]) => col),
		tagOff,
		Int32Array.from(tags),
		entOff,
		Int32Array.from(ents),
		asks,
		...numbers.map(([, col]) => col),
		...optNumbers.map(([, col]) => col),
		utf8,
	];
	const out = new Uint8Array(sections.reduce((at, s) => pad8(at + s.byteLength), 0));
	let at = 0;
	for (const s of sections) {
		out.set(new Uint8Array(s.buffer, s.byteOffset, s.byteLength), at);
		at = pad8(at + s.byteLength);
	}
	return { bytes: out, odd };
}

/**
 * Tallies `metas`. Restored memories are counted by their columns' string indices (typed-array
 * counters, no string hashed per memory, no tag list made); memories written since, by their
 * fields. At 100k restored memories the field-by-field tally took 25–145 ms per memory_stats
 * call, which the UI makes after every change.
 */
export function tallyMetas(metas: readonly DocMeta[], count: number, now: number): MetaTally {
	const out: MetaTally = {
		total: 0,
		current: 0,
		byType: countRecord(),
		byScope: countRecord(),
		bySource: countRecord(),
		tags: countRecord(),
		oldest: Infinity,
		newest: -Infinity,
	};
	const packed = new Map<MetaColumns, { type: Int32Array; scope: Int32Array; source: Int32Array; tags: Int32Array; none: number }>();
	for (let i = 0; i < count; i++) {
		const m = metas[i];
		const c = PackedMeta.columnsOf(m);
		out.total++;
		if (c === undefined) {
			if (m.t_invalid === undefined || m.t_invalid > now) out.current++;
			bump(out.byType, m.type);
			bump(out.byScope, m.scope);
			bump(out.bySource, m.source ?? '(none)');
			for (const t of m.tags) bump(out.tags, t);
			out.oldest = Math.min(out.oldest, m.timestamp);
			out.newest = Math.max(out.newest, m.timestamp);
			continue;
		}
		const r = PackedMeta.rowOf(m);
		let k = packed.get(c);
		if (k === undefined) {
			const n = c.strings.length;
			packed.set(c, (k = { type: new Int32Array(n), scope: new Int32Array(n), source: new Int32Array(n), tags: new Int32Array(n), none: 0 }));
		}
		const invalid = c.tInvalid === undefined ? NaN : c.tInvalid[r];
		if (Number.isNaN(invalid) || invalid > now) out.current++;
		k.type[c.type[r]]++;
		k.scope[c.scope[r]]++;
		const source = c.source === undefined ? -1 : c.source[r];
		if (source < 0) k.none++;
		else k.source[source]++;
		for (let j = c.tagOff[r]; j < c.tagOff[r + 1]; j++) k.tags[c.tags[j]]++;
		const t = c.timestamp[r];
		if (t < out.oldest) out.oldest = t;
		if (t > out.newest) out.newest = t;
	}
	for (const [c, k] of packed) {
		for (let s = 0; s < c.strings.length; s++) {
			if (k.type[s]) bump(out.byType, c.strings[s], k.type[s]);
			if (k.scope[s]) bump(out.byScope, c.strings[s], k.scope[s]);
			if (k.source[s]) bump(out.bySource, c.strings[s], k.source[s]);
			if (k.tags[s]) bump(out.tags, c.strings[s], k.tags[s]);
		}
		if (k.none) bump(out.bySource, '(none)', k.none);
	}
	return out;
}

/** Decoded metadata, with the entity column as it was stored (for an index to invert in place). */
export interface DecodedMetas {
	metas: DocMeta[];
	/** Each memory's seq, by slot. */
	seqs: Float64Array;
	/** Memory i mentions `strings[values[k]]` for k in `offsets[i]..offsets[i+1]`. */
	mentions: { strings: string[]; offsets: Int32Array; values: Int32Array };
	/** Memory i's group is `strings[groups[i]]` (none where −1); undefined when no memory has one. */
	groups?: Int32Array;
}

/**
 * Decodes `encodeMetas` output; throws an Error naming the section that does not fit. The
 * columns are copies, unless the caller gives the block away (`adopt`: nothing else writes to it
 * or needs it freed), when they view it in place.
 */
export function decodeMetas(block: Uint8Array, odd: readonly [number, string][], adopt = false): DecodedMetas {
	// Every section is 8-byte aligned within the block: view it in place when the block is too, else copy it.
	const aligned = block.byteOffset % 8 === 0;
	const buf = aligned ? block.buffer : block.slice().buffer;
	let at = aligned ? block.byteOffset : 0;
	const end = at + block.byteLength;
	const take = <T>(make: (b: ArrayBufferLike, at: number, len: number) => T, len: number, width: number, what: string): T => {
		if (at + len * width > end) throw new Error(`metadata ${what} section is truncated`);
		const v = make(buf, at, len);
		at = pad8(at + len * width);
		return v;
	};
	const i32 = (len: number, what: string) => take((b, o, l) => new Int32Array(b, o, l), len, 4, what);
	const f64 = (len: number, what: string) => take((b, o, l) => new Float64Array(b, o, l), len, 8, what);
	const [n, count, flags, utf8Length] = take((b, o, l) => new Uint32Array(b, o, l), 4, 4, 'head');
	const lengths = i32(count, 'string');
	const scope = i32(n, 'scope');
	const type = i32(n, 'type');
	const optional = OPTIONAL_STRINGS.map(([k, bit]) => (flags & bit ? i32(n, k) : undefined));
	const tagOff = i32(n + 1, 'tag');
	const tags = i32(tagOff[n], 'tag');
	const entOff = i32(n + 1, 'entity');
	const ents = i32(entOff[n], 'entity');
	const asks = take((b, o, l) => new Uint8Array(b, o, l), n, 1, 'asks');
	const [seq, timestamp, updated, importance, confidence, accessCount] = NUMBERS.map((k) => f64(n, k));
	const [tValid, tInvalid, lastAccessed, contentHash] = OPTIONAL_NUMBERS.map(([k, bit]) => (flags & bit ? f64(n, k) : undefined));
	const all = new TextDecoder().decode(take((b, o, l) => new Uint8Array(b, o, l), utf8Length, 1, 'string'));
	const strings: string[] = new Array(count);
	for (let i = 0, from = 0; i < count; i++) strings[i] = all.slice(from, (from += lengths[i]));
	for (const [i, s] of odd) strings[i] = s;
	const [source, session, group] = optional;
	// Copies: views would keep the whole snapshot's buffer alive as long as the index, and see
	// the caller's later writes to it.
	const inPlace = adopt && aligned;
	const own = <T extends Int32Array | Float64Array | Uint8Array>(a: T | undefined) => (inPlace ? a : (a?.slice() as T | undefined));
	const columns: MetaColumns = {
		strings,
		scope: own(scope)!,
		type: own(type)!,
		source: own(source),
		session: own(session),
		group: own(group),
		tagOff: own(tagOff)!,
		tags: own(tags)!,
		entOff: own(entOff)!,
		ents: own(ents)!,
		asks: own(asks)!,
		seq: own(seq)!,
		timestamp: own(timestamp)!,
		updated: own(updated)!,
		importance: own(importance)!,
		confidence: own(confidence)!,
		accessCount: own(accessCount)!,
		tValid: own(tValid),
		tInvalid: own(tInvalid),
		lastAccessed: own(lastAccessed),
		contentHash: own(contentHash),
	};
	const metas: DocMeta[] = new Array(n);
	for (let i = 0; i < n; i++) metas[i] = new PackedMeta(columns, i);
	return { metas, seqs: columns.seq, mentions: { strings, offsets: columns.entOff, values: columns.ents }, groups: columns.group };
}

/** Decoded metadata columns, shared by every PackedMeta of one snapshot. */
interface MetaColumns {
	strings: string[];
	scope: Int32Array;
	type: Int32Array;
	source?: Int32Array;
	session?: Int32Array;
	group?: Int32Array;
	tagOff: Int32Array;
	tags: Int32Array;
	entOff: Int32Array;
	ents: Int32Array;
	asks: Uint8Array;
	seq: Float64Array;
	timestamp: Float64Array;
	updated: Float64Array;
	importance: Float64Array;
	confidence: Float64Array;
	accessCount: Float64Array;
	tValid?: Float64Array;
	tInvalid?: Float64Array;
	lastAccessed?: Float64Array;
	contentHash?: Float64Array;
}

const str = (c: MetaColumns, col: Int32Array | undefined, i: number): string | undefined => {
	const k = col === undefined ? -1 : col[i];
	return k < 0 ? undefined : c.strings[k];
};
const num = (col: Float64Array | undefined, i: number): number | undefined => {
	const v = col === undefined ? NaN : col[i];
	return Number.isNaN(v) ? undefined : v;
};
const list = (c: MetaColumns, values: Int32Array, from: number, to: number): string[] => {
	const out: string[] = new Array(to - from);
	for (let k = from; k < to; k++) out[k - from] = c.strings[values[k]];
	return out;
};

/**
 * One restored memory's metadata, read from the snapshot's columns: a restore makes one small
 * object per memory instead of one with a dozen fields and two arrays. At 100k memories the
 * plain objects held 61 MB of heap and made most of a restore's garbage-collection work
 * (docs/BENCHMARKS.md). Tag and entity lists are made on first read and kept. The index only
 * ever changes `access_count` and `last_accessed` in place (touch()); an upsert replaces the
 * object with a plain one.
 */
class PackedMeta implements DocMeta {
	readonly #c: MetaColumns;
	readonly #i: number;
	#tags: string[] | undefined;
	#entities: string[] | undefined;

	constructor(c: MetaColumns, i: number) {
		this.#c = c;
		this.#i = i;
	}

	/** The columns `m` reads, when it is a PackedMeta (for encodeMetas). */
	static columnsOf(m: DocMeta): MetaColumns | undefined {
		return #c in m ? (m as PackedMeta).#c : undefined;
	}

	/** The row of a PackedMeta in its columns. */
	static rowOf(m: DocMeta): number {
		return (m as PackedMeta).#i;
	}

	get id(): string {
		return this.#c.strings[this.#i];
	}
	get seq(): number {
		return this.#c.seq[this.#i];
	}
	get scope(): string {
		return this.#c.strings[this.#c.scope[this.#i]];
	}
	get type(): string {
		return this.#c.strings[this.#c.type[this.#i]];
	}
	get tags(): string[] {
		const c = this.#c;
		return (this.#tags ??= list(c, c.tags, c.tagOff[this.#i], c.tagOff[this.#i + 1]));
	}
	get entities(): string[] {
		const c = this.#c;
		return (this.#entities ??= list(c, c.ents, c.entOff[this.#i], c.entOff[this.#i + 1]));
	}
	get source(): string | undefined {
		return str(this.#c, this.#c.source, this.#i);
	}
	get session(): string | undefined {
		return str(this.#c, this.#c.session, this.#i);
	}
	get group(): string | undefined {
		return str(this.#c, this.#c.group, this.#i);
	}
	get timestamp(): number {
		return this.#c.timestamp[this.#i];
	}
	get updated_at(): number {
		return this.#c.updated[this.#i];
	}
	get t_valid(): number | undefined {
		return num(this.#c.tValid, this.#i);
	}
	get t_invalid(): number | undefined {
		return num(this.#c.tInvalid, this.#i);
	}
	get importance(): number {
		return this.#c.importance[this.#i];
	}
	get confidence(): number {
		return this.#c.confidence[this.#i];
	}
	get access_count(): number {
		return this.#c.accessCount[this.#i];
	}
	set access_count(v: number) {
		this.#c.accessCount[this.#i] = v;
	}
	get last_accessed(): number | undefined {
		return num(this.#c.lastAccessed, this.#i);
	}
	set last_accessed(v: number | undefined) {
		const c = this.#c;
		c.lastAccessed ??= new Float64Array(c.seq.length).fill(NaN);
		c.lastAccessed[this.#i] = v ?? NaN;
	}
	get asks(): boolean | undefined {
		return this.#c.asks[this.#i] === 1 ? true : undefined;
	}
	get content_hash(): number | undefined {
		return num(this.#c.contentHash, this.#i);
	}
}

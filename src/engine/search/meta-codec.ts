/**
 * The snapshot's memory metadata as columns: numbers in typed arrays, strings (ids, scopes,
 * types, tags, entity ids…) in one deduplicated table. As JSON the metadata was half of a 100k
 * snapshot's bytes and most of its decoding time; here decoding is one UTF-8 decode, slicing,
 * and one object per memory.
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
import type { DocMeta } from './types';

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
	const n = metas.length;
	const table = new StringTable();
	for (const m of metas) table.push(m.id);
	let flags = 0;
	for (const m of metas) {
		for (const [k, bit] of OPTIONAL_STRINGS) if (m[k] !== undefined) flags |= bit;
		for (const [k, bit] of OPTIONAL_NUMBERS) if (m[k] !== undefined) flags |= bit;
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
	metas.forEach((m, i) => {
		scope[i] = table.of(m.scope);
		type[i] = table.of(m.type);
		for (const [k, col] of optional) col[i] = table.of(m[k]);
		for (const t of m.tags) tags.push(table.of(t));
		tagOff[i + 1] = tags.length;
		for (const e of m.entities) ents.push(table.of(e));
		entOff[i + 1] = ents.length;
		asks[i] = m.asks ? 1 : 0;
		for (const [k, col] of numbers) col[i] = m[k];
		for (const [k, col] of optNumbers) col[i] = m[k] ?? NaN;
	});
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

/** Decoded metadata, with the entity column as it was stored (for an index to invert in place). */
export interface DecodedMetas {
	metas: DocMeta[];
	/** Memory i mentions `strings[values[k]]` for k in `offsets[i]..offsets[i+1]`. */
	mentions: { strings: string[]; offsets: Int32Array; values: Int32Array };
}

/** Decodes `encodeMetas` output; throws an Error naming the section that does not fit. */
export function decodeMetas(block: Uint8Array, odd: readonly [number, string][]): DecodedMetas {
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
	const list = (values: Int32Array, from: number, to: number): string[] => {
		const out: string[] = new Array(to - from);
		for (let k = from; k < to; k++) out[k - from] = strings[values[k]];
		return out;
	};
	const [source, session, group] = optional;
	const metas: DocMeta[] = new Array(n);
	// Every field is set by name, in one order, so all metas share one object shape.
	for (let i = 0; i < n; i++) {
		const m: DocMeta = {
			id: strings[i],
			seq: seq[i],
			scope: strings[scope[i]],
			type: strings[type[i]],
			tags: list(tags, tagOff[i], tagOff[i + 1]),
			timestamp: timestamp[i],
			updated_at: updated[i],
			importance: importance[i],
			confidence: confidence[i],
			access_count: accessCount[i],
			entities: list(ents, entOff[i], entOff[i + 1]),
		};
		if (source && source[i] >= 0) m.source = strings[source[i]];
		if (session && session[i] >= 0) m.session = strings[session[i]];
		if (group && group[i] >= 0) m.group = strings[group[i]];
		if (tValid && !Number.isNaN(tValid[i])) m.t_valid = tValid[i];
		if (tInvalid && !Number.isNaN(tInvalid[i])) m.t_invalid = tInvalid[i];
		if (lastAccessed && !Number.isNaN(lastAccessed[i])) m.last_accessed = lastAccessed[i];
		if (asks[i]) m.asks = true;
		if (contentHash && !Number.isNaN(contentHash[i])) m.content_hash = contentHash[i];
		metas[i] = m;
	}
	return { metas, mentions: { strings, offsets: entOff, values: ents } };
}

import { describe, expect, it } from 'vitest';
import { decodeMetas, encodeMetas } from '../../../../src/engine/search/meta-codec';
import type { DocMeta } from '../../../../src/engine/search/types';

const base = (i: number): DocMeta => ({
	id: `id-${i}`,
	seq: i + 1,
	scope: i % 2 ? 'work' : 'default',
	type: 'Context',
	tags: [],
	timestamp: 1_700_000_000_000 + i,
	updated_at: 1_700_000_000_500 + i,
	importance: 0.29,
	confidence: 0.8,
	access_count: 0,
	entities: [],
});

const KEYS = [
	'id',
	'seq',
	'scope',
	'type',
	'tags',
	'source',
	'session',
	'group',
	'timestamp',
	'updated_at',
	't_valid',
	't_invalid',
	'importance',
	'confidence',
	'access_count',
	'last_accessed',
	'entities',
	'asks',
	'content_hash',
] as const;

/** What a reader of a DocMeta sees, read field by field (decoded metas read the columns through getters). */
const seen = (metas: DocMeta[]) => metas.map((m) => Object.fromEntries(KEYS.filter((k) => m[k] !== undefined).map((k) => [k, m[k]])));

describe('encodeMetas / decodeMetas', () => {
	it('round-trips every field exactly, absent ones staying absent', () => {
		const metas: DocMeta[] = [
			base(0),
			{ ...base(1), tags: ['ops', 'café', 'ops-2'], entities: ['person:maya', 'concept:日本'], source: 'chat', session: 's-1', asks: true },
			{
				...base(2),
				group: 'work\u00002024-07-10T23:04:28.723Z',
				t_valid: 1_600_000_000_000,
				t_invalid: 1_800_000_000_000,
				last_accessed: 1_750_000_000_001,
				access_count: 12,
			},
			// Strings UTF-8 cannot carry (lone surrogates), emoji, an empty scope and a seq past 2^31.
			{ ...base(3), id: 'odd-\ud800-id', scope: '', tags: ['\udfff', '👍🏽'], seq: 2 ** 40, importance: 1 / 3, confidence: 0 },
			{ ...base(4), tags: ['ops'], entities: ['person:maya'], session: 's-1', content_hash: 0xffffffff },
			{ ...base(5), content_hash: 0 },
		];
		const packed = encodeMetas(metas);
		expect(new Set(packed.odd.map(([, s]) => s))).toEqual(new Set(['\udfff', 'odd-\ud800-id']));
		expect(seen(decodeMetas(packed.bytes, packed.odd).metas)).toEqual(seen(metas));
	});

	it('writes optional columns only when some memory has them', () => {
		const plain = Array.from({ length: 100 }, (_, i) => base(i));
		const withAll = plain.map((m) => ({ ...m, source: 's', session: 'x', group: 'g', t_valid: 1, t_invalid: 2, last_accessed: 3, content_hash: 4 }));
		expect(seen(decodeMetas(encodeMetas(plain).bytes, []).metas)).toEqual(seen(plain));
		expect(seen(decodeMetas(encodeMetas(withAll).bytes, []).metas)).toEqual(seen(withAll));
		// Three string columns (4 bytes each) and four number columns (8 bytes each) per memory.
		expect(encodeMetas(withAll).bytes.length - encodeMetas(plain).bytes.length).toBeGreaterThanOrEqual(100 * 44);
	});

	it('decodes a block wherever it lies in its buffer (viewed in place when 8-byte aligned, else copied)', () => {
		const metas = Array.from({ length: 20 }, (_, i) => ({ ...base(i), tags: ['a', 'b'].slice(0, i % 3), entities: [`person:p${i % 4}`] }));
		const { bytes } = encodeMetas(metas);
		for (const offset of [0, 4, 8, 3]) {
			const buf = new Uint8Array(bytes.length + 16);
			buf.set(bytes, offset);
			expect(seen(decodeMetas(buf.subarray(offset, offset + bytes.length), []).metas), `offset ${offset}`).toEqual(seen(metas));
		}
	});

	it('keeps access bookkeeping written to a decoded memory, in that memory only, and does not hold on to the block', () => {
		const metas = Array.from({ length: 3 }, (_, i) => base(i));
		const { bytes } = encodeMetas(metas);
		const decoded = decodeMetas(bytes, []).metas;
		decoded[1].access_count = 7;
		decoded[1].last_accessed = 1_760_000_000_000;
		expect(seen(decoded)).toEqual(seen([metas[0], { ...metas[1], access_count: 7, last_accessed: 1_760_000_000_000 }, metas[2]]));
		// The columns are the decoder's own copies: the snapshot's bytes are untouched.
		bytes.fill(0);
		expect(seen(decoded)[2]).toEqual(seen([metas[2]])[0]);
	});

	it('round-trips an empty list', () => {
		expect(decodeMetas(encodeMetas([]).bytes, []).metas).toEqual([]);
	});

	it('refuses a truncated block, naming the section', () => {
		const bytes = encodeMetas(Array.from({ length: 50 }, (_, i) => base(i))).bytes;
		expect(() => decodeMetas(bytes.subarray(0, 8), []).metas).toThrow('metadata head section is truncated');
		expect(() => decodeMetas(bytes.subarray(0, bytes.length - 16), []).metas).toThrow(/metadata \w+ section is truncated/);
	});
});

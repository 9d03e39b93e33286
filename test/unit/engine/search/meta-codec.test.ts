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

describe('encodeMetas / decodeMetas', () => {
	it('round-trips every field exactly, absent ones staying absent', () => {
		const metas: DocMeta[] = [
			base(0),
			{ ...base(1), tags: ['ops', 'café', 'ops-2'], entities: ['person:maya', 'concept:日本'], source: 'chat', session: 's-1', asks: true },
			{ ...base(2), group: 'work\u00002024-07-10T23:04:28.723Z', t_valid: 1_600_000_000_000, t_invalid: 1_800_000_000_000, last_accessed: 1_750_000_000_001, access_count: 12 },
			// Strings UTF-8 cannot carry (lone surrogates), emoji, an empty scope and a seq past 2^31.
			{ ...base(3), id: 'odd-\ud800-id', scope: '', tags: ['\udfff', '👍🏽'], seq: 2 ** 40, importance: 1 / 3, confidence: 0 },
			{ ...base(4), tags: ['ops'], entities: ['person:maya'], session: 's-1', content_hash: 0xffffffff },
			{ ...base(5), content_hash: 0 },
		];
		const packed = encodeMetas(metas);
		expect(new Set(packed.odd.map(([, s]) => s))).toEqual(new Set(['\udfff', 'odd-\ud800-id']));
		expect(decodeMetas(packed.bytes, packed.odd).metas).toEqual(metas);
	});

	it('writes optional columns only when some memory has them', () => {
		const plain = Array.from({ length: 100 }, (_, i) => base(i));
		const withAll = plain.map((m) => ({ ...m, source: 's', session: 'x', group: 'g', t_valid: 1, t_invalid: 2, last_accessed: 3, content_hash: 4 }));
		expect(decodeMetas(encodeMetas(plain).bytes, []).metas).toEqual(plain);
		expect(decodeMetas(encodeMetas(withAll).bytes, []).metas).toEqual(withAll);
		// Three string columns (4 bytes each) and four number columns (8 bytes each) per memory.
		expect(encodeMetas(withAll).bytes.length - encodeMetas(plain).bytes.length).toBeGreaterThanOrEqual(100 * 44);
	});

	it('decodes a block wherever it lies in its buffer (viewed in place when 8-byte aligned, else copied)', () => {
		const metas = Array.from({ length: 20 }, (_, i) => ({ ...base(i), tags: ['a', 'b'].slice(0, i % 3), entities: [`person:p${i % 4}`] }));
		const { bytes } = encodeMetas(metas);
		for (const offset of [0, 4, 8, 3]) {
			const buf = new Uint8Array(bytes.length + 16);
			buf.set(bytes, offset);
			expect(decodeMetas(buf.subarray(offset, offset + bytes.length), []).metas, `offset ${offset}`).toEqual(metas);
		}
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

/**
 * Reading an imported file's bytes: UTF-8 and UTF-16 (with a byte order mark) come back exactly;
 * Latin-1 text and binary files are refused naming the file, the line and what to do, instead of
 * being imported with "�" in place of letters or as one memory of garbage.
 */
import { describe, expect, it } from 'vitest';
import { decodeText, firstInvalidUtf8 } from '../../../src/ui/read-file';

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('decodeText', () => {
	it('reads UTF-8 exactly, with or without a byte order mark', () => {
		const text = '- Café crème 🍵\r\n- naïve 日本語\n';
		expect(decodeText(utf8(text), 'a.md')).toEqual({ text });
		expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, ...utf8(text)]), 'a.md')).toEqual({ text });
	});

	it('reads UTF-16 with a byte order mark (a spreadsheet\'s "Unicode text")', () => {
		const text = 'text\ttags\r\nHéllo wörld 🍵\ta\r\n';
		const le = new Uint8Array(2 + text.length * 2);
		le.set([0xff, 0xfe]);
		for (let i = 0; i < text.length; i++) {
			le[2 + 2 * i] = text.charCodeAt(i) & 0xff;
			le[3 + 2 * i] = text.charCodeAt(i) >> 8;
		}
		expect(decodeText(le, 'a.csv')).toEqual({ text });
		const be = le.slice();
		for (let i = 0; i < be.length; i += 2) [be[i], be[i + 1]] = [le[i + 1], le[i]];
		expect(decodeText(be, 'a.csv')).toEqual({ text });
	});

	it('refuses Latin-1 text naming the file, the line and the byte, and says how to fix it', () => {
		const bytes = new Uint8Array([...utf8('- fine\n- also fine\n- Caf'), 0xe9, ...utf8(' crème\n')]);
		const r = decodeText(bytes, 'notes.md');
		expect(r).toEqual({ error: expect.stringContaining('notes.md: line 3 is not UTF-8 text (byte 0xE9 at position 25)') });
		expect((r as { error: string }).error).toMatch(/save the file as UTF-8/);
	});

	it('refuses a binary file renamed .json', () => {
		const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
		expect(decodeText(png, 'photo.json')).toEqual({ error: expect.stringMatching(/^photo\.json: this is not a text file \(line 3 holds a zero byte/) });
	});

	it('finds the first byte that is not well-formed UTF-8', () => {
		expect(firstInvalidUtf8(utf8('aé日🍵'))).toBe(-1);
		expect(firstInvalidUtf8(new Uint8Array([0x61, 0xc0, 0x80]))).toBe(1); // overlong
		expect(firstInvalidUtf8(new Uint8Array([0xed, 0xa0, 0x80]))).toBe(0); // a surrogate
		expect(firstInvalidUtf8(new Uint8Array([0x61, 0x62, 0xe6, 0x97]))).toBe(2); // cut short
		expect(firstInvalidUtf8(new Uint8Array([0xf4, 0x90, 0x80, 0x80]))).toBe(0); // past U+10FFFF
		expect(firstInvalidUtf8(new Uint8Array([0x80]))).toBe(0);
	});
});

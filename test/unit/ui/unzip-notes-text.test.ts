/**
 * A .zip of notes whose note is not UTF-8 (an old export in Windows-1252) is refused naming the
 * note, instead of importing it with "�" in place of its accented letters; UTF-8 notes (with or
 * without a BOM) come out exactly.
 */
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { NotTextError } from '../../../src/ui/read-file';
import { unzipNotes } from '../../../src/ui/transfer';

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('unzipNotes', () => {
	it('reads UTF-8 notes exactly', () => {
		const zip = zipSync({
			'vault/Café.md': utf8('# Café\n\nCrème brûlée 🍮'),
			'vault/bom.md': new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('naïve')]),
			'vault/img.png': new Uint8Array([0, 1, 2]),
		});
		expect(unzipNotes(zip)).toEqual([
			{ path: 'vault/Café.md', text: '# Café\n\nCrème brûlée 🍮' },
			{ path: 'vault/bom.md', text: 'naïve' },
			{ path: 'vault/img.png', text: '' },
		]);
	});

	it('refuses a note that is not UTF-8, naming it and the line', () => {
		const zip = zipSync({ 'vault/ok.md': utf8('fine'), 'vault/old.md': new Uint8Array([...utf8('title\n'), 0x63, 0x61, 0x66, 0xe9]) });
		expect(() => unzipNotes(zip)).toThrow(NotTextError);
		expect(() => unzipNotes(zip)).toThrow(/^vault\/old\.md: line 2 is not UTF-8 text \(byte 0xE9/);
	});
});

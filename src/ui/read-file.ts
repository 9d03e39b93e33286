/**
 * A chosen file's bytes as text, exactly, or why not. Import reads UTF-8 (with or without a byte
 * order mark) and UTF-16 with a byte order mark (what spreadsheets save as "Unicode text"). A file
 * in another encoding (Latin-1, Windows-1252…) is refused, naming the line and the byte, rather
 * than read with its accented letters turned into "�"; a binary file (an image, a database, an
 * archive renamed .json) is refused rather than imported as one memory of garbage.
 */

/** The text of `bytes`, or an error that names the file, the line and what to do. */
export function decodeText(bytes: Uint8Array, name: string): { text: string } | { error: string } {
	if (bytes[0] === 0xff && bytes[1] === 0xfe) return utf16(bytes, 'utf-16le', name);
	if (bytes[0] === 0xfe && bytes[1] === 0xff) return utf16(bytes, 'utf-16be', name);
	const nul = bytes.indexOf(0);
	if (nul >= 0)
		return {
			error: `${name}: this is not a text file (line ${lineAt(bytes, nul)} holds a zero byte, as in an image, a database or an archive). Import reads text files — JSON, JSONL, Markdown or CSV — and .zip archives of notes.`,
		};
	const bad = firstInvalidUtf8(bytes);
	if (bad >= 0)
		return {
			error: `${name}: line ${lineAt(bytes, bad)} is not UTF-8 text (byte 0x${bytes[bad].toString(16).toUpperCase().padStart(2, '0')} at position ${bad + 1}). Nothing was imported, so that no letter is changed: save the file as UTF-8 (in most editors: Save as… → Encoding: UTF-8) and choose it again.`,
		};
	return { text: new TextDecoder('utf-8').decode(bytes) };
}

function utf16(bytes: Uint8Array, encoding: 'utf-16le' | 'utf-16be', name: string): { text: string } | { error: string } {
	try {
		return { text: new TextDecoder(encoding, { fatal: true }).decode(bytes) };
	} catch {
		return { error: `${name}: starts as UTF-16 text but is not valid UTF-16 (it may be cut short). Save it as UTF-8 and choose it again.` };
	}
}

/** The 1-based line of byte `at` (counting LF bytes before it). */
function lineAt(bytes: Uint8Array, at: number): number {
	let line = 1;
	for (let i = 0; i < at; i++) if (bytes[i] === 0x0a) line++;
	return line;
}

/** The offset of the first byte that does not start or continue a well-formed UTF-8 sequence; -1 when all are well formed. */
export function firstInvalidUtf8(b: Uint8Array): number {
	const n = b.length;
	let i = 0;
	while (i < n) {
		const c = b[i];
		if (c < 0x80) {
			i++;
			continue;
		}
		let len: number;
		let lo = 0x80;
		let hi = 0xbf;
		if (c >= 0xc2 && c <= 0xdf) len = 2;
		else if (c >= 0xe0 && c <= 0xef) {
			len = 3;
			if (c === 0xe0) lo = 0xa0;
			else if (c === 0xed) hi = 0x9f; // no surrogates
		} else if (c >= 0xf0 && c <= 0xf4) {
			len = 4;
			if (c === 0xf0) lo = 0x90;
			else if (c === 0xf4) hi = 0x8f;
		} else return i;
		if (i + len > n) return i;
		if (b[i + 1] < lo || b[i + 1] > hi) return i;
		for (let k = 2; k < len; k++) if (b[i + k] < 0x80 || b[i + k] > 0xbf) return i;
		i += len;
	}
	return -1;
}

/** A file that is not text Engram can read exactly (its message names the file and says what to do). */
export class NotTextError extends Error {}

/** `bytes` as text (see decodeText); throws a NotTextError when they cannot be read exactly. */
export function textOf(bytes: Uint8Array, name: string): string {
	const r = decodeText(bytes, name);
	if ('error' in r) throw new NotTextError(r.error);
	return r.text;
}

/** A File's text (see decodeText); throws a NotTextError when it cannot be read exactly. */
export async function readText(file: Blob, name: string): Promise<string> {
	return textOf(new Uint8Array(await file.arrayBuffer()), name);
}

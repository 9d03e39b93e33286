/**
 * The pieces of WebAssembly's binary format that the hand-written SIMD modules (simd-dots.ts,
 * ../batch-dots.ts) are assembled from.
 */

/** Unsigned LEB128, as the binary format encodes counts, indexes and sizes. */
export function uleb(n: number): number[] {
	const out: number[] = [];
	do {
		let b = n & 0x7f;
		n >>>= 7;
		if (n !== 0) b |= 0x80;
		out.push(b);
	} while (n !== 0);
	return out;
}

/** A section: its id, then its length-prefixed contents. */
export const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];

/** A name: its length, then its (ASCII) bytes. */
export const name = (s: string): number[] => [...uleb(s.length), ...[...s].map((c) => c.charCodeAt(0))];

/** The SIMD prefix, an opcode and its immediates. */
export const simd = (op: number, ...imm: number[]): number[] => [0xfd, ...uleb(op), ...imm];

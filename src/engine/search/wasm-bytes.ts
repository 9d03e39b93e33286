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

/** The magic number and version that open every module. */
export const HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

/**
 * Compiles the module `bytes()` builds, once: later calls return the same module, or null where
 * WebAssembly or the instructions it uses (SIMD) are unavailable.
 */
export function compileOnce(bytes: () => Uint8Array<ArrayBuffer>): () => WebAssembly.Module | null {
	let compiled: WebAssembly.Module | null | undefined;
	return () => {
		if (compiled !== undefined) return compiled;
		try {
			const b = bytes();
			compiled = typeof WebAssembly === 'object' && WebAssembly.validate(b) ? new WebAssembly.Module(b) : null;
		} catch {
			compiled = null;
		}
		return compiled;
	};
}

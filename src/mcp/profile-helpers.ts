/**
 * Helpers the compatibility profiles share: the JSON text some faces return as their whole
 * rendering. Rounding lives in core/numbers.ts and the paging loop in core/paging.ts, so the
 * engine's graph code can use them too; annotations are in annotations.ts.
 */

/** A result as indented JSON text: the rendering of faces whose clients read JSON (memory-mcp, codomyrmex). */
export function json(v: unknown): string {
	return JSON.stringify(v, null, 2);
}

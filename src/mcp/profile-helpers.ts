/**
 * Helpers the compatibility profiles share: the JSON text some faces return as their whole
 * rendering. Rounding lives in core/numbers.ts and the paging loop in core/paging.ts, so the
 * engine's graph code can use them too; annotations are in annotations.ts.
 */
import { z } from 'zod';

/**
 * A count argument of a face whose server is Python (memory-mcp, codomyrmex): pydantic reads "5"
 * as 5, so an agent that sends the number as a digit string works there and must here. The listed
 * schema stays an integer; any other string is still refused as not a number. Not for ids: a
 * digit string may be another face's string id, and must not reach a memory by seq.
 */
export function pyInt<T extends z.ZodType>(schema: T) {
	return z.preprocess((v) => (typeof v === 'string' && /^\s*\d{1,15}\s*$/.test(v) ? Number(v) : v), schema);
}

/** A result as indented JSON text: the rendering of faces whose clients read JSON (memory-mcp, codomyrmex). */
export function json(v: unknown): string {
	return JSON.stringify(v, null, 2);
}

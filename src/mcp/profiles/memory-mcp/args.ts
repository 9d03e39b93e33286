/** Arguments several memory-mcp tools share, and the label edit the three label tools make. */
import { z } from 'zod';
import { MemoryError } from '../../../core/errors';
import type { EngineApi } from '../../../engine/types';
import { normalizeLabels } from './filters';
import { bySeq } from './memory-dict';

/** A memory's integer id (Engram's seq), as memory-mcp names memories. */
export const IdSchema = z.number().int().positive().describe('The integer ID of the memory');
/** A fuzzy label filter: comma-separated, `!` excludes. */
export const LabelsArg = z.string().max(2000).describe('Comma-separated labels, fuzzy; prefix ! to exclude, e.g. "beer, !wine"');
/** A fuzzy source filter, `!` excludes. */
export const SourceArg = z.string().max(200).describe('Source filter, fuzzy; prefix ! to exclude, e.g. "!clawdbot"');

/** What the three label tools return. */
export const LabelResultSchema = z.object({
	success: z.boolean(),
	message: z.string(),
	labels: z.array(z.string()),
});
/** Labels to add, remove or put in place: comma-separated or a JSON array. */
export const LabelsInput = z.string().min(1).max(2000).describe('Labels: comma-separated or a JSON array');

/** One read and one single-transaction update of a memory's labels. */
export async function relabel(engine: EngineApi, seq: number, change: (tags: string[]) => string[], actor?: string): Promise<string[]> {
	const m = await bySeq(engine, seq);
	const tags = change(m.tags);
	if (tags.join('\n') !== m.tags.join('\n')) await engine.update({ memory_id: m.id, tags }, { actor });
	return tags;
}

/** The labels of `v`; an invalid_input error naming `field` when there are none. */
export function requireLabels(v: string, field: string): string[] {
	const labels = normalizeLabels(v);
	if (labels.length === 0) throw new MemoryError('invalid_input', `${field}: ❌ No valid labels provided`);
	return labels;
}

/** recall_memory's text: AutoMem's text, items and detailed blocks, or the JSON itself. */
import type { RecallArgs, RecallItem, RecallOut } from './recall-schemas';

/** The text of a recall result in the asked format (several blocks for `items`). */
export function renderRecall(out: RecallOut, input: RecallArgs): string | string[] {
	const format = input.format ?? 'text';
	if (format === 'json') return JSON.stringify(out, null, 2);
	if (out.results.length === 0) return 'No memories found matching your query.';
	const trailer = recallTrailer(out);
	if (format === 'items') return [...out.results.map((r) => `[${r.memory_id}] ${r.content}`), ...(trailer ? [trailer] : [])];
	const blocks = out.results.map((r, i) => (format === 'detailed' ? detailedBlock(r) : textBlock(r, i)));
	const page =
		out.mode === 'enumeration' ? ` (enumeration page: offset ${out.offset}, limit ${out.limit}${out.has_more ? ' — more pages available' : ''})` : '';
	return `Found ${out.results.length} memories${page}:\n\n${blocks.join('\n\n')}${trailer ? `\n\n${trailer}` : ''}`;
}

function recallTrailer(out: RecallOut): string {
	const parts: string[] = [];
	if (out.truncation) parts.push(`Response budget: ${out.truncation.omitted_results} results omitted.`);
	if (out.results.some((r) => r.content_truncated))
		parts.push('Some content previews truncated — fetch full records with recall_memory({ memory_id: "<id>" }).');
	return parts.length ? `[${parts.join(' ')}]` : '';
}

function textBlock(r: RecallItem, i: number): string {
	const tags = r.tags.length ? ` [${r.tags.join(', ')}]` : '';
	return `${i + 1}. ${r.content}${tags} (importance: ${r.importance}) score=${r.final_score.toFixed(3)} [${r.match_type}]\n   ID: ${r.memory_id}\n   Created: ${r.created_at}  Updated: ${r.updated_at}`;
}

function detailedBlock(r: RecallItem): string {
	const lines = [r.content, `  ID: ${r.memory_id}`, `  Type: ${r.type}`, `  Created: ${r.created_at}`, `  Updated: ${r.updated_at}`];
	if (r.last_accessed) lines.push(`  Accessed: ${r.last_accessed}`);
	lines.push(`  Importance: ${r.importance.toFixed(3)}`, `  Confidence: ${(r.confidence ?? 0).toFixed(3)}`);
	if (r.tags.length) lines.push(`  Tags: ${r.tags.join(', ')}`);
	lines.push(`  Score: ${r.final_score.toFixed(3)}`, `  Match: ${r.match_type}`);
	return lines.join('\n');
}

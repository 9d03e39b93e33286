/** How a store's answer words what a duplicate added to the memory it repeats (engine message and MCP text). */
import type { StoreOutput } from './schemas';

type Merged = Pick<StoreOutput['results'][number], 'merged_tags' | 'merged_metadata' | 'unmerged'>;

/**
 * "; its new tags "a", "b" and metadata keys k were added to that memory", plus what was left out
 * and why; empty when the duplicate added nothing.
 */
export function mergeNote(r: Merged): string {
	const added = [
		r.merged_tags?.length ? `tags ${r.merged_tags.map((t) => JSON.stringify(t)).join(', ')}` : '',
		r.merged_metadata?.length ? `metadata keys ${r.merged_metadata.join(', ')}` : '',
	].filter(Boolean);
	const left = r.unmerged?.length ? `; not added: ${r.unmerged.join('; ')}` : '';
	return `${added.length ? `; its new ${added.join(' and ')} were added to that memory` : ''}${left}`;
}

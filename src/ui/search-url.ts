/**
 * The memories list's search and filters as the query of its address (`#/?q=billing&tag=ops`),
 * so a reload, the back button or a shared link shows the same list. Only what differs from no
 * filter is written; anything unknown in the address is ignored, and a type that is not a memory
 * type is dropped rather than filtering everything away.
 */
import { MEMORY_TYPES, type MemoryType } from '../core/schemas';
import { toWellFormed } from '../core/well-formed';
import type { Filters } from './state/search.svelte';

const SORTS = ['score', 'time_desc', 'time_asc'] as const;

/** The query string (without `?`) for a search and its filters; empty when nothing is set. */
export function searchToParams(query: string, f: Filters): string {
	const p = new URLSearchParams();
	const add = (k: string, v: string) => p.append(k, toWellFormed(v));
	if (query.trim()) add('q', query);
	for (const t of f.tags) add('tag', t);
	if (f.tags.length > 1 && f.tagMode === 'all') add('tags', 'all');
	for (const t of f.excludeTags) add('not', t);
	for (const t of f.types) add('type', t);
	if (f.scope) add('scope', f.scope);
	if (f.time.trim()) add('when', f.time);
	if (f.currentOnly) add('current', '1');
	if (f.sort !== 'score') add('sort', f.sort);
	// URLSearchParams writes spaces as "+"; %20 reads the same and survives every copy and paste.
	return p.toString().replaceAll('+', '%20');
}

/** A search and its filters read back from a query string (inverse of searchToParams). */
export function paramsToSearch(qs: string): { query: string; filters: Filters } {
	const p = new URLSearchParams(qs);
	const sort = p.get('sort');
	const types = p.getAll('type').filter((t): t is MemoryType => (MEMORY_TYPES as readonly string[]).includes(t));
	return {
		query: p.get('q') ?? '',
		filters: {
			tags: p.getAll('tag').filter((t) => t !== ''),
			tagMode: p.get('tags') === 'all' ? 'all' : 'any',
			excludeTags: p.getAll('not').filter((t) => t !== ''),
			types,
			scope: p.get('scope') ?? '',
			time: p.get('when') ?? '',
			currentOnly: p.get('current') === '1',
			sort: (SORTS as readonly string[]).includes(sort ?? '') ? (sort as Filters['sort']) : 'score',
		},
	};
}

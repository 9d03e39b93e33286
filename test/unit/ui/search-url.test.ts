/** The list's search and filters in its address: written only when set, read back exactly. */
import { describe, expect, it } from 'vitest';
import { paramsToSearch, searchToParams } from '../../../src/ui/search-url';
import { parseHash, hashFor } from '../../../src/ui/state/router.svelte';

const none = { tags: [], excludeTags: [], tagMode: 'any' as const, types: [], scope: '', time: '', currentOnly: false, sort: 'score' as const };

describe('search in the address', () => {
	it('writes nothing for no search and no filter', () => {
		expect(searchToParams('', none)).toBe('');
		expect(searchToParams('   ', none)).toBe('');
	});

	it('round-trips every filter, tags with odd characters included', () => {
		const filters = {
			tags: ['c++', 'Food & Drink', 'a=b?c#d', 'über'],
			excludeTags: ['ops', '50%'],
			tagMode: 'all' as const,
			types: ['Decision' as const, 'Habit' as const],
			scope: 'work/pay',
			time: 'last week',
			currentOnly: true,
			sort: 'time_asc' as const,
		};
		const qs = searchToParams('billing "last week"', filters);
		expect(qs).not.toMatch(/[ #+]/);
		expect(paramsToSearch(qs)).toEqual({ query: 'billing "last week"', filters });
		// Through the router too: the hash keeps it whole.
		const route = parseHash(hashFor({ name: 'memories', search: qs }));
		expect(route).toEqual({ name: 'memories', search: qs });
	});

	it('ignores what it does not know and a type that is no memory type', () => {
		expect(paramsToSearch('type=Decision&type=Bogus&sort=sideways&x=1')).toEqual({ query: '', filters: { ...none, types: ['Decision'] } });
		expect(parseHash('#/')).toEqual({ name: 'memories' });
	});
});

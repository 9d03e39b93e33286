/**
 * Every filter holds the same with and without a query: recall ranks (query) or lists (no query),
 * and the timeline (the app's browse mode) takes the same filters. Issue 24: tags "all" with no
 * query listed memories carrying only one of the tags.
 */
import { describe, expect, it } from 'vitest';
import type { RecallInput, TimelineInput } from '../../../src/core/schemas';
import type { Engine } from '../../../src/engine/engine';
import { Clock, useEngines } from './helpers';

const DAY = 86_400_000;
const engines = useEngines();

/** Six notes that all mention the garden, so a query finds every one unless a filter drops it. */
async function corpus(clock: Clock): Promise<{ engine: Engine; ids: Record<string, string> }> {
	const engine = await engines({ now: clock.now });
	const at = (days: number) => new Date(clock.ms - days * DAY).toISOString();
	const items = {
		both: { content: 'Garden note: watered the tomatoes and basil.', tags: ['garden', 'herbs'], type: 'episodic', timestamp: at(1) },
		gardenOnly: { content: 'Garden note: the fence needs paint.', tags: ['garden'], type: 'Context', timestamp: at(3) },
		herbsOnly: { content: 'Garden note: basil prefers full sun.', tags: ['herbs'], type: 'knowledge', timestamp: at(10) },
		none: { content: 'Garden note: bought a new hose.', tags: [], type: 'episodic', timestamp: at(40) },
		other: { content: 'Garden note: compost in the other plot.', tags: ['garden', 'herbs'], type: 'episodic', scope: 'allotment', timestamp: at(2) },
		pests: { content: 'Garden note: aphids on the roses.', tags: ['garden', 'pests'], type: 'Insight', timestamp: at(5) },
	} as const;
	const ids: Record<string, string> = {};
	for (const [k, m] of Object.entries(items)) ids[k] = (await engine.store({ ...m, force: true } as never)).memory_id!;
	return { engine, ids };
}

/** Names of the memories recall returns for `filters`, with the query or without one. */
async function recalled(engine: Engine, ids: Record<string, string>, filters: RecallInput, query: boolean): Promise<string[]> {
	const r = await engine.recall({ ...filters, ...(query && { query: 'garden note' }), limit: 50 });
	return names(
		ids,
		r.results.map((x) => x.memory.id),
	);
}

/** Names of the memories the timeline lists for `filters`. */
async function listed(engine: Engine, ids: Record<string, string>, filters: TimelineInput): Promise<string[]> {
	const r = await engine.timeline({ ...filters, limit: 50 });
	return names(
		ids,
		r.memories.map((m) => m.id),
	);
}

function names(ids: Record<string, string>, got: string[]): string[] {
	const byId = new Map(Object.entries(ids).map(([k, v]) => [v, k]));
	return got.map((id) => byId.get(id) ?? id).sort();
}

const CASES: { name: string; filters: RecallInput & TimelineInput; expected: string[] }[] = [
	{ name: 'tags any', filters: { tags: ['herbs', 'pests'], tag_mode: 'any' }, expected: ['both', 'herbsOnly', 'other', 'pests'] },
	{ name: 'tags all', filters: { tags: ['garden', 'herbs'], tag_mode: 'all' }, expected: ['both', 'other'] },
	{ name: 'tags all within a scope', filters: { tags: ['garden', 'herbs'], tag_mode: 'all', scope: 'default' }, expected: ['both'] },
	{ name: 'without tags', filters: { exclude_tags: ['garden'] }, expected: ['herbsOnly', 'none'] },
	{ name: 'tags with exclusions', filters: { tags: ['garden'], exclude_tags: ['herbs'] }, expected: ['gardenOnly', 'pests'] },
	{ name: 'types', filters: { types: ['episodic'] }, expected: ['both', 'none', 'other'] },
	{ name: 'scope', filters: { scope: 'allotment' }, expected: ['other'] },
	{ name: 'time window (start/end)', filters: { start: '2026-03-06T00:00:00.000Z', end: '2026-03-09T12:00:00.000Z' }, expected: ['gardenOnly', 'other'] },
	{ name: 'time phrase', filters: { time_query: 'last 7 days' }, expected: ['both', 'gardenOnly', 'other', 'pests'] },
];

describe('filters hold with and without a query', () => {
	for (const c of CASES) {
		it(`${c.name}: recall with a query`, async () => {
			const { engine, ids } = await corpus(new Clock());
			expect(await recalled(engine, ids, c.filters, true)).toEqual(c.expected);
		});
		it(`${c.name}: recall without a query`, async () => {
			const { engine, ids } = await corpus(new Clock());
			expect(await recalled(engine, ids, c.filters, false)).toEqual(c.expected);
		});
		it(`${c.name}: the timeline (browse mode)`, async () => {
			const { engine, ids } = await corpus(new Clock());
			expect(await listed(engine, ids, c.filters)).toEqual(c.expected);
		});
	}

	it('current only: recall with and without a query skips a superseded memory', async () => {
		const clock = new Clock();
		const engine = await engines({ now: clock.now });
		const old = await engine.store({ content: 'Garden note: the hose is green.' });
		const nu = await engine.store({ content: 'Garden note: the hose is now blue.', supersedes_memory_id: old.memory_id } as never);
		for (const query of [true, false]) {
			const r = await engine.recall({ ...(query && { query: 'garden hose' }), current_only: true });
			expect(r.results.map((x) => x.memory.id)).toEqual([nu.memory_id]);
		}
	});
});

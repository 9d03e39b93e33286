/**
 * Strong and weaker matches (issue 24: "8 results for 'PostgreSQL'" with 8 memories): a hit is
 * strong when the memory's own words match or its meaning is clearly close; hits carried only by
 * faint meaning, a link or the priors are weak, and `matched` counts the strong ones.
 */
import { describe, expect, it } from 'vitest';
import { Clock, useEngines } from './helpers';

const engines = useEngines();

const NOTES = [
	'My cat Miso gets fed at 7am and 6pm.',
	"Bob's lunch is usually a sandwich at noon.",
	'Decision: moved billing from MongoDB to PostgreSQL because invoices need ACID transactions.',
	'Deploys happen on Tuesdays after the stand-up; never deploy on Fridays.',
	'The user prefers dark mode and concise answers with code first.',
	'Alice Chen owns the payments API; ask her before changing the webhook format.',
	'Use pnpm workspaces for the monorepo; npm workspaces were too slow on CI.',
	'Invoice totals were off by one cent because of floating-point rounding.',
];

async function notes() {
	const engine = await engines({ now: new Clock().now });
	const ids: string[] = [];
	for (const content of NOTES) ids.push((await engine.store({ content, force: true } as never)).memory_id!);
	return { engine, ids };
}

describe('match strength', () => {
	it('one word that one memory holds: that memory is the only strong match', async () => {
		const { engine, ids } = await notes();
		const r = await engine.recall({ query: 'PostgreSQL', limit: 20 });
		expect(r.matched).toBe(1);
		expect(r.results[0].memory.id).toBe(ids[2]);
		expect(r.results[0].strength).toBe('strong');
		expect(r.results.slice(1).every((x) => x.strength === 'weak')).toBe(true);
	});

	it('notes stored one after another are not neighbours: no neighbour share without a conversation', async () => {
		const { engine } = await notes();
		const r = await engine.recall({ query: 'PostgreSQL', limit: 20 });
		expect(r.results.every((x) => x.components.neighbor === 0)).toBe(true);
	});

	it('a query close in meaning to some memories marks them strong and the rest weak', async () => {
		const { engine, ids } = await notes();
		const r = await engine.recall({ query: 'what does the cat eat', limit: 20 });
		const strong = r.results.filter((x) => x.strength === 'strong').map((x) => x.memory.id);
		expect(strong).toContain(ids[0]);
		expect(strong).not.toContain(ids[3]);
		expect(r.matched).toBe(strong.length);
		expect(r.matched).toBeLessThan(NOTES.length);
	});

	it('a memory reached only through a link is weak and names where it came from', async () => {
		const engine = await engines({ now: new Clock().now });
		const a = await engine.store({ content: 'The quarterly roadmap review is on Thursday.' });
		const b = await engine.store({ content: 'Bring the printed slides and the budget sheet.' });
		await engine.associate({ memory1_id: a.memory_id, memory2_id: b.memory_id, type: 'RELATES_TO', strength: 1 } as never);
		const r = await engine.recall({ query: 'quarterly roadmap review', limit: 10 });
		const linked = r.results.find((x) => x.memory.id === b.memory_id)!;
		expect(linked.components.graph).toBeGreaterThan(0);
		expect(linked.via).toBe(a.memory_id);
		expect(linked.strength).toBe('weak');
		expect(r.results[0]).toMatchObject({ strength: 'strong' });
	});

	it('browsing without a query lists every memory as a match', async () => {
		const { engine } = await notes();
		const r = await engine.recall({ limit: 20 });
		expect(r.matched).toBe(NOTES.length);
		expect(r.results.every((x) => x.strength === 'strong')).toBe(true);
	});
});

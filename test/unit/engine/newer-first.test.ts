/**
 * Knowledge updates in recall: a newer memory stating another value of the same thing ranks above
 * the older one it nearly ties with, and says which it may update (newer-first.ts).
 */
import { describe, expect, it } from 'vitest';
import { renderRecall } from '../../../src/mcp/render';
import { useEngines } from './helpers';

const engines = useEngines();

const PAIRS = [
	['Alice moved to Berlin in March 2024', 'Alice moved to Munich in March 2025', 'where does alice live'],
	['My phone number is 555-1234', 'My phone number is now 555-9876', 'what is my phone number'],
	['Deploy day is Tuesday', 'Deploy day is Thursday now', 'when is deploy day'],
] as const;

async function seeded() {
	const engine = await engines();
	let t = Date.parse('2026-01-01T00:00:00Z');
	const at = () => new Date((t += 86_400_000)).toISOString();
	const ids = new Map<string, string>();
	for (const [older] of PAIRS) ids.set(older, (await engine.store({ content: older, timestamp: at() })).memory_id!);
	await engine.store({ content: 'The billing service runs on Kubernetes', timestamp: at() });
	for (const [, newer] of PAIRS) ids.set(newer, (await engine.store({ content: newer, timestamp: at() })).memory_id!);
	return { engine, ids };
}

describe('newer first', () => {
	it('ranks the newer value above the older one and names it in newer_than', async () => {
		const { engine, ids } = await seeded();
		for (const [older, newer, query] of PAIRS) {
			const out = await engine.recall({ query, limit: 5 });
			const order = out.results.map((r) => r.memory.content);
			expect(order.indexOf(newer), query).toBeLessThan(order.indexOf(older));
			expect(order.indexOf(newer), query).toBeGreaterThanOrEqual(0);
			expect(out.results[order.indexOf(newer)].newer_than).toEqual([ids.get(older)]);
			expect(out.results[order.indexOf(older)].newer_than).toBeUndefined();
		}
	});

	it('says so in the text an agent reads', async () => {
		const { engine } = await seeded();
		const out = await engine.recall({ query: 'when is deploy day', limit: 5 });
		const older = out.results.find((r) => r.memory.content === 'Deploy day is Tuesday')!;
		expect(renderRecall(out)).toContain(`newer than #${older.memory.seq}, may update it`);
	});

	it('leaves other orders alone: a time sort, and memories that are not about the same thing', async () => {
		const { engine } = await seeded();
		const asc = await engine.recall({ query: 'when is deploy day', limit: 5, sort: 'time_asc' });
		expect(asc.results.every((r) => r.newer_than === undefined)).toBe(true);
		const stamps = asc.results.map((r) => r.memory.timestamp);
		expect(stamps).toEqual([...stamps].sort());
		const billing = await engine.recall({ query: 'billing kubernetes', limit: 5 });
		expect(billing.results[0].memory.content).toBe('The billing service runs on Kubernetes');
		expect(billing.results[0].newer_than).toBeUndefined();
	});
});

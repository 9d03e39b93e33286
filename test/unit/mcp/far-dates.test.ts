/**
 * Dates far from now (before year 0 and past 9999, which ISO 8601 writes "-000044-…" and
 * "+010000-…") and windows over an entity's memories, through the real SDK client: every list
 * keeps time order, a validity window is checked by time, and an entity's chronology is windowed
 * as the timeline is.
 */
import { describe, expect, it } from 'vitest';
import { Clock, connect, data, errorText, makeEngine } from './helpers';

const ANCIENT = '-000044-03-15T00:00:00.000Z';
const FAR = '+010000-01-01T00:00:00.000Z';

async function seeded() {
	const clock = new Clock(); // 2026-03-10T12:00Z
	const engine = await makeEngine({ now: clock.now });
	const c = await connect(engine);
	const ai = await connect(engine, 'aiakiv');
	for (const [content, timestamp] of [
		['Alice founded the chess club', '2026-03-09T10:00:00Z'],
		['Alice met Bob in Rome', '2026-03-01T10:00:00Z'],
		['Alice wrote her first book', '2020-05-01T10:00:00Z'],
		['Alice appears in an ancient scroll', ANCIENT],
		['Alice will be remembered', FAR],
		// No offset: noon where the engine runs, on 4 March.
		['Alice painted the fence', '2026-03-04T12:00'],
	])
		data(await c.call('store_memory', { content, timestamp }));
	return { engine, c, ai, close: async () => (await c.close(), await ai.close(), await engine.close()) };
}

const times = (xs: { timestamp: string }[]) => xs.map((x) => x.timestamp);

describe('dates past 9999 and before year 0', () => {
	it('keep time order in find_memories_by_entity, aiakiv list_memory_timeline({entity}) and a graph START on an entity (text order put them first)', async () => {
		const s = await seeded();
		try {
			const newest = times(data<{ memories: { timestamp: string }[] }>(await s.c.call('find_memories_by_entity', { entity: 'Alice' })).memories);
			expect(newest[0]).toBe(FAR);
			expect(newest.at(-1)).toBe(ANCIENT);
			expect(newest).toEqual([...newest].sort((a, b) => Date.parse(b) - Date.parse(a)));
			const oldest = times(data<{ events: { timestamp: string }[] }>(await s.ai.call('list_memory_timeline', { entity: 'Alice' })).events);
			expect(oldest).toEqual([...newest].reverse());
			const rows = data<{ rows: { 't.timestamp': string }[] }>(
				await s.c.call('query_memory_graph', { query: 'START t = events(entity: "Alice") RETURN t.timestamp LIMIT 2' }),
			).rows;
			expect(rows.map((r) => r['t.timestamp'])).toEqual([FAR, newest[1]]);
		} finally {
			await s.close();
		}
	});

	it('a validity window is checked by time: 2020 → year 10000 is stored, year 10000 → 2020 is refused (it was the other way round)', async () => {
		const s = await seeded();
		try {
			const ok = data<{ memory_id: string }>(
				await s.c.call('store_memory', { content: 'Valid for ages', t_valid: '2020-01-01T00:00:00Z', t_invalid: FAR }),
			);
			expect(errorText(await s.c.call('store_memory', { content: 'Ends before it starts', t_valid: FAR, t_invalid: '2020-01-01T00:00:00Z' }))).toMatch(
				/^invalid_input: t_invalid: must not be before t_valid/,
			);
			expect(errorText(await s.c.call('update_memory', { memory_id: ok.memory_id, t_valid: '+010001-01-01T00:00:00Z' }))).toMatch(
				/^invalid_input: t_invalid: must not be before t_valid/,
			);
			data(await s.c.call('update_memory', { memory_id: ok.memory_id, t_valid: ANCIENT }));
		} finally {
			await s.close();
		}
	});
});

describe("an entity's memories in a window", () => {
	it('aiakiv list_memory_timeline({entity, time_query}) keeps to the window (time_query was ignored: the whole chronology came back)', async () => {
		const s = await seeded();
		try {
			const week = data<{ events: { timestamp: string }[]; total: number }>(
				await s.ai.call('list_memory_timeline', { entity: 'Alice', time_query: 'last week' }),
			);
			const without = data<{ events: { timestamp: string }[] }>(await s.ai.call('list_memory_timeline', { time_query: 'last week' }));
			expect(week.total).toBe(without.events.length);
			expect(times(week.events)).toEqual(times(without.events));
			expect(week.total).toBeGreaterThan(0);
			expect(week.total).toBeLessThan(6);
		} finally {
			await s.close();
		}
	});

	it('an end date alone includes that day, with or without an entity (with one, the day was left out)', async () => {
		const s = await seeded();
		try {
			const day = { start: '2026-03-04', end: '2026-03-04' };
			const plain = data<{ events: { timestamp: string }[] }>(await s.ai.call('list_memory_timeline', day)).events;
			const entity = data<{ events: { timestamp: string }[] }>(await s.ai.call('list_memory_timeline', { entity: 'Alice', ...day })).events;
			expect(plain).toHaveLength(1);
			expect(times(entity)).toEqual(times(plain));
			const native = data<{ memories: { content: string }[] }>(await s.c.call('find_memories_by_entity', { entity: 'Alice', ...day })).memories;
			expect(native.map((m) => m.content)).toEqual(['Alice painted the fence']);
			expect(errorText(await s.c.call('find_memories_by_entity', { entity: 'Alice', time_query: 'when pigs fly' }))).toMatch(
				/^invalid_input: time_query:/,
			);
			expect(errorText(await s.c.call('find_memories_by_entity', { entity: 'Alice', start: '2026-03-05', end: '2026-03-04' }))).toMatch(
				/must not be before start .* at end/,
			);
		} finally {
			await s.close();
		}
	});
});

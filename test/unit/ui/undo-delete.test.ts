/**
 * Undo after delete puts the memories back exactly: the rows as they were (vectors of every model,
 * entities found rather than given, a conversation turn's context) and every link in and out.
 */
import { describe, expect, it } from 'vitest';
import { restoreMemories, snapshotMemories } from '../../../src/ui/actions';
import type { AppContext } from '../../../src/ui/state/context';
import { Clock, storedLinks, useEngines } from '../engine/helpers';

const clock = new Clock();
const engines = useEngines();

describe('undo after delete', () => {
	it('restores the rows and links exactly', async () => {
		const e = await engines({ now: clock.now });
		const app = { engine: e, live: { touch() {} } } as unknown as AppContext;
		await e.store({
			memories: [
				{ id: 'q', content: 'Where does Maria Silva sit?', metadata: { session_id: 's' } },
				{ id: 'a', content: 'On the third floor, by the window.', metadata: { session_id: 's' }, embedding: [0.1, 0.2, 0.3] },
				{ id: 'other', content: 'Billing runs on Fridays', force: true },
			],
		});
		await e.associate({ memory1_id: 'other', memory2_id: 'a', type: 'RELATES_TO', strength: 0.4, reason: 'in' });
		await e.associate({ memory1_id: 'a', memory2_id: 'other', type: 'PART_OF', strength: 0.6, role: 'out' });
		const before = await e.db.memories.orderBy('seq').toArray();
		const links = await storedLinks(e);
		expect(before.find((r) => r.id === 'a')).toMatchObject({ context: expect.any(String), entities_given: false });
		expect(Object.keys(before.find((r) => r.id === 'a')!.vectors!).length).toBe(2);

		const snap = await snapshotMemories(app, ['q', 'a']);
		await e.delete({ memory_ids: ['q', 'a'] });
		clock.advance(60_000);
		expect(await restoreMemories(app, snap)).toBe(2);

		const byId = (rows: typeof before) => Object.fromEntries(rows.map(({ links: _l, ...r }) => [r.id, r]));
		expect(byId(await e.db.memories.orderBy('seq').toArray())).toEqual(byId(before));
		const key = (a: { from: string; to: string; type: string }) => `${a.from}|${a.to}|${a.type}`;
		const sorted = (l: typeof links) => l.map((a) => ({ ...a })).sort((x, y) => key(x).localeCompare(key(y)));
		expect(sorted(await storedLinks(e))).toEqual(sorted(links));
	});
});

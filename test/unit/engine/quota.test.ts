/**
 * A full disk, as Chromium enforces it (test/e2e/quota.test.ts found the rule): any request that
 * adds or puts fails with QuotaExceededError, a transaction of deletes alone commits.
 */
import { describe, expect, it } from 'vitest';
import { quota, rejection, useEngines } from './helpers';

const engines = useEngines();

describe('a full disk', () => {
	it('deletes by id and by tags, gets uncounted, refuses an update with how to make room, then writes again', async () => {
		const engine = await engines();
		const state = { full: false };
		// Dexie builds its middleware stack when it opens.
		engine.db.use(quota(state));
		engine.db.close();
		await engine.db.open();
		const a = await engine.store({ content: 'The staging database resets every Sunday', tags: ['ops'] });
		const b = await engine.store({ content: 'Deploys happen on Tuesdays after the stand-up', tags: ['ops', 'deploy'] });
		const c = await engine.store({ content: 'Alice owns the payments API', tags: ['people'] });
		await engine.associate({ memory1_id: c.memory_id!, memory2_id: a.memory_id!, type: 'RELATES_TO' });
		state.full = true;
		expect((await rejection(engine.store({ content: 'one more' }))).code).toBe('quota_exceeded');
		expect(await engine.storageFull()).toMatch(/^\d{4}-/);

		const got = await engine.get({ memory_id: c.memory_id! });
		expect(got.memory.id).toBe(c.memory_id);
		expect(got.memory.access_count).toBe(0);

		const upd = await rejection(engine.update({ memory_id: c.memory_id!, content: 'Alice' }));
		expect(upd.code).toBe('quota_exceeded');
		expect(upd.message).toMatch(/^update_memory: storage is full.*delete memories first/);

		const byId = await engine.delete({ memory_id: a.memory_id! });
		expect(byId).toMatchObject({ success: true, deleted_count: 1 });
		expect(byId.message).toMatch(
			/; storage is full: \d other memor(y keeps its link|ies keep their links) to them, and the history entries wait until there is room$/,
		);
		const byTags = await engine.delete({ tags: ['deploy'] });
		expect(byTags).toMatchObject({ deleted_count: 1, deleted_ids: [b.memory_id] });
		expect(await engine.db.memories.count()).toBe(1);
		expect((await engine.stats({})).total_memories).toBe(1);
		expect((await engine.recall({ query: 'staging database deploys' })).results.map((r) => r.memory.id)).not.toContain(a.memory_id);
		expect(await engine.db.snapshots.count()).toBe(0);
		// The dangling link does no harm where links are followed.
		expect((await engine.get({ memory_id: c.memory_id!, track_access: false })).related_memories).toEqual([]);

		state.full = false;
		const d = await engine.store({ content: 'Written once there is room again' });
		expect(d.success).toBe(true);
		expect(await engine.storageFull()).toBeUndefined();
		expect((await engine.history(a.memory_id!)).map((h) => h.action)).toContain('deleted');
		expect((await engine.update({ memory_id: c.memory_id!, content: 'Alice owns billing' })).changed).toContain('content');
	});
});

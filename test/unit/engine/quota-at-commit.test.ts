/**
 * A full disk as Chromium really refuses it: every request of the transaction succeeds and the
 * commit fails with QuotaExceededError, after the engine has mirrored the change into its
 * index (index-sync.ts). A refused update must land nowhere: not in IndexedDB, not in the
 * index's search text, not in the history, and the same update must change the content once
 * there is room (test/e2e/quota.test.ts once saw it reported unchanged).
 */
import { describe, expect, it } from 'vitest';
import { quotaAtCommit, rejection, useEngines } from './helpers';

const engines = useEngines();

describe('a full disk refused at commit', () => {
	it('an update refused at commit leaves the row, the index and the history as they were', async () => {
		const engine = await engines();
		const state = { full: false };
		engine.db.use(quotaAtCommit(state));
		engine.db.close();
		await engine.db.open();
		const a = await engine.store({ content: 'Alice Chen owns the payments API; ask her before changing webhooks', tags: ['people'] });
		await engine.store({ content: 'Deploys happen on Tuesdays after the stand-up', tags: ['ops'] });
		const before = (await engine.get({ memory_id: a.memory_id!, track_access: false })).memory;

		state.full = true;
		const upd = await rejection(engine.update({ memory_id: a.memory_id!, content: 'Zebra crossings near the harbour', tags: ['zebra'] }));
		expect(upd.code).toBe('quota_exceeded');
		expect(upd.message).toMatch(/^update_memory: storage is full/);
		expect((await engine.db.memories.get(a.memory_id!))?.content).toBe(before.content);
		expect((await engine.history(a.memory_id!)).map((h) => h.action)).not.toContain('updated');
		// The index mirrored the change before the commit failed: it must hold the old row again.
		expect(engine.ctx.index.withTags(['zebra'], 'any')).toEqual([]);
		expect(engine.ctx.index.withTags(['people'], 'any')).toEqual([a.memory_id]);
		expect((await engine.recall({ query: 'zebra crossings harbour' })).results.map((r) => r.memory.content)).not.toContain(
			'Zebra crossings near the harbour',
		);

		state.full = false;
		const ok = await engine.update({ memory_id: a.memory_id!, content: 'Zebra crossings near the harbour' });
		expect(ok.changed).toContain('content');
		expect((await engine.db.memories.get(a.memory_id!))?.content).toBe('Zebra crossings near the harbour');
	});
});

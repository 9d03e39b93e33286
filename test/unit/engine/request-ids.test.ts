/**
 * Idempotent writes (engine/request-ids.ts): a call with a request_id is applied at most once,
 * replayed with its original result, refused when the id comes back with other arguments, and
 * remembered across a reload, across engines on one database, and (held) on a full disk.
 */
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/engine/request-ids';
import { recordRequests, REQUEST_RETENTION } from '../../../src/store/requests';
import { Clock, freshName, quota, rejection, useEngines } from './helpers';

const engines = useEngines();

describe('request_id', () => {
	describe('replay', () => {
		it('returns the original store result marked replayed, and stores nothing again', async () => {
			const engine = await engines();
			const first = await engine.store({ content: 'The release train leaves on Thursdays', tags: ['ops'], request_id: 'r-1' });
			const again = await engine.store({ tags: ['ops'], content: 'The release train leaves on Thursdays', request_id: 'r-1' });
			expect(first.replayed).toBeUndefined();
			expect(again).toMatchObject({ replayed: true, memory_id: first.memory_id, seq: first.seq, results: first.results, stored_count: 1 });
			expect(again.message).toBe(`Already applied (request_id "r-1"), nothing written again: ${first.message}`);
			expect(await engine.db.memories.count()).toBe(1);
		});

		it('replays an update as it was, though the memory changed since', async () => {
			const engine = await engines();
			const { memory_id } = await engine.store({ content: 'Backups run at two in the morning' });
			const first = await engine.update({ memory_id: memory_id!, content: 'Backups run at three in the morning', request_id: 'u-1' });
			await engine.update({ memory_id: memory_id!, content: 'Backups run at four in the morning' });
			const again = await engine.update({ memory_id: memory_id!, content: 'Backups run at three in the morning', request_id: 'u-1' });
			expect(again).toEqual({ ...first, message: `Already applied (request_id "u-1"), nothing written again: ${first.message}`, replayed: true });
			expect((await engine.get({ memory_id: memory_id! })).memory.content).toBe('Backups run at four in the morning');
		});

		it('replays a delete whose memory is gone instead of answering not_found, and deletes nothing else', async () => {
			const engine = await engines();
			const a = await engine.store({ content: 'The office closes at six' });
			await engine.store({ content: 'Lunch is served at noon' });
			const first = await engine.delete({ memory_id: a.memory_id!, request_id: 'd-1' });
			const again = await engine.delete({ memory_id: a.memory_id!, request_id: 'd-1' });
			expect(again).toMatchObject({ replayed: true, deleted_count: 1, deleted_ids: first.deleted_ids });
			expect(await engine.db.memories.count()).toBe(1);
		});

		it('replays an association without rewriting it', async () => {
			const engine = await engines();
			const a = await engine.store({ content: 'Alice leads the payments team' });
			const b = await engine.store({ content: 'The payments API moved to Go' });
			const args = { memory1_id: a.memory_id!, memory2_id: b.memory_id!, type: 'RELATES_TO' as const, strength: 0.7 };
			const first = await engine.associate({ ...args, request_id: 'a-1' });
			const stamp = (await engine.db.settings.get('sys:counters'))?.value;
			const again = await engine.associate({ ...args, request_id: 'a-1' });
			expect(again).toMatchObject({ replayed: true, created_count: 1, updated_count: 0, succeeded: first.succeeded });
			expect((await engine.db.settings.get('sys:counters'))?.value).toEqual(stamp);
		});

		it('replays an unlink whose link is gone instead of answering not_found, removing nothing else', async () => {
			const engine = await engines();
			const a = await engine.store({ content: 'The billing service owns invoices' });
			const b = await engine.store({ content: 'Invoices are emailed at seven' });
			const ids = { memory1_id: a.memory_id!, memory2_id: b.memory_id! };
			await engine.associate({ ...ids, type: 'RELATES_TO' });
			await engine.associate({ ...ids, type: 'LEADS_TO' });
			const first = await engine.deleteAssociation({ ...ids, type: 'RELATES_TO', request_id: 'l-1' });
			const again = await engine.deleteAssociation({ ...ids, type: 'RELATES_TO', request_id: 'l-1' });
			expect(first.replayed).toBeUndefined();
			expect(again).toEqual({ ...first, message: `Already applied (request_id "l-1"), nothing written again: ${first.message}`, replayed: true });
			const left = (await engine.associationsOf(a.memory_id!)).map((l) => l.type);
			expect(left).toContain('LEADS_TO');
			expect(left).not.toContain('RELATES_TO');
			await expect(engine.deleteAssociation({ ...ids, request_id: 'l-1' })).rejects.toMatchObject({ code: 'conflict' });
		});
	});

	describe('conflict', () => {
		it('refuses the same request_id with other arguments, naming request_id', async () => {
			const engine = await engines();
			await engine.store({ content: 'Standup is at nine', request_id: 'c-1' });
			const e = await rejection(engine.store({ content: 'Standup is at ten', request_id: 'c-1' }));
			expect(e.code).toBe('conflict');
			expect(e.message).toMatch(/^request_id: "c-1" was already used for other arguments \(at \d{4}-.*\); a new call needs a new request_id$/);
			expect(await engine.db.memories.count()).toBe(1);
		});

		it('refuses the same request_id for another operation', async () => {
			const engine = await engines();
			const { memory_id } = await engine.store({ content: 'Standup is at nine', request_id: 'c-2' });
			const e = await rejection(engine.delete({ memory_id: memory_id!, request_id: 'c-2' }));
			expect(e.code).toBe('conflict');
			expect(e.message).toMatch(/^request_id: "c-2" was already used for store_memory/);
			expect(await engine.db.memories.count()).toBe(1);
		});

		it('hashes arguments canonically: key order and undefined members do not matter', () => {
			expect(canonicalJson({ b: [1, { d: 2, c: undefined }], a: 'x' })).toBe(canonicalJson({ a: 'x', b: [1, { d: 2 }] }));
			expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
		});
	});

	describe('concurrent duplicates', () => {
		it('applies the same store once when both copies race in one engine', async () => {
			const engine = await engines();
			const args = { content: 'Deploy freeze starts on the 20th', request_id: 'race-1' };
			const [x, y] = await Promise.all([engine.store(args), engine.store(args)]);
			expect([x.replayed, y.replayed].sort()).toEqual([true, undefined]);
			expect(y.memory_id).toBe(x.memory_id);
			expect(await engine.db.memories.count()).toBe(1);
		});

		it('applies the same batch store once when two engines on one database (two tabs) race', async () => {
			const dbName = freshName();
			const [one, two] = [await engines({ dbName }), await engines({ dbName })];
			// `force` skips duplicate detection, which the second tab's index could otherwise do by luck.
			const args = {
				memories: [
					{ content: 'Tab race one', force: true },
					{ content: 'Tab race two', force: true },
				],
				request_id: 'race-2',
			};
			const [x, y] = await Promise.all([one.store(args), two.store(args)]);
			expect([x.replayed, y.replayed].sort()).toEqual([true, undefined]);
			expect(y.results).toEqual(x.results);
			expect(await one.db.memories.count()).toBe(2);
		});

		it('applies the same delete once when two engines race', async () => {
			const dbName = freshName();
			const [one, two] = [await engines({ dbName }), await engines({ dbName })];
			const a = await one.store({ content: 'A memory both tabs delete' });
			const [x, y] = await Promise.all([
				one.delete({ memory_id: a.memory_id!, request_id: 'race-3' }),
				two.delete({ memory_id: a.memory_id!, request_id: 'race-3' }),
			]);
			expect([x.replayed, y.replayed].sort()).toEqual([true, undefined]);
			expect(y.deleted_ids).toEqual(x.deleted_ids);
		});
	});

	describe('persistence', () => {
		it('recognises a replay after the database is closed and opened again (a reload)', async () => {
			const dbName = freshName();
			const before = await engines({ dbName });
			const first = await before.store({ content: 'The VPN needs a new certificate in May', request_id: 'reload-1' });
			await before.close();
			const after = await engines({ dbName });
			const again = await after.store({ content: 'The VPN needs a new certificate in May', request_id: 'reload-1' });
			expect(again).toMatchObject({ replayed: true, memory_id: first.memory_id });
			expect(await after.db.memories.count()).toBe(1);
		});
	});

	describe('retention', () => {
		it('forgets request ids older than 7 days, trimmed by a later recorded write', async () => {
			const clock = new Clock();
			const engine = await engines({ now: clock.now });
			await engine.store({ content: 'Old request', request_id: 'old' });
			clock.advance(REQUEST_RETENTION.maxAgeMs + 1);
			await engine.store({ content: 'New request', request_id: 'new' });
			expect(await engine.db.requests.toCollection().primaryKeys()).toEqual(['new']);
		});

		it('keeps at most the newest maxKeys request ids', async () => {
			const engine = await engines();
			const db = engine.db;
			const row = (i: number) => ({ id: `k${i}`, op: 'store_memory', hash: 'h', at: 1000 + i, result: [] });
			const retention = { maxAgeMs: REQUEST_RETENTION.maxAgeMs, maxKeys: 3 };
			await db.write(() => recordRequests(db, [1, 2, 3].map(row), 2000, retention));
			await db.write(() => recordRequests(db, [row(4), row(5)], 2000, retention));
			expect(await db.requests.toCollection().primaryKeys()).toEqual(['k3', 'k4', 'k5']);
		});
	});

	describe('a full disk', () => {
		it("holds a delete's request_id in the tab, says so, replays it, and records it with the next write once there is room", async () => {
			const dbName = freshName();
			const engine = await engines({ dbName });
			const state = { full: false };
			engine.db.use(quota(state));
			engine.db.close();
			await engine.db.open();
			const a = await engine.store({ content: 'The staging database resets every Sunday' });
			state.full = true;
			const first = await engine.delete({ memory_id: a.memory_id!, request_id: 'full-1' });
			expect(first).toMatchObject({ deleted_count: 1, request_recorded: false });
			expect(first.message).toMatch(/; its request_id is held in this tab until there is room to record it/);
			expect(await engine.delete({ memory_id: a.memory_id!, request_id: 'full-1' })).toMatchObject({ replayed: true, deleted_count: 1 });
			expect(await engine.db.requests.get('full-1')).toBeUndefined();
			state.full = false;
			await engine.store({ content: 'Room again' });
			expect(await engine.db.requests.get('full-1')).toMatchObject({ op: 'delete_memory' });
			await engine.close();
			const after = await engines({ dbName });
			const again = await after.delete({ memory_id: a.memory_id!, request_id: 'full-1' });
			expect(again).toMatchObject({ replayed: true, deleted_count: 1 });
			expect(again).not.toHaveProperty('request_recorded');
		});
	});
});

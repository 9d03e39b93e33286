import { describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/engine/engine';
import { MAX_SIMILAR } from '../../../src/engine/store-ops';
import { vectorCount } from '../../../src/store/vectors';
import { Clock, freshName, rejection, storedLinks, useEngines } from './helpers';

let engine: Engine;
const engines = useEngines();
/** A made-up word for `i` (no vector, so no two of them are near-duplicates). */
const nonsense = (i: number) =>
	['zo', 'qua', 'rik', 'ven', 'tul', 'mox', 'pe', 'sar'].map((s, k) => (k < 3 || (i >> k) & 1 ? s[(i + k) % s.length] + s : '')).join('') + i.toString(36);
const fresh = (clock = new Clock()) => engines({ now: clock.now });

describe('Engine', () => {
	describe('store', () => {
		it('stores one memory with the documented defaults and seq 1', async () => {
			engine = await fresh();
			const out = await engine.store({ content: 'We deploy on Tuesdays' });
			expect(out).toMatchObject({ success: true, seq: 1, stored_count: 1, duplicate_count: 0 });
			const { memory } = await engine.get({ memory_id: out.memory_id!, track_access: false });
			expect(memory).toMatchObject({
				content: 'We deploy on Tuesdays',
				type: 'Context',
				scope: 'default',
				importance: 0.5,
				confidence: 0.8,
				tags: [],
				access_count: 0,
				timestamp: '2026-03-10T12:00:00.000Z',
				embedding_tables: ['engram/glove-sif-100d'],
			});
			expect(memory.id).toMatch(/^[0-9a-f-]{36}$/);
		});

		it('maps importance levels to 0.25, 0.5, 0.75 and 1', async () => {
			engine = await fresh();
			const levels = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
			const out = await engine.store({
				memories: levels.map((importance, i) => ({ content: `Fact number ${i} about ${importance} things`, importance })),
			});
			const got = await engine.getMemories(out.results.map((r) => r.memory_id));
			expect(got.map((m) => m!.importance)).toEqual([0.25, 0.5, 0.75, 1]);
		});

		it('assigns seq in insertion order and never reuses one after a delete', async () => {
			engine = await fresh();
			const a = await engine.store({ content: 'The office wifi password changes monthly' });
			const b = await engine.store({ content: 'Maria leads the design team in Lisbon' });
			await engine.delete({ memory_id: b.memory_id! });
			const c = await engine.store({ content: 'Invoices are sent on the first of the month' });
			expect([a.seq, b.seq, c.seq]).toEqual([1, 2, 3]);
		});

		it('finds a memory in recall as soon as store returns', async () => {
			engine = await fresh();
			await engine.store({ content: 'Backups of the database run nightly at two in the morning' });
			const r = await engine.recall({ query: 'when do database backups run' });
			expect(r.results[0]?.memory.content).toBe('Backups of the database run nightly at two in the morning');
		});

		it('storing a near-duplicate returns the existing id as duplicate_of', async () => {
			engine = await fresh();
			const first = await engine.store({ content: 'We decided to use PostgreSQL for the billing service' });
			const again = await engine.store({ content: 'we decided to use postgresql for the billing service.' });
			expect(again).toMatchObject({ memory_id: first.memory_id, duplicate_of: first.memory_id, stored_count: 0, duplicate_count: 1 });
			expect(again.results[0]).toMatchObject({ status: 'duplicate', similarity: 1 });
			const reworded = await engine.store({ content: 'All tests must pass before a pull request can be merged' });
			const dup = await engine.store({ content: 'Tests must pass before a pull request can be merged' });
			expect(dup.duplicate_of).toBe(reworded.memory_id);
			expect(dup.results[0].similarity).toBeGreaterThanOrEqual(0.95);
			expect((await engine.stats({})).total_memories).toBe(2);
		});

		it('stores a one-word contrast as a new memory, not a duplicate', async () => {
			engine = await fresh();
			await engine.store({ content: 'Deploys to production happen every Tuesday afternoon' });
			await engine.store({ content: 'The feature flag is enabled in production' });
			const thursday = await engine.store({ content: 'Deploys to production happen every Thursday afternoon' });
			const negated = await engine.store({ content: 'The feature flag is not enabled in production' });
			expect([thursday.results[0].status, negated.results[0].status]).toEqual(['stored', 'stored']);
		});

		it('stores "team A" and "team B" as two memories, not duplicates', async () => {
			engine = await fresh();
			const a = await engine.store({ content: 'Meeting with team A at 3pm' });
			const b = await engine.store({ content: 'Meeting with team B at 3pm' });
			const batch = await engine.store({ memories: [{ content: 'Standup with squad C at 9am' }, { content: 'Standup with squad D at 9am' }] });
			expect([a, b, ...batch.results.map((r) => ({ results: [r] }))].map((o) => o.results[0].status)).toEqual(['stored', 'stored', 'stored', 'stored']);
			expect((await engine.stats({})).total_memories).toBe(4);
		});

		it('never drops a store with a caller-given id: stores it, links SIMILAR_TO and says so', async () => {
			engine = await fresh();
			const a = await engine.store({ id: 'a', content: 'The billing latency dashboard gained a p99 panel.' });
			// Near-duplicate, exact duplicate (stored), exact duplicate (earlier in the batch).
			const b = await engine.store({ id: 'b', content: 'the billing latency dashboard gained a p99 panel' });
			const batch = await engine.store({
				memories: [
					{ id: 'c', content: 'The billing latency dashboard gained a p99 panel.' },
					{ id: 'd', content: 'Rotate the signing keys every quarter.' },
					{ id: 'e', content: 'Rotate the signing keys every quarter.' },
				],
			});
			expect(a.memory_id).toBe('a');
			expect(b).toMatchObject({ memory_id: 'b', stored_count: 1, duplicate_count: 0 });
			expect(b.results[0]).toMatchObject({ status: 'stored', near_duplicate_of: 'a', similarity: 1 });
			expect(b.message).toMatch(/nearly repeats memory a .*SIMILAR_TO/);
			expect(batch.results.map((r) => [r.memory_id, r.status, r.near_duplicate_of])).toEqual([
				['c', 'stored', 'a'],
				['d', 'stored', undefined],
				['e', 'stored', 'd'],
			]);
			const links = await storedLinks(engine);
			for (const [from, to] of [
				['b', 'a'],
				['c', 'a'],
				['e', 'd'],
			])
				expect(links.some((l) => l.type === 'SIMILAR_TO' && ((l.from === from && l.to === to) || (l.from === to && l.to === from)))).toBe(true);
			// Without an id the duplicate is still folded.
			expect((await engine.store({ content: 'Rotate the signing keys every quarter' })).results[0]).toMatchObject({
				status: 'duplicate',
				duplicate_of: 'd',
			});
		});

		it('reports possible_update_of: a similar memory with another number or name, not a rewording', async () => {
			engine = await fresh();
			const a = await engine.store({ content: 'The staging deploy window is on Tuesday at 3pm' });
			const b = await engine.store({ content: 'The staging deploy window is on Thursday at 3pm' });
			expect(b.results[0]).toMatchObject({ status: 'stored', possible_update_of: [a.memory_id] });
			const batch = await engine.store({
				memories: [{ content: 'Our rate limit is 100 requests per minute' }, { content: 'Our rate limit is 1000 requests per minute' }],
			});
			expect(batch.results[1].possible_update_of).toEqual([batch.results[0].memory_id]);
			const other = await engine.store({ content: 'Bake sourdough bread every Sunday morning' });
			expect(other.results[0].possible_update_of).toBeUndefined();
		});

		it('compares a batch item with its MAX_SIMILAR nearest only, as a single store does', async () => {
			engine = await fresh();
			const limits = [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000];
			const batch = await engine.store({ memories: limits.map((n) => ({ content: `Our rate limit is ${n} requests per minute` })) });
			const last = batch.results.at(-1)!;
			const earlier = batch.results.slice(0, -1).map((r) => r.memory_id);
			expect(last.status).toBe('stored');
			expect(last.possible_update_of!.length).toBeGreaterThan(0);
			expect(last.possible_update_of!.length).toBeLessThanOrEqual(MAX_SIMILAR);
			for (const id of last.possible_update_of!) expect(earlier).toContain(id);
			// One by one, the tenth store sees the same: its MAX_SIMILAR nearest.
			const alone = await fresh();
			let lastAlone: Awaited<ReturnType<Engine['store']>> | undefined;
			for (const n of limits) lastAlone = await alone.store({ content: `Our rate limit is ${n} requests per minute` });
			expect(lastAlone!.results[0].possible_update_of).toHaveLength(last.possible_update_of!.length);
		});

		it('stores an exact duplicate without a vector under a caller-given id', async () => {
			engine = await fresh();
			await engine.store({ id: 'x1', content: 'Qzxv Wvbn Plokk.' });
			const b = await engine.store({ id: 'x2', content: 'qzxv wvbn plokk' });
			expect(b.results[0]).toMatchObject({ memory_id: 'x2', status: 'stored', near_duplicate_of: 'x1' });
			expect((await storedLinks(engine)).some((l) => l.type === 'SIMILAR_TO' && l.from === 'x2' && l.to === 'x1')).toBe(true);
		});

		it('treats the same text in another scope as a new memory', async () => {
			engine = await fresh();
			const a = await engine.store({ content: 'Use tabs for indentation', scope: 'project-a' });
			const b = await engine.store({ content: 'Use tabs for indentation', scope: 'project-b' });
			expect(b.results[0].status).toBe('stored');
			expect(b.memory_id).not.toBe(a.memory_id);
		});

		it('stores a duplicate anyway with force', async () => {
			engine = await fresh();
			const a = await engine.store({ content: 'Use tabs for indentation' });
			const b = await engine.store({ content: 'Use tabs for indentation', force: true });
			expect(b.results[0].status).toBe('stored');
			expect(b.memory_id).not.toBe(a.memory_id);
		});

		it('finds exact duplicates by content without any vector, through a reopen, an update and a delete', async () => {
			// Words the model does not know: no vector, so only the exact check can see the duplicate.
			const dbName = freshName();
			engine = await engines({ dbName });
			const a = await engine.store({ content: 'Qzxv Wvbn Plokk.' });
			expect(engine.ctx.index.hasVector(a.memory_id!)).toBe(false);
			expect((await engine.store({ content: 'qzxv  wvbn plokk' })).results[0]).toMatchObject({
				status: 'duplicate',
				duplicate_of: a.memory_id,
				similarity: 1,
			});
			await engine.close();
			// Reopened from the snapshot: the restored index names the candidates.
			engine = await engines({ dbName });
			expect(engine.indexOrigin).toBe('snapshot');
			expect((await engine.store({ content: 'QZXV wvbn plokk' })).duplicate_of).toBe(a.memory_id);
			await engine.update({ memory_id: a.memory_id!, content: 'Mmrrg Tthv' });
			expect((await engine.store({ content: 'qzxv wvbn plokk' })).results[0].status).toBe('stored');
			expect((await engine.store({ content: 'mmrrg tthv' })).duplicate_of).toBe(a.memory_id);
			await engine.delete({ memory_id: a.memory_id! });
			expect((await engine.store({ content: 'mmrrg tthv' })).results[0].status).toBe('stored');
		});

		it('detects duplicates inside one batch', async () => {
			engine = await fresh();
			const out = await engine.store({ memories: [{ content: 'He is allergic to peanuts' }, { content: 'He is allergic to peanuts!' }] });
			expect(out.results.map((r) => r.status)).toEqual(['stored', 'duplicate']);
			expect(out.results[1].duplicate_of).toBe(out.results[0].memory_id);
			expect(out.results[1].seq).toBe(out.results[0].seq);
		});

		it('writes a large batch in chunks: seqs in order, links and duplicates across chunks', async () => {
			engine = await fresh();
			const items = Array.from({ length: 150 }, (_, i) => ({ content: `Memo ${nonsense(i)} ${nonsense(i * 7 + 3)}` }));
			items[0] = { content: 'The daily standup meeting starts at 9 am' };
			items[140] = { content: 'Our team meets for standup at nine every morning' };
			items[145] = { content: 'The daily standup meeting starts at 9 am.' };
			const out = await engine.store({ memories: items });
			expect(out.stored_count).toBe(149);
			const stored = out.results.filter((r) => r.status === 'stored');
			expect(stored.map((r) => r.seq)).toEqual(Array.from({ length: 149 }, (_, i) => i + 1));
			expect(out.results[145]).toMatchObject({ status: 'duplicate', duplicate_of: out.results[0].memory_id, seq: 1 });
			const links = (await engine.associationsOf(out.results[140].memory_id!)).filter((l) => l.type === 'SIMILAR_TO');
			expect(links).toEqual([expect.objectContaining({ from: out.results[140].memory_id, to: out.results[0].memory_id })]);
			const rows = await engine.ctx.db.memories.bulkGet(stored.map((r) => r.memory_id!));
			expect(rows.map((r) => r?.seq)).toEqual(stored.map((r) => r.seq));
			expect(engine.ctx.index.size).toBe(149);
		});

		it('a batch whose request fails after its first chunks went out stores none of it', async () => {
			engine = await fresh();
			await engine.store({ content: 'Existing memory about the billing database' });
			// A row written behind the engine's back holds the seq the batch's 120th item would get.
			const planted = (await engine.ctx.db.memories.get((await engine.store({ content: 'Planted row template' })).memory_id!))!;
			await engine.ctx.db.memories.put({ ...planted, id: 'planted', seq: 122, content: 'Planted' });
			const before = engine.ctx.index.size;
			const items = Array.from({ length: 150 }, (_, i) => ({ content: `Memo ${nonsense(i)} ${nonsense(i * 7 + 3)}` }));
			await expect(engine.store({ memories: items })).rejects.toThrow();
			expect(await engine.ctx.db.memories.count()).toBe(3);
			// The planted copy carries its template's vector; none of the batch's was written.
			expect(await vectorCount(engine.ctx.db, engine.ctx.embedder.modelId)).toBe(3);
			expect(engine.ctx.index.size).toBe(before);
			const found = (await engine.recall({ query: `memo ${nonsense(0)}` })).results;
			expect(found.filter((r) => r.memory.content.startsWith('Memo'))).toEqual([]);
		});

		it('links similar memories SIMILAR_TO with the cosine as strength, one row per pair, seen from both ends', async () => {
			engine = await fresh();
			const a = await engine.store({ content: 'The daily standup meeting starts at 9 am' });
			const b = await engine.store({ content: 'Our team meets for standup at nine every morning' });
			const fromA = (await engine.associationsOf(a.memory_id!)).filter((l) => l.type === 'SIMILAR_TO');
			const fromB = (await engine.associationsOf(b.memory_id!)).filter((l) => l.type === 'SIMILAR_TO');
			expect(fromA).toEqual([expect.objectContaining({ from: b.memory_id, to: a.memory_id })]);
			expect(fromB).toEqual(fromA);
			expect(fromA[0].strength).toBeGreaterThanOrEqual(0.6);
			expect((await storedLinks(engine)).filter((l) => l.type === 'SIMILAR_TO').length).toBe(1);
		});

		it("logs a batch as one created entry naming its memories, found in each memory's history", async () => {
			engine = await fresh();
			const single = await engine.store({ content: 'The release train leaves on Thursdays' });
			const batch = await engine.store({
				memories: [
					{ content: 'Ana owns the billing service' },
					{ content: 'Backups run nightly at two' },
					{ content: 'The office is closed on Fridays' },
				],
			});
			const ids = batch.results.map((r) => r.memory_id);
			const created = (await engine.activity(10)).filter((e) => e.action === 'created');
			expect(created).toEqual([
				expect.objectContaining({ memory_ids: ids, detail: 'batch of 3' }),
				expect.objectContaining({ memory_id: single.memory_id }),
			]);
			for (const id of ids) expect((await engine.history(id)).map((e) => e.action)).toEqual(['created']);
			expect((await engine.history(single.memory_id!)).map((e) => e.action)).toEqual(['created']);
		});

		it("indexes a batch's created entry once, by its seq range, not once per memory (schema v15)", async () => {
			engine = await fresh();
			await engine.store({ memories: [{ content: 'Ana owns the billing service' }, { content: 'Backups run nightly at two' }] });
			const batch = await engine.store({
				memories: [
					{ content: 'The office is closed on Fridays' },
					{ content: 'The office is closed on Fridays' },
					{ content: 'Lunch is served at noon in the canteen' },
					{ content: 'The printer on floor two jams on glossy paper' },
				],
			});
			const ids = batch.results.filter((r) => r.status === 'stored').map((r) => r.memory_id);
			expect(ids).toHaveLength(3);
			// The ids sit in an unindexed field: the multi-entry memory_ids index holds none of them.
			expect(await engine.db.activity.where('memory_ids').anyOf(ids).count()).toBe(0);
			const [row] = await engine.db.activity.where('last_seq').aboveOrEqual(0).reverse().limit(1).toArray();
			const seqs = batch.results.filter((r) => r.status === 'stored').map((r) => r.seq);
			expect(row).toMatchObject({ batch_ids: ids, first_seq: seqs[0], last_seq: seqs[2] });
			for (const id of ids)
				expect(await engine.history(id)).toEqual([expect.objectContaining({ action: 'created', memory_ids: ids, detail: 'batch of 3' })]);
			// Deleted, a memory has no seq: its history still finds the batch that created it.
			await engine.delete({ memory_id: ids[1] });
			expect((await engine.history(ids[1])).map((e) => e.action)).toEqual(['deleted', 'created']);
			expect((await engine.history(ids[2])).map((e) => e.action)).toEqual(['created']);
		});

		it('links similar items of the same batch to each other', async () => {
			engine = await fresh();
			const out = await engine.store({
				memories: [{ content: 'The daily standup meeting starts at 9 am' }, { content: 'Our team meets for standup at nine every morning' }],
			});
			const [a, b] = out.results.map((r) => r.memory_id);
			const links = (await engine.associationsOf(a)).filter((l) => l.type === 'SIMILAR_TO');
			expect(links).toEqual([expect.objectContaining({ from: b, to: a })]);
		});

		it('does not link unrelated memories', async () => {
			engine = await fresh();
			const a = await engine.store({ content: 'He is allergic to peanuts' });
			await engine.store({ content: 'The API rate limit is 100 requests per minute per key' });
			expect((await engine.associationsOf(a.memory_id!)).filter((l) => l.type === 'SIMILAR_TO')).toEqual([]);
		});

		it('links PRECEDED_BY to the previous memory of the same scope', async () => {
			engine = await fresh();
			const a = await engine.store({ content: 'Kickoff meeting with the client', scope: 'p1' });
			await engine.store({ content: 'Unrelated note in another project', scope: 'p2' });
			const c = await engine.store({ content: 'Sent the proposal after the kickoff', scope: 'p1' });
			const links = await engine.associationsOf(c.memory_id!);
			expect(links.filter((l) => l.type === 'PRECEDED_BY')).toEqual([expect.objectContaining({ from: c.memory_id, to: a.memory_id })]);
		});

		it('links PRECEDED_BY within the same session when metadata names one', async () => {
			engine = await fresh();
			const s1 = await engine.store({ content: 'User asked about invoices', metadata: { session_id: 's1' } });
			await engine.store({ content: 'User asked about holidays', metadata: { session_id: 's2' } });
			const s1b = await engine.store({ content: 'Explained the invoice schedule', metadata: { session_id: 's1' } });
			const prev = (await engine.associationsOf(s1b.memory_id!)).filter((l) => l.type === 'PRECEDED_BY' && l.from === s1b.memory_id);
			expect(prev.map((l) => l.to)).toEqual([s1.memory_id]);
		});

		it('supersedes a memory: sets its t_invalid and links INVALIDATED_BY', async () => {
			engine = await fresh();
			const old = await engine.store({ content: 'The API rate limit is 100 requests per minute' });
			const next = await engine.store({
				content: 'The API rate limit was raised to 500 requests per minute',
				supersedes_memory_id: old.memory_id,
				supersede_reason: 'plan upgrade',
				timestamp: '2026-04-01T00:00:00Z',
			});
			const [o] = await engine.getMemories([old.memory_id!]);
			expect(o!.t_invalid).toBe('2026-04-01T00:00:00.000Z');
			const link = (await engine.associationsOf(old.memory_id!)).find((l) => l.type === 'INVALIDATED_BY');
			expect(link).toMatchObject({ from: old.memory_id, to: next.memory_id, reason: 'plan upgrade' });
		});

		it('supersedes with EVOLVED_INTO and keeps an existing t_invalid', async () => {
			engine = await fresh();
			const old = await engine.store({ content: 'Our logo is blue', t_invalid: '2026-01-01T00:00:00Z' });
			const next = await engine.store({
				content: 'Our logo is now teal with a white border',
				supersedes_memory_id: old.memory_id!,
				supersede_relation: 'EVOLVED_INTO',
			});
			const [o] = await engine.getMemories([old.memory_id!]);
			expect(o!.t_invalid).toBe('2026-01-01T00:00:00.000Z');
			const links = await engine.associationsOf(old.memory_id!);
			expect(links.some((l) => l.type === 'EVOLVED_INTO' && l.to === next.memory_id)).toBe(true);
		});

		it('chains PRECEDED_BY through a batch and supersedes an earlier item of it', async () => {
			engine = await fresh();
			const before = await engine.store({ content: 'Sprint one planning notes' });
			const out = await engine.store({
				memories: [
					{ content: 'The standup is at 9 am', id: 'v1' },
					{ content: 'Lunch is catered on Fridays', id: 'lunch' },
					{ content: 'The standup moved to 10 am', supersedes_memory_id: 'v1' },
				],
			});
			expect(out.results.map((r) => r.seq)).toEqual([2, 3, 4]);
			const links = (await storedLinks(engine)).filter((l) => l.type === 'PRECEDED_BY').map((l) => [l.from, l.to]);
			const v2 = out.results[2].memory_id;
			expect(links).toEqual(
				expect.arrayContaining([
					['v1', before.memory_id],
					['lunch', 'v1'],
					[v2, 'lunch'],
				]),
			);
			expect((await engine.getMemories(['v1']))[0]!.t_invalid).toBeDefined();
			expect((await engine.associationsOf('v1')).some((l) => l.type === 'INVALIDATED_BY' && l.to === v2)).toBe(true);
		});

		it('refuses to supersede an unknown memory', async () => {
			engine = await fresh();
			const e = await rejection(engine.store({ content: 'New fact', supersedes_memory_id: 'nope' }));
			expect(e).toMatchObject({ code: 'not_found', message: 'supersedes_memory_id: no memory with id "nope"' });
		});

		it('keeps caller-given entities and extracts them otherwise', async () => {
			engine = await fresh();
			const given = await engine.store({ content: 'Talked to her about the roadmap', entities: [{ name: 'Maria Silva', type: 'person' }] });
			const extracted = await engine.store({ content: 'Maria Silva moved the launch to Lisbon, see https://example.org/plan' });
			expect((await engine.getMemories([given.memory_id!]))[0]!.entities).toEqual([{ name: 'Maria Silva', type: 'person' }]);
			const names = (await engine.getMemories([extracted.memory_id!]))[0]!.entities.map((e) => e.name);
			expect(names).toEqual(expect.arrayContaining(['Maria Silva', 'Lisbon']));
			expect(await engine.memoryIdsForEntity('person:maria silva')).toEqual(expect.arrayContaining([given.memory_id, extracted.memory_id]));
		});

		it('uses the caller id and refuses a second memory with it', async () => {
			engine = await fresh();
			const out = await engine.store({ content: 'Caller-chosen id', id: 'note-1' });
			expect(out.memory_id).toBe('note-1');
			const e = await rejection(engine.store({ content: 'Something else entirely', id: 'note-1' }));
			expect(e).toMatchObject({ code: 'conflict', message: 'id: a memory with id "note-1" already exists' });
		});

		it('a failed batch stores nothing and leaves the index unchanged', async () => {
			engine = await fresh();
			await engine.store({ content: 'Existing memory about the billing database', id: 'taken' });
			const before = engine.ctx.index.size;
			const items = [
				'Alpha project kickoff is on Monday',
				'Beta release ships in May',
				'Gamma note',
				'Delta budget is fifty thousand',
				'Epsilon team owns the API',
			].map((content) => ({ content }));
			items[2] = { content: 'Gamma note with a taken id', id: 'taken' } as (typeof items)[number];
			const e = await rejection(engine.store({ memories: items }));
			expect(e).toMatchObject({ code: 'conflict', message: 'memories[2].id: a memory with id "taken" already exists' });
			expect((await engine.stats({})).total_memories).toBe(1);
			expect(engine.ctx.index.size).toBe(before);
			const r = await engine.recall({ query: 'alpha project kickoff' });
			expect(r.results.filter((x) => x.memory.content.startsWith('Alpha'))).toEqual([]);
			const next = await engine.store({ content: 'Zeta comes after the failed batch' });
			expect(next.seq).toBe(2);
		});

		it('refuses one id given twice in a batch, naming both items, and stores none of it', async () => {
			engine = await fresh();
			const e = await rejection(
				engine.store({
					memories: [{ content: 'Alpha one', id: 'z' }, { content: 'Beta two' }, { content: 'Gamma three', id: 'z' }],
				}),
			);
			expect(e).toMatchObject({ code: 'invalid_input', message: 'memories[2].id: "z" is also the id of memories[0]; ids in one batch must differ' });
			expect((await engine.stats({})).total_memories).toBe(0);
		});

		it('text with no known words stores and is found lexically', async () => {
			engine = await fresh();
			const out = await engine.store({ content: 'zxqvbl kwrtyp' });
			const { memory } = await engine.get({ memory_id: out.memory_id!, track_access: false });
			expect(memory.embedding_tables).toEqual([]);
			const r = await engine.recall({ query: 'zxqvbl' });
			expect(r.lexical_only).toBe(true);
			expect(r.results[0]?.memory.id).toBe(out.memory_id);
			expect(r.results[0]?.memory.embedding_tables).toEqual([]);
		});

		it("recall names each result's embedding tables, with and without other models about", async () => {
			engine = await fresh();
			await engine.store({ content: 'Nightly backups of the billing database' });
			await engine.store({ content: 'zxqvbl kwrtyp' });
			const tables = async () =>
				Object.fromEntries((await engine.recall({ query: 'backups zxqvbl' })).results.map((x) => [x.memory.content, x.memory.embedding_tables]));
			expect(await tables()).toEqual({ 'Nightly backups of the billing database': ['engram/glove-sif-100d'], 'zxqvbl kwrtyp': [] });
			// A caller vector brings a second model: every id is then looked up in the store.
			await engine.store({ content: 'Offsite backups every Sunday', embedding: [1, 0, 0, 0] });
			expect(await tables()).toEqual({
				'Nightly backups of the billing database': ['engram/glove-sif-100d'],
				'zxqvbl kwrtyp': [],
				'Offsite backups every Sunday': ['caller:4', 'engram/glove-sif-100d'],
			});
		});

		it('stores a caller embedding under caller:<dims> and recalls by it', async () => {
			engine = await fresh();
			const a = await engine.store({ content: 'Vector A memory', embedding: [1, 0, 0, 0] });
			await engine.store({ content: 'Vector B memory', embedding: [0, 1, 0, 0] });
			expect((await engine.get({ memory_id: a.memory_id!, track_access: false })).memory.embedding_tables).toEqual(['caller:4', 'engram/glove-sif-100d']);
			const r = await engine.recall({ embedding: [0.9, 0.1, 0, 0], limit: 1 });
			expect(r.results[0].memory.id).toBe(a.memory_id);
			expect(r.results[0].components.semantic).toBeGreaterThan(0.99);
		});
	});

	describe('store validation', () => {
		it('batch over 500 is refused naming memories', async () => {
			engine = await fresh();
			const memories = Array.from({ length: 501 }, (_, i) => ({ content: `memory ${i}` }));
			expect(await rejection(engine.store({ memories }))).toMatchObject({ code: 'invalid_input', message: 'memories: must have at most 500 items' });
		});

		it('over-long content refused naming the item and the limit', async () => {
			engine = await fresh();
			const memories = [{ content: 'a' }, { content: 'b' }, { content: 'c' }, { content: 'x'.repeat(50_001) }];
			expect(await rejection(engine.store({ memories }))).toMatchObject({
				code: 'invalid_input',
				message: 'memories[3].content: must be at most 50000 characters',
			});
		});

		it('NaN importance refused', async () => {
			engine = await fresh();
			const e = await rejection(engine.store({ content: 'x', importance: NaN }));
			expect(e).toMatchObject({
				code: 'invalid_input',
				message: 'importance: must be a number from 0 to 1 or one of LOW, MEDIUM, HIGH, CRITICAL (got NaN)',
			});
		});

		it('infinite confidence refused', async () => {
			engine = await fresh();
			expect((await rejection(engine.store({ content: 'x', confidence: Infinity }))).message).toBe('confidence: must be a finite number (got Infinity)');
		});

		it('importance above 1 refused with the bound', async () => {
			engine = await fresh();
			expect((await rejection(engine.store({ content: 'x', importance: 2 }))).message).toBe('importance: must be at most 1');
		});

		it('invalid date refused', async () => {
			engine = await fresh();
			expect(await rejection(engine.store({ content: 'x', timestamp: 'around lunch' }))).toMatchObject({
				code: 'invalid_input',
				message: 'timestamp: must be an ISO 8601 date or date-time, e.g. 2024-03-01 or 2024-03-01T09:30:00Z',
			});
		});

		it('empty string refused', async () => {
			engine = await fresh();
			expect((await rejection(engine.store({ content: '' }))).message).toBe('content: must not be empty');
			expect((await rejection(engine.store({ content: 'ok', tags: [''] }))).message).toMatch(/^tags\[0\]: must not be empty/);
		});

		it('a validity window ending before it starts is refused', async () => {
			engine = await fresh();
			const e = await rejection(
				engine.store({ memories: [{ content: 'ok' }, { content: 'x', t_valid: '2026-02-01T00:00:00Z', t_invalid: '2026-01-01T00:00:00Z' }] }),
			);
			expect(e).toMatchObject({ code: 'invalid_input', message: 'memories[1].t_invalid: must not be before t_valid (2026-02-01T00:00:00.000Z)' });
		});

		it('blank content refused', async () => {
			engine = await fresh();
			expect((await rejection(engine.store({ content: '   ' }))).message).toBe('content: must not be blank');
		});

		it('content and memories together refused', async () => {
			engine = await fresh();
			expect((await rejection(engine.store({ content: 'x', memories: [{ content: 'y' }] }))).message).toBe(
				'memories: cannot be combined with top-level content',
			);
		});

		it('an all-zero caller embedding refused', async () => {
			engine = await fresh();
			expect((await rejection(engine.store({ content: 'x', embedding: [0, 0, 0] }))).message).toBe('embedding: must not be all zeros');
		});

		it('a refused store writes nothing', async () => {
			engine = await fresh();
			await rejection(engine.store({ memories: [{ content: 'fine' }, { content: 'bad', timestamp: 'nope' }] }));
			expect((await engine.stats({})).total_memories).toBe(0);
		});
	});
});

import { describe, expect, it } from 'vitest';
import { getVector } from '../../../src/store/vectors';
import { Clock, rejection, useEngines } from './helpers';

const clock = new Clock();
const engines = useEngines();
const fresh = (opts: Parameters<typeof engines>[0] = {}) => engines({ now: clock.now, ...opts });

describe('Engine', () => {
	describe('get', () => {
		it('a numeric-looking id is an id: get("2") is not the memory with seq 2', async () => {
			const engine = await fresh();
			await engine.store({ content: 'First memory' });
			await engine.store({ content: 'Maria leads the design team' });
			expect(await rejection(engine.get({ memory_id: '2' }))).toMatchObject({ code: 'not_found', message: 'memory_id: no memory with id "2"' });
			const own = await engine.store({ id: '1', content: 'A memory whose own id is one' });
			expect((await engine.get({ memory_id: '1', track_access: false })).memory).toMatchObject({ id: '1', seq: own.seq });
		});

		it('unknown id → not_found naming the field', async () => {
			const engine = await fresh();
			expect(await rejection(engine.get({ memory_id: 'missing' }))).toMatchObject({
				code: 'not_found',
				message: 'memory_id: no memory with id "missing"',
			});
		});

		it('a seq is refused: ids are strings', async () => {
			const engine = await fresh();
			expect((await rejection(engine.get({ memory_id: 1 as never }))).message).toBe('memory_id: must be a string (got number)');
		});

		it('counts an access and records it in the history', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'Counted memory' });
			await engine.get({ memory_id: a.memory_id! });
			const second = await engine.get({ memory_id: a.memory_id! });
			expect(second.memory.access_count).toBe(2);
			expect(second.memory.last_accessed).toBe(new Date(clock.ms).toISOString());
			const actions = (await engine.history(a.memory_id!)).map((h) => h.action);
			expect(actions).toEqual(['accessed', 'accessed', 'created']);
		});

		it('does not count an access with track_access false', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'Quiet memory' });
			await engine.get({ memory_id: a.memory_id!, track_access: false });
			expect((await engine.getMemories([a.memory_id!]))[0]!.access_count).toBe(0);
		});

		it('reports age in words', async () => {
			const c = new Clock();
			const engine = await fresh({ now: c.now });
			const a = await engine.store({ content: 'Aging memory' });
			c.advance(4 * 86_400_000);
			expect((await engine.get({ memory_id: a.memory_id! })).age).toBe('4 days ago');
		});

		it('lists related memories with similarity, relation, direction and snippet', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'The daily standup meeting starts at 9 am', source: 'notes' });
			const b = await engine.store({ content: 'Our team meets for standup at nine every morning', source: 'chat' });
			const got = await engine.get({ memory_id: a.memory_id! });
			expect(got.related_memories).toEqual([
				expect.objectContaining({
					id: b.memory_id,
					seq: 2,
					relation: 'SIMILAR_TO',
					source: 'chat',
					snippet: 'Our team meets for standup at nine every morning',
				}),
			]);
			expect(got.related_memories[0].similarity).toBeGreaterThan(0.6);
			expect(got.related_memories[0].similarity).toBeLessThanOrEqual(1);
		});

		it('bounds related memories by related_limit', async () => {
			const engine = await fresh();
			const hub = await engine.store({ content: 'Hub memory' });
			const others = await engine.store({
				memories: Array.from({ length: 6 }, (_, i) => ({ content: `Spoke memory number ${i} about a different topic ${'abcdef'[i]}` })),
			});
			await engine.associate({ associations: others.results.map((r) => ({ memory1_id: hub.memory_id!, memory2_id: r.memory_id })) });
			const got = await engine.get({ memory_id: hub.memory_id!, related_limit: 3 });
			expect(got.related_memories).toHaveLength(3);
			expect(got.associations).toHaveLength(6);
		});

		it('returns authored associations in and out, not system links', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'Chose Svelte for the frontend' });
			const b = await engine.store({ content: 'Rewrote the settings page' });
			await engine.associate({ memory1_id: b.memory_id!, memory2_id: a.memory_id!, type: 'DERIVED_FROM', transformation: 'applied the decision' });
			const got = await engine.get({ memory_id: a.memory_id! });
			expect(got.associations).toEqual([
				expect.objectContaining({ from: b.memory_id, to: a.memory_id, type: 'DERIVED_FROM', transformation: 'applied the decision' }),
			]);
			expect(got.related_memories.find((r) => r.id === b.memory_id)).toMatchObject({ relation: 'DERIVED_FROM', direction: 'in' });
		});
	});

	describe('update', () => {
		it('update merges metadata and replaces tags', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'Release notes draft', tags: ['docs', 'draft'], metadata: { owner: 'ana', status: 'wip', keep: 1 } });
			const out = await engine.update({ memory_id: a.memory_id!, tags: ['docs', 'final'], metadata: { status: 'done', wip_since: null, owner: null } });
			expect(out.changed).toEqual(['tags', 'metadata']);
			const [m] = await engine.getMemories([a.memory_id!]);
			expect(m!.tags).toEqual(['docs', 'final']);
			expect(m!.metadata).toEqual({ status: 'done', keep: 1 });
		});

		it('re-embeds on content change and refreshes SIMILAR_TO links', async () => {
			const engine = await fresh();
			const standup = await engine.store({ content: 'The daily standup meeting starts at 9 am' });
			const target = await engine.store({ content: 'He is allergic to peanuts' });
			const before = await engine.vectorOf(target.memory_id!);
			const out = await engine.update({ memory_id: target.memory_id!, content: 'Our team meets for standup at nine every morning' });
			expect(out).toMatchObject({ re_embedded: true, changed: expect.arrayContaining(['content']) });
			const after = await engine.vectorOf(target.memory_id!);
			expect(Array.from(after!)).not.toEqual(Array.from(before!));
			const links = await engine.associationsOf(target.memory_id!);
			expect(links.some((l) => l.type === 'SIMILAR_TO' && l.to === standup.memory_id)).toBe(true);
			const r = await engine.recall({ query: 'standup at nine', limit: 2 });
			expect(r.results.map((x) => x.memory.id)).toContain(target.memory_id);
		});

		it('drops stale vectors of other models when the content changes', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'Vector memory', embedding: [1, 2, 3] });
			await engine.update({ memory_id: a.memory_id!, content: 'Vector memory, rewritten' });
			expect((await engine.getMemories([a.memory_id!]))[0]!.embedding_tables).toEqual(['engram/glove-sif-100d']);
		});

		it('re-extracts entities on content change unless the caller gave them', async () => {
			const engine = await fresh();
			const auto = await engine.store({ content: 'Maria Silva owns the billing service' });
			const given = await engine.store({ content: 'Notes from the call', entities: [{ name: 'Acme', type: 'organisation' }] });
			await engine.update({ memory_id: auto.memory_id!, content: 'Jonas Berg owns the billing service now' });
			await engine.update({ memory_id: given.memory_id!, content: 'Notes from the second call with Jonas Berg' });
			const [a, g] = await engine.getMemories([auto.memory_id!, given.memory_id!]);
			expect(a!.entities.map((e) => e.name)).toContain('Jonas Berg');
			expect(a!.entities.map((e) => e.name)).not.toContain('Maria Silva');
			expect(g!.entities).toEqual([{ name: 'Acme', type: 'organisation' }]);
			expect(await engine.memoryIdsForEntity('person:maria silva')).toEqual([]);
		});

		it('sets and clears t_valid and t_invalid', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'Temporary rule' });
			await engine.update({ memory_id: a.memory_id!, t_valid: '2026-01-01T00:00:00Z', t_invalid: '2026-02-01T00:00:00Z' });
			expect((await engine.getMemories([a.memory_id!]))[0]).toMatchObject({ t_valid: '2026-01-01T00:00:00.000Z', t_invalid: '2026-02-01T00:00:00.000Z' });
			const out = await engine.update({ memory_id: a.memory_id!, t_invalid: null });
			expect(out.changed).toEqual(['t_invalid']);
			expect((await engine.getMemories([a.memory_id!]))[0]!.t_invalid).toBeUndefined();
		});

		it('sets updated_at and reports nothing changed for identical values', async () => {
			const c = new Clock();
			const engine = await fresh({ now: c.now });
			const a = await engine.store({ content: 'Stable', importance: 0.7 });
			c.advance(60_000);
			const same = await engine.update({ memory_id: a.memory_id!, importance: 0.7 });
			expect(same.changed).toEqual([]);
			await engine.update({ memory_id: a.memory_id!, importance: 'HIGH' });
			const [m] = await engine.getMemories([a.memory_id!]);
			expect(m!.importance).toBe(0.75);
			expect(m!.updated_at).toBe(new Date(c.ms).toISOString());
		});

		it('refuses to move t_invalid before t_valid', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'Windowed', t_valid: '2026-02-01T00:00:00Z' });
			expect((await rejection(engine.update({ memory_id: a.memory_id!, t_invalid: '2026-01-15T00:00:00Z' }))).message).toBe(
				't_invalid: must not be before t_valid (2026-02-01T00:00:00.000Z)',
			);
		});

		it('stores a new caller embedding and reports it', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'Caller vector memory' });
			const out = await engine.update({ memory_id: a.memory_id!, embedding: [0, 3, 4] });
			expect(out.changed).toEqual(['embedding']);
			expect(Array.from((await getVector(engine.db, 'caller:3', a.memory_id!))!)).toEqual([0, Math.fround(0.6), Math.fround(0.8)]);
		});

		it('unknown id → not_found', async () => {
			const engine = await fresh();
			expect(await rejection(engine.update({ memory_id: 'ghost', content: 'x' }))).toMatchObject({
				code: 'not_found',
				message: 'memory_id: no memory with id "ghost"',
			});
		});

		it('refuses an invalid date without writing', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'Unchanged', tags: ['a'] });
			expect((await rejection(engine.update({ memory_id: a.memory_id!, tags: ['b'], t_valid: '31/02/2026' }))).message).toBe(
				't_valid: must be an ISO 8601 date or date-time, e.g. 2024-03-01 or 2024-03-01T09:30:00Z',
			);
			expect((await engine.getMemories([a.memory_id!]))[0]!.tags).toEqual(['a']);
		});
	});

	describe('update: tags_add / tags_remove', () => {
		it('edits the tags the memory has: removal case-insensitive, then additions it lacks (exact), recorded as a tags change', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'Ship the release', tags: ['Todo', 'release', 'TODO'] });
			const out = await engine.update({ memory_id: a.memory_id!, tags_remove: ['todo', 'absent'], tags_add: ['done', 'release', 'Release', 'done'] });
			expect(out).toMatchObject({ changed: ['tags'], tags: ['release', 'done', 'Release'] });
			expect((await engine.getMemories([a.memory_id!]))[0]!.tags).toEqual(['release', 'done', 'Release']);
			const [entry] = (await engine.history(a.memory_id!)).filter((h) => h.action === 'updated');
			expect(entry).toMatchObject({ detail: 'tags', changes: { tags: { from: ['Todo', 'release', 'TODO'], to: ['release', 'done', 'Release'] } } });
		});

		it('an edit that changes nothing writes nothing, and still reports the tags', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'Already tagged', tags: ['x', 'y'] });
			const before = (await engine.getMemories([a.memory_id!]))[0]!;
			clock.advance(1000);
			const out = await engine.update({ memory_id: a.memory_id!, tags_add: ['y'], tags_remove: ['z'] });
			expect(out).toMatchObject({ changed: [], tags: ['x', 'y'] });
			expect((await engine.getMemories([a.memory_id!]))[0]!.updated_at).toBe(before.updated_at);
			expect((await engine.history(a.memory_id!)).filter((h) => h.action === 'updated')).toEqual([]);
		});

		it('concurrent edits of one memory all land', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'Edited by many', tags: ['base', 'old'] });
			const adds = Array.from({ length: 8 }, (_, i) => `t${i}`);
			await Promise.all([
				...adds.map((t) => engine.update({ memory_id: a.memory_id!, tags_add: [t] })),
				engine.update({ memory_id: a.memory_id!, tags_remove: ['OLD'] }),
			]);
			expect((await engine.getMemories([a.memory_id!]))[0]!.tags.sort()).toEqual(['base', ...adds].sort());
			expect((await engine.history(a.memory_id!)).filter((h) => h.action === 'updated')).toHaveLength(9);
		});

		it('a request_id retry answers the first result, tags included', async () => {
			const engine = await fresh();
			const a = await engine.store({ content: 'Retried edit', tags: ['a'] });
			const first = await engine.update({ memory_id: a.memory_id!, tags_add: ['b'], request_id: 'retag-1' });
			await engine.update({ memory_id: a.memory_id!, tags_add: ['c'] });
			const again = await engine.update({ memory_id: a.memory_id!, tags_add: ['b'], request_id: 'retag-1' });
			expect(first.tags).toEqual(['a', 'b']);
			expect(again).toMatchObject({ replayed: true, tags: ['a', 'b'] });
		});

		it('refuses tags with tags_add/tags_remove, bad tags, and an edit past the tag limit, writing nothing', async () => {
			const engine = await fresh();
			const full = Array.from({ length: 63 }, (_, i) => `t${i}`);
			const a = await engine.store({ content: 'Nearly full of tags', tags: full });
			const id = a.memory_id!;
			expect((await rejection(engine.update({ memory_id: id, tags: ['x'], tags_add: ['y'], tags_remove: ['z'] }))).message).toBe(
				'tags_add: cannot be combined with tags (tags replaces the whole list); tags_remove: cannot be combined with tags (tags replaces the whole list)',
			);
			expect((await rejection(engine.update({ memory_id: id, tags_add: ['ok', ' '] }))).message).toBe('tags_add[1]: must not be blank');
			expect((await rejection(engine.update({ memory_id: id, tags_remove: ['x'.repeat(101)] }))).message).toBe(
				'tags_remove[0]: must be at most 100 characters',
			);
			expect(await rejection(engine.update({ memory_id: id, tags_add: ['a', 'b'] }))).toMatchObject({
				code: 'invalid_input',
				message: 'tags: must have at most 64 items (tags_add would give the memory 65)',
			});
			// Swapping one for another at the limit is fine.
			await engine.update({ memory_id: id, tags_add: ['a'] });
			expect((await engine.update({ memory_id: id, tags_remove: ['t0'], tags_add: ['b'] })).tags).toHaveLength(64);
			expect(await rejection(engine.update({ memory_id: 'ghost', tags_add: ['a'] }))).toMatchObject({ code: 'not_found' });
		});
	});
});

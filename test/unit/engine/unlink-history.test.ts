/**
 * Removing a link (deleteAssociation) and the update history a person reads and reverts: each
 * updated entry keeps the values before and after, and revertInput puts the old ones back
 * through the normal update path.
 */
import { describe, expect, it } from 'vitest';
import { AUTHORABLE_ASSOCIATION_TYPES } from '../../../src/core/schemas';
import { revertInput } from '../../../src/ui/actions';
import { rejection, storedLinks, useEngines } from './helpers';

const fresh = useEngines();
const AUTHORED = new Set<string>(AUTHORABLE_ASSOCIATION_TYPES);

describe('Engine', () => {
	describe('deleteAssociation', () => {
		it('removes one link in one write: store, index adjacency, change event and history', async () => {
			const engine = await fresh();
			const a = (await engine.store({ content: 'We chose Postgres for billing' })).memory_id!;
			const b = (await engine.store({ content: 'Billing moved to a managed Postgres service' })).memory_id!;
			await engine.associate({ memory1_id: a, memory2_id: b, type: 'INVALIDATED_BY', strength: 0.8 });
			await engine.associate({ memory1_id: a, memory2_id: b, type: 'RELATES_TO' });
			const events: string[] = [];
			engine.subscribe((e) => events.push(e.kind));
			const out = await engine.deleteAssociation({ memory1_id: a, memory2_id: b, type: 'INVALIDATED_BY' }, { actor: 'app' });
			expect(out).toMatchObject({ success: true, removed_count: 1, removed: [{ memory1_id: a, memory2_id: b, type: 'INVALIDATED_BY', strength: 0.8 }] });
			const authored = (await storedLinks(engine)).filter((l) => AUTHORED.has(l.type));
			expect(authored.map((l) => l.type)).toEqual(['RELATES_TO']);
			expect(engine.ctx.index.linkedFrom([b])).toContain(a);
			expect((await engine.associationsOf(b)).filter((l) => l.type === 'INVALIDATED_BY')).toEqual([]);
			expect(events).toEqual(['associations']);
			const history = await engine.history(b);
			expect(history[0]).toMatchObject({ action: 'unlinked', actor: 'app', memory_id: a, link: { from: a, to: b, type: 'INVALIDATED_BY' } });
		});

		it('removes every link between the two in that direction when no type is given', async () => {
			const engine = await fresh();
			const a = (await engine.store({ content: 'Deploys happen on Tuesdays' })).memory_id!;
			const b = (await engine.store({ content: 'The release train leaves every week' })).memory_id!;
			await engine.associate({
				associations: [
					{ memory1_id: a, memory2_id: b, type: 'LEADS_TO' },
					{ memory1_id: a, memory2_id: b, type: 'PART_OF' },
				],
			});
			const out = await engine.deleteAssociation({ memory1_id: a, memory2_id: b });
			expect(out.removed.map((r) => r.type).sort()).toEqual(['LEADS_TO', 'PART_OF']);
			expect((await storedLinks(engine)).filter((l) => AUTHORED.has(l.type))).toEqual([]);
		});

		it('throws not_found naming the field when there is no such link or memory', async () => {
			const engine = await fresh();
			const a = (await engine.store({ content: 'Alice owns the payments API' })).memory_id!;
			const b = (await engine.store({ content: 'Webhooks retry with backoff' })).memory_id!;
			expect(await rejection(engine.deleteAssociation({ memory1_id: a, memory2_id: b, type: 'PART_OF' }))).toMatchObject({
				code: 'not_found',
				message: `type: no PART_OF link from ${a} to ${b}`,
			});
			expect(await rejection(engine.deleteAssociation({ memory1_id: 'nope', memory2_id: b }))).toMatchObject({ code: 'not_found' });
			expect((await rejection(engine.deleteAssociation({ memory1_id: 'nope', memory2_id: b }))).message).toMatch(/^memory1_id: /);
		});
	});

	describe('update history', () => {
		it('records each changed field with its value before and after', async () => {
			const engine = await fresh();
			const id = (await engine.store({ content: 'Deploy on Tuesdays', tags: ['ops'], importance: 0.5, metadata: { team: 'a' } })).memory_id!;
			await engine.update({
				memory_id: id,
				content: 'Deploy on Wednesdays',
				tags: ['ops', 'deploy'],
				importance: 0.9,
				metadata: { team: null, owner: 'bo' },
				t_invalid: '2030-01-01T00:00:00.000Z',
			});
			const [entry] = await engine.history(id, 1);
			expect(entry.action).toBe('updated');
			expect(entry.changes).toEqual({
				content: { from: 'Deploy on Tuesdays', to: 'Deploy on Wednesdays' },
				tags: { from: ['ops'], to: ['ops', 'deploy'] },
				importance: { from: 0.5, to: 0.9 },
				metadata: { from: { team: 'a' }, to: { owner: 'bo' } },
				t_invalid: { to: '2030-01-01T00:00:00.000Z' },
			});
		});

		it('reverts one change through the normal update path, which is itself recorded', async () => {
			const engine = await fresh();
			const id = (await engine.store({ content: 'Deploy on Tuesdays', tags: ['ops'], importance: 0.5, summary: 'Deploy day', metadata: { team: 'a' } }))
				.memory_id!;
			await engine.update({
				memory_id: id,
				importance: 0.9,
				summary: 'Deploys',
				metadata: { team: null, owner: 'bo' },
				t_valid: '2026-01-01T00:00:00.000Z',
			});
			await engine.update({ memory_id: id, tags: ['ops', 'later'] });
			const [, first] = await engine.history(id, 2);
			const input = revertInput(first)!;
			const out = await engine.update(input, { actor: 'app' });
			expect(out.changed.sort()).toEqual(['importance', 'metadata', 'summary', 't_valid']);
			const { memory } = await engine.get({ memory_id: id, track_access: false });
			expect(memory).toMatchObject({ importance: 0.5, summary: 'Deploy day', metadata: { team: 'a' }, tags: ['ops', 'later'] });
			expect(memory.t_valid).toBeUndefined();
			const [latest] = await engine.history(id, 1);
			expect(latest.changes?.importance).toEqual({ from: 0.9, to: 0.5 });
		});

		it('offers no revert for entries without recorded values', () => {
			expect(revertInput({ at: '', actor: 'agent', action: 'updated', memory_id: 'x', detail: 'tags' })).toBeUndefined();
			expect(revertInput({ at: '', actor: 'agent', action: 'created', memory_id: 'x' })).toBeUndefined();
		});
	});
});

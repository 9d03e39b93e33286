/**
 * An update given the values its editor started from (the app's edit form) never overwrites a
 * change made elsewhere meanwhile: a field someone else changed is a `conflict` naming it, and
 * nothing is written; fields and metadata keys only one side changed merge.
 */
import { describe, expect, it } from 'vitest';
import { baseOf, draftFromMemory, draftToUpdate } from '../../../src/ui/memory-draft';
import { Clock, rejection, useEngines } from './helpers';

const clock = new Clock();
const engines = useEngines();
const fresh = () => engines({ now: clock.now });

describe('update with a base', () => {
	it('refuses to overwrite content an agent changed since the edit began, and writes nothing', async () => {
		const e = await fresh();
		const { memory_id: id } = await e.store({ content: 'Standup is at 9', tags: ['team'] });
		const seen = (await e.get({ memory_id: id!, track_access: false })).memory;
		await e.update({ memory_id: id!, content: 'Standup is at 9:30' }, { actor: 'agent' });
		const draft = { ...draftFromMemory(seen), content: 'Standup is at 10', tags: ['team', 'ritual'] };
		const { input } = draftToUpdate(draft, seen);
		const err = await rejection(e.update(input!, { actor: 'app' }, { base: baseOf(input!, seen) }));
		expect(err.code).toBe('conflict');
		expect(err.message).toMatch(/^content: changed elsewhere/);
		const now = (await e.get({ memory_id: id!, track_access: false })).memory;
		expect(now).toMatchObject({ content: 'Standup is at 9:30', tags: ['team'] });
		// Saving anyway (no base) overwrites, as the person chose.
		await e.update(input!, { actor: 'app' });
		expect((await e.get({ memory_id: id!, track_access: false })).memory.content).toBe('Standup is at 10');
	});

	it('merges fields and metadata keys only one side changed; the same new value on both sides is no conflict', async () => {
		const e = await fresh();
		const { memory_id: id } = await e.store({ content: 'Deploys run on Fridays', metadata: { a: 1, b: 1 }, importance: 0.5 });
		const seen = (await e.get({ memory_id: id!, track_access: false })).memory;
		await e.update({ memory_id: id!, metadata: { b: 2 }, confidence: 0.3, summary: 'Deploys' }, { actor: 'agent' });
		const draft = { ...draftFromMemory(seen), metadata: JSON.stringify({ a: 5, b: 1 }), importance: 0.9, summary: 'Deploys' };
		const { input } = draftToUpdate(draft, seen);
		const out = await e.update(input!, { actor: 'app' }, { base: baseOf(input!, seen) });
		expect(out.changed).toEqual(['importance', 'metadata']);
		const now = (await e.get({ memory_id: id!, track_access: false })).memory;
		expect(now).toMatchObject({ metadata: { a: 5, b: 2 }, importance: 0.9, confidence: 0.3, summary: 'Deploys' });
	});

	it('names a metadata key both sides changed', async () => {
		const e = await fresh();
		const { memory_id: id } = await e.store({ content: 'The build cache lives in S3', metadata: { bucket: 'old' } });
		const seen = (await e.get({ memory_id: id!, track_access: false })).memory;
		await e.update({ memory_id: id!, metadata: { bucket: 'agent' } });
		const { input } = draftToUpdate({ ...draftFromMemory(seen), metadata: '{"bucket": "mine"}' }, seen);
		const err = await rejection(e.update(input!, { actor: 'app' }, { base: baseOf(input!, seen) }));
		expect(err).toMatchObject({ code: 'conflict', message: expect.stringMatching(/^metadata\.bucket: changed elsewhere/) });
		expect((await e.get({ memory_id: id!, track_access: false })).memory.metadata).toEqual({ bucket: 'agent' });
	});
});

describe('update with a link or unlink', () => {
	it('supersedes in one transaction: invalid and linked together, or neither', async () => {
		const e = await fresh();
		const { memory_id: older } = await e.store({ content: 'Standup is at 9', id: 'older' });
		const { memory_id: newer } = await e.store({ content: 'Standup is at 9:30', id: 'newer', force: true });
		const at = '2026-03-10T12:00:00.000Z';
		// A link to a memory that is not there: nothing is written, t_invalid included.
		const err = await rejection(e.update({ memory_id: older!, t_invalid: at }, { actor: 'app' }, { link: { to: 'gone', type: 'INVALIDATED_BY' } }));
		expect(err.code).toBe('not_found');
		expect((await e.get({ memory_id: older!, track_access: false })).memory.t_invalid).toBeUndefined();
		await e.update(
			{ memory_id: older!, t_invalid: at },
			{ actor: 'app' },
			{ link: { to: newer!, type: 'INVALIDATED_BY', reason: 'moved', timestamp: at } },
		);
		const got = await e.get({ memory_id: older!, track_access: false });
		expect(got.memory.t_invalid).toBe(at);
		expect(got.associations).toContainEqual(expect.objectContaining({ from: older, to: newer, type: 'INVALIDATED_BY', reason: 'moved', timestamp: at }));
		expect((await e.history(older!, 10)).map((h) => h.action)).toEqual(expect.arrayContaining(['updated', 'associated']));
		// Undo: valid again and unlinked, together.
		await e.update({ memory_id: older!, t_invalid: null }, { actor: 'app' }, { unlink: { to: newer!, type: 'INVALIDATED_BY' } });
		const back = await e.get({ memory_id: older!, track_access: false });
		expect(back.memory.t_invalid).toBeUndefined();
		expect(back.associations.filter((a) => a.type === 'INVALIDATED_BY')).toEqual([]);
		expect((await e.associationsOf(newer!)).filter((a) => a.type === 'INVALIDATED_BY')).toEqual([]);
	});
});

/**
 * The memory form's conversion to engine inputs: validated with the shared schemas, errors keyed
 * by field and naming the rule, and updates holding only what changed (removed metadata keys sent
 * as null, cleared validity dates as null).
 */
import { describe, expect, it } from 'vitest';
import type { Memory } from '../../../src/core/schemas';
import { draftFromMemory, draftToStore, draftToUpdate, emptyDraft } from '../../../src/ui/memory-draft';

const memory: Memory = {
	id: 'm1',
	seq: 1,
	content: 'Deploys happen on Tuesdays.',
	type: 'Habit',
	tags: ['ops'],
	scope: 'default',
	importance: 0.5,
	confidence: 1,
	metadata: { team: 'platform', keep: 1 },
	entities: [{ name: 'Tuesday', type: 'concept' }],
	timestamp: '2026-03-01T10:00:00.000Z',
	updated_at: '2026-03-01T10:00:00.000Z',
	access_count: 0,
	t_invalid: '2026-04-01T10:00:00.000Z',
	embedding_tables: [],
};

describe('ui/memory-draft', () => {
	describe('draftToStore', () => {
		it('builds a valid store_memory input with the defaults', () => {
			const d = { ...emptyDraft(), content: 'Remember the milk', tags: ['home'] };
			const { input, errors } = draftToStore(d);
			expect(errors).toEqual({});
			expect(input).toMatchObject({ content: 'Remember the milk', tags: ['home'], type: 'Context', scope: 'default', importance: 0.5, metadata: {} });
		});

		it('names content when it is blank', () => {
			const { input, errors } = draftToStore({ ...emptyDraft(), content: '   ' });
			expect(input).toBeUndefined();
			expect(errors.content).toBe('Write something to remember');
		});

		it('names metadata when it is not a JSON object', () => {
			expect(draftToStore({ ...emptyDraft(), content: 'x', metadata: '[1, 2]' }).errors.metadata).toBe(
				'metadata: must be a JSON object, e.g. {"project": "x"}',
			);
			expect(draftToStore({ ...emptyDraft(), content: 'x', metadata: '{oops' }).errors.metadata).toMatch(/^metadata: not valid JSON/);
		});

		it('drops entity rows without a name and defaults their type', () => {
			const { input } = draftToStore({
				...emptyDraft(),
				content: 'x',
				entities: [
					{ name: ' Alice ', type: '' },
					{ name: '', type: 'person' },
				],
			});
			expect(input?.entities).toEqual([{ name: 'Alice', type: 'concept' }]);
		});

		it('passes force for "store anyway"', () => {
			expect(draftToStore({ ...emptyDraft(), content: 'x' }, true).input?.force).toBe(true);
		});
	});

	describe('draftToUpdate', () => {
		it('sends nothing but the id when nothing changed', () => {
			const { input, changed } = draftToUpdate(draftFromMemory(memory), memory);
			expect(changed).toBe(0);
			expect(input).toEqual({ memory_id: 'm1' });
		});

		it('sends only changed fields, deleting removed metadata keys with null', () => {
			const d = draftFromMemory(memory);
			d.content = 'Deploys happen on Wednesdays.';
			d.tags = ['ops', 'deploy'];
			d.metadata = JSON.stringify({ keep: 1, owner: 'sam' });
			const { input, changed } = draftToUpdate(d, memory);
			expect(input).toEqual({
				memory_id: 'm1',
				content: 'Deploys happen on Wednesdays.',
				tags: ['ops', 'deploy'],
				metadata: { owner: 'sam', team: null },
			});
			expect(changed).toBe(3);
		});

		it('clears a validity date with null', () => {
			const d = draftFromMemory(memory);
			d.tInvalid = '';
			expect(draftToUpdate(d, memory).input).toEqual({ memory_id: 'm1', t_invalid: null });
		});

		it('names the field of a bad value', () => {
			const d = draftFromMemory(memory);
			d.summary = 'x'.repeat(501);
			const { input, errors } = draftToUpdate(d, memory);
			expect(input).toBeUndefined();
			expect(errors.summary).toMatch(/^Summary is too long/);
		});
	});
});

/**
 * Saving the edit form changes only what the person changed: a summary, source, scope or entity
 * name stored with edge spaces is not trimmed (nor the memory moved to another scope) by saving
 * a tag, and editing CRLF content keeps its CRLF line ends although a textarea hands back LF.
 */
import { describe, expect, it } from 'vitest';
import type { Memory } from '../../../src/core/schemas';
import { draftFromMemory, draftToUpdate } from '../../../src/ui/memory-draft';

const memory: Memory = {
	id: 'm1',
	seq: 1,
	content: 'line one\r\nline two\r\n',
	summary: ' Deploys ',
	source: 'agent ',
	type: 'Habit',
	tags: ['ops'],
	scope: ' team scope ',
	importance: 0.33,
	confidence: 1,
	metadata: {},
	entities: [{ name: ' Tuesday ', type: 'concept' }],
	timestamp: '2026-03-01T10:00:00.123Z',
	updated_at: '2026-03-01T10:00:00.000Z',
	access_count: 0,
	embedding_tables: [],
};

describe('draftToUpdate keeps what the person did not change', () => {
	it('sends only the tags when only the tags changed', () => {
		const { input } = draftToUpdate({ ...draftFromMemory(memory), tags: ['ops', 'weekly'] }, memory);
		expect(input).toEqual({ memory_id: 'm1', tags: ['ops', 'weekly'] });
	});

	it('still trims a field the person edited', () => {
		const { input } = draftToUpdate({ ...draftFromMemory(memory), summary: '  Deploys weekly ', scope: ' ' }, memory);
		expect(input).toEqual({ memory_id: 'm1', summary: 'Deploys weekly', scope: 'default' });
	});

	it('keeps CRLF line ends when the textarea hands the edited content back with LF', () => {
		const { input } = draftToUpdate({ ...draftFromMemory(memory), content: 'line one\nline 2\n' }, memory);
		expect(input).toEqual({ memory_id: 'm1', content: 'line one\r\nline 2\r\n' });
		// Content whose own line ends are mixed is sent as edited.
		const mixed = { ...memory, content: 'a\r\nb\nc' };
		expect(draftToUpdate({ ...draftFromMemory(mixed), content: 'a\nb\nd' }, mixed).input).toEqual({ memory_id: 'm1', content: 'a\nb\nd' });
	});
});

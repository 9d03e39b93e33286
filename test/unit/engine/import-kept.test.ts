/**
 * Importing a file whose ids are already here keeps the stored memories (on_conflict skip), and
 * says which of them differ from the file's, with the record's line and the fields: a backup
 * imported into a memory edited since does not pass for "already there". The app's import says
 * the same, with the lines of the person's file.
 */
import { describe, expect, it } from 'vitest';
import type { EngineProxy } from '../../../src/ui/state/engine-proxy';
import { importOutcome, importText } from '../../../src/ui/transfer';
import { Clock, useEngines } from './helpers';

const clock = new Clock();
const engines = useEngines();
const fresh = () => engines({ now: clock.now });
const task = { cancelled: false, progress() {} };

async function editedSinceExport() {
	const e = await fresh();
	await e.store({
		memories: [
			{ content: 'Standup is at 9', id: 'a', tags: ['team'] },
			{ content: 'Deploys run on Fridays', id: 'b' },
			{ content: 'Lunch at noon', id: 'c' },
		],
	});
	const file = (await e.exportMemories({ format: 'jsonl' })).data;
	await e.update({ memory_id: 'a', content: 'Standup is at 9:30' });
	await e.update({ memory_id: 'c', tags: ['food'] });
	await e.get({ memory_id: 'b' });
	return { e, file };
}

describe('import onto existing ids', () => {
	it('names each kept memory that differs from the file, with its line and fields', async () => {
		const { e, file } = await editedSinceExport();
		const res = await e.importMemories({ data: file });
		expect(res).toMatchObject({ imported: 0, skipped: 3, kept_differing: 2 });
		expect(res.message).toContain("2 of them different from the file's");
		expect(res.not_imported).toEqual([
			{ line: 2, text: expect.stringMatching(/^memory "a": one with this id is already here with another content; the one here was kept/) },
			{ line: 4, text: expect.stringMatching(/^memory "c": .* another tags;/) },
		]);
		expect((await e.get({ memory_id: 'a', track_access: false })).memory.content).toBe('Standup is at 9:30');
	});

	it('says nothing more when the file is what is stored (read since, or not)', async () => {
		const e = await fresh();
		await e.store({ memories: [{ content: 'Standup is at 9', id: 'a' }] });
		const file = (await e.exportMemories({ format: 'json' })).data;
		await e.get({ memory_id: 'a' });
		const res = await e.importMemories({ data: file });
		expect(res).toMatchObject({ skipped: 1 });
		expect(res.kept_differing).toBeUndefined();
		expect(res.not_imported).toBeUndefined();
		expect(importOutcome(res)).toBe('unchanged');
	});

	it('the app’s import tells it too, with the file’s lines, and is not "unchanged"', async () => {
		const { e, file } = await editedSinceExport();
		const res = await importText(e as unknown as EngineProxy, file, { format: 'auto', onConflict: 'skip' }, task);
		expect(res.kept_differing).toBe(2);
		expect(res.not_imported?.map((n) => n.line)).toEqual([2, 4]);
		expect(res.message).toMatch(/3 already there, 2 of them different from the file's/);
		expect(importOutcome(res)).toBe('nothing');
	});
});

describe('a vector for no memory of the file', () => {
	it('is refused with its line, in the engine and through the app, instead of dropped unsaid', async () => {
		const e = await fresh();
		const file = [
			JSON.stringify({ kind: 'memory', id: 'm1', content: 'Standup is at 9' }),
			JSON.stringify({ kind: 'vector', memory_id: 'm1', model: 'other/model', vector: [0.5, 0.5] }),
			JSON.stringify({ kind: 'vector', memory_id: 'm2', model: 'other/model', vector: [0.5, 0.5] }),
		].join('\n');
		const res = await e.importMemories({ data: file });
		expect(res).toMatchObject({ imported: 1, refused: 1, errors: [{ line: 3, error: expect.stringMatching(/^vector\.memory_id: no memory "m2"/) }] });
		const ui = await importText((await fresh()) as unknown as EngineProxy, file, { format: 'auto', onConflict: 'skip' }, task);
		expect(ui).toMatchObject({ imported: 1, refused: 1, errors: [{ line: 3, error: expect.stringMatching(/^vector\.memory_id: no memory "m2"/) }] });
		expect((await e.get({ memory_id: 'm1', track_access: false })).memory.embedding_tables).toContain('other/model');
	});
});

describe('a memory record’s fields Engram has no place for', () => {
	it('are kept in metadata.other_fields instead of being dropped, and a "__proto__" key is refused by name', async () => {
		const e = await fresh();
		const res = await e.importMemories({
			data: [
				'{"content":"Standup is at 9","author":"bob","created":"2024-01-01","extra":{"a":[1,null]}}',
				'{"content":"Deploys on Fridays","priority":3,"metadata":{"team":"ops","other_fields":{"z":1}}}',
				'{"content":"Lunch at noon","__proto__":{"x":1}}',
			].join('\n'),
		});
		expect(res).toMatchObject({
			imported: 2,
			refused: 1,
			errors: [{ line: 3, error: expect.stringMatching(/^memory\.metadata\.other_fields\.__proto__: /) }],
		});
		const meta = Object.fromEntries((await e.db.memories.toArray()).map((m) => [m.content, m.metadata]));
		expect(meta['Standup is at 9']).toEqual({ other_fields: { author: 'bob', created: '2024-01-01', extra: { a: [1, null] } } });
		expect(meta['Deploys on Fridays']).toEqual({ team: 'ops', other_fields: { z: 1, priority: 3 } });
	});
});

describe('a link record’s fields Engram has no place for', () => {
	it('are named as not imported; the link is imported', async () => {
		const e = await fresh();
		const res = await e.importMemories({
			data: [
				'{"id":"a","content":"Standup is at 9"}',
				'{"id":"b","content":"Deploys run on Fridays"}',
				'{"kind":"association","from":"a","to":"b","type":"RELATES_TO","strength":0.5,"weight":2,"label":"x"}',
			].join('\n'),
		});
		expect(res).toMatchObject({ imported: 2, associations: 1, refused: 0 });
		expect(res.not_imported).toEqual([{ line: 3, text: 'association: "weight", "label" not imported (a link has no such field)' }]);
	});
});

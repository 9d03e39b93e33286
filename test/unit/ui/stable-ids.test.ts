import { describe, expect, it } from 'vitest';
import { withStableIds, type Bundle } from '../../../src/ui/transfer';

const bundle = (contents: string[]): Bundle => ({
	header: {},
	memories: contents.map((content, i) => ({ rec: { content }, line: i + 1 })),
	entities: [],
	associations: [],
	vectors: [],
	bad: [],
	errors: [],
	notImported: [],
});

describe('withStableIds', () => {
	it('gives a record said twice in one file two ids, the same ones on every read of the file', async () => {
		const a = bundle(['Thanks!', 'Deploys on Tuesdays', 'Thanks!', 'Thanks!']);
		const b = bundle(['Thanks!', 'Deploys on Tuesdays', 'Thanks!', 'Thanks!']);
		await withStableIds(a, 'chat');
		await withStableIds(b, 'chat');
		const ids = a.memories.map((m) => m.rec.id);
		expect(new Set(ids).size).toBe(4);
		expect(b.memories.map((m) => m.rec.id)).toEqual(ids);
		expect(a.memories).toHaveLength(4);
		expect(a.notImported).toEqual([]);
	});

	it('keeps a given id, and makes another id for the same text in another scope', async () => {
		const a = bundle(['Deploys on Tuesdays']);
		const b = bundle(['Deploys on Tuesdays']);
		a.memories.push({ rec: { id: 'mine', content: 'x' }, line: 2 });
		await withStableIds(a, 'work');
		await withStableIds(b, 'home');
		expect(a.memories[1].rec.id).toBe('mine');
		expect(a.memories[0].rec.id).not.toBe(b.memories[0].rec.id);
		expect(a.memories[0].rec.id).toMatch(/^import:[0-9a-f]{24}$/);
	});
});

/**
 * Import work stays linear and bounded on hostile files: a million bad lines are all counted and
 * the first 50 kept (the spread of a million errors into one push threw), repeated graph
 * entities and relations merge in linear time, and a repeated id is reported, not dropped.
 */
import { describe, expect, it } from 'vitest';
import { graphLinks, mergeGraphEntities } from '../../../src/engine/import-graph';
import { ImportErrors, parseJson } from '../../../src/engine/import-formats';
import { LIMITS } from '../../../src/core/schemas';
import type { EngineProxy as EngineClient } from '../../../src/ui/state/engine-proxy';
import { importText } from '../../../src/ui/transfer';
import { Clock, useEngines } from './helpers';

const clock = new Clock();
const engines = useEngines();
const fresh = () => engines({ now: clock.now });
const HEADER = '{"kind":"header","format":"engram","version":1}';

/** Runs `f`, failing when it takes longer than `ms` (generous: the machine is shared). */
async function within<T>(ms: number, f: () => T | Promise<T>): Promise<T> {
	const t = performance.now();
	const out = await f();
	expect(performance.now() - t).toBeLessThan(ms);
	return out;
}

describe('Engine', () => {
	describe('importMemories limits', () => {
		it('counts all of 1,000,000 bad JSONL lines and keeps the first 50 by line', async () => {
			const engine = await fresh();
			const data = `${HEADER}\n${'{bad\n'.repeat(1_000_000)}{"kind":"memory","id":"ok","content":"The one good line"}`;
			const res = await within(30_000, () => engine.importMemories({ data }));
			expect(res).toMatchObject({ success: false, imported: 1, refused: 1_000_000 });
			expect(res.errors).toHaveLength(50);
			expect(res.errors.slice(0, 49).map((e) => e.line)).toEqual(Array.from({ length: 49 }, (_, i) => i + 2));
			expect(res.errors[49]).toEqual({ error: '… and 999951 more errors' });
			expect(res.message).toContain('1000000 record(s) refused');
		});

		it('counts all of 1,000,000 bad server-memory lines', async () => {
			const engine = await fresh();
			const data = `{"type":"entity","name":"A","entityType":"person","observations":["A is here"]}\n${'{"type":"x"}\n'.repeat(1_000_000)}`;
			const res = await within(30_000, () => engine.importMemories({ data }));
			expect(res).toMatchObject({ imported: 1, refused: 1_000_000 });
			expect(res.errors[0]).toEqual({ line: 2, error: 'type: must be "entity" or "relation" (got "x")' });
		});

		it('reports each earlier record of a repeated id and imports the last', async () => {
			const engine = await fresh();
			const rec = (content: string) => JSON.stringify({ kind: 'memory', id: 'same', content });
			const res = await engine.importMemories({ data: [HEADER, rec('first'), rec('second'), rec('third')].join('\n') });
			expect(res).toMatchObject({ imported: 1, refused: 2 });
			expect(res.errors).toEqual([
				{ line: 2, error: 'memory: id "same" is given again at line 4, which is imported' },
				{ line: 3, error: 'memory: id "same" is given again at line 4, which is imported' },
			]);
			expect((await engine.db.memories.toArray()).map((m) => m.content)).toEqual(['third']);
		});

		it('refuses deeply nested metadata as a record error instead of throwing', async () => {
			const engine = await fresh();
			const deep = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
			const res = await engine.importMemories({ data: `${HEADER}\n{"kind":"memory","content":"x","metadata":${deep}}` });
			expect(res).toMatchObject({ imported: 0, refused: 1 });
			expect(res.errors[0].error).toBe('memory: nested deeper than 64 levels');
			const mid = `${'{"a":'.repeat(2_000)}1${'}'.repeat(2_000)}`;
			const again = await engine.importMemories({
				data: `${HEADER}\n{"kind":"memory","content":"x","metadata":${mid}}\n{"kind":"memory","content":"y"}`,
			});
			expect(again).toMatchObject({ imported: 1, refused: 1 });
		});

		it('cuts error texts to 300 characters and makes them well-formed', async () => {
			const engine = await fresh();
			const res = await engine.importMemories({ data: `${HEADER}\n{"kind":"${'\ud800'.repeat(1000)}"}` });
			expect(res.errors[0].error.length).toBeLessThanOrEqual(300);
			expect(res.errors[0].error).not.toMatch(/[\ud800-\udfff]/);
		});
	});

	describe("server-memory observations near and over a memory's size", () => {
		const entity = (name: string, observations: string[]) => JSON.stringify({ type: 'entity', name, entityType: 'person', observations });
		const contents = async (e: Awaited<ReturnType<typeof fresh>>) =>
			(JSON.parse((await e.exportMemories({ format: 'json' })).data) as { memories: { content: string }[] }).memories.map((m) => m.content).sort();

		it('refuses an observation over the size with its line and imports the rest; one at the size is stored whole', async () => {
			const engine = await fresh();
			const whole = `${'x'.repeat(LIMITS.contentChars - 1)}y`;
			const data = [entity('Dan', [`${'z'.repeat(LIMITS.contentChars)}!`]), entity('Eve', [whole]), entity('Fay', ['Likes tea'])].join('\n');
			const r = await engine.importMemories({ data, format: 'server-memory-jsonl' });
			expect(r).toMatchObject({ imported: 2, refused: 1 });
			expect(r.errors).toEqual([{ line: 1, error: `entity.observations[0]: must be at most ${LIMITS.contentChars} characters` }]);
			// Eve's observation has no room for "Eve: ": it is stored as it was, not cut.
			expect(await contents(engine)).toEqual(['Fay: Likes tea', whole]);
		});

		it('a replacing import with an observation near the size leaves the memories it replaces in place', async () => {
			const engine = await fresh();
			const alice = entity('Alice', ['Alice likes tea', 'Alice lives in Oslo']);
			await engine.importMemories({ data: alice, format: 'server-memory-jsonl' });
			const near = 'x'.repeat(LIMITS.contentChars - 2);
			const r = await engine.importMemories({ data: `${alice}\n${entity('Bob', [near])}`, format: 'server-memory-jsonl', on_conflict: 'replace' });
			expect(r).toMatchObject({ imported: 1, replaced: 2, refused: 0 });
			expect(await contents(engine)).toEqual(['Alice likes tea', 'Alice lives in Oslo', near]);
		});

		it('a replacing import on a disk known to be full deletes nothing and says so', async () => {
			const engine = await fresh();
			const alice = entity('Alice', ['Alice likes tea']);
			await engine.importMemories({ data: alice, format: 'server-memory-jsonl' });
			engine.db.quotaFullSince = Date.now();
			await expect(engine.importMemories({ data: alice, format: 'server-memory-jsonl', on_conflict: 'replace' })).rejects.toThrow(
				/storage is full, so no memory was replaced/,
			);
			expect(await contents(engine)).toEqual(['Alice likes tea']);
		});
	});

	describe('parseJson', () => {
		it('reports a document that is not an object instead of throwing', () => {
			const reads = 'Engram reads a list of records with a "content" field, [{"content": "…"}], or {"memories": [...]}';
			for (const [data, has] of [
				['null', 'it is null'],
				['5', 'it is a number'],
				['"text"', 'it is a string'],
				['{}', 'it is an empty object'],
				['{"users": [{"name": "Ann"}], "version": 2}', 'its top level has "users", "version"'],
			]) {
				expect(parseJson(data).errors.list()).toEqual([{ error: `memories: must be an array; this file is not an Engram export (${has}). ${reads}` }]);
			}
			// An array is a list of plain records: an empty one holds nothing to refuse.
			expect(parseJson('[]').errors.count).toBe(0);
		});
	});

	describe('server-memory graph merge', () => {
		it('merges 40 lines of one entity with 5,000 observations each in linear time', async () => {
			const entities = Array.from({ length: 40 }, (_, k) => ({
				line: k + 1,
				value: { type: 'entity' as const, name: 'E', entityType: 'thing', observations: Array.from({ length: 5_000 }, (_, i) => `obs ${k} ${i}`) },
			}));
			const merged = await within(2_000, () => mergeGraphEntities({ entities }));
			expect(merged.get('E')!.observations).toHaveLength(200_000);
		});

		it('joins 20,000 relation types between one pair in linear time', async () => {
			const relations = Array.from({ length: 20_000 }, (_, i) => ({
				line: i + 1,
				value: { type: 'relation' as const, from: 'A', to: 'B', relationType: `rel_${i}_${'x'.repeat(40)}` },
			}));
			const links = await within(2_000, () =>
				graphLinks(
					{ relations },
					new Map([
						['A', 'a'],
						['B', 'b'],
					]),
					new ImportErrors(),
				),
			);
			expect(links).toHaveLength(1);
			expect(links[0].context.split(', ')).toHaveLength(20_000);
		});
	});
});

describe('ui/transfer importText limits', () => {
	it('counts refused records across chunks and keeps one "more" entry', async () => {
		const engine = await fresh();
		const good = Array.from({ length: 5 }, (_, i) => JSON.stringify({ kind: 'memory', id: `g${i}`, content: `Good memory ${i}` }));
		const text = [HEADER, ...good, ...Array.from({ length: 200 }, () => '{bad')].join('\n');
		const task = { cancelled: false, progress: () => undefined };
		const out = await importText(engine as unknown as EngineClient, text, { format: 'auto', onConflict: 'skip', chunkSize: 2 }, task);
		expect(out).toMatchObject({ imported: 5, refused: 200 });
		expect(out.errors).toHaveLength(50);
		expect(out.errors[0]).toMatchObject({ line: 7 });
		expect(out.errors[49]).toEqual({ error: '… and 151 more errors' });
		expect(out.message).toBe('Partly imported: 5 imported, 200 refused');
	});

	it('splits bad lines over the engine cap into several calls instead of failing', async () => {
		const engine = await fresh();
		const big = `{${'x'.repeat(500_000)}`;
		const text = [HEADER, JSON.stringify({ kind: 'memory', id: 'g', content: 'Good' }), ...Array.from({ length: 45 }, () => big)].join('\n');
		const task = { cancelled: false, progress: () => undefined };
		const out = await importText(engine as unknown as EngineClient, text, { format: 'auto', onConflict: 'skip' }, task);
		expect(out).toMatchObject({ imported: 1, refused: 45 });
	});
});

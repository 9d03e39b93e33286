/**
 * The app's import with odd files: an id said twice (in one chunk or across chunks) keeps the
 * last and names the lines of the person's file; a JSON list holding
 * strings, null or numbers among its records.
 */
import { describe, expect, it } from 'vitest';
import type { EngineProxy } from '../../../src/ui/state/engine-proxy';
import { importText } from '../../../src/ui/transfer';
import { useEngines } from '../engine/helpers';

const engines = useEngines();
const task = { cancelled: false, progress() {} };
const run = async (text: string, chunkSize?: number) => {
	const e = await engines();
	const res = await importText(e as unknown as EngineProxy, text, { format: 'auto', onConflict: 'skip', chunkSize }, task);
	return { e, res };
};

describe('the app’s import with odd files', () => {
	for (const chunkSize of [undefined, 1]) {
		it(`keeps the last record of an id said twice and names the file’s lines (chunks of ${chunkSize ?? 'default'})`, async () => {
			const { e, res } = await run('{"id":"d","content":"first"}\n{"id":"x","content":"other"}\n{"id":"d","content":"second"}', chunkSize);
			expect(res).toMatchObject({ imported: 2, refused: 1, errors: [{ line: 1, error: 'memory: id "d" is given again at line 3, which is imported' }] });
			expect((await e.get({ memory_id: 'd', track_access: false })).memory.content).toBe('second');
		});
	}

	it('refuses a list’s strings, null and numbers by their place, saying what they are', async () => {
		const { res } = await run('["just a string", {"content":"kept"}, null, 5]');
		expect(res.imported).toBe(1);
		expect(res.errors).toEqual([
			{ error: 'record 1: memory: must be an object (got string)' },
			{ error: 'record 3: memory: must be an object (got null)' },
			{ error: 'record 4: memory: must be an object (got number)' },
		]);
	});
});

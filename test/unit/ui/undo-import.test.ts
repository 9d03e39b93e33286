/**
 * Undo of an import takes back what the import did and nothing done after it: a memory an agent
 * or the person changed once the import had ended is left as it is, neither deleted nor put back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/engine/engine';
import type { EngineProxy } from '../../../src/ui/state/engine-proxy';
import type { TaskHandle } from '../../../src/ui/state/tasks.svelte';
import { importText, undoImport } from '../../../src/ui/transfer';
import { makeEngine } from '../engine/helpers';

const open: Engine[] = [];
afterEach(async () => {
	for (const e of open.splice(0)) await e.close();
});

const task: TaskHandle = { cancelled: false, progress() {} };
const file = (records: { id: string; content: string }[]) =>
	[JSON.stringify({ kind: 'header', format: 'engram', version: 1 }), ...records.map((r) => JSON.stringify({ kind: 'memory', ...r }))].join('\n');

describe('undoImport', () => {
	it('removes what the import added and puts back what it replaced, but leaves memories changed since', async () => {
		const e = await makeEngine();
		open.push(e);
		const client = e as unknown as EngineProxy;
		await importText(
			client,
			file([
				{ id: 'm-2', content: 'The garden gate is painted green' },
				{ id: 'm-3', content: 'The shed key hangs by the back door' },
			]),
			{ format: 'jsonl', onConflict: 'skip' },
			task,
		);
		const out = await importText(
			client,
			file([
				{ id: 'm-0', content: 'Roses were planted along the fence in May' },
				{ id: 'm-1', content: 'The tulip bulbs are stored in the cellar' },
				{ id: 'm-2', content: 'The garden gate is painted blue' },
				{ id: 'm-3', content: 'The shed key hangs in the kitchen' },
			]),
			{ format: 'jsonl', onConflict: 'replace' },
			task,
		);
		const undo = out.undo!;
		expect(undo.added.sort()).toEqual(['m-0', 'm-1']);
		// Edits after the import ended: one to a memory it added, one to a memory it replaced.
		while (Date.now() <= Date.parse(undo.ended!)) await new Promise((r) => setTimeout(r, 1));
		await e.update({ memory_id: 'm-0', content: 'Roses were planted along the fence in June' });
		await e.update({ memory_id: 'm-3', content: 'The shed key hangs in the garage now' });

		expect(await undoImport(client, undo)).toEqual({ removed: 1, restored: 1, kept: 2 });
		const [m0, m1, m2, m3] = await e.getMemories(['m-0', 'm-1', 'm-2', 'm-3']);
		expect(m0?.content).toBe('Roses were planted along the fence in June');
		expect(m1).toBeUndefined();
		expect(m2?.content).toBe('The garden gate is painted green');
		expect(m3?.content).toBe('The shed key hangs in the garage now');
	});
});

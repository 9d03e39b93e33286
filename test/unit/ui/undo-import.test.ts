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

		expect(await undoImport(client, undo)).toEqual({ removed: 1, restored: 1, kept: 2, links: 0, keptLinks: 0 });
		const [m0, m1, m2, m3] = await e.getMemories(['m-0', 'm-1', 'm-2', 'm-3']);
		expect(m0?.content).toBe('Roses were planted along the fence in June');
		expect(m1).toBeUndefined();
		expect(m2?.content).toBe('The garden gate is painted green');
		expect(m3?.content).toBe('The shed key hangs in the garage now');
	});
});

describe('undoImport of links and graphs', () => {
	const graph = (lines: object[]) => lines.map((l) => JSON.stringify(l)).join('\n');
	const entity = (name: string, observations: string[]) => ({ type: 'entity', name, entityType: 'person', observations });
	const relation = (from: string, to: string, relationType: string) => ({ type: 'relation', from, to, relationType });

	it('takes back the links an import made or changed between memories that were already there', async () => {
		const e = await makeEngine();
		open.push(e);
		const client = e as unknown as EngineProxy;
		await importText(
			client,
			file([
				{ id: 'm-1', content: 'The boiler was serviced in March' },
				{ id: 'm-2', content: 'The boiler warranty runs until 2027' },
				{ id: 'm-3', content: 'The plumber is called Ana' },
			]),
			{ format: 'jsonl', onConflict: 'skip' },
			task,
		);
		await e.associate({ associations: [{ memory1_id: 'm-1', memory2_id: 'm-3', type: 'RELATES_TO', strength: 0.3 }] });
		const [was] = (await e.associationsOf('m-1')).filter((a) => a.to === 'm-3');
		const link = (from: string, to: string, strength: number) => JSON.stringify({ kind: 'association', from, to, type: 'RELATES_TO', strength });
		const out = await importText(
			client,
			[
				file([{ id: 'm-4', content: 'The boiler pressure should read 1.5 bar' }]),
				link('m-1', 'm-2', 0.9),
				link('m-1', 'm-3', 0.9),
				link('m-4', 'm-1', 0.5),
			].join('\n'),
			{ format: 'jsonl', onConflict: 'skip' },
			task,
		);
		expect(out.associations).toBe(3);

		expect(await undoImport(client, out.undo!)).toEqual({ removed: 1, restored: 0, kept: 0, links: 2, keptLinks: 0 });
		expect(await e.associationsOf('m-1')).toEqual([was]);
		expect(await e.getMemories(['m-4'])).toEqual([undefined]);
	});

	it('is offered after a server-memory graph, and removes its observations and its relations between entities already there', async () => {
		const e = await makeEngine();
		open.push(e);
		const client = e as unknown as EngineProxy;
		await importText(client, graph([entity('Ana', ['Fixes boilers']), entity('Ben', ['Owns the flat'])]), { format: 'auto', onConflict: 'skip' }, task);
		const before = (await e.exportMemories({ format: 'json' })).data;
		const out = await importText(
			client,
			graph([entity('Ana', ['Fixes boilers', 'Speaks Portuguese']), entity('Ben', ['Owns the flat']), relation('Ben', 'Ana', 'hired')]),
			{ format: 'auto', onConflict: 'skip' },
			task,
		);
		expect(out).toMatchObject({ format: 'server-memory-jsonl', imported: 1, skipped: 2, associations: 1 });
		expect(out.undo?.added).toHaveLength(1);

		expect(await undoImport(client, out.undo!)).toEqual({ removed: 1, restored: 0, kept: 0, links: 1, keptLinks: 0 });
		const after = (await e.exportMemories({ format: 'json' })).data;
		const body = (json: string) => ({ ...(JSON.parse(json) as object), exported_at: undefined });
		expect(body(after)).toEqual(body(before));
	});

	it('puts back the observations a graph replaced, and leaves a relation an agent changed after the import', async () => {
		const e = await makeEngine();
		open.push(e);
		const client = e as unknown as EngineProxy;
		await importText(client, graph([entity('Ana', ['Fixes boilers']), entity('Ben', ['Owns the flat'])]), { format: 'auto', onConflict: 'skip' }, task);
		const out = await importText(
			client,
			graph([entity('Ana', ['Fixes boilers']), entity('Ben', ['Owns the flat']), relation('Ben', 'Ana', 'hired')]),
			{ format: 'auto', onConflict: 'replace' },
			task,
		);
		expect(out).toMatchObject({ imported: 0, replaced: 2, associations: 1 });
		const undo = out.undo!;
		while (Date.now() <= Date.parse(undo.ended!)) await new Promise((r) => setTimeout(r, 1));
		const { from, to } = undo.links![0];
		await e.associate({ associations: [{ memory1_id: from, memory2_id: to, type: 'RELATES_TO', strength: 0.2 }] });

		expect(await undoImport(client, undo)).toEqual({ removed: 0, restored: 2, kept: 0, links: 0, keptLinks: 1 });
		expect((await e.associationsOf(from)).filter((a) => a.to === to && a.type === 'RELATES_TO').map((a) => a.strength)).toEqual([0.2]);
	});
});

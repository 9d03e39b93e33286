/**
 * The app's import/export steps against a real engine (fake-indexeddb, the embedded model): files
 * are imported in chunks with progress, Cancel stops between whole chunks, errors keep the line
 * numbers of the person's file, and paged exports are assembled into one file that imports back.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineProxy as EngineClient } from '../../../src/ui/state/engine-proxy';
import type { TaskHandle } from '../../../src/ui/state/tasks.svelte';
import { exportAll, importText, resultOutcome, sniffFormat } from '../../../src/ui/transfer';
import type { Engine } from '../../../src/engine/engine';
import { makeEngine } from '../engine/helpers';

const open: Engine[] = [];
afterEach(async () => {
	for (const e of open.splice(0)) await e.close();
});

async function engine(): Promise<{ real: Engine; client: EngineClient }> {
	const real = await makeEngine();
	open.push(real);
	// The UI talks to a comlink Remote; the real engine has the same async surface.
	return { real, client: real as unknown as EngineClient };
}

/** A task handle that records progress and cancels after `cancelAfter` progress reports. */
function handle(cancelAfter = Infinity): TaskHandle & { reports: [number, number][] } {
	const reports: [number, number][] = [];
	return {
		reports,
		get cancelled() {
			return reports.length >= cancelAfter;
		},
		progress(done, total) {
			reports.push([done, total]);
		},
	};
}

function jsonl(n: number, extra: string[] = []): string {
	const lines = [JSON.stringify({ kind: 'header', format: 'engram', version: 1 })];
	for (let i = 0; i < n; i++)
		lines.push(
			JSON.stringify({ kind: 'memory', id: `m-${i}`, content: `Note number ${i} about the garden and the ${['roses', 'tulips', 'ferns'][i % 3]}` }),
		);
	return [...lines, ...extra].join('\n');
}

describe('ui/transfer', () => {
	describe('sniffFormat', () => {
		it('tells the four formats apart from the first record', () => {
			expect(sniffFormat('{"kind":"header","format":"engram"}\n{"kind":"memory"}')).toBe('jsonl');
			expect(sniffFormat('{\n "format": "engram",\n "memories": []\n}')).toBe('json');
			expect(sniffFormat('{"type":"entity","name":"A","entityType":"person","observations":[]}')).toBe('server-memory-jsonl');
			expect(sniffFormat('# My notes\n\nSomething')).toBe('markdown');
		});
	});

	describe('importText', () => {
		it('imports a JSONL file in chunks, reporting progress up to the total', async () => {
			const { real, client } = await engine();
			const task = handle();
			const out = await importText(client, jsonl(7), { format: 'auto', onConflict: 'skip', chunkSize: 3 }, task);
			expect(out).toMatchObject({ imported: 7, cancelled: false, format: 'jsonl' });
			expect(task.reports.at(-1)).toEqual([7, 7]);
			expect((await real.stats({})).total_memories).toBe(7);
		});

		it('stops between whole chunks when cancelled', async () => {
			const { real, client } = await engine();
			const out = await importText(client, jsonl(7), { format: 'jsonl', onConflict: 'skip', chunkSize: 3 }, handle(1));
			expect(out.cancelled).toBe(true);
			// Out of the file's memories, and the rest named: "Cancelled: 3 imported" read as all done.
			expect(out.message).toBe('Cancelled: 3 of 7 imported; 4 memories were not reached (import the file again for them: those already here are kept)');
			expect(out.notReached).toBe(4);
			expect(resultOutcome(out)).toBe('partial');
			expect((await real.stats({})).total_memories).toBe(3);
		});

		it('reports refused records with their line in the file, not in the chunk', async () => {
			const { client } = await engine();
			const bad = JSON.stringify({ kind: 'memory', id: 'empty', content: '' });
			const text = jsonl(5, [bad]);
			const out = await importText(client, text, { format: 'jsonl', onConflict: 'skip', chunkSize: 2 }, handle());
			expect(out.imported).toBe(5);
			expect(out.errors).toHaveLength(1);
			expect(out.errors[0].line).toBe(7);
			expect(out.errors[0].error).toMatch(/content/);
		});

		it('imports links after every memory so a link to a later chunk finds both ends', async () => {
			const { real, client } = await engine();
			const link = JSON.stringify({ kind: 'association', from: 'm-0', to: 'm-6', type: 'RELATES_TO', strength: 0.7 });
			// The link comes before the memories it joins; chunking must still put it last.
			const lines = jsonl(7).split('\n');
			lines.splice(1, 0, link);
			const out = await importText(client, lines.join('\n'), { format: 'jsonl', onConflict: 'skip', chunkSize: 2 }, handle());
			expect(out).toMatchObject({ imported: 7, associations: 1 });
			expect(await real.associationsOf('m-6')).toContainEqual(expect.objectContaining({ from: 'm-0', to: 'm-6', type: 'RELATES_TO' }));
		});
	});

	describe('exportAll', () => {
		it('assembles pages into one JSON file that imports back identically', async () => {
			const a = await engine();
			await importText(a.client, jsonl(6), { format: 'jsonl', onConflict: 'skip' }, handle());
			await a.real.associate({ memory1_id: 'm-1', memory2_id: 'm-4', type: 'LEADS_TO', strength: 0.9 });
			const file = await exportAll(a.client, { format: 'json' }, 6, handle(), 4);
			expect(file?.count).toBe(6);
			const b = await engine();
			const out = await importText(b.client, file!.text, { format: 'auto', onConflict: 'skip' }, handle());
			expect(out).toMatchObject({ imported: 6, cancelled: false });
			const ids = (m: { memories: { id: string }[] }) => m.memories.map((x) => x.id).sort();
			expect(ids(await b.real.timeline({ limit: 20 }))).toEqual(ids(await a.real.timeline({ limit: 20 })));
			expect(await b.real.associationsOf('m-4')).toContainEqual(expect.objectContaining({ from: 'm-1', type: 'LEADS_TO', strength: 0.9 }));
		});

		it('keeps one header when JSONL pages are joined', async () => {
			const { client } = await engine();
			await importText(client, jsonl(5), { format: 'jsonl', onConflict: 'skip' }, handle());
			const file = await exportAll(client, { format: 'jsonl' }, 5, handle(), 2);
			const lines = file!.text
				.trim()
				.split('\n')
				.map((l) => JSON.parse(l) as { kind: string });
			expect(lines.filter((l) => l.kind === 'header')).toHaveLength(1);
			expect(lines.filter((l) => l.kind === 'memory')).toHaveLength(5);
		});

		it('returns nothing when cancelled', async () => {
			const { client } = await engine();
			await importText(client, jsonl(3), { format: 'jsonl', onConflict: 'skip' }, handle());
			expect(await exportAll(client, { format: 'json' }, 3, handle(0), 2)).toBeUndefined();
		});
	});
});

/**
 * An export read in pages and assembled into one file is the file one page would have been: a
 * Markdown export of several pages has one title and count line, and imports back with every
 * memory whole (a later page's title after a memory's fence made that memory read as notes).
 */
import { describe, expect, it } from 'vitest';
import type { EngineProxy } from '../../../src/ui/state/engine-proxy';
import { exportAll, importText } from '../../../src/ui/transfer';
import { Clock, useEngines } from '../engine/helpers';

const clock = new Clock();
const engines = useEngines();
const task = { cancelled: false, progress() {} };

describe('a paged export', () => {
	for (const format of ['markdown', 'json', 'jsonl'] as const) {
		it(`is the ${format} file one page gives, and imports back whole`, async () => {
			const a = await engines({ now: clock.now });
			await a.store({
				memories: Array.from({ length: 7 }, (_, i) => ({
					id: `m-${i}`,
					content: `Note ${i} about the ${['roses', 'tulips', 'ferns'][i % 3]}`,
					force: true,
				})),
			});
			await a.associate({ memory1_id: 'm-1', memory2_id: 'm-5', type: 'LEADS_TO', strength: 0.9 });
			const client = a as unknown as EngineProxy;
			const paged = await exportAll(client, { format }, 7, task, 3);
			const whole = await exportAll(client, { format }, 7, task, 100);
			// JSONL pages list their entities and links after their own memories: the same lines.
			if (format === 'jsonl') expect(paged!.text.split('\n').sort()).toEqual(whole!.text.split('\n').sort());
			else {
				expect(paged!.text).toBe(whole!.text);
			}
			const b = await engines({ now: clock.now });
			const out = await importText(b as unknown as EngineProxy, paged!.text, { format: 'auto', onConflict: 'skip' }, task);
			expect(out).toMatchObject({ imported: 7, refused: 0 });
			const rows = await b.db.memories.orderBy('seq').toArray();
			expect(rows.map((r) => r.content)).toEqual((await a.db.memories.orderBy('seq').toArray()).map((r) => r.content));
		});
	}
});

describe('Markdown export pages joined as they came', () => {
	it('import whole through import_memories (a page’s title after a fence is not part of the memory)', async () => {
		const a = await engines({ now: clock.now });
		await a.store({ memories: Array.from({ length: 5 }, (_, i) => ({ id: `m-${i}`, content: `Note ${i} about the garden`, force: true })) });
		const pages: string[] = [];
		for (let after: number | undefined; ;) {
			const out = await a.exportMemories({ format: 'markdown', limit: 2, after_seq: after });
			pages.push(out.data);
			if (!out.has_more) break;
			after = out.next_after_seq;
		}
		expect(pages).toHaveLength(3);
		const b = await engines({ now: clock.now });
		const res = await b.importMemories({ data: pages.join('\n') });
		expect(res).toMatchObject({ imported: 5, refused: 0 });
		expect((await b.db.memories.orderBy('seq').toArray()).map((r) => r.content)).toEqual(Array.from({ length: 5 }, (_, i) => `Note ${i} about the garden`));
	});
});

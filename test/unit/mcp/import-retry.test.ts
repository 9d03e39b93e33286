/**
 * import_memories is annotated idempotent, so a client may resend it after a lost answer or a
 * timeout: records without an id get the ids the app's Import screen gives them (scope, text,
 * tags, time, type and mem0's id; the n-th repeat in one file counts n), so a resend, or the same
 * file imported on the Import screen, adds no copies, while a record said twice stays twice.
 */
import { describe, expect, it } from 'vitest';
import type { ImportOutput } from '../../../src/core/schemas';
import { emptyBundle, withStableIds } from '../../../src/ui/transfer';
import { Clock, connect, data, makeEngine } from './helpers';

const JSONL = [
	'{"content": "Billing moved to PostgreSQL", "tags": ["billing"], "type": "Decision", "timestamp": "2024-05-02"}',
	'{"content": "Deploys happen on Tuesdays", "tags": ["ops"], "importance": 0.7}',
	'{"content": "Thanks!"}',
	'{"content": "Thanks!"}',
].join('\n');
const MEM0 = JSON.stringify({ results: [{ id: 'm0-1', memory: 'Likes green tea', user_id: 'ana', categories: ['food'] }] });
const MARKDOWN = '# Ops\n\n- Deploys happen on Tuesdays\n- Rollbacks need two approvals\n';

describe('import_memories', () => {
	it('adds no copies when resent, for plain JSONL, mem0 JSON and Markdown notes; a repeated record stays twice', async () => {
		const engine = await makeEngine({ now: new Clock().now });
		const c = await connect(engine, 'native');
		for (const [text, n] of [
			[JSONL, 4],
			[MEM0, 1],
			[MARKDOWN, 2],
		] as const) {
			const first = data<ImportOutput>(await c.call('import_memories', { data: text, scope: 'imported' }));
			expect(first).toMatchObject({ imported: n, skipped: 0, refused: 0 });
			const again = data<ImportOutput>(await c.call('import_memories', { data: text, scope: 'imported' }));
			expect(again).toMatchObject({ imported: 0, skipped: n, refused: 0 });
		}
		expect(await engine.db.memories.count()).toBe(7);
	});

	it('gives records the ids the Import screen gives them, so one file imported both ways adds no copies', async () => {
		const engine = await makeEngine({ now: new Clock().now });
		await engine.importMemories({ data: JSONL });
		const screen = emptyBundle();
		screen.memories = JSONL.split('\n').map((l, i) => ({ rec: { kind: 'memory', ...(JSON.parse(l) as Record<string, unknown>) }, line: i + 1 }));
		await withStableIds(screen, undefined);
		const ids = (await engine.db.memories.orderBy('seq').toArray()).map((m) => m.id);
		expect(ids).toEqual(screen.memories.map((m) => m.rec.id));
	});
});

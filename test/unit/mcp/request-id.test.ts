/**
 * request_id through a real SDK Client: the native write tools advertise it, a resend is
 * answered with the original result marked `replayed`, and reuse with other arguments is an
 * isError naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssociateOutput, DeleteOutput, StoreOutput, UnlinkOutput, UpdateOutput } from '../../../src/core/schemas';
import type { Engine } from '../../../src/engine/engine';
import { connect, data, errorText, makeEngine, type Connection } from './helpers';

let engine: Engine;
let c: Connection;

beforeAll(async () => {
	engine = await makeEngine();
	c = await connect(engine);
});
afterAll(async () => {
	await c.close();
	await engine.close();
});

describe('native write tools', () => {
	describe('request_id', () => {
		it('is described in the input schema of every write tool', async () => {
			const { tools } = await c.client.listTools();
			for (const name of ['store_memory', 'update_memory', 'delete_memory', 'associate_memories', 'unlink_memories']) {
				const prop = tools.find((t) => t.name === name)?.inputSchema.properties?.request_id as
					{ type?: string; maxLength?: number; description?: string } | undefined;
				expect(prop, name).toMatchObject({ type: 'string', maxLength: 200 });
				expect(prop?.description).toMatch(/^Idempotency key/);
			}
		});

		it('says in the text, first, that a replayed call wrote nothing now', async () => {
			const store = { content: 'Stand-ups moved to 9:30', request_id: 'mcp-text-1' };
			const first = await c.call('store_memory', store);
			expect((first.content[0] as { text: string }).text).not.toMatch(/^Already applied/);
			const again = await c.call('store_memory', store);
			expect((again.content[0] as { text: string }).text).toBe(
				'Already applied (request_id "mcp-text-1"): this is the first call\'s result; nothing was written now.',
			);
			expect((again.content[1] as { text: string }).text).toBe((first.content[0] as { text: string }).text);
			await c.call('delete_memory', { memory_id: data<StoreOutput>(first).memory_id });
		});

		it('replays store, update, associate, unlink and delete with the original result, writing nothing again', async () => {
			const store = { content: 'The design review moved to Wednesdays', tags: ['team'], request_id: 'mcp-s1' };
			const first = data<StoreOutput>(await c.call('store_memory', store));
			const again = data<StoreOutput>(await c.call('store_memory', store));
			expect(again).toMatchObject({ replayed: true, memory_id: first.memory_id, seq: first.seq });
			const other = data<StoreOutput>(await c.call('store_memory', { content: 'Retros are on Fridays' }));

			const update = { memory_id: first.memory_id, importance: 0.9, request_id: 'mcp-u1' };
			const updated = data<UpdateOutput>(await c.call('update_memory', update));
			expect(data<UpdateOutput>(await c.call('update_memory', update))).toMatchObject({ replayed: true, changed: updated.changed });

			const link = { memory1_id: first.memory_id, memory2_id: other.memory_id, type: 'RELATES_TO', request_id: 'mcp-a1' };
			data<AssociateOutput>(await c.call('associate_memories', link));
			expect(data<AssociateOutput>(await c.call('associate_memories', link))).toMatchObject({ replayed: true, created_count: 1 });

			const unlink = { memory1_id: first.memory_id, memory2_id: other.memory_id, request_id: 'mcp-l1' };
			const unlinked = data<UnlinkOutput>(await c.call('unlink_memories', unlink));
			expect(data<UnlinkOutput>(await c.call('unlink_memories', unlink))).toMatchObject({ replayed: true, removed_count: 1, removed: unlinked.removed });

			const del = { memory_id: first.memory_id, request_id: 'mcp-d1' };
			data<DeleteOutput>(await c.call('delete_memory', del));
			expect(data<DeleteOutput>(await c.call('delete_memory', del))).toMatchObject({ replayed: true, deleted_count: 1, deleted_ids: [first.memory_id] });
			expect(await engine.db.memories.count()).toBe(1);
		});

		it('answers a reuse with other arguments with a conflict naming request_id', async () => {
			data(await c.call('store_memory', { content: 'Payroll runs on the 25th', request_id: 'mcp-c1' }));
			expect(errorText(await c.call('store_memory', { content: 'Payroll runs on the 26th', request_id: 'mcp-c1' }))).toMatch(
				/^conflict: request_id: "mcp-c1" was already used for other arguments/,
			);
		});

		it('refuses an empty or over-long request_id', async () => {
			expect(errorText(await c.call('store_memory', { content: 'x', request_id: '' }))).toMatch(/request_id/);
			expect(errorText(await c.call('store_memory', { content: 'x', request_id: 'r'.repeat(201) }))).toMatch(/request_id/);
		});
	});
});

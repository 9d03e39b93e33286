/** unlink_memories through a real SDK Client: removes a link, and says which one is missing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnlinkOutput } from '../../../src/core/schemas';
import type { Engine } from '../../../src/engine/engine';
import { connect, data, makeEngine, text, type Connection } from './helpers';

let engine: Engine;
let c: Connection;
let a: string;
let b: string;

beforeAll(async () => {
	engine = await makeEngine();
	a = (await engine.store({ content: 'We chose Postgres for billing' })).memory_id!;
	b = (await engine.store({ content: 'Billing moved to a managed Postgres service' })).memory_id!;
	c = await connect(engine);
});
afterAll(async () => {
	await c.close();
	await engine.close();
});

describe('native tools', () => {
	describe('unlink_memories', () => {
		it('is listed as a destructive native tool', async () => {
			const { tools } = await c.client.listTools();
			const tool = tools.find((t) => t.name === 'unlink_memories');
			expect(tool?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
		});

		it('removes a link made with associate_memories', async () => {
			data(await c.call('associate_memories', { memory1_id: a, memory2_id: b, type: 'EVOLVED_INTO', strength: 0.7 }));
			const r = await c.call('unlink_memories', { memory1_id: a, memory2_id: b, type: 'EVOLVED_INTO' });
			expect(data<UnlinkOutput>(r)).toEqual({
				success: true,
				message: `Removed EVOLVED_INTO from ${a} to ${b}`,
				removed_count: 1,
				removed: [{ memory1_id: a, memory2_id: b, type: 'EVOLVED_INTO', strength: 0.7 }],
			});
			expect(text(r)).toBe(`Removed EVOLVED_INTO from ${a} to ${b}\n  ${a} -EVOLVED_INTO 0.7-> ${b} (removed)`);
			expect((await engine.associationsOf(a)).some((l) => l.type === 'EVOLVED_INTO')).toBe(false);
		});

		it('answers an isError result naming the missing link', async () => {
			const r = await c.call('unlink_memories', { memory1_id: a, memory2_id: b, type: 'PART_OF' });
			expect(r.isError).toBe(true);
			expect(text(r)).toBe(`not_found: type: no PART_OF link from ${a} to ${b}`);
		});
	});
});

/**
 * memory-mcp's label tools (add_labels, del_labels, replace_labels) through a real Client: each
 * edit is one engine operation, so concurrent edits of one memory all land, and the odd cases
 * (a label given twice, removing a label the memory lacks, case) answer as they always have;
 * replacing labels the memory has none of is refused instead of adding the new ones.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/engine/engine';
import { connect, data, embedder, errorText, makeEngine, type Connection } from './helpers';

type LabelResult = { success: boolean; message: string; labels: string[] };

let engine: Engine;
let c: Connection;
let other: Connection;

beforeAll(async () => {
	await embedder();
});
beforeEach(async () => {
	engine = await makeEngine();
	c = await connect(engine, 'memory-mcp');
	other = await connect(engine, 'memory-mcp');
});
afterEach(async () => {
	await c.close();
	await other.close();
	await engine.close();
});

/** Stores a memory with `tags` and returns its integer id (seq) and uuid. */
async function memory(tags: string[]): Promise<{ seq: number; id: string }> {
	const out = await engine.store({ content: `A memory to label ${Math.random()}`, tags });
	return { seq: out.seq!, id: out.memory_id! };
}

const tagsOf = async (id: string) => (await engine.getMemories([id]))[0]!.tags;
const updates = async (id: string) => (await engine.history(id)).filter((e) => e.action === 'updated');

describe('memory-mcp label edits are atomic', () => {
	it('two add_labels issued at once on one memory both land (two connections, like two agents)', async () => {
		const m = await memory(['base']);
		const [a, b] = await Promise.all([
			c.call('add_labels', { memory_id: m.seq, labels: 'alpha' }),
			other.call('add_labels', { memory_id: m.seq, labels: 'beta' }),
		]);
		expect(data<LabelResult>(a).labels).toContain('alpha');
		expect(data<LabelResult>(b).labels).toContain('beta');
		expect((await tagsOf(m.id)).sort()).toEqual(['alpha', 'base', 'beta']);
		expect(await updates(m.id)).toHaveLength(2);
	});

	it('an add, a delete and a replace issued at once all land', async () => {
		const m = await memory(['todo', 'stale', 'keep']);
		await Promise.all([
			c.call('add_labels', { memory_id: m.seq, labels: 'new' }),
			other.call('del_labels', { memory_id: m.seq, labels: 'STALE' }),
			c.call('replace_labels', { memory_id: m.seq, target: 'todo', new: 'done' }),
		]);
		expect((await tagsOf(m.id)).sort()).toEqual(['done', 'keep', 'new']);
	});

	it('a label edit and an app edit of the same memory at once both land', async () => {
		const m = await memory(['base']);
		await Promise.all([
			c.call('add_labels', { memory_id: m.seq, labels: 'agent' }),
			engine.update({ memory_id: m.id, tags_add: ['app'] }, { actor: 'app' }),
		]);
		expect((await tagsOf(m.id)).sort()).toEqual(['agent', 'app', 'base']);
	});
});

describe('memory-mcp label tools answer as before', () => {
	it('add_labels: the same label given twice is added once; an exact label already there is skipped; case differs = new label', async () => {
		const m = await memory(['auth', 'decision']);
		expect(data(await c.call('add_labels', { memory_id: m.seq, labels: 'beer, beer, auth, Auth' }))).toEqual({
			success: true,
			message: `✅ Labels added to memory #${m.seq}`,
			labels: ['auth', 'decision', 'beer', 'Auth'],
		});
		expect(await tagsOf(m.id)).toEqual(['auth', 'decision', 'beer', 'Auth']);
		const [entry] = await updates(m.id);
		expect(entry!.detail).toBe('tags');
		expect(entry!.changes).toEqual({ tags: { from: ['auth', 'decision'], to: ['auth', 'decision', 'beer', 'Auth'] } });
	});

	it('add_labels of labels all present writes nothing (no history entry)', async () => {
		const m = await memory(['auth', 'decision']);
		expect(data(await c.call('add_labels', { memory_id: m.seq, labels: '["decision", "auth"]' }))).toEqual({
			success: true,
			message: `✅ Labels added to memory #${m.seq}`,
			labels: ['auth', 'decision'],
		});
		expect(await updates(m.id)).toEqual([]);
	});

	it('del_labels: case-insensitive; a label the memory lacks is ignored; nothing to remove writes nothing', async () => {
		const m = await memory(['Auth', 'decision', 'AUTH']);
		expect(data(await c.call('del_labels', { memory_id: m.seq, labels: 'auth, absent, auth' }))).toEqual({
			success: true,
			message: `✅ Labels removed from memory #${m.seq}`,
			labels: ['decision'],
		});
		expect(data(await c.call('del_labels', { memory_id: m.seq, labels: 'absent' }))).toEqual({
			success: true,
			message: `✅ Labels removed from memory #${m.seq}`,
			labels: ['decision'],
		});
		expect(await updates(m.id)).toHaveLength(1);
	});

	it('replace_labels: target case-insensitive, new keeps its case, a lacking target beside a present one ignored, new given twice added once', async () => {
		const m = await memory(['Todo', 'x']);
		expect(data(await c.call('replace_labels', { memory_id: m.seq, target: 'TODO, absent', new: 'Done, Done, x' }))).toEqual({
			success: true,
			message: `✅ Labels replaced on memory #${m.seq}`,
			labels: ['x', 'Done'],
		});
		// Replacing a label by itself changes nothing, so writes nothing.
		expect(data(await c.call('replace_labels', { memory_id: m.seq, target: 'done', new: 'Done' })).labels).toEqual(['x', 'Done']);
		expect(await updates(m.id)).toHaveLength(1);
	});

	it('replace_labels of a label by itself keeps it in place and writes nothing; a case change still renames', async () => {
		const m = await memory(['x', 'y', 'z']);
		expect(data(await c.call('replace_labels', { memory_id: m.seq, target: 'x', new: 'x' }))).toEqual({
			success: true,
			message: `✅ Labels replaced on memory #${m.seq}`,
			labels: ['x', 'y', 'z'],
		});
		expect(data<LabelResult>(await c.call('replace_labels', { memory_id: m.seq, target: 'y, x', new: 'x, y' })).labels).toEqual(['x', 'y', 'z']);
		expect(await tagsOf(m.id)).toEqual(['x', 'y', 'z']);
		expect(await updates(m.id)).toHaveLength(0);
		expect(data<LabelResult>(await c.call('replace_labels', { memory_id: m.seq, target: 'x', new: 'X' })).labels).toEqual(['y', 'z', 'X']);
	});

	it('replace_labels: a target the memory lacks is refused, naming target, and adds nothing', async () => {
		const m = await memory(['todo', 'x']);
		expect(errorText(await c.call('replace_labels', { memory_id: m.seq, target: 'absent, gone', new: 'done' }))).toBe(
			`not_found: target: memory #${m.seq} has none of "absent", "gone" (it has: "todo", "x"); nothing was replaced or changed. To add labels without replacing one, use add_labels`,
		);
		expect(await tagsOf(m.id)).toEqual(['todo', 'x']);
		expect(await updates(m.id)).toEqual([]);
	});

	it('replace_labels retried after it applied succeeds and changes nothing; a retry that would add a label is refused', async () => {
		const m = await memory(['todo', 'x']);
		const call = { memory_id: m.seq, target: 'todo', new: 'done' };
		expect(data<LabelResult>(await c.call('replace_labels', call)).labels).toEqual(['x', 'done']);
		expect(data(await other.call('replace_labels', call))).toEqual({
			success: true,
			message: `✅ Labels already replaced on memory #${m.seq} (it has none of the target labels and all of the new ones): nothing changed`,
			labels: ['x', 'done'],
		});
		expect(errorText(await c.call('replace_labels', { ...call, new: 'done, shipped' }))).toMatch(/^not_found: target: memory #\d+ has none of "todo"/);
		expect(await tagsOf(m.id)).toEqual(['x', 'done']);
		expect(await updates(m.id)).toHaveLength(1);
	});

	it('two agents replacing the same label at once: one replaces, the other is told, nothing is added twice', async () => {
		const m = await memory(['todo']);
		const [a, b] = await Promise.all([
			c.call('replace_labels', { memory_id: m.seq, target: 'todo', new: 'done' }),
			other.call('replace_labels', { memory_id: m.seq, target: 'todo', new: 'wontfix' }),
		]);
		const outcomes = [a, b].map((r) => (r.isError ? 'refused' : 'replaced')).sort();
		expect(outcomes).toEqual(['refused', 'replaced']);
		expect(await tagsOf(m.id)).toHaveLength(1);
	});

	it("errors: unknown memory, no labels, and too many labels name the argument (labels, new), not the engine's tags", async () => {
		expect(errorText(await c.call('add_labels', { memory_id: 99999, labels: 'a' }))).toBe('not_found: memory_id: ❌ Memory #99999 not found');
		const m = await memory(Array.from({ length: 63 }, (_, i) => `t${i}`));
		expect(errorText(await c.call('del_labels', { memory_id: m.seq, labels: ' , ' }))).toBe('invalid_input: labels: ❌ No valid labels provided');
		expect(errorText(await c.call('add_labels', { memory_id: m.seq, labels: 'a, b' }))).toBe(
			'invalid_input: labels: a memory has at most 64 labels, and these would give it 65; nothing was changed',
		);
		expect(errorText(await c.call('replace_labels', { memory_id: m.seq, target: 't0', new: 'a, b, c' }))).toBe(
			'invalid_input: new: a memory has at most 64 labels, and these would give it 65; nothing was changed',
		);
		expect(await tagsOf(m.id)).toHaveLength(63);
	});
});

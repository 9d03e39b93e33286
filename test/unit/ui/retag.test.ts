/**
 * The app's bulk tagging (retagMemories) on a real engine: each memory's edit is one engine
 * update on the tags it has then, so a label an agent adds meanwhile is kept.
 */
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/engine/engine';
import { retagMemories } from '../../../src/ui/actions';
import type { AppContext } from '../../../src/ui/state/context';
import { useEngines } from '../engine/helpers';

const engines = useEngines();

/** The parts of the app retagMemories uses: the engine, and the live-refresh counter. */
function appOf(engine: Engine): AppContext & { touched: string[] } {
	const touched: string[] = [];
	return { engine, live: { touch: (what: string) => touched.push(what) }, touched } as unknown as AppContext & { touched: string[] };
}

describe('retagMemories', () => {
	it('adds to and removes from each memory, counts the ones that changed, skips deleted ones', async () => {
		const engine = await engines();
		const a = (await engine.store({ content: 'Deploys happen on Tuesdays', tags: ['ops'] })).memory_id!;
		const b = (await engine.store({ content: 'The staging database resets on Sunday', tags: ['ops', 'reviewed'] })).memory_id!;
		const app = appOf(engine);
		expect(await retagMemories(app, [a, b, 'deleted-meanwhile'], ['reviewed'])).toBe(1);
		expect((await engine.getMemories([a, b])).map((m) => m!.tags)).toEqual([
			['ops', 'reviewed'],
			['ops', 'reviewed'],
		]);
		expect(await retagMemories(app, [a, b], [], ['OPS'])).toBe(2);
		expect((await engine.getMemories([a, b])).map((m) => m!.tags)).toEqual([['reviewed'], ['reviewed']]);
		expect(app.touched).toEqual(['memories', 'memories']);
		const updates = (await engine.history(a)).filter((h) => h.actor === 'app' && h.action === 'updated');
		expect(updates).toHaveLength(2);
	});

	it('keeps a tag an agent adds while the bulk edit runs', async () => {
		const engine = await engines();
		const ids: string[] = [];
		for (let i = 0; i < 5; i++) ids.push((await engine.store({ content: `Bulk memory number ${i} about topic ${i * 7}`, tags: ['base'] })).memory_id!);
		await Promise.all([retagMemories(appOf(engine), ids, ['bulk']), ...ids.map((id) => engine.update({ memory_id: id, tags_add: ['agent'] }))]);
		for (const m of await engine.getMemories(ids)) expect([...m!.tags].sort()).toEqual(['agent', 'base', 'bulk']);
	});
});

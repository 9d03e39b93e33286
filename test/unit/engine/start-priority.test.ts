import { describe, expect, it } from 'vitest';
import type { Embedder } from '../../../src/engine/embedder';
import { remoteFacade } from '../../../src/engine/remote-facade';
import type { EngineApi } from '../../../src/engine/types';
import { embedder, useEngines } from './helpers';

const engines = useEngines();

/** The real embedder, whose next call can be held until released. */
async function holdable(): Promise<Embedder & { hold(): () => void }> {
	const inner = await embedder();
	let gate: Promise<void> | undefined;
	return {
		modelId: inner.modelId,
		dims: inner.dims,
		async embed(texts: string[]) {
			if (gate) await gate;
			return inner.embed(texts);
		},
		hold() {
			let release!: () => void;
			gate = new Promise((r) => (release = r));
			return () => {
				gate = undefined;
				release();
			};
		},
	};
}

describe('the app’s own reads yield to recalls in flight', () => {
	it('stats and a timeline page asked while a recall runs answer after it', async () => {
		const e = await holdable();
		const engine = await engines({ embedder: e });
		await engine.store({ memories: Array.from({ length: 30 }, (_, i) => ({ content: `Deploy note ${i} about the billing service`, tags: ['ops'] })) });
		const order: string[] = [];
		const release = e.hold();
		const recall = engine.recall({ query: 'billing deploy' }).then((r) => order.push(`recall ${r.count}`));
		const stats = engine.stats({}).then((s) => order.push(`stats ${s.total_memories}`));
		const timeline = engine.timeline({ limit: 5 }).then((t) => order.push(`timeline ${t.memories.length}`));
		// Let the recall go only once the app's reads have been asked for: they must wait for it.
		release();
		await Promise.all([recall, stats, timeline]);
		expect(order[0]).toBe('recall 10');
		expect(order.slice(1).sort()).toEqual(['stats 30', 'timeline 5']);
	});

	it('a search asked after them, while the engine was still starting, is answered first', async () => {
		const engine = await engines({ embedder: await embedder() });
		await engine.store({ memories: Array.from({ length: 30 }, (_, i) => ({ content: `Deploy note ${i} about the billing service`, tags: ['ops'] })) });
		// The page's calls wait for the engine's start together (remote-facade.ts), in the order the app boots.
		let start!: (e: EngineApi) => void;
		const facade = remoteFacade(new Promise<EngineApi>((r) => (start = r)));
		const order: string[] = [];
		const calls = [
			facade.stats({}).then(() => order.push('stats')),
			facade.timeline({ limit: 5 }).then(() => order.push('timeline')),
			facade.recall({ query: 'billing deploy' }).then(() => order.push('recall')),
		];
		start(engine);
		await Promise.all(calls);
		expect(order[0]).toBe('recall');
	});
});

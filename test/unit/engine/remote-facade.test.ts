import { describe, expect, it } from 'vitest';
import { remoteFacade } from '../../../src/engine/remote-facade';
import type { EngineApi } from '../../../src/engine/types';
import { embedder, useEngines } from './helpers';

const engines = useEngines();

/** A facade over `engine` that counts the engine's own stats calls; `hold()` keeps the next one from starting until released. */
function counted(engine: EngineApi): { facade: EngineApi; count: () => number; hold: () => () => void } {
	let n = 0;
	let gate: Promise<void> | undefined;
	const stats = engine.stats.bind(engine);
	engine.stats = async (input) => {
		n++;
		const wait = gate;
		gate = undefined;
		await wait;
		return stats(input);
	};
	const hold = () => {
		let release!: () => void;
		gate = new Promise((r) => (release = r));
		return release;
	};
	return { facade: remoteFacade(Promise.resolve(engine)), count: () => n, hold };
}

describe('remoteFacade shares a count asked twice at once', () => {
	it('two equal stats calls in flight together cost the engine one', async () => {
		const engine = await engines({ embedder: await embedder() });
		await engine.store({ memories: Array.from({ length: 5 }, (_, i) => ({ content: `Deploy note ${i} about the billing service`, tags: ['ops'] })) });
		const { facade, count } = counted(engine);
		const [a, b] = await Promise.all([facade.stats({}), facade.stats({})]);
		expect(count()).toBe(1);
		expect(a.total_memories).toBe(5);
		expect(b).toEqual(a);
		// Other arguments are another question; a later call asks again.
		await Promise.all([facade.stats({}), facade.stats({ tags: ['ops'] })]);
		expect(count()).toBe(3);
	});

	it('a call asked after a committed write does not get an answer from before it', async () => {
		const engine = await engines({ embedder: await embedder() });
		await engine.store({ content: 'The first deploy note about billing' });
		const { facade, count, hold } = counted(engine);
		const release = hold();
		const before = facade.stats({});
		// The write commits (and emits its change event) while the first count is held in flight.
		await facade.store({ content: 'A second, different note: the cache moved to Redis' });
		const after = facade.stats({});
		release();
		expect((await after).total_memories).toBe(2);
		expect(count()).toBe(2);
		await before;
	});
});

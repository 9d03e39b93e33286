import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/engine/engine';
import type { ChangeEvent } from '../../../src/engine/types';
import { embedder, freshName, makeEngine } from './helpers';

const open: Engine[] = [];

/** Resolves when `engine` emits an event of `kind`. */
function nextEvent(engine: Engine, kind: ChangeEvent['kind']): Promise<ChangeEvent> {
	return new Promise((resolve) => {
		const off = engine.subscribe((e) => {
			if (e.kind !== kind) return;
			off();
			resolve(e);
		});
	});
}

const contents = async (e: Engine) => (await e.timeline({ limit: 100 })).memories.map((m) => m.content);

beforeAll(async () => {
	await embedder();
});

afterEach(async () => {
	await Promise.all(open.splice(0).map((e) => e.close()));
});

// timeline() keeps the briefs it read (browse-ops.ts BriefCache): each case reads first, so the
// page is kept, then changes it and reads again.
describe('timeline pages kept between reads', () => {
	it('an edit, a delete and a store show on the next page read', async () => {
		const e = await makeEngine();
		open.push(e);
		const a = await e.store({ content: 'The boiler is serviced every October.', timestamp: '2024-01-01T00:00:00Z' });
		const b = await e.store({ content: 'The garden hose hangs in the shed.', timestamp: '2024-01-02T00:00:00Z' });
		expect(await contents(e)).toEqual(['The garden hose hangs in the shed.', 'The boiler is serviced every October.']);
		await e.update({ memory_id: a.memory_id!, content: 'The boiler is serviced every November.', tags: ['house'] });
		await e.delete({ memory_id: b.memory_id });
		await e.store({ content: 'The fuse box is behind the coats.', timestamp: '2024-01-03T00:00:00Z' });
		const page = await e.timeline({ limit: 100 });
		expect(page.memories.map((m) => [m.content, m.tags])).toEqual([
			['The fuse box is behind the coats.', []],
			['The boiler is serviced every November.', ['house']],
		]);
		expect(page.total).toBe(2);
	});

	it('a caller changing what it got changes no later answer', async () => {
		const e = await makeEngine();
		open.push(e);
		await e.store({ content: 'The spare key is under the blue pot.', tags: ['house'] });
		await e.timeline({ limit: 10 });
		const kept = await e.timeline({ limit: 10 });
		kept.memories[0].content = 'rewritten by a caller';
		kept.memories[0].tags.push('mutated');
		const again = await e.timeline({ limit: 10 });
		expect(again.memories.map((m) => [m.content, m.tags])).toEqual([['The spare key is under the blue pot.', ['house']]]);
	});

	it('a page cut at another length is read at that length', async () => {
		const e = await makeEngine();
		open.push(e);
		await e.store({ content: 'The attic ladder sticks in damp weather, so pull it down slowly.' });
		await e.timeline({ limit: 10 });
		const short = await e.timeline({ limit: 10, max_content_chars: 20 });
		expect(short.memories[0].content.length).toBeLessThan(30);
		expect((await e.timeline({ limit: 10 })).memories[0].content).toBe('The attic ladder sticks in damp weather, so pull it down slowly.');
	});

	it("another tab's edit reaches this tab's kept page", async () => {
		const dbName = freshName();
		const a = await makeEngine({ dbName });
		const b = await makeEngine({ dbName });
		open.push(a, b);
		const seen = nextEvent(b, 'memories');
		const m = await a.store({ content: 'The recycling goes out on Tuesdays.' });
		await seen;
		expect(await contents(b)).toEqual(['The recycling goes out on Tuesdays.']);
		const edited = nextEvent(b, 'memories');
		await a.update({ memory_id: m.memory_id!, content: 'The recycling goes out on Wednesdays now.' });
		await edited;
		expect(await contents(b)).toEqual(['The recycling goes out on Wednesdays now.']);
	});
});

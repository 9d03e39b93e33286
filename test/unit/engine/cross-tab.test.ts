import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { StampTracker } from '../../../src/engine/cross-tab';
import type { Engine } from '../../../src/engine/engine';
import type { ChangeEvent } from '../../../src/engine/types';
import { embedder, freshName, makeEngine } from './helpers';

const open: Engine[] = [];

/** Two engines on one database, as two browser tabs would have. */
async function twoTabs(): Promise<[Engine, Engine]> {
	const dbName = freshName();
	const a = await makeEngine({ dbName });
	const b = await makeEngine({ dbName });
	open.push(a, b);
	return [a, b];
}

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

beforeAll(async () => {
	await embedder();
});

afterEach(async () => {
	await Promise.all(open.splice(0).map((e) => e.close()));
});

describe('Engine across tabs', () => {
	it('a memory stored in one tab is recalled in another', async () => {
		const [a, b] = await twoTabs();
		const seen = nextEvent(b, 'memories');
		const out = await a.store({ content: 'Backups of the database run nightly at two in the morning' });
		expect(await seen).toEqual({ kind: 'memories', ids: [out.memory_id] });
		const r = await b.recall({ query: 'when do database backups run' });
		expect(r.results.map((x) => x.memory.id)).toEqual([out.memory_id]);
	});

	it('a caller embedding stored in one tab shows in the other tab’s recall results', async () => {
		const [a, b] = await twoTabs();
		await b.recall({ query: 'backups' }); // b has now read which models hold vectors
		const seen = nextEvent(b, 'memories');
		const out = await a.store({ content: 'Backups of the database run nightly', embedding: [1, 0, 0, 0] });
		await seen;
		const r = await b.recall({ query: 'database backups' });
		expect(r.results.map((x) => [x.memory.id, x.memory.embedding_tables])).toEqual([[out.memory_id, ['caller:4', 'engram/glove-sif-100d']]]);
	});

	it('a delete in one tab removes the memory and its links from the other tab’s index', async () => {
		const [a, b] = await twoTabs();
		const x = await a.store({ content: 'The daily standup meeting starts at 9 am' });
		const y = await a.store({ content: 'Our team meets for standup at nine every morning' });
		await nextEventCount(b, 2);
		expect(b.ctx.index.size).toBe(2);
		const gone = nextEvent(b, 'memories');
		await a.delete({ memory_id: y.memory_id! });
		await gone;
		expect(b.ctx.index.size).toBe(1);
		expect((await b.recall({ query: 'standup at nine' })).results.map((r) => r.memory.id)).toEqual([x.memory_id]);
	});

	it('a wipe in one tab clears the other tab’s index', async () => {
		const [a, b] = await twoTabs();
		await a.store({ content: 'Something to forget' });
		await nextEventCount(b, 1);
		const wiped = nextEvent(b, 'wipe');
		await a.wipe();
		await wiped;
		expect(b.ctx.index.size).toBe(0);
	});

	it('a snapshot written by one tab holds the other tab’s memories too', async () => {
		const dbName = freshName();
		const a = await makeEngine({ dbName });
		const b = await makeEngine({ dbName });
		open.push(a);
		const fromA = await a.store({ content: 'Written by tab A about the billing database' });
		await nextEventCount(b, 1);
		await b.store({ content: 'Written by tab B about the holiday calendar' });
		await b.close();
		await a.close();
		open.splice(0);
		const again = await makeEngine({ dbName });
		open.push(again);
		expect(again.indexOrigin).toBe('snapshot');
		expect((await again.recall({ query: 'billing database' })).results[0].memory.id).toBe(fromA.memory_id);
		expect((await again.recall({ query: 'holiday calendar' })).results[0].memory.content).toBe('Written by tab B about the holiday calendar');
	});
});

describe('StampTracker', () => {
	it('is complete up to the highest stamp with no gap below it', () => {
		const t = new StampTracker(4);
		t.see(6);
		expect(t.complete).toBe(4);
		t.see(5);
		expect(t.complete).toBe(6);
		t.see(3);
		t.see(7);
		expect(t.complete).toBe(7);
	});
});

/** Resolves after `engine` has emitted `n` memory events. */
function nextEventCount(engine: Engine, n: number): Promise<void> {
	return new Promise((resolve) => {
		let seen = 0;
		const off = engine.subscribe((e) => {
			if (e.kind === 'memories' && ++seen === n) {
				off();
				resolve();
			}
		});
	});
}

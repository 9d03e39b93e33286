import { describe, expect, it } from 'vitest';
import type { IndexView } from '../../../src/engine/search/view';
import { metadataText } from '../../../src/engine/doc';
import { makeEngine } from './helpers';

describe('metadataText', () => {
	it('keeps labels and names, drops identifiers, session keys, long values and what the content already says', () => {
		const text = metadataText(
			{
				speaker: 'Caroline',
				channel: '#platform',
				id: 'x1',
				dia_id: 'D1:3',
				messageId: 'abc',
				session_id: 's-9',
				session: 'conv-1:S1',
				count: 3,
				nested: { who: 'Mel' },
				blob: 'x'.repeat(201),
				author: 'Ana',
			},
			'Ana: the deploy is on Tuesday',
		);
		expect(text.split(' ').sort()).toEqual(['#platform', 'Caroline']);
		expect(metadataText(undefined, 'x')).toBe('');
	});

	it('lets recall find a turn by a speaker named only in its metadata', async () => {
		const engine = await makeEngine();
		try {
			await engine.store({
				memories: [
					{ content: 'I finally adopted a greyhound, her name is Pepper', metadata: { speaker: 'Daniel' } },
					{ content: 'Biscuit is going to be offended', metadata: { speaker: 'Maya' } },
				],
			});
			const hits = (await engine.recall({ query: 'Daniel', weights: { semantic: 0 } })).results;
			expect(hits[0].memory.content).toBe('I finally adopted a greyhound, her name is Pepper');
			expect(hits[0].components.lexical).toBeGreaterThan(0);
			for (const h of hits.slice(1)) expect(h.components.lexical).toBe(0);
		} finally {
			await engine.close();
		}
	});
});

describe('implied sessions', () => {
	it('group caller-dated memories sharing scope and date, never a batch of undated notes', async () => {
		const engine = await makeEngine();
		try {
			await engine.store({
				memories: [{ content: 'User prefers dark mode' }, { content: 'User works from Lisbon on Fridays and travels a lot for conferences in spring' }],
			});
			const date = '2023-05-08T18:30:00Z';
			await engine.store({
				memories: [
					{ content: 'Maya: dark mode!', timestamp: date, scope: 'chat' },
					{ content: 'Daniel: since when do you care about editor themes and fonts at all', timestamp: date, scope: 'chat' },
				],
			});
			const view = engine.ctx.index as unknown as IndexView;
			const slotOf = async (content: string) => {
				const hit = (await engine.recall({ query: content, limit: 20 })).results.find((r) => r.memory.content === content)!;
				return view.slotOf.get(hit.memory.id)!;
			};
			expect(view.sessionOf(await slotOf('User prefers dark mode'))).toBeUndefined();
			expect(view.sessionOf(await slotOf('Maya: dark mode!'))).toBe(`chat\u0000${new Date(date).toISOString()}`);
			// The short note keeps its whole lexical relevance; the short turn is scaled down.
			const notes = (await engine.recall({ query: 'dark mode', scope: 'default', weights: { semantic: 0 } })).results;
			expect(notes[0].memory.content).toBe('User prefers dark mode');
			expect(notes[0].components.lexical).toBeCloseTo(1, 5);
		} finally {
			await engine.close();
		}
	});
});

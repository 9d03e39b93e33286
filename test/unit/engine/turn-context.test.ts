/**
 * A conversation turn keeps the words of the turn it follows (MemoryRow.context), indexed as a
 * low-weight lexical field: an answer that does not repeat the question is found by its words.
 */
import { describe, expect, it } from 'vitest';
import { CONTEXT_WORDS, turnContext } from '../../../src/engine/doc';
import { LEXICAL_TUNING } from '../../../src/engine/search/lexical';
import { useEngines } from './helpers';

const engines = useEngines();

const at = '2023-05-08T18:30:00.000Z';
const stored = '2026-03-10T12:00:00.000Z';
const turn = (text: string, extra: Record<string, unknown> = {}) => ({ content: text, timestamp: at, scope: 'conv-1', ...extra });

describe('turnContext', () => {
	const prev = { content: 'Daniel: How is your mom doing these days?', timestamp: at, session: 's1' };

	it('keeps the previous turn of the same session, without its speaker label', () => {
		expect(turnContext({ session: 's1', timestamp: at, updated_at: stored }, prev)).toBe('How is your mom doing these days?');
		expect(turnContext({ session: 's1', timestamp: at, updated_at: stored }, { ...prev, content: 'Ana María Sousa: the scan looks clean' })).toBe(
			'the scan looks clean',
		);
	});

	it('keeps only the last CONTEXT_WORDS words', () => {
		const long = Array.from({ length: 60 }, (_, i) => `w${i}`).join(' ');
		const words = turnContext({ session: 's1', timestamp: at, updated_at: stored }, { ...prev, content: long })!.split(' ');
		expect(words).toHaveLength(CONTEXT_WORDS);
		expect(words.at(-1)).toBe('w59');
	});

	it('without a session, groups caller-dated turns of the same date only', () => {
		const noSession = { content: prev.content, timestamp: at };
		expect(turnContext({ timestamp: at, updated_at: stored }, noSession)).toBe('How is your mom doing these days?');
		expect(turnContext({ timestamp: '2023-05-09T10:00:00.000Z', updated_at: stored }, noSession)).toBeUndefined();
		// Notes stored without dates share the write time: not a conversation.
		expect(turnContext({ timestamp: at, updated_at: at }, noSession)).toBeUndefined();
	});

	it('is undefined across sessions, without a previous turn, or when the previous turn is only a label', () => {
		expect(turnContext({ session: 's2', timestamp: at, updated_at: stored }, prev)).toBeUndefined();
		expect(turnContext({ session: 's1', timestamp: at, updated_at: stored }, undefined)).toBeUndefined();
		expect(turnContext({ session: 's1', timestamp: at, updated_at: stored }, { ...prev, content: 'Maya: ' })).toBeUndefined();
	});
});

describe('stored conversation turns', () => {
	const session = { session: 'conv-1:S1' };

	it('an answer that never repeats the question is recalled by the question’s words', async () => {
		const engine = await engines();
		await engine.store({
			memories: [
				turn('Maya: I finally finished the pottery class last week', { metadata: session }),
				turn('Daniel: Nice! Which city does your mom live in these days?', { metadata: session }),
				turn('Maya: Eugene, for thirty years now. She loves the rain', { metadata: session }),
				turn('Daniel: I adopted a retired racing greyhound called Pepper', { metadata: session }),
			],
		});
		const rows = await engine.db.memories.orderBy('seq').toArray();
		expect(rows.map((r) => r.context)).toEqual([
			undefined,
			'I finally finished the pottery class last week',
			'Nice! Which city does your mom live in these days?',
			'Eugene, for thirty years now. She loves the rain',
		]);
		const lexicalOfAnswer = async () => {
			const r = await engine.recall({ query: 'mom city', scope: 'conv-1', limit: 4 });
			return r.results.find((x) => x.memory.content.startsWith('Maya: Eugene'))?.components.lexical ?? 0;
		};
		expect(await lexicalOfAnswer()).toBeGreaterThan(0);
		// Without the context field only the question turn holds those words.
		const saved = LEXICAL_TUNING.context;
		LEXICAL_TUNING.context = 0;
		try {
			expect(await lexicalOfAnswer()).toBe(0);
		} finally {
			LEXICAL_TUNING.context = saved;
		}
	});

	it('a single store after a batch takes its context from the stored turn, kept through a reopen', async () => {
		const engine = await engines();
		await engine.store({ memories: [turn('Daniel: Which city does your mom live in?', { metadata: session })] });
		const out = await engine.store(turn('Maya: Eugene, for thirty years now', { metadata: session }));
		expect((await engine.db.memories.get(out.memory_id!))!.context).toBe('Which city does your mom live in?');
		await engine.close();
		const again = await engines({ dbName: engine.db.name });
		expect(again.indexOrigin).toBe('snapshot');
		const r = await again.recall({ query: 'mom city', scope: 'conv-1', limit: 5 });
		expect(r.results.map((x) => x.memory.id)).toContain(out.memory_id);
	});

	it('a turn stored after the previous one was edited takes the edited words', async () => {
		const engine = await engines();
		const q = await engine.store(turn('Daniel: Which city does your mom live in?', { metadata: session }));
		await engine.update({ memory_id: q.memory_id!, content: 'Daniel: Which town does your mother live in?' });
		const a = await engine.store(turn('Maya: Eugene, for thirty years now', { metadata: session }));
		expect((await engine.db.memories.get(a.memory_id!))!.context).toBe('Which town does your mother live in?');
	});

	it('imported turns get the context of the turn before them in the file', async () => {
		const engine = await engines();
		const memories = [
			{ id: 'q', content: 'Daniel: Which city does your mom live in?', timestamp: at, metadata: session },
			{ id: 'a', content: 'Maya: Eugene, for thirty years now', timestamp: at, metadata: session },
			{ id: 'other', content: 'Priya: My grandmother visits in June', timestamp: at, metadata: { session: 'conv-2:S1' } },
		];
		await engine.importMemories({ format: 'json', data: JSON.stringify({ memories }) });
		const rows = await engine.db.memories.bulkGet(['q', 'a', 'other']);
		expect(rows.map((r) => r!.context)).toEqual([undefined, 'Which city does your mom live in?', undefined]);
	});

	it('an export carries each turn’s context and an import keeps it, the first turn of a batch included', async () => {
		const engine = await engines();
		await engine.store({
			memories: [
				turn('Daniel: Which city does your mom live in?', { metadata: session }),
				turn('Maya: Eugene, for thirty years now', { metadata: session }),
			],
		});
		const exported = await engine.exportMemories({ format: 'json' });
		const answer = JSON.parse(exported.data).memories[1];
		expect(answer.context).toBe('Which city does your mom live in?');
		const other = await engines();
		await other.importMemories({ format: 'json', data: JSON.stringify({ memories: [answer] }) });
		expect((await other.db.memories.get(answer.id))!.context).toBe('Which city does your mom live in?');
	});

	it('notes that are not conversation turns keep no context', async () => {
		const engine = await engines();
		await engine.store({ content: 'The office wifi password changes monthly' });
		await engine.store({ content: 'Invoices are sent on the first of the month' });
		expect((await engine.db.memories.toArray()).map((r) => r.context)).toEqual([undefined, undefined]);
	});
});

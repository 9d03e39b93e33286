/**
 * Chat exports as their services write them today, every piece of text accounted for: ChatGPT's
 * branches (edits, regenerations), custom instructions, images and tool messages; Claude's
 * attachments (an attached file or a long paste, held only as extracted text), artifacts and
 * uploaded files. Fixtures: test/fixtures/imports/chatgpt-branches.json, claude-attachments.json.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../../src/engine/import-formats';
import { bundleFromJson } from '../../../src/ui/transfer';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'imports');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

describe('ChatGPT export', () => {
	const b = parseJson(fixture('chatgpt-branches.json'));

	it('keeps the custom instructions the person wrote, once each, as their words', () => {
		const about = b.memories.filter((m) => m.value.summary?.startsWith('ChatGPT custom instructions'));
		expect(about.map((m) => [m.value.summary, m.value.content, m.value.metadata?.speaker])).toEqual([
			['ChatGPT custom instructions: about me', 'I am a nurse in Porto.', 'user'],
			['ChatGPT custom instructions: how to respond', 'Answer in British English.', 'user'],
		]);
		// The same instructions in a second conversation are not a second memory.
		const doc = JSON.parse(fixture('chatgpt-branches.json')) as object[];
		const twice = parseJson(JSON.stringify([doc[0], { ...doc[0], conversation_id: 'other', id: 'other' }]));
		expect(twice.memories.filter((m) => m.value.summary?.startsWith('ChatGPT custom')).map((m) => m.value.id)).toEqual(about.map((m) => m.value.id));
	});

	it('imports the branch the conversation ended on and counts every message it leaves out, by why', () => {
		const turns = b.memories.filter((m) => !m.value.summary);
		expect(turns.map((m) => m.value.content)).toEqual([
			'Plan a 3-day trip to Lisbon for me.',
			'Day 1: Alfama. Day 2: Sintra. Day 3: Cascais.',
			'What about Óbidos instead of Cascais?',
			'Here is a photo of the castle — is it open on Mondays?',
			'search("Óbidos castle opening hours")',
			'Yes, the castle is open every day, 9:30–18:00.\nSwap Day 3 for Óbidos.',
		]);
		// The search ChatGPT ran is kept, saying it went to the browser tool, not to the person.
		expect(turns[4].value.metadata).toMatchObject({ speaker: 'assistant', chatgpt: { message_id: 'code', recipient: 'browser' } });
		expect(turns[5].value.metadata).not.toHaveProperty('chatgpt.recipient');
		// 14 nodes: the empty root, 8 turns and the 2 custom-instruction memories (one message),
		// 3 off the branch, and the system, tool and empty messages.
		expect(b.notImported.list().map((n) => n.text)).toEqual([
			'3 messages on other branches: earlier versions of edited messages and regenerated answers (only the branch each conversation ended on is imported)',
			'3 system, tool, hidden or empty messages (not something anyone said)',
			'1 attached image or file whose content the export does not hold (only the name)',
		]);
	});

	it('the Import screen reads it the same way', () => {
		const ui = bundleFromJson(fixture('chatgpt-branches.json'));
		expect(ui?.memories.map((m) => m.rec.content)).toEqual(b.memories.map((m) => m.value.content));
		expect(ui?.notImported.map((n) => n.text)).toEqual(b.notImported.list().map((n) => n.text));
	});
});

describe('Claude export', () => {
	const b = parseJson(fixture('claude-attachments.json'));

	it("keeps an attached file's and a pasted text's content as turns of their own, and the artifacts Claude wrote", () => {
		expect(b.errors.count).toBe(0);
		expect(b.memories.map((m) => [m.value.id, m.value.metadata?.speaker, m.value.content])).toEqual([
			['claude-m1', 'user', "Here is my grandmother's recipe, can you scale it to 2 loaves?"],
			['claude-m1-attachment-1', 'user', '500 g flour\n350 g water\n10 g salt\n3 g yeast'],
			['claude-m2', 'assistant', 'For 2 loaves: 1 kg flour, 700 g water, 20 g salt, 6 g yeast.'],
			['claude-m2-artifact-3', 'assistant', '# Two loaves\n1 kg flour'],
			['claude-m3-attachment-1', 'user', 'PASTED: oven is 230 °C fan, 35 minutes'],
		]);
		expect(b.memories[1].value.metadata).toMatchObject({ claude: { message_id: 'm1', attachment: 'recipe.txt', conversation: 'Bread recipe' } });
		expect(b.memories[4].value.metadata).toMatchObject({ claude: { attachment: 'pasted text' } });
		expect(b.memories[4].value.timestamp).toBe('2024-06-02T08:01:00.000Z');
		// Turns in order, each linked to the one before.
		expect(b.associations.map((a) => [a.value.from, a.value.to])).toEqual([
			['claude-m1-attachment-1', 'claude-m1'],
			['claude-m2', 'claude-m1-attachment-1'],
			['claude-m2-artifact-3', 'claude-m2'],
			['claude-m3-attachment-1', 'claude-m2-artifact-3'],
		]);
	});

	it('says an uploaded image is not in the export and reasoning is left out, and calls no pasted message "not something anyone said"', () => {
		expect(b.notImported.list().map((n) => n.text)).toEqual([
			'1 attached image or file whose content the export does not hold (only the name)',
			"1 passage of Claude's reasoning (thinking), which is not part of its answers",
		]);
	});
});

describe('a message that starts with indented code', () => {
	const code = '    if ready:\n        start()\n    done()';

	it('keeps its first line indented as the rest (ChatGPT message, Claude message, attachment and artifact)', () => {
		const chatgpt = parseJson(
			JSON.stringify([
				{
					id: 'c1',
					title: 'code',
					mapping: {
						n1: {
							id: 'n1',
							message: {
								id: 'm1',
								author: { role: 'user' },
								create_time: 1_700_000_000,
								content: { content_type: 'text', parts: [`\n\n${code}\n\n`] },
							},
						},
					},
				},
			]),
		);
		expect(chatgpt.memories.map((m) => m.value.content)).toEqual([code]);
		const claude = parseJson(
			JSON.stringify([
				{
					uuid: 'k1',
					name: 'code',
					chat_messages: [
						{
							uuid: 'u1',
							sender: 'human',
							text: `${code}\n`,
							created_at: '2024-01-01T00:00:00Z',
							attachments: [{ file_name: 'a.py', extracted_content: `\n${code}` }],
							content: [{ type: 'tool_use', input: { title: 'doc', content: `${code}  \n` } }],
						},
					],
				},
			]),
		);
		expect(claude.memories.map((m) => m.value.content)).toEqual([code, code, code]);
	});
});

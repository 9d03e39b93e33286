/**
 * A chat export as it arrives: ChatGPT and Claude send a .zip (conversations.json beside chat.html,
 * users.json and images). It was read as a zip of notes and imported nothing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { chatExportInZip, unzipNotes } from '../../../src/ui/transfer';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'imports');

describe('chatExportInZip', () => {
	it("finds the conversations.json of ChatGPT's zip, beside chat.html and images", () => {
		const chats = readFileSync(join(FIXTURES, 'chatgpt-branches.json'), 'utf8');
		const zip = zipSync({
			'chat.html': strToU8('<html></html>'),
			'user.json': strToU8('{"id":"u"}'),
			'file-abc.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]),
			'conversations.json': strToU8(chats),
		});
		expect(chatExportInZip(zip)).toEqual({ path: 'conversations.json', text: chats });
	});

	it("finds Claude's in a folder, and leaves a zip of notes (or a conversations.json that is no chat) to be notes", () => {
		const claude = readFileSync(join(FIXTURES, 'claude-attachments.json'), 'utf8');
		expect(chatExportInZip(zipSync({ 'data-2024/conversations.json': strToU8(claude), 'data-2024/users.json': strToU8('[]') }))?.path).toBe(
			'data-2024/conversations.json',
		);
		const notes = zipSync({ 'vault/a.md': strToU8('# A'), 'vault/conversations.json': strToU8('{"not": "chats"}') });
		expect(chatExportInZip(notes)).toBeUndefined();
		expect(unzipNotes(notes).map((n) => n.path)).toEqual(['vault/a.md', 'vault/conversations.json']);
	});
});

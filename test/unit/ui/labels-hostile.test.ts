/**
 * Text an agent wrote, as the page shows it: characters that reorder (bidi embeddings,
 * overrides, isolates), hide (zero-width, marks, soft hyphen) or break lines are shown as their
 * code point, never obeyed, and long labels are cut with the whole value kept for a title.
 */
import { describe, expect, it } from 'vitest';
import { preview, revealBidi, revealHidden, shortLabel } from '../../../src/ui/format';
import { clientText } from '../../../src/mcp/agent-tracker';
import { titleOf } from '../../../src/ui/words';
import { highlight } from '../../../src/ui/highlight';
import { aroundMemory } from '../../../src/ui/graph-data';
import type { EngineProxy } from '../../../src/ui/state/engine-proxy';

describe('revealHidden (tags, scopes, sources, entity names, client names)', () => {
	it('shows a right-to-left override instead of obeying it ("xexe.jpg" spoof)', () => {
		expect(revealHidden('x\u202Egpj.exe')).toBe('x⟨U+202E⟩gpj.exe');
	});

	it('shows every bidi embedding, override, isolate and mark', () => {
		for (const c of ['\u202A', '\u202B', '\u202C', '\u202D', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C'])
			expect(revealHidden(`a${c}b`)).toMatch(/^a⟨U\+[0-9A-F]{4}⟩b$/);
	});

	it('shows zero-width and invisible characters, so two tags that differ never look the same', () => {
		expect(revealHidden('zero\u200Bwidth')).toBe('zero⟨U+200B⟩width');
		expect(revealHidden('\uFEFFbom\u2060\u00AD')).toBe('⟨U+FEFF⟩bom⟨U+2060⟩⟨U+00AD⟩');
	});

	it('shows line breaks and other controls', () => {
		expect(revealHidden('new\nline\r\t\u0000\u0085')).toBe('new⟨U+000A⟩line⟨U+000D⟩⟨U+0009⟩⟨U+0000⟩⟨U+0085⟩');
	});

	it('keeps what real names need: accents, right-to-left letters, ZWJ emoji, ZWNJ', () => {
		for (const s of ['café', 'مرحبا بالعالم', 'שלום', '👩\u200D💻', 'می\u200Cخواهم', '中文'] as const) expect(revealHidden(s)).toBe(s);
	});
});

describe('revealBidi (Markdown content, history details)', () => {
	it('shows bidi controls but keeps line breaks, tabs and RLM', () => {
		expect(revealBidi('a\u202Eb\nc\td\u200Fe\u2067f')).toBe('a⟨U+202E⟩b\nc\td\u200Fe⟨U+2067⟩f');
	});
});

describe('shortLabel', () => {
	it('cuts a 10,000-character label and keeps the whole one (revealed) for the title', () => {
		const { text, title } = shortLabel('C'.repeat(10_000) + '\u202E', 60);
		expect(text).toHaveLength(60);
		expect(text.endsWith('…')).toBe(true);
		expect(title).toBe('C'.repeat(10_000) + '⟨U+202E⟩');
	});

	it('leaves a short label whole', () => {
		expect(shortLabel('claude-code', 60)).toEqual({ text: 'claude-code', title: 'claude-code' });
	});
});

describe('preview', () => {
	it('reveals a summary that reverses itself', () => {
		expect(preview({ summary: '\u202Eevil\u202C summary', content: '' })).toBe('⟨U+202E⟩evil⟨U+202C⟩ summary');
	});
	it('reveals bidi controls in content previews', () => {
		expect(preview({ content: 'pay \u202E0001$ to alice' })).toBe('pay ⟨U+202E⟩0001$ to alice');
	});
});

describe('titleOf (links, history, toasts, graph labels)', () => {
	it('reveals a summary that reverses itself', () => {
		expect(titleOf({ summary: '\u202Eevil', content: '' })).toBe('⟨U+202E⟩evil');
	});
});

describe('highlight (search results)', () => {
	it('reveals bidi controls in the text it splits, with or without matches', () => {
		expect(highlight('pay \u202E0001$ now', [])).toEqual([{ text: 'pay ⟨U+202E⟩0001$ now', match: false }]);
		expect(highlight('pay \u202E0001$ now', ['pay'])).toEqual([
			{ text: 'pay', match: true },
			{ text: ' ⟨U+202E⟩0001$ now', match: false },
		]);
	});
});

describe('clientText (MCP clientInfo as the tracker records it)', () => {
	it('reveals hidden characters and line breaks in a client name', () => {
		expect(clientText('multi\nline\u202Eeman', 200)).toBe('multi⟨U+000A⟩line⟨U+202E⟩eman');
	});
	it('caps a 10,000-character name at the limit, with an ellipsis', () => {
		const s = clientText('C'.repeat(10_000), 200);
		expect(s).toHaveLength(200);
		expect(s.endsWith('…')).toBe(true);
	});
	it('never cuts a surrogate pair in half', () => {
		const s = clientText('a' + '😀'.repeat(200), 100);
		expect(s.isWellFormed()).toBe(true);
	});
});

describe('the graph view', () => {
	it("shows a tag's hidden characters in a memory's hover card, as the list does", async () => {
		const memory = { id: 'm1', type: 'Context', content: 'Quarterly report', summary: undefined, tags: ['x\u202Egpj.exe'], entities: [] };
		const engine = {
			getMemories: async (ids: string[]) => ids.map((id) => (id === 'm1' ? memory : undefined)),
			associationsOf: async () => [],
		} as unknown as EngineProxy;
		const g = await aroundMemory(engine, 'm1', { maxNodes: 10, entities: false, systemLinks: false, depth: 1 });
		const node = g.nodes.find((n) => n.id === 'm1');
		expect(node?.detail).toContain('#x⟨U+202E⟩gpj.exe');
		expect(node?.detail).not.toContain('\u202E');
	});
});
